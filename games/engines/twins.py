"""Helpers a game's ``examples.py`` builds secrecy twins with: positions equal to a real one except in one seat's
hidden values, which the secrecy suites use to show that no door depends on them."""

from __future__ import annotations


def swap_scarce(hand: list[int], pool: list[int]) -> tuple[list[int], list[int]] | None:
    """Swap as many of ``hand``'s units as possible for the scarcest kind left in ``pool`` (counts kept).

    ``hand`` and ``pool`` count units per kind (cards, tile colours). The scarcest kind is the one whose count a
    prompt built from the real pool would show (a missing "yellow, yellow"), so the twin differs from the state
    exactly where a leak would. Returns the new ``(hand, pool)``, or ``None`` when nothing could be swapped.
    """
    kinds = [i for i, n in enumerate(pool) if n > 0]
    if not kinds:
        return None
    y = min(kinds, key=lambda i: pool[i])
    hand, pool = list(hand), list(pool)
    moved = 0
    for x in range(len(hand)):
        while x != y and hand[x] > 0 and pool[y] > 0:
            hand[x] -= 1
            pool[x] += 1
            hand[y] += 1
            pool[y] -= 1
            moved += 1
    return (hand, pool) if moved else None
