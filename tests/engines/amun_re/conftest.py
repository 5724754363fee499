"""Personas and table-talk helpers for the Amun-Re tests.

Alice (seat 0) is the oldest player and holds the Ankh token; Bob (1) sits
to her left, then Carol (2), Dave (3), Erin (4). Carol is the seat that must
never see Alice's hand or sealed offering.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.engines.base import SeatInfo
from shelf.amun_re import AmunReGame
from shelf.amun_re.state import AUCTION, GOLD_VALUES, Player, Province, State

ALICE, BOB, CAROL, DAVE, ERIN = range(5)
NAMES = ("Alice", "Bob", "Carol", "Dave", "Erin")


def make_game(n: int = 3, **options) -> AmunReGame:
    """A table of ``n`` personas with the given options."""
    return AmunReGame(options, [SeatInfo(i, NAMES[i], AmunReGame.colours[i]) for i in range(n)])


def with_player(state: State, seat: int, **changes) -> State:
    """``state`` with one player's fields replaced."""
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


def auction_with_hands(game: AmunReGame, hands: dict[int, tuple[int, ...]], kingdom: int = 1, ankh: int = 0) -> State:
    """An auction about to start with the given hands (others hold only the 0 card)."""
    n = len(game.seats)
    players = []
    for seat in range(n):
        hand = tuple(sorted(hands.get(seat, (0,))))
        players.append(Player(hand=hand, set_aside=tuple(c for c in GOLD_VALUES if c not in hand), built=True))
    return State(
        players=tuple(players),
        kingdom=kingdom,
        phase=AUCTION,
        ankh=ankh,
        kingdom_start=ankh,
        turn=ankh,
        slots=(None,) * n,
    )


def card(
    farms: int = 0, caravans: int = 0, ankhs: int = 0, spaces: int = 3, pyramids: int = 0, kingdom: int = 1
) -> Province:
    """A province card as entered."""
    return Province(kingdom=kingdom, farms=farms, caravans=caravans, ankhs=ankhs, spaces=spaces, pyramids=pyramids)


def play(game: AmunReGame, state: State, seat: int, **action) -> State:
    """Apply one action given as keyword fields (``kind=...``)."""
    return game.apply(state, seat, action)


def enter_province(
    game: AmunReGame, state: State, seat: int, farms=0, caravans=0, ankhs=0, spaces=3, column=None
) -> State:
    """The winner types in what the won card shows (6.1), and lays it on ``column`` when asked."""
    for field, value in (("farms", farms), ("caravans", caravans), ("ankhs", ankhs), ("pyramid_spaces", spaces)):
        state = play(game, state, seat, kind="reveal", field=field, value=value)
    if column is not None:
        state = play(game, state, seat, kind="place_province", column=column)
    return state


def random_playout(game: AmunReGame, seed: int, check=None):
    """Random legal play to the end; ``check(state)`` after every step. Returns (final state, [(seat, action)])."""
    chooser = random.Random(seed)
    state = game.setup(random.Random(seed))
    log = []
    while game.result(state) is None:
        seat = chooser.choice(game.prompt(state).seats)
        action = chooser.choice(game.legal_actions(state, seat))
        state = game.apply(state, seat, action)
        log.append((seat, action))
        if check:
            check(state)
    return state, log


@pytest.fixture
def game3() -> AmunReGame:
    return make_game(3)
