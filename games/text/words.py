"""Engine sentences in the reader's words: terms translated, names and Latin runs isolated.

An engine's ``LogLine`` holds an English template and plain details
(``{"name": "Alice", "colour": "black"}``). :func:`show` fills it for the
active language:

* a detail value that is one of the game's **terms** (colours, resources,
  tile kinds: :data:`games.text.colours.COLOUR_NAMES` plus each engine class's
  ``terms``) is written in the reader's word for it, also inside a
  comma-joined list (``"black, red"``);
* a player name, and any other value written in the other script than the
  page's (``Sorry!`` in a Persian sentence), is wrapped in Unicode isolates
  (FSI … PDI), so a right-to-left line never reads "!Sorry" and a name never
  drags its neighbours' punctuation across;
* lists are joined with the language's comma (``،`` in Persian and Pashto), and a
  template's own Latin comma or semicolon between two placeholders (an engine's
  ``"{p0}; {p1}"``) becomes the language's (``؛``);
* in a right-to-left language a negative number is isolated too, so its minus
  stays on the number's left (``-۳``, not ``۳-``). Other numbers are left bare:
  digits are weak (European-number class), and once the names around them are
  isolated the bidi algorithm places them where the sentence puts them (its
  search for a number's context does not look inside an isolate).

These isolates are for sentences people read: pages, websocket frames and the
API's messages (plain text, where FSI … PDI is the way to isolate). Data exports
(CSV, BG Stats) never go through :func:`show` and carry names as typed.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import get_language_bidi, gettext, gettext_noop, pgettext

from games.engines.base import fill
from games.text.colours import COLOUR_NAMES

FSI, PDI = "\u2068", "\u2069"
NAME_KEYS = frozenset({"name", "names", "who", "winner", "winners", "proposer", "mover", "by", "owner", "player",
                       "players", "attacker", "defender", "loser", "first", "second", "leader_owner", "title",
                       "owners"})
# Name keys that hold a comma-joined list of names (the engines join them with ", ").
LIST_KEYS = frozenset({"names", "winners", "players", "owners", "winner"})
_LATIN = re.compile(r"[A-Za-zÀ-ɏ]")
_RTL = re.compile(r"[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")


@functools.cache
def terms() -> dict[str, str]:
    """Every term value an engine puts in a sentence, mapped to its English msgid (``{"cutlass": "cutlass"}``)."""
    from games.engines import REGISTRY, get_game_class

    found = {**COLOUR_NAMES, **EDITION_NAMES}
    for slug in REGISTRY:
        try:
            found.update(getattr(get_game_class(slug), "terms", {}) or {})
        except (ImportError, AttributeError):
            continue
    return found


def list_separator() -> str:
    """The comma that joins a list in the active language."""
    return "، " if get_language_bidi() else ", "


#: Between the parts of a status line ("Your turn — 1 of 2 actions left"), in every language: a dash, because a
#: middle dot or a full stop beside a number reads as a digit (the Persian and Pashto zero is a dot: "· ۱" reads
#: "۰۱"), and a bar reads as a one. Every status line and every msgid that joins parts writes this, and only this.
PART_SEPARATOR = " — "


def part_separator() -> str:
    """The separator between two parts of a status line (:data:`PART_SEPARATOR`), the same in every language."""
    return PART_SEPARATOR


def clause_separator() -> str:
    """The semicolon that joins lists of lists (rounds of a start draw) in the active language."""
    return "؛ " if get_language_bidi() else "; "


def names_list(names: list[str]) -> str:
    """``names`` for a plain-text sentence: each isolated where its script differs from the page's, joined with the
    language's comma (``FSI Emma PDI، گلالۍ`` on a Persian page)."""
    return list_separator().join(isolate(str(name)) for name in names)


_BETWEEN = re.compile(r"\}([;,]) (?=\{)")


def punctuate(template: str) -> str:
    """A translated template with its Latin ``,`` / ``;`` between two placeholders in the language's punctuation."""
    if not get_language_bidi():
        return template
    return _BETWEEN.sub(lambda m: "}" + ("؛" if m.group(1) == ";" else "،") + " ", template)


def isolate(value: str) -> str:
    """``value`` in FSI … PDI when it is written in the other direction than the page (else as it is)."""
    other = _LATIN.search(value) if get_language_bidi() else _RTL.search(value)
    return f"{FSI}{value}{PDI}" if other and not value.startswith(FSI) else value


def translated(msgid: str) -> str:
    """``msgid`` in the active language; ``"context\x04message"`` (gettext's own joining of a context and its
    message: the Sorry! card is "Sorry!" in the context "card") through :func:`pgettext`."""
    if "\x04" in msgid:
        context, message = msgid.split("\x04", 1)
        return pgettext(context, message)
    return gettext(msgid)


def term(key: str, value: Any) -> Any:
    """One detail value as the reader sees it (see the module docstring)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value < 0 and get_language_bidi():
        return f"{FSI}{value}{PDI}"
    if not isinstance(value, str):
        return value
    if key in NAME_KEYS:
        if key in LIST_KEYS and ", " in value:  # an engine's comma-joined names: the language's comma
            return list_separator().join(isolate(name) for name in value.split(", "))
        return isolate(value)
    known = terms()
    if value in known:
        return translated(known[value])
    parts = value.split(", ")
    if len(parts) > 1 and all(p in known for p in parts):
        return list_separator().join(translated(known[p]) for p in parts)
    return isolate(value)


def show(text: str, details: Mapping[str, Any] | None = None) -> str:
    """An engine template (``gettext_noop``) and its details as one sentence in the active language."""
    return fill(text, details, lambda s: punctuate(gettext(s)), term, list_separator())


# The names of the shipped edition files (editions/*.json, boards/*.json), shown in the reader's words.
EDITION_NAMES = {name: name for name in (
    gettext_noop("Amun-Re: The Card Game (2017), placeholder tables"),
    gettext_noop("Kosmos Coco tiles (7 ghost / 5 build / 2 molasses+wood / 2 wool+cutlass)"),
    gettext_noop("Play for points, candidate A (researcher's recollection of the Hasbro sheet)"),
    gettext_noop("Practice board (invented map, not the printed board)"),
)}
