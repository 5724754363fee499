"""One home per game: a game is one folder and one registry line; the platform never names a game.

A game lives in its folder, ``shelf/<slug>/`` (``shelf/__init__.py``): the engine, ``web.py`` (its
:class:`~games.engines.adapter.WebAdapter`), its templates (``templates/<slug>/``), its stylesheet and scripts
(``static/<slug>/``), its rules at hand (``rules_at_hand/<lang>.txt``), its own words (``locale/``) and the
Django side of its edition editor if it has one (``editor.py``); and one line of ``games.engines.REGISTRY``.
Every other file (the platform: ``games/``, ``companion/``, ``templates/``, ``static/``, ``locale/``) asks
the registry; a slug there, as a word, a path or a ``slug ==``, means a game's data or a decision about one
game leaked into shared code, and the next game would have to edit it too. Prose that names a game by its
title ("Yellow & Yangtze") is not a slug.
"""

from __future__ import annotations

import dataclasses
import importlib
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template import engines
from django.urls import reverse

from games.engines import REGISTRY, adapters, available_slugs, get_game_class, home, package, packages
from games.engines.adapter import Section, WebAdapter
from games.read.presenters import board_template
from games.read.rulebook import LANGUAGES, rules_file
from games.templatetags.companion import game_filters
from tests.registry import GAMES

ROOT = Path(settings.BASE_DIR)
SLUGS = available_slugs()
#: The platform's folders: everything a new game must not have to touch.
PLATFORM = ("games", "companion", "templates", "static", "locale")
TEXT = {".py", ".html", ".jinja", ".txt", ".css", ".js", ".po", ".md", ".json", ".toml", ".cfg"}
# A registered slug as a word of its own, or a decision taken on a slug.
LEAK = re.compile(r"\b(?:" + "|".join(map(re.escape, SLUGS)) + r")\b|\bslug\s*[!=]=")
#: The one place a slug is written: its registry line (``"<slug>": "shelf.<slug>:Class",``).
REGISTRY_FILE = ROOT / "games" / "engines" / "__init__.py"
REGISTRY_LINE = re.compile(r'^\s*"(\w+)": "shelf\.\1:\w+",$')


def _platform_files() -> list[Path]:
    """Every text file of the platform's folders (caches and binaries aside)."""
    return sorted(path for folder in PLATFORM for path in (ROOT / folder).rglob("*")
                  if path.is_file() and path.suffix in TEXT and "__pycache__" not in path.parts)


def _leaks(path: Path) -> list[str]:
    """The lines of a platform file that name a registered game (a ``.po`` file's ``#:`` lines are where
    makemessages found a shared word, in the games' folders too: they name no game for the platform)."""
    found = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if path == REGISTRY_FILE and REGISTRY_LINE.match(line):
            continue
        if path.suffix == ".po" and line.startswith("#:"):
            continue
        if LEAK.search(line):
            found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    return found


def test_the_platform_names_no_game():
    files = _platform_files()
    assert len(files) > 80, "the scan must see the platform's modules, templates, stylesheets and catalogues"
    leaks = [leak for path in files for leak in _leaks(path)]
    assert not leaks, "a game is named outside its own home:\n" + "\n".join(leaks)


def test_no_file_of_a_game_sits_in_a_platform_folder():
    """A template folder, stylesheet, script, rules text, editor or catalogue named after a game, outside it."""
    strays = [str(path.relative_to(ROOT)) for folder in PLATFORM for path in (ROOT / folder).rglob("*")
              if "__pycache__" not in path.parts
              and any(part in SLUGS or Path(part).stem in SLUGS for part in path.relative_to(ROOT).parts)]
    assert not strays, "a game's file outside its folder (shelf/<slug>/):\n" + "\n".join(strays)


def test_the_scan_finds_a_game_named_in_shared_code():
    assert LEAK.search('    if table.slug == "x":')
    assert all(LEAK.search(f'STATIC = {{"{slug}": ("layout",)}}') for slug in SLUGS)
    assert all(LEAK.search(f'render(request, "{slug}/board.html")') for slug in SLUGS)
    assert not LEAK.search("yellow tiles; slug = table.slug")
    assert all(REGISTRY_LINE.match(f'    "{slug}": "{line}",') for slug, line in REGISTRY.items())
    assert not REGISTRY_LINE.match('    "sorry": "shelf.other:SorryGame",')


def test_the_registry_packages_are_the_folders_of_the_shelf():
    """A folder of shelf/ is a game of the registry, and a game of the registry is a folder of shelf/ (the
    ``engines-independent`` import contract names ``shelf.*``: each is one game that stands alone)."""
    shelf = ROOT / "shelf"
    folders = {f"shelf.{p.name}" for p in shelf.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert set(packages()) == folders
    assert all(package(slug) == f"shelf.{slug}" for slug in REGISTRY), "a game's folder is named by its slug"
    assert {app for app in packages() if app in settings.INSTALLED_APPS} == folders, "each game is an installed app"


@pytest.mark.parametrize("slug", GAMES)
def test_every_file_of_a_game_is_in_its_folder(slug):
    """Its templates, rules at hand, stylesheet and editor are found in ``home(slug)``, where Django finds them."""
    folder = home(slug)
    assert package(slug) in settings.INSTALLED_APPS, "the game's folder is an installed app"
    name = board_template(slug)
    board = Path((engines["jinja2"] if name.endswith(".jinja") else engines["django"]).get_template(name).origin.name)
    assert board.is_relative_to(folder / "templates" / slug)
    for lang in LANGUAGES:
        assert rules_file(slug, lang) == folder / "rules_at_hand" / f"{lang}.txt"
    for catalogue in folder.glob("locale/*/LC_MESSAGES/django.po"):
        assert catalogue.with_suffix(".mo").exists()
    assert {p.name for p in (folder / "templates").iterdir()} == {slug}, "templates/<slug>/ only"
    if (folder / "static").exists():
        assert {p.name for p in (folder / "static").iterdir()} == {slug}, "static/<slug>/ only"
    for editor in adapters()[slug].editors:
        module = importlib.import_module(editor.view.partition(":")[0], package(slug))
        assert Path(module.__file__) == folder / "editor.py", "a game's Django view is its editor.py"


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

