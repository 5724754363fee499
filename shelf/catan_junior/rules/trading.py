"""Marketplace swap, 2:1 supply trade and player trades (rules TR, SH4)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from games.engines.base import IllegalAction, gettext_noop
from shelf.catan_junior.board import RESOURCES
from shelf.catan_junior.rules import Ruleset
from shelf.catan_junior.rules.production import add, confiscate, covers, is_short, one, pay_out, sub
from shelf.catan_junior.state import MAIN, TRADE, Offer, State

MARKET_SPACES = 5


def fill_market(rs: Ruleset, state: State) -> State:
    """SU5/TR2/SH4: put one token of each resource from the supply onto the five spaces.

    A type the supply cannot give triggers SH1 for that type first (SH4).
    The spaces must be empty of tokens already (set-up, or just returned).
    """
    for resource in RESOURCES:
        if is_short(rs, 1, state.supply[RESOURCES.index(resource)]):
            state = confiscate(state, resource)
            if not rs.freeze:
                state = dataclasses.replace(state, frozen=frozenset())
    supply = tuple(n - 1 for n in state.supply)
    return dataclasses.replace(state, supply=supply, market=RESOURCES)


def market_swap(rs: Ruleset, state: State, seat: int, space: int, give: str, expected: str | None = None) -> State:
    """TR1/TR2: put one ``give`` token on ``space`` (0-4) and take the token there; once per turn.

    If all five spaces then hold one type, they go back to the supply and the
    spaces are refilled with one of each (SH4 applies). Raises
    ``market_swap_used``, ``bad_space``, ``market_changed`` (the phone named
    ``expected`` but the space holds another token), ``swap_same_resource``,
    ``not_enough_resources``.
    """
    if state.swapped:
        raise IllegalAction(
            "market_swap_used", gettext_noop("Only one marketplace swap is allowed per turn.")
        )
    if not 0 <= space < MARKET_SPACES:
        raise IllegalAction("bad_space", gettext_noop("The marketplace has spaces 0 to 4."), space=space)
    take = state.market[space]
    if expected is not None and expected != take:
        raise IllegalAction(
            "market_changed",
            gettext_noop("Marketplace space {space} holds {resource} now, not {expected}; look again."),
            space=space,
            resource=take,
            expected=expected,
        )
    if give == take:
        raise IllegalAction(
            "swap_same_resource",
            gettext_noop("Swap a token for a different resource, not {resource} for {resource}."),
            resource=give,
        )
    if state.hands[seat][RESOURCES.index(give)] < 1:
        raise IllegalAction(
            "not_enough_resources", gettext_noop("You have no {resource} to put down."), resource=give
        )
    hand = add(sub(state.hands[seat], one(give)), one(take))
    hands = tuple(hand if i == seat else h for i, h in enumerate(state.hands))
    market = tuple(give if i == space else r for i, r in enumerate(state.market))
    state = dataclasses.replace(state, hands=hands, market=market, swapped=True, last_payout=(), last_shortage=())
    if len(set(market)) == 1:
        supply = add(state.supply, one(market[0], MARKET_SPACES))
        state = fill_market(rs, dataclasses.replace(state, supply=supply, market=()))
    return state


def supply_trade(rs: Ruleset, state: State, seat: int, give: str, take: str) -> State:
    """TR3/SH: give 2 of ``give`` to the supply and take 1 of a different ``take``; any number per turn.

    Raises ``trade_same_resource``, ``not_enough_resources``,
    ``supply_frozen`` (SH2). If the supply cannot pay ``take``, SH1 fires
    (the 2 tokens stay paid).
    """
    if give == take:
        raise IllegalAction(
            "trade_same_resource", gettext_noop("Take a different resource than the one you give.")
        )
    if state.hands[seat][RESOURCES.index(give)] < 2:
        raise IllegalAction(
            "not_enough_resources", gettext_noop("You need 2 {resource} to trade."), resource=give
        )
    if rs.freeze and take in state.frozen:
        raise IllegalAction(
            "supply_frozen",
            gettext_noop("{resource} ran out this turn; it cannot be taken until the next turn."),
            resource=take,
        )
    hands = tuple(sub(h, one(give, 2)) if i == seat else h for i, h in enumerate(state.hands))
    state = dataclasses.replace(state, hands=hands, supply=add(state.supply, one(give, 2)))
    demands = tuple(one(take) if i == seat else one(take, 0) for i in range(rs.seat_count))
    return pay_out(rs, state, demands, respect_freeze=True)


def parse_bundle(raw: Any, field: str) -> tuple[int, ...]:
    """A ``{"wood": 1, ...}`` bundle as a count tuple; ``bad_action`` on unknown keys or bad numbers."""
    if not isinstance(raw, Mapping):
        raise IllegalAction("bad_action", gettext_noop("Field {name} must be an object of counts."), name=field)
    counts = [0] * len(RESOURCES)
    for resource, n in raw.items():
        if resource not in RESOURCES or isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 90:
            raise IllegalAction("bad_action", gettext_noop("Field {name} has a bad count."), name=field)
        counts[RESOURCES.index(resource)] = n
    return tuple(counts)


def offer_trade(
    rs: Ruleset, state: State, seat: int, target: int, give: tuple[int, ...], get: tuple[int, ...]
) -> State:
    """TR4: the active player proposes to give ``give`` to ``target`` for ``get``; ``target`` must answer.

    Raises ``player_trades_off``, ``bad_target``, ``empty_trade``,
    ``trade_same_resource`` (a resource on both sides: giving and taking it
    back is no trade), ``not_enough_resources`` (either side lacks the tokens).
    """
    if not rs.player_trades:
        raise IllegalAction(
            "player_trades_off", gettext_noop("Trading with players is an advanced rule, off at this table.")
        )
    if not 0 <= target < rs.seat_count or target == seat:
        raise IllegalAction("bad_target", gettext_noop("Trade with another player at the table."))
    if not any(give) or not any(get):
        raise IllegalAction("empty_trade", gettext_noop("Both sides of a trade must give something."))
    both = [r for r, g, t in zip(RESOURCES, give, get, strict=True) if g and t]
    if both:
        raise IllegalAction(
            "trade_same_resource",
            gettext_noop("{resource} is on both sides of the offer; trade it for something else."),
            resource=both[0],
        )
    if not covers(state.hands[seat], give):
        raise IllegalAction("not_enough_resources", gettext_noop("You do not have what you offer."))
    if not covers(state.hands[target], get):
        raise IllegalAction(
            "not_enough_resources", gettext_noop("The other player does not have what you ask for.")
        )
    return dataclasses.replace(state, phase=TRADE, offer=Offer(seat, target, give, get))


def withdraw_trade(state: State, seat: int) -> State:
    """TR4: the offerer takes back a pending offer (nothing changes hands); play returns to them."""
    offer = state.offer
    if offer is None or offer.offerer != seat:
        raise IllegalAction("no_offer", gettext_noop("You have no trade offer waiting for an answer."))
    return dataclasses.replace(state, phase=MAIN, offer=None)


def answer_trade(state: State, seat: int, accept: bool) -> State:
    """TR4: the offer's target accepts (tokens change hands) or declines; play returns to the offerer."""
    offer = state.offer
    if offer is None or offer.target != seat:
        raise IllegalAction("no_offer", gettext_noop("There is no trade offer for you."))
    state = dataclasses.replace(state, phase=MAIN, offer=None)
    if not accept:
        return state
    hands = list(state.hands)
    hands[offer.offerer] = add(sub(hands[offer.offerer], offer.give), offer.get)
    hands[offer.target] = add(sub(hands[offer.target], offer.get), offer.give)
    return dataclasses.replace(state, hands=tuple(hands))
