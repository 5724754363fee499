"""Rules at hand: a short rules reference per game, one page per section.

What lives where:

- Each game's adapter (``shelf/<slug>/web.py``) declares its ``sections``: the ordered
  sections of its reference, each with the sections of ``shared/rules/<game>.md`` it summarises
  (shown small on the page, for traceability) and the table options that change what it says; and
  its ``refusals``: every refusal code its engine raises, mapped to the section that explains the
  rule behind it (``"cards#card-7"`` names an anchor in a section). :data:`NOT_A_RULE` lists the few codes that refuse malformed input (a
  broken payload, edition file or option) rather than a move the rules forbid: they
  have no section. ``tests/web/test_rulebook.py`` scans the engines' source for codes
  and fails on any code that is in neither.
- :func:`step_section`: the section that explains the current step of a prompt (a war,
  an auction, a split 7, the Ghost Captain...), for the prompt's "How does this work?" link,
  from the adapter's ``step_sections`` (or its ``step_section`` function).
- The prose itself: one plain-text file per game and language, in the game's folder,
  ``shelf/<slug>/rules_at_hand/<lang>.txt`` (format in :func:`parse`).

Why files and not catalogue strings: the sections are paragraphs, not labels. A
translator reads and writes a whole section at once, beside the English file, and a
wording fix in one language never turns the three others into fuzzy entries (as a
changed ``msgid`` would); the files diff and review as prose. What the page adds around
the prose (headings, "At this table", "Why? Read the rule") is short and goes through
the catalogues like every other string. The rule options shown "at this table" reuse
the options' own translated help texts, so they always say what the lobby said.

No Django model or engine is touched here; engines never import this module.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.urls import reverse

from games.engines import REGISTRY, get_adapter, home
from games.engines.adapter import Section

LANGUAGES = ("en", "fa", "az", "ps")


# Codes that refuse malformed input (a broken payload, state, option or edition file, an unknown seat or
# location typed into the API): no rule of the game explains them, so they get no "Why?" link.
NOT_A_RULE = frozenset({
    "bad_action", "bad_payload", "unknown_action", "too_deep", "too_large", "nul_character", "bad_text",
    "bad_state", "bad_position", "bad_location", "bad_board", "bad_edition", "bad_option",
    "bad_seat", "no_such_seat", "bad_pawn", "outcome_from_server", "bad_start",
})

def sections(slug: str) -> tuple[Section, ...]:
    """The sections of ``slug``'s reference, in reading order (its adapter's); ``KeyError`` for an unknown game."""
    return get_adapter(slug).sections


def section(slug: str, key: str) -> Section | None:
    """One section by its key, or ``None``."""
    if slug not in REGISTRY:
        return None
    return next((s for s in sections(slug) if s.key == key), None)


def url(slug: str, target: str, table_code: str | None = None) -> str:
    """The page of ``target`` (``"key"`` or ``"key#anchor"``), with ``?t=CODE`` for a table's own options."""
    key, _, anchor = target.partition("#")
    path = reverse("games:rules_section", args=[slug, key])
    if table_code:
        path += f"?t={table_code}"
    return path + (f"#{anchor}" if anchor else "")


def refusal_section(slug: str, code: str) -> str | None:
    """The section (``"key"`` or ``"key#anchor"``) a refusal ``code`` of game ``slug`` cites, or ``None``."""
    return get_adapter(slug).refusals.get(code) if slug in REGISTRY else None


def rule_url(slug: str, code: str, table_code: str | None = None) -> str | None:
    """The "Why? Read the rule" link of a refusal, or ``None`` when no rule explains ``code`` (bad input)."""
    target = refusal_section(slug, code)
    return url(slug, target, table_code) if target else None


def step_section(slug: str, prompt: Mapping[str, Any] | None) -> str | None:
    """The section explaining the current step of ``prompt`` (``Prompt.as_json()``), or ``None`` for a plain turn."""
    if not prompt:
        return None
    adapter = get_adapter(slug)
    if adapter.step_section is not None:
        return adapter.step_section(prompt)
    return adapter.step_sections.get(prompt.get("step") or "")


def step_url(slug: str, prompt: Mapping[str, Any] | None, table_code: str | None = None) -> str | None:
    """The "How does this work?" link of the current step, or ``None``."""
    target = step_section(slug, prompt)
    return url(slug, target, table_code) if target else None


# -- the prose files ------------------------------------------------------------------------------

_HEADER = re.compile(r"^== ([a-z0-9_-]+): (.+)$")
_ANCHOR = re.compile(r"^\[#([a-z0-9-]+)\]\s*")
_BOLD = re.compile(r"\*\*(.+?)\*\*")


@dataclass
class Text:
    """One section's prose in one language: its title and blocks of safe HTML (``<p>`` or ``<ul>``)."""

    title: str
    blocks: list[str] = field(default_factory=list)


def _inline(raw: str) -> str:
    """Escape ``raw`` and turn ``**word**`` into ``<strong>``; an opening ``[#id]`` becomes an ``id``."""
    return _BOLD.sub(r"<strong>\1</strong>", html.escape(raw.strip(), quote=True))


def _anchored(tag: str, raw: str) -> str:
    match = _ANCHOR.match(raw)
    if match:
        return f'<{tag} id="{match.group(1)}">{_inline(raw[match.end():])}</{tag}>'
    return f"<{tag}>{_inline(raw)}</{tag}>"


def parse(text: str) -> dict[str, Text]:
    """Sections of one language file: ``key -> Text``.

    Format: a header line ``== key: Title`` opens a section; below it, blocks separated
    by blank lines: a paragraph (its lines are joined), or a list whose items start with
    ``- `` (a longer item continues on indented lines). ``**word**`` is bold; a block or
    item may start with ``[#anchor]`` to be the target of a link. Everything else is
    text: HTML is escaped. Lines starting with ``#`` are translator notes and skipped.
    """
    out: dict[str, Text] = {}
    current: Text | None = None
    block: list[str] = []

    def flush() -> None:
        if current is None or not block:
            block.clear()
            return
        if block[0].startswith("- "):
            items: list[str] = []
            for line in block:
                if line.startswith("- "):
                    items.append(line[2:])
                else:
                    items[-1] += " " + line.strip()
            current.blocks.append("<ul>" + "".join(_anchored("li", i) for i in items) + "</ul>")
        else:
            current.blocks.append(_anchored("p", " ".join(x.strip() for x in block)))
        block.clear()

    for line in text.splitlines():
        if line.startswith("#"):
            continue
        header = _HEADER.match(line)
        if header:
            flush()
            current = out[header.group(1)] = Text(header.group(2).strip())
        elif not line.strip():
            flush()
        else:
            block.append(line.rstrip())
    flush()
    return out


@functools.lru_cache(maxsize=32)
def texts(slug: str, lang: str) -> dict[str, Text]:
    """The parsed file of ``slug`` in ``lang`` (``{}`` when the file is missing)."""
    path = rules_file(slug, lang)
    if path is None:
        return {}
    return parse(path.read_text(encoding="utf-8"))


def rules_file(slug: str, lang: str) -> Path | None:
    """``rules_at_hand/<lang>.txt`` in game ``slug``'s folder (``shelf/<slug>/``, from the registry), or ``None``."""
    try:
        path = home(slug) / "rules_at_hand" / f"{lang}.txt"
    except (KeyError, ImportError):  # no such game, or its package is missing
        return None
    return path if path.exists() else None


def text(slug: str, key: str, lang: str) -> Text | None:
    """One section's prose in ``lang``, falling back to English (a missing translation is a failing test)."""
    base = lang.split("-")[0]
    return texts(slug, base).get(key) or texts(slug, "en").get(key)
