"""Set-up and the end of a turn (rules SU1-SU6, TU)."""

from __future__ import annotations

import dataclasses

from shelf.catan_junior.rules import Ruleset
from shelf.catan_junior.rules.production import FULL_DIE
from shelf.catan_junior.rules.trading import fill_market
from shelf.catan_junior.state import ROLL, State

#: SU5: 18 tokens of each resource.
TOKENS_PER_RESOURCE = 18


def opening_state(rs: Ruleset) -> State:
    """SU3-SU6: start lairs and ships per colour, Ghost Captain on the castle, full Coco stack,
    marketplace filled from the supply, starting resources; seat 0 (the youngest) rolls first.

    Needs no randomness: the board is fixed and the Coco stack is a multiset.
    """
    board = rs.board
    starts = board.starts[rs.start_set]
    lairs: list[int | None] = [None] * len(board.sites)
    ships: list[int | None] = [None] * len(board.routes)
    for seat, colour in enumerate(rs.start_colours):
        start_lairs, start_ships = starts[colour]
        for site in start_lairs:
            lairs[board.sites.index(site)] = seat
        for route in start_ships:
            ships[board.routes.index(route)] = seat
    supply = tuple(TOKENS_PER_RESOURCE - rs.seat_count * n for n in rs.start_hand)
    state = State(
        active=0,
        phase=ROLL,
        ghost="castle",
        lairs=tuple(lairs),
        ships=tuple(ships),
        castle=None,
        hands=tuple(rs.start_hand for _ in range(rs.seat_count)),
        supply=supply,
        market=(),
        coco_stack=rs.deck.counts,
        coco_taken=tuple((0,) * len(rs.deck.kinds) for _ in range(rs.seat_count)),
        die_left=FULL_DIE,
        rolls=(0,) * 6,
    )
    return fill_market(rs, state)


def end_turn(rs: Ruleset, state: State) -> State:
    """SU6/TU: play passes to the left; the next turn opens with a roll, a fresh swap and no freeze (SH2)."""
    return dataclasses.replace(
        state,
        active=(state.active + 1) % rs.seat_count,
        phase=ROLL,
        swapped=False,
        frozen=frozenset(),
        last_roll=None,
        turn=state.turn + 1,
    )
