"""The single tie-break primitive of the game (rules file 2.10).

Seats are numbered clockwise. In every tie (auction order, offering rank,
ankh +1/-1, the Ankh token, end of game) the seat with the smaller distance
from the start player wins.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable


def seat_distance(seat: int, start: int, n: int) -> int:
    """``(seat - start) mod n``: 0 for the start player, then clockwise (2.10)."""
    return (seat - start) % n


def clockwise_from(start: int, n: int) -> list[int]:
    """All seats in turn order beginning with ``start`` (ordered by :func:`seat_distance`)."""
    return sorted(range(n), key=lambda s: seat_distance(s, start, n))


def rank(seats: Iterable[int], start: int, n: int, key: Callable[[int], int]) -> list[int]:
    """Seats sorted by ``key`` ascending, ties broken by :func:`seat_distance` from ``start``."""
    return sorted(seats, key=lambda s: (key(s), seat_distance(s, start, n)))
