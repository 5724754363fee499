"""One home per game: the platform never names a game, and every game declares all it needs in its adapter.

A game lives in its engine package (``games/engines/<slug>/``: the engine and ``web.py``, its
:class:`~games.engines.adapter.WebAdapter`), its templates (``templates/games/<slug>/``), its rules at hand
(``templates/games/rules/<slug>/``), its stylesheet (``static/css/<slug>.css``), the Django side of its
edition editor if it has one (``games/editors/<slug>.py``) and one registry line. Every other module of
the platform asks the registry; a slug or a ``slug ==`` there means a game's data or a decision about one
game leaked into shared code, and the next game would have to edit it too.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from games.engines import adapters, available_slugs, get_game_class
from games.engines.adapter import Section, WebAdapter
from games.templatetags.companion import game_filters
from tests.registry import GAMES

ROOT = Path(settings.BASE_DIR)
SLUGS = available_slugs()
# A registered slug as a word of its own, or a decision taken on a slug.
LEAK = re.compile(r"\b(?:" + "|".join(map(re.escape, SLUGS)) + r")\b|\bslug\s*[!=]=")


def _platform_files() -> list[Path]:
    """The shared modules and templates: everything a new game must not have to touch."""
    games = ROOT / "games"
    engines, editors = games / "engines", games / "editors"
    files = [p for p in games.rglob("*.py") if not p.is_relative_to(editors) and "migrations" not in p.parts
             and (not p.is_relative_to(engines) or p.parent == engines) and p != engines / "__init__.py"]  # the registry
    files += (ROOT / "companion").rglob("*.py")
    own = {ROOT / "templates" / "games" / slug for slug in SLUGS}
    own |= {ROOT / "templates" / "games" / "rules" / slug for slug in SLUGS}
    for path in (ROOT / "templates").rglob("*"):
        if path.suffix in (".html", ".jinja", ".txt") and not any(path.is_relative_to(home) for home in own):
            files.append(path)
    files += [p for p in (ROOT / "static" / "css").glob("*.css") if p.stem not in SLUGS]
    files += (ROOT / "static" / "js").glob("*.js")
    return sorted(files)


def test_the_platform_names_no_game():
    files = _platform_files()
    assert len(files) > 40, "the scan must see the platform's modules and templates"
    leaks = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for path in files for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if LEAK.search(line)]
    assert not leaks, "a game is named outside its own home:\n" + "\n".join(leaks)


def test_the_scan_finds_a_game_named_in_shared_code():
    assert LEAK.search('    if table.slug == "x":')
    assert all(LEAK.search(f'STATIC = {{"{slug}": ("layout",)}}') for slug in SLUGS)
    assert not LEAK.search("yellow tiles; slug = table.slug")


@pytest.mark.parametrize("slug", GAMES)
def test_every_game_has_a_complete_adapter(slug):
    adapter = adapters()[slug]
    game = get_game_class(slug)
    assert isinstance(adapter, WebAdapter)
    assert adapter.sections and all(isinstance(s, Section) for s in adapter.sections)
    keys = {s.key for s in adapter.sections}
    assert {t.partition("#")[0] for t in adapter.refusals.values()} <= keys
    assert {t.partition("#")[0] for t in adapter.step_sections.values()} <= keys
    for code in ("not_your_turn", "wrong_step", "game_over", "seat_count"):
        assert code in adapter.refusals, f"{slug}: the base engine's {code} has no section"
    options = {spec.name for spec in game.option_specs} - {"components"}
    assert options <= set(adapter.option_words), f"{slug}: options without lobby words"
    assert "title" in adapter.glossary, f"{slug}: the glossary names no box"
    for editor in adapter.editors:
        assert reverse(f"games:{slug}_{editor.path}") == f"/editions/{slug}/{editor.path}/"


REQUIRED = [f.name for f in dataclasses.fields(WebAdapter) if f.default is dataclasses.MISSING
            and f.default_factory is dataclasses.MISSING]


def test_the_required_fields_are_the_ones_no_page_can_do_without():
    assert REQUIRED == ["sections", "refusals", "option_words", "glossary"]


@pytest.mark.parametrize("missing", REQUIRED)
def test_an_adapter_without_a_required_field_fails_naming_it(missing):
    complete = {"sections": (Section("goal", "1"),), "refusals": {}, "option_words": {}, "glossary": {}}
    del complete[missing]
    with pytest.raises(TypeError, match=rf"\b{missing}\b"):
        WebAdapter(**complete)


def test_every_game_filter_has_one_name():
    layout, words = game_filters()
    declared = [name for adapter in adapters().values()
                for name in [*adapter.template_filters, *adapter.template_words]]
    assert sorted(declared) == sorted([*layout, *words])

