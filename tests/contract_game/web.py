"""The tile duel's web adapter: what the platform needs to show the contract game, declared beside its engine.

Read by the platform through the registry (``games.engines.get_adapter``), exactly as a real game's
``web.py``; see :mod:`games.engines.adapter` for each field.
"""

from __future__ import annotations

from games.engines.adapter import ChanceDevice, OptionWords, Section, Step, Term, WebAdapter
from games.engines.base import Game, gettext_noop

from . import TILES

SECTIONS = (
    Section("goal", "1, 4"),
    Section("turn", "2"),
    Section("conflict", "3"),
)

#: Every refusal the engine raises (base codes included) -> the section that explains it.
REFUSALS = {
    "not_your_turn": "goal", "wrong_step": "turn", "game_over": "goal", "seat_count": "goal",
    "no_such_tile": "goal#bag", "tile_not_in_bag": "goal#bag", "tile_not_in_hand": "turn",
}

#: The lobby's words for each engine option; the tile duel has none but ``components``, whose words every
#: game shares (games/text/option_words.py).
OPTION_WORDS: dict[str, OptionWords] = {}

GLOSSARY = {
    "title": Term(r"Tile duel", {"fa": ("دوئل کاشی",), "az": ("Daş dueli",), "ps": ("د ټوټو دوئل",)},
                  source="tests/contract_game (a test game: its own words)"),
}


def walkthrough(game: Game, players: int) -> list[Step]:
    """Rule 1: put the nine tiles in the bag; each player keeps their hand hidden."""
    return [
        Step("bag", gettext_noop("Put the {count} tiles in the bag and shake it."),
             {"count": sum(TILES.values())}, "1"),
        Step("hands", gettext_noop("Each of the {players} players keeps their drawn tiles hidden."),
             {"players": players}, "2"),
    ]


def chance(game: Game) -> ChanceDevice:
    """Rule 1: the bag of tiles; drawn tiles go into hidden hands."""
    total = sum(TILES.values())
    return ChanceDevice("tiles", "draw", "tile", {t: n / total for t, n in TILES.items()}, hidden=True)


ADAPTER = WebAdapter(
    sections=SECTIONS,
    refusals=REFUSALS,
    option_words=OPTION_WORDS,
    glossary=GLOSSARY,
    walkthrough=walkthrough,
    step_sections={"defend": "conflict"},
    chance=chance,
)
