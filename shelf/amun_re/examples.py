"""What the shared test suites run this game through: a twin of a position for the secrecy suites (one other
seat's sealed offering changed), the secrecy runs and their seeds, a refused move, the variants whose end chart
and logged opening are checked, its board parts, and its who-starts question.

Plain data and one function, read by the tests through ``tests.registry.examples("amun_re")``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any


def twin(game: Any, s: Any, other: int) -> Any:
    """A sealed offering (2.5) of another amount, while it is still sealed."""
    p = s.players[other]
    if s.offerings is not None or p.offering is None:
        return None
    budget = sum(p.hand)
    amount = p.offering + 1 if p.offering + 1 <= budget else p.offering - 1
    if amount < 0 or amount == p.offering:
        return None
    players = list(s.players)
    players[other] = replace(p, offering=amount)
    return replace(s, players=tuple(players))


#: Secrecy suite runs, one per component mode: (options, seed, moves played, probe every k-th move); the
#: sealed offering is probed every time it comes up.
SECRECY_RUNS = [
    ({"components": "digital"}, 7, 60, 1000),
    ({"components": "physical"}, 8, 60, 1000),
]
#: The host ends the game at a secret of Bob's: (options, seed, at least this many moves, whether the end lifts
#: Bob's secret for Alice).
HOST_END = ({"components": "digital"}, 7, 1, False)
#: The timeline of a table played to a secret of Bob's: (options, seed, at least this many moves).
TIMELINE = ({"components": "digital"}, 7, 1)
#: What a seat's hidden log entries hold and another value each could have held: (kind, field, change).
HIDDEN_ENTRY = ("offer", "gold", lambda gold: gold + 1)
#: One refused tap: (options, moves played first, the refused move, its code, its rules-at-hand section).
REFUSED = ({}, [], {"kind": "build_hand", "cards": [0, 1]}, "hand_not_exact", "kingdoms#hand")
#: The end chart's cases: (options, players).
END_CHART = [({}, 3)]
#: The opening in the log, replayed after switching components: (options, seats).
OPENINGS = [({}, 3)]
#: The parts of its board every phone shows alike at the opening, and those each seat shows of its own.
BOARD_PARTS = {"shared": ("ar-head-0", "ar-columns-1", "ar-supply"), "own": ("ar-my-gold", "ar-frame-0")}
#: The who-starts question its phones answer before the first move.
WHO_STARTS = "oldest"
