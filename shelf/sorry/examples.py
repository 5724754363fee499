"""What the shared test suites run this game through: a twin of a position for the secrecy suites (points
mode: one other seat's hand changed), the secrecy runs and their seeds, a refused move, the variants whose end
chart and logged opening are checked, its board parts, and its who-starts question.

Plain data and one function, read by the tests through ``tests.registry.examples("sorry")``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.engines.twins import swap_scarce

from .state import CARDS


def twin(game: Any, s: Any, other: int) -> Any:
    """Points mode: swap ``other``'s hand for the draw pile's scarcest card as far as it goes (3.2)."""
    if not s.hands or not sum(s.hands[other]):
        return None
    swapped = swap_scarce(list(s.hands[other]), list(s.deck))
    if swapped is None:
        return None
    hands = list(s.hands)
    hands[other] = tuple(swapped[0])
    return replace(s, hands=tuple(hands), deck=tuple(swapped[1]))


def _rotate(value: Any, pool: tuple[str, ...]) -> Any:
    return pool[(pool.index(value) + 1) % len(pool)]


#: Secrecy suite runs, one per component mode: (options, seed, moves played, probe every k-th move).
SECRECY_RUNS = [
    ({"points_mode": True, "components": "digital"}, 5, 20, 10),
    ({"points_mode": True, "components": "physical"}, 6, 20, 10),
]
#: The host ends the game at a secret of Bob's: (options, seed, at least this many moves, whether the end lifts
#: Bob's secret for Alice).
HOST_END = ({"points_mode": True, "components": "digital"}, 5, 12, False)
#: The timeline of a table played to a secret of Bob's: (options, seed, at least this many moves).
TIMELINE = ({"points_mode": True, "components": "digital"}, 5, 14)
#: What a seat's hidden log entries hold and another value each could have held: (kind, field, change).
HIDDEN_ENTRY = ("draw", "card", lambda card: _rotate(card, CARDS))
#: One refused tap: (options, moves played first, the refused move, its code, its rules-at-hand section).
REFUSED = ({"components": "physical"}, [(0, {"kind": "draw", "card": "1"})],
           {"kind": "move", "card": "1", "pawn": "R1", "steps": 1}, "pawn_in_start", "moving")
#: The end chart's cases, the points variant's tally beside the standard game's: (options, players).
END_CHART = [({}, 2), ({"points_mode": True}, 3)]
#: The opening in the log, replayed after switching components (the points variant: hands behind the deal):
#: (options, seats).
OPENINGS = [({}, 2), ({"points_mode": True}, 3)]
#: The parts of its board every phone shows alike at the opening, and those each seat shows of its own (the
#: standard game: no hand behind a screen).
BOARD_PARTS = {"shared": ("sorry-pawns", "sorry-card", "sorry-hand"), "own": ()}
#: The who-starts question its phones answer before the first move.
WHO_STARTS = "youngest"
