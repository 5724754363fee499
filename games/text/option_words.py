"""The lobby's words for every table option: label, one-line explanation, value names, group.

The engines declare their options (``OptionSpec``: machine name, default, allowed values, and a help text
citing the rules file for maintainers). Players never see those: the lobby shows, for each option, the
plain words each game's adapter declares (``WebAdapter.option_words``), translated (``gettext_noop``
there, ``gettext`` when the form is built). The groups and the ``components`` option every game shares
are declared here. The machine values and so the options a table stores are the engine's and do not
change here.

``rules`` keeps the rules-file section an option comes from (``shared/rules/<game>.md``), with its
marker: [U] the sources are silent or disagree, [S!] they contradict each other, [D] a decision of
this project. It is for maintainers: the lobby writes it into a ``data-rules`` attribute, never as text.

An option of an installed game without words falls back to its engine help text
(tests/web/test_lobby.py fails on such a gap for the shipped games).
"""

from __future__ import annotations

from games.engines import REGISTRY, get_adapter
from games.engines.adapter import OptionWords
from games.engines.base import gettext_noop

__all__ = ["COMPONENTS", "FIRST", "GROUPS", "OptionWords", "words_for"]

#: Group keys, in page order, with their titles. ``advanced`` holds the edition profiles (a box's
#: printed numbers imported or made on /editions/) and always comes last.
GROUPS: dict[str, str] = {
    "ways": gettext_noop("Ways to play"),
    "setup": gettext_noop("Setting up"),
    "box": gettext_noop("Your box and trading"),
    "cards": gettext_noop("Cards and moves"),
    "points": gettext_noop("Points game"),
    "gold": gettext_noop("Gold cards and budget"),
    "auctions": gettext_noop("Auctions and ankhs"),
    "scoring": gettext_noop("Scoring"),
    "tiles": gettext_noop("Leaders, tiles and pagodas"),
    "wars": gettext_noop("Wars"),
    "supply": gettext_noop("Die, Ghost Captain and supply"),
    "advanced": gettext_noop("Advanced: your box's printed board and tables"),
}

#: The group of the options shown before every group, not collapsed (components: digital or physical).
FIRST = "first"


COMPONENTS = OptionWords(
    gettext_noop("Cards, tiles and dice"),
    gettext_noop("With the real box you tap in each card, tile or roll. The host can switch later."),
    FIRST, "base.py COMPONENTS (DESIGN.md: digital and physical components)",
    {"digital": gettext_noop("The app draws and rolls"), "physical": gettext_noop("We use the real box")},
)


def words_for(slug: str, name: str) -> OptionWords | None:
    """The words of option ``name`` of game ``slug`` (its adapter's ``option_words``); the shared ``components``
    words for any game; else None."""
    found = get_adapter(slug).option_words.get(name) if slug in REGISTRY else None
    if found is None and name == "components":
        return COMPONENTS
    return found
