"""Action kinds of Catan Junior: payload parsing into frozen dataclasses, and notation.

Payload shapes (what a phone posts):

* ``{"kind": "roll", "value": 1..6}`` chance (TU1); ``value`` omitted in the digital legal list
* ``{"kind": "move_ghost", "island": "gold-5"}`` (GC1, GC4)
* ``{"kind": "build_lair", "site": "L01"}`` (BU2; free during a Coco build)
* ``{"kind": "build_ship", "route": "R05"}`` (BU3; free during a Coco build)
* ``{"kind": "buy_coco", "tile": "ghost"}`` chance (CO1); ``tile`` omitted in the digital legal list
* ``{"kind": "market_swap", "space": 0..4, "give": "molasses", "take": "wood"}`` (TR1); ``take``
  (what the phone saw on that space) is optional, and refused with ``market_changed`` when stale
* ``{"kind": "supply_trade", "give": "wood", "take": "gold"}`` (TR3: gives 2, takes 1)
* ``{"kind": "offer_trade", "to": 1, "give": {"wood": 1}, "get": {"gold": 1}}`` (TR4, option)
* ``{"kind": "accept_trade"}`` / ``{"kind": "decline_trade"}`` (TR4, the offer's target)
* ``{"kind": "withdraw_trade"}`` (TR4, the offerer takes a pending offer back)
* ``{"kind": "end_turn"}`` (TU2)

Every malformed payload raises ``IllegalAction("bad_action")``; a whole number
outside 1-6 for a die raises ``IllegalAction("bad_die_value")``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engines.base import IllegalAction, action_kind, gettext_noop, require
from games.engines.schema import Int, Kind, ListOf, MapOf, Null, Num, OneOf, Opt, Shape, Str
from shelf.catan_junior.board import RESOURCES
from shelf.catan_junior.rules.trading import parse_bundle

KINDS = (
    "roll",
    "move_ghost",
    "build_lair",
    "build_ship",
    "buy_coco",
    "market_swap",
    "supply_trade",
    "offer_trade",
    "accept_trade",
    "decline_trade",
    "withdraw_trade",
    "end_turn",
)
CHANCE_KINDS = ("roll", "buy_coco")


@dataclass(frozen=True)
class Roll:
    """TU1: the die showed ``value`` (1-5 produce, 6 is the Ghost Captain)."""

    value: int


@dataclass(frozen=True)
class MoveGhost:
    """GC1/GC4: move the Ghost Captain to ``island`` (an island id)."""

    island: str


@dataclass(frozen=True)
class BuildLair:
    """BU2: a lair on ``site`` (``"Lxx"``)."""

    site: str


@dataclass(frozen=True)
class BuildShip:
    """BU3: a ship on ``route`` (``"Rxx"``)."""

    route: str


@dataclass(frozen=True)
class BuyCoco:
    """CO1: buy a Coco tile; ``tile`` is the kind drawn (deck kind name)."""

    tile: str


@dataclass(frozen=True)
class MarketSwap:
    """TR1: put ``give`` on marketplace space ``space`` (0-4) and take what lay there (``take``, if named)."""

    space: int
    give: str
    take: str | None = None


@dataclass(frozen=True)
class SupplyTrade:
    """TR3: 2 ``give`` to the supply for 1 ``take``."""

    give: str
    take: str


@dataclass(frozen=True)
class OfferTrade:
    """TR4: offer ``give`` to seat ``to`` for ``get`` (5-tuples of counts in resource order)."""

    to: int
    give: tuple[int, ...]
    get: tuple[int, ...]


@dataclass(frozen=True)
class AnswerTrade:
    """TR4: the target's answer to the pending offer."""

    accept: bool


@dataclass(frozen=True)
class WithdrawTrade:
    """TR4: the offerer takes the pending offer back before it is answered."""


@dataclass(frozen=True)
class EndTurn:
    """TU2: pass play to the left."""


Action = (
    Roll
    | MoveGhost
    | BuildLair
    | BuildShip
    | BuyCoco
    | MarketSwap
    | SupplyTrade
    | OfferTrade
    | AnswerTrade
    | WithdrawTrade
    | EndTurn
)


def _resource(action: Mapping[str, Any], name: str) -> str:
    value = require(action, name, str)
    if value not in RESOURCES:
        raise IllegalAction("bad_action", gettext_noop("Field {name} must be a resource."), name=name)
    return value


def parse(action: Mapping[str, Any]) -> Action:
    """Turn a posted payload into its dataclass; ``IllegalAction("bad_action")`` when malformed.

    Chance fields (``value``, ``tile``) are required here: the server fills
    them in digital mode before applying.
    """
    kind = action_kind(action)
    if kind == "roll":
        value = require(action, "value", int)
        if not 1 <= value <= 6:
            raise IllegalAction(
                "bad_die_value", gettext_noop("The die shows 1 to 5 or the Ghost Captain."), value=value
            )
        return Roll(value)
    if kind == "move_ghost":
        return MoveGhost(require(action, "island", str))
    if kind == "build_lair":
        return BuildLair(require(action, "site", str))
    if kind == "build_ship":
        return BuildShip(require(action, "route", str))
    if kind == "buy_coco":
        return BuyCoco(require(action, "tile", str))
    if kind == "market_swap":
        take = _resource(action, "take") if "take" in action else None
        return MarketSwap(require(action, "space", int), _resource(action, "give"), take)
    if kind == "supply_trade":
        return SupplyTrade(_resource(action, "give"), _resource(action, "take"))
    if kind == "offer_trade":
        return OfferTrade(
            require(action, "to", int),
            parse_bundle(require(action, "give", dict), "give"),
            parse_bundle(require(action, "get", dict), "get"),
        )
    if kind == "accept_trade":
        return AnswerTrade(True)
    if kind == "decline_trade":
        return AnswerTrade(False)
    if kind == "withdraw_trade":
        return WithdrawTrade()
    if kind == "end_turn":
        return EndTurn()
    raise IllegalAction("bad_action", gettext_noop("Unknown action kind {kind}."), kind=kind)


def notation(action: Mapping[str, Any]) -> str:
    """A short stable text for logs and fixtures: ``roll 4``, ``lair L01``, ``swap 2 molasses``."""
    kind = action.get("kind")
    if kind == "roll":
        return f"roll {action.get('value', '?')}"
    if kind == "move_ghost":
        return f"ghost {action.get('island')}"
    if kind == "build_lair":
        return f"lair {action.get('site')}"
    if kind == "build_ship":
        return f"ship {action.get('route')}"
    if kind == "buy_coco":
        return f"coco {action.get('tile', '?')}"
    if kind == "market_swap":
        return f"swap {action.get('space')} {action.get('give')}"
    if kind == "supply_trade":
        return f"trade 2 {action.get('give')} 1 {action.get('take')}"
    if kind == "offer_trade":
        return f"offer {action.get('to')} {action.get('give')} {action.get('get')}"
    return str(kind)


_NAME = Str(24)  # island, site, route, tile and resource ids
_COUNT = Int(-100, 100)
_BUNDLE = MapOf(_NAME, _COUNT, max_len=8)

#: The declared payload of every action kind, checked at the edge before anything is stored
#: (types, ranges, no unknown keys; see games/engines/schema.py). Whether the site or the trade is
#: allowed stays in ``apply``.
SCHEMA = {
    "roll": Kind(value=Opt(Int(-100, 100))),
    "move_ghost": Kind(island=_NAME),
    "build_lair": Kind(site=_NAME),
    "build_ship": Kind(route=_NAME),
    "buy_coco": Kind(tile=Opt(_NAME)),
    "market_swap": Kind(space=_COUNT, give=_NAME, take=Opt(_NAME)),
    "supply_trade": Kind(give=_NAME, take=_NAME),
    "offer_trade": Kind(to=_COUNT, give=_BUNDLE, get=_BUNDLE),
    "accept_trade": Kind(),
    "decline_trade": Kind(),
    "withdraw_trade": Kind(),
    "end_turn": Kind(),
}

_ID = Str(40)
_XY = {"x": OneOf((Int(-100_000, 100_000), Num())), "y": OneOf((Int(-100_000, 100_000), Num()))}
#: The shape of a board side (rules file 2.1) before ``board.validate_board`` checks its rules: ids are
#: strings and lists are bounded, so a malformed route or site is refused as edition data, never a crash.
BOARD_SHAPE = Shape(
    {
        "islands": ListOf(Shape({"id": OneOf((_ID, Null())), "resource": OneOf((_ID, Null())), **_XY}), max_len=64),
        "sites": MapOf(_ID, Shape({"islands": ListOf(_ID, max_len=8), **_XY}), max_len=256),
        "routes": MapOf(_ID, ListOf(_ID, max_len=4), max_len=512),
        "castle": Shape(_XY),
        "side": OneOf((_ID, Null())),
        "ghost_captain_start": _ID,
    },
    prefixed={"start_": MapOf(_ID, Shape({"lairs": ListOf(_ID, max_len=4), "ships": ListOf(_ID, max_len=4)}),
                              max_len=8)},
)
#: Table options holding edition data, checked for shape when a table or a profile is made.
OPTIONS_SCHEMA = {"board": OneOf((Null(), BOARD_SHAPE))}
