"""Personas and table-talk helpers for the Catan Junior tests.

Alice is red, Bob purple, Carol yellow and Dave blue (Kosmos colours, seat
order = turn order); on the 2-player side Alice is red and Bob purple.
"""

from __future__ import annotations

import dataclasses

import pytest

from games.engines.base import SeatInfo
from shelf.catan_junior import CatanJuniorGame
from shelf.catan_junior.board import RESOURCES
from shelf.catan_junior.state import State

ALICE, BOB, CAROL, DAVE = 0, 1, 2, 3
NAMES = ("Alice", "Bob", "Carol", "Dave")
COLOURS = ("red", "purple", "yellow", "blue")


def make_game(n: int = 4, **options) -> CatanJuniorGame:
    """A table of ``n`` personas with ``options`` (digital by default)."""
    return CatanJuniorGame(options, [SeatInfo(i, NAMES[i], COLOURS[i]) for i in range(n)])


def opening(game: CatanJuniorGame) -> State:
    """The set-up state (SU)."""
    import random

    return game.setup(random.Random(0))


def with_hand(state: State, seat: int, **counts: int) -> State:
    """Give ``seat`` exactly ``counts`` (others 0), moving tokens to or from the supply (INV holds)."""
    hand = tuple(counts.get(r, 0) for r in RESOURCES)
    old = state.hands[seat]
    supply = tuple(s + o - h for s, o, h in zip(state.supply, old, hand, strict=True))
    assert min(supply) >= 0, "not enough tokens in the supply for this scenario"
    hands = tuple(hand if i == seat else h for i, h in enumerate(state.hands))
    return dataclasses.replace(state, hands=hands, supply=supply)


def with_supply(state: State, **counts: int) -> State:
    """Set the supply of each named resource to ``counts[r]``, putting the
    difference into (or taking it from) the hand of the last seat so INV holds.
    """
    last = len(state.hands) - 1
    hand = list(state.hands[last])
    supply = list(state.supply)
    for r, n in counts.items():
        i = RESOURCES.index(r)
        hand[i] += supply[i] - n
        supply[i] = n
        assert hand[i] >= 0
    hands = tuple(tuple(hand) if i == last else h for i, h in enumerate(state.hands))
    return dataclasses.replace(state, hands=hands, supply=tuple(supply))


def in_main(state: State, seat: int | None = None) -> State:
    """Skip to the build/trade step of ``seat``'s turn (as if the roll had produced nothing)."""
    return dataclasses.replace(state, phase="main", active=state.active if seat is None else seat)


def hand(state: State, seat: int) -> dict[str, int]:
    """``seat``'s tokens as a dict."""
    return dict(zip(RESOURCES, state.hands[seat], strict=True))


def assert_conserved(state: State) -> None:
    """INV: for each resource, supply + marketplace + all players = 18."""
    for i, r in enumerate(RESOURCES):
        total = state.supply[i] + sum(h[i] for h in state.hands) + state.market.count(r)
        assert total == 18, (r, total)


@pytest.fixture
def game() -> CatanJuniorGame:
    return make_game(4)


@pytest.fixture
def start(game) -> State:
    return opening(game)
