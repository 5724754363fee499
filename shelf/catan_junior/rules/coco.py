"""Coco tiles and the castle lair (rules CO, CA)."""

from __future__ import annotations

import dataclasses
import random

from games.engines.base import IllegalAction, gettext_noop
from shelf.catan_junior.board import RESOURCES
from shelf.catan_junior.rules import Ruleset
from shelf.catan_junior.rules.building import can_build_lair, can_build_ship, check_win, lair_stock
from shelf.catan_junior.rules.production import covers, pay_out, sub
from shelf.catan_junior.state import COCO_BUILD, COCO_GHOST, MAIN, OVER, CocoNews, State

#: CO1: a Coco tile costs molasses + cutlass + gold.
COCO_COST = tuple(1 if r in ("molasses", "cutlass", "gold") else 0 for r in RESOURCES)


def tiles_left(state: State) -> int:
    """How many Coco tiles are still in the stack (the "tiles left" counter)."""
    return sum(state.coco_stack)


def kinds_in_stack(rs: Ruleset, state: State) -> tuple[str, ...]:
    """Kinds with at least one tile left in the stack (physical mode lists one payload each)."""
    return tuple(name for name, n in zip(rs.deck.names, state.coco_stack, strict=True) if n > 0)


def fill_tile(rs: Ruleset, state: State, rng: random.Random) -> str | None:
    """Digital mode: draw one tile uniformly from what remains (a multiset, 2.5); ``None`` if empty."""
    total = tiles_left(state)
    if total == 0:
        return None
    pick = rng.randrange(total)
    for name, n in zip(rs.deck.names, state.coco_stack, strict=True):
        if pick < n:
            return name
        pick -= n
    raise AssertionError("unreachable")


def can_buy(state: State, seat: int) -> bool:
    """CO1: the stack is not empty and ``seat`` can pay molasses + cutlass + gold."""
    return tiles_left(state) > 0 and covers(state.hands[seat], COCO_COST)


def castle_majority(rs: Ruleset, state: State) -> State:
    """CA1/CA2: the sole leader in Coco tiles holds the CASTLE lair; on a tie at the top it is empty.

    A lair taken off the castle goes back to its owner's stock (stock is
    derived from the board, so removing it is enough). Placing the sole
    leader's lair can be their 7th: EN1 is checked.
    """
    totals = [sum(taken) for taken in state.coco_taken]
    top = max(totals)
    leaders = [seat for seat, n in enumerate(totals) if n == top]
    if top < 1 or len(leaders) > 1:
        return dataclasses.replace(state, castle=None)
    leader = leaders[0]
    if state.castle == leader:
        return state
    state = dataclasses.replace(state, castle=None)
    if lair_stock(state, leader) <= 0:
        return state
    return check_win(dataclasses.replace(state, castle=leader), leader)


def buy_coco(rs: Ruleset, state: State, seat: int, tile: str) -> State:
    """CO1-CO4, CA5: pay, draw ``tile``, update counts, apply CA1, then resolve the tile at once.

    Resources tiles pay now (SH applies); a Ghost Captain tile opens the
    ``coco_ghost`` step; a build tile opens ``coco_build`` when a free lair or
    ship can be placed, else it is lost (CO2 [D]). Raises
    ``coco_stack_empty``, ``unknown_coco``, ``coco_not_in_stack`` (CO4),
    ``cannot_afford``.
    """
    if tiles_left(state) == 0:
        raise IllegalAction("coco_stack_empty", gettext_noop("There are no Coco tiles left."))
    if tile not in rs.deck.names:
        raise IllegalAction("unknown_coco", gettext_noop("Rule 2.5: {tile} is not a kind of Coco tile."), tile=tile)
    k = rs.deck.names.index(tile)
    if state.coco_stack[k] <= 0:
        raise IllegalAction(
            "coco_not_in_stack",
            gettext_noop("Every {tile} Coco tile is already face up; check the tile you drew."),
            tile=tile,
        )
    if not covers(state.hands[seat], COCO_COST):
        raise IllegalAction("cannot_afford", gettext_noop("A Coco tile costs molasses, cutlass and gold."))
    hands = tuple(sub(h, COCO_COST) if i == seat else h for i, h in enumerate(state.hands))
    supply = tuple(s + c for s, c in zip(state.supply, COCO_COST, strict=True))
    stack = tuple(n - 1 if i == k else n for i, n in enumerate(state.coco_stack))
    taken = tuple(
        tuple(n + 1 if j == k else n for j, n in enumerate(t)) if i == seat else t
        for i, t in enumerate(state.coco_taken)
    )
    state = dataclasses.replace(
        state, hands=hands, supply=supply, coco_stack=stack, coco_taken=taken, last_payout=(), last_shortage=()
    )
    before = state.castle
    state = castle_majority(rs, state)
    moved = state.castle != before
    news = CocoNews(
        seat,
        tile,
        castle_gained=state.castle if moved else None,
        castle_lost=before if moved else None,
    )
    state = dataclasses.replace(state, coco_news=news)
    if state.phase == OVER:
        return state
    kind = rs.deck.kinds[k]
    if kind.effect == "resources":
        demands = tuple(kind.take if i == seat else (0,) * len(RESOURCES) for i in range(rs.seat_count))
        state = pay_out(rs, state, demands, respect_freeze=True)
        news = dataclasses.replace(news, paid=state.last_payout[seat], short=state.last_shortage)
        return dataclasses.replace(state, phase=MAIN, coco_news=news)
    if kind.effect == "ghost":
        return dataclasses.replace(state, phase=COCO_GHOST)
    if can_build_lair(rs, state, seat, free=True) or can_build_ship(rs, state, seat, free=True):
        return dataclasses.replace(state, phase=COCO_BUILD)
    return dataclasses.replace(state, phase=MAIN, coco_news=dataclasses.replace(news, build_lost=True))
