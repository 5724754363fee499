"""Building lairs and ships, piece limits and the immediate win (rules BU, EN)."""

from __future__ import annotations

import dataclasses

from games.engines.base import IllegalAction, gettext_noop
from shelf.catan_junior.board import RESOURCES
from shelf.catan_junior.rules import LAIRS_PER_COLOUR, Ruleset
from shelf.catan_junior.rules.production import covers, sub
from shelf.catan_junior.state import COCO_BUILD, MAIN, OVER, State

#: BU1: a lair costs wood + wool + molasses + cutlass; a ship wood + wool.
LAIR_COST = tuple(1 if r in ("wood", "wool", "molasses", "cutlass") else 0 for r in RESOURCES)
SHIP_COST = tuple(1 if r in ("wood", "wool") else 0 for r in RESOURCES)


def lair_stock(state: State, seat: int) -> int:
    """BU5: lairs ``seat`` still has in personal stock."""
    return LAIRS_PER_COLOUR - state.lair_count(seat)


def ship_stock(rs: Ruleset, state: State, seat: int) -> int:
    """BU5: ships ``seat`` still has in personal stock (7 Kosmos, 8 English)."""
    return rs.ships_per_colour - state.ship_count(seat)


def lair_sites(rs: Ruleset, state: State, seat: int) -> tuple[str, ...]:
    """BU2/BU4/BU6: empty sites at an end of a route holding one of ``seat``'s ships (never CASTLE)."""
    board = rs.board
    owned_routes = {route for route, owner in zip(board.routes, state.ships, strict=True) if owner == seat}
    return tuple(
        site
        for site, owner in zip(board.sites, state.lairs, strict=True)
        if owner is None and any(route in owned_routes for route in board.site_routes[site])
    )


def ship_routes(rs: Ruleset, state: State, seat: int) -> tuple[str, ...]:
    """BU3/BU4: empty routes with at least one end holding one of ``seat``'s own lairs."""
    board = rs.board
    own_sites = {site for site, owner in zip(board.sites, state.lairs, strict=True) if owner == seat}
    return tuple(
        route
        for route, owner in zip(board.routes, state.ships, strict=True)
        if owner is None and any(end in own_sites for end in board.route_ends[route])
    )


def can_build_lair(rs: Ruleset, state: State, seat: int, *, free: bool) -> bool:
    """True when ``seat`` may build some lair now (stock, cost unless ``free``, a legal site)."""
    return (
        lair_stock(state, seat) > 0
        and (free or covers(state.hands[seat], LAIR_COST))
        and bool(lair_sites(rs, state, seat))
    )


def can_build_ship(rs: Ruleset, state: State, seat: int, *, free: bool) -> bool:
    """True when ``seat`` may build some ship now (stock, cost unless ``free``, a legal route)."""
    return (
        ship_stock(rs, state, seat) > 0
        and (free or covers(state.hands[seat], SHIP_COST))
        and bool(ship_routes(rs, state, seat))
    )


def check_win(state: State, seat: int) -> State:
    """EN1: the moment ``seat`` has all 7 lairs on the board (CASTLE included) the game ends."""
    if state.lair_count(seat) >= LAIRS_PER_COLOUR:
        return dataclasses.replace(state, winner=seat, phase=OVER, offer=None)
    return state


def build_lair(rs: Ruleset, state: State, seat: int, site: str) -> State:
    """BU1/BU2/BU4/BU5: place a lair on ``site`` (paid, or free during a Coco build), then EN1.

    Raises ``unknown_site``, ``castle_not_buildable`` (BU6), ``site_taken``,
    ``lair_needs_own_ship``, ``no_lair_in_stock``, ``cannot_afford``.
    """
    free = state.phase == COCO_BUILD
    board = rs.board
    if site == "CASTLE":
        raise IllegalAction(
            "castle_not_buildable",
            gettext_noop("Only the Coco majority puts a lair on the castle site."),
        )
    if site not in board.site_islands:
        raise IllegalAction("unknown_site", gettext_noop("Rule 2.1: {site} is not a lair site."), site=site)
    index = board.sites.index(site)
    if state.lairs[index] is not None:
        raise IllegalAction("site_taken", gettext_noop("Site {site} already holds a lair."), site=site)
    if lair_stock(state, seat) <= 0:
        raise IllegalAction("no_lair_in_stock", gettext_noop("You have no lair left in your stock."))
    if site not in lair_sites(rs, state, seat):
        raise IllegalAction(
            "lair_needs_own_ship",
            gettext_noop("A lair goes at the end of a route holding one of your own ships."),
            site=site,
        )
    lairs = tuple(seat if i == index else owner for i, owner in enumerate(state.lairs))
    state = _place(state, seat, free, LAIR_COST, site,
                   gettext_noop("A lair costs wood, wool, molasses and cutlass."), lairs=lairs)
    return check_win(state, seat)


def build_ship(rs: Ruleset, state: State, seat: int, route: str) -> State:
    """BU1/BU3/BU4/BU5: place a ship on ``route`` (paid, or free during a Coco build).

    Raises ``unknown_route``, ``route_taken``, ``ship_needs_own_lair``,
    ``no_ship_in_stock``, ``cannot_afford``.
    """
    free = state.phase == COCO_BUILD
    board = rs.board
    if route not in board.route_ends:
        raise IllegalAction("unknown_route", gettext_noop("Rule 2.1: {route} is not a ship route."), route=route)
    index = board.routes.index(route)
    if state.ships[index] is not None:
        raise IllegalAction("route_taken", gettext_noop("Route {route} already holds a ship."), route=route)
    if ship_stock(rs, state, seat) <= 0:
        raise IllegalAction("no_ship_in_stock", gettext_noop("You have no ship left in your stock."))
    if route not in ship_routes(rs, state, seat):
        raise IllegalAction(
            "ship_needs_own_lair",
            gettext_noop("A ship goes on a route with one of your own lairs at an end."),
            route=route,
        )
    ships = tuple(seat if i == index else owner for i, owner in enumerate(state.ships))
    return _place(state, seat, free, SHIP_COST, route, gettext_noop("A ship costs wood and wool."),
                  ships=ships)


def _place(state: State, seat: int, free: bool, cost: tuple[int, ...], where: str, price_rule: str,
           **pieces: tuple) -> State:
    """Put a lair or ship down (``pieces``: the new ``lairs`` or ``ships`` tuple), paying ``cost`` unless free.

    BU1: the paid resources go back to the supply; a free Coco build (CO2)
    records where it went. Raises ``cannot_afford`` citing ``price_rule``.
    """
    hand, supply = state.hands[seat], state.supply
    if not free:
        if not covers(hand, cost):
            raise IllegalAction("cannot_afford", price_rule)
        hand = sub(hand, cost)
        supply = tuple(s + c for s, c in zip(supply, cost, strict=True))
    hands = tuple(hand if i == seat else h for i, h in enumerate(state.hands))
    state = dataclasses.replace(state, hands=hands, supply=supply, phase=MAIN, **pieces)
    if free and state.coco_news is not None:
        state = dataclasses.replace(state, coco_news=dataclasses.replace(state.coco_news, built=where))
    return state
