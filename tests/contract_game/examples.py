"""What the shared test suites run this game through: a twin of a position for the secrecy suites (one of
another seat's hidden tiles swapped for the bag's), the secrecy runs and their seeds, and a refused move.

Plain data and one function, read by the tests through ``tests.registry.examples("contract")``, as a shipped
game's ``shelf/<slug>/examples.py`` is.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from . import TILES


def twin(game: Any, s: Any, other: int) -> Any:
    """One of ``other``'s hidden tiles swapped for the bag's scarcest other tile."""
    bag = dict(s.bag)
    for held in sorted(set(s.hands[other])):
        kinds = [t for t, n in bag.items() if n > 0 and t != held]
        if kinds:
            scarce = min(kinds, key=lambda t: (bag[t], t))
            bag[held] += 1
            bag[scarce] -= 1
            hand = list(s.hands[other])
            hand[hand.index(held)] = scarce
            hands = list(s.hands)
            hands[other] = tuple(sorted(hand))
            return replace(s, hands=tuple(hands), bag=tuple(sorted(bag.items())))
    return None


def _rotate(value: Any, pool: tuple[str, ...]) -> Any:
    return pool[(pool.index(value) + 1) % len(pool)]


#: Secrecy suite runs, one per component mode: (options, seed, moves played, probe every k-th move).
SECRECY_RUNS = [
    ({"components": "digital"}, 9, 20, 5),
    ({"components": "physical"}, 10, 20, 5),
]
#: The host ends the game at a secret of Bob's: (options, seed, at least this many moves, whether the end lifts
#: Bob's secret for Alice).
HOST_END = ({"components": "digital"}, 9, 4, False)
#: The timeline of a table played to a secret of Bob's: (options, seed, at least this many moves).
TIMELINE = ({"components": "digital"}, 9, 6)
#: What a seat's hidden log entries hold and another value each could have held: (kind, field, change).
HIDDEN_ENTRY = ("draw", "tile", lambda tile: _rotate(tile, tuple(TILES)))
#: One refused tap: (options, moves played first, the refused move, its code, its rules-at-hand section).
REFUSED = ({}, [(0, {"kind": "draw"}), (0, {"kind": "draw"})], {"kind": "attack", "tile": "7"},
           "tile_not_in_hand", "turn")
