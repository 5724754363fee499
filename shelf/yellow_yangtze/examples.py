"""What the shared test suites run this game through: a twin of a position for the secrecy suites (one other
seat's hidden tiles and screened points changed), the secrecy runs and their seeds, a refused move, the variants
whose end chart and logged opening are checked, its board parts, and its who-starts question.

Plain data and one function, read by the tests through ``tests.registry.examples("yellow_yangtze")``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.engines.twins import swap_scarce

from .state import COLOURS


def twin(game: Any, s: Any, other: int) -> Any:
    """Swap ``other``'s hand for the bag's scarcest colour as far as it goes, and add screened points (§1.2)."""
    out = s
    swapped = swap_scarce(list(s.hands[other]), list(s.bag))
    if swapped is not None:
        hands = list(s.hands)
        hands[other] = tuple(swapped[0])
        out = replace(out, hands=tuple(hands), bag=tuple(swapped[1]))
    points = list(s.points)
    points[other] = tuple(p + 3 for p in s.points[other])
    return replace(out, points=tuple(points))


def _rotate(value: Any, pool: tuple[str, ...]) -> Any:
    return pool[(pool.index(value) + 1) % len(pool)]


#: Secrecy suite runs, one per component mode: (options, seed, moves played, probe every k-th move).
SECRECY_RUNS = [
    ({"components": "digital"}, 3, 20, 10),
    ({"components": "physical"}, 4, 20, 10),
]
#: The host ends the game at a secret of Bob's: (options, seed, at least this many moves, whether the end lifts
#: Bob's secret for Alice: §7, every screen is lifted).
HOST_END = ({"components": "digital"}, 3, 12, True)
#: The timeline of a table played to a secret of Bob's: (options, seed, at least this many moves).
TIMELINE = ({"components": "digital"}, 3, 14)
#: What a seat's hidden log entries hold and another value each could have held: (kind, field, change).
HIDDEN_ENTRY = ("draw", "tiles", lambda tiles: [_rotate(t, COLOURS) for t in tiles])
#: One refused tap: (options, moves played first, the refused move, its code, its rules-at-hand section).
REFUSED = ({}, [], {"kind": "tile", "colour": "blue", "hex": [-5, 10]}, "tile_not_in_hand", "turn")
#: The end chart's cases: (options, players).
END_CHART = [({}, 3)]
#: The opening in the log, replayed after switching components: (options, seats).
OPENINGS = [({}, 3)]
#: The parts of its board every phone shows alike at the opening, and those each seat shows of its own.
BOARD_PARTS = {"shared": ("yy-public", "yy-legend", "yy-map", "yy-pieces", "yy-conflict", "yy-final"),
               "own": ("yy-screen",)}
#: The who-starts question its phones answer before the first move.
WHO_STARTS = "random"
