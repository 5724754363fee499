"""Frozen state of one Catan Junior playthrough, and its JSON conversion.

Count tuples follow fixed orders: resources in :data:`board.RESOURCES`
order, Coco kinds in the deck's order, die faces 1-6. Piece owners are
stored aligned with the board's ``sites`` / ``routes`` tuples (``None`` for
empty); ``castle`` is the owner of the CASTLE lair (rule CA). The JSON form
uses ids instead (``{"L03": 0}``), so snapshots are readable.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from shelf.catan_junior.board import RESOURCES, Board

#: Steps of a turn (``State.phase``).
ROLL = "roll"  # TU1: the turn opens with the die roll
GHOST = "ghost"  # GC1: a 6 was rolled; the active player moves the Ghost Captain
MAIN = "main"  # TU2: build, buy, trade, end the turn
COCO_GHOST = "coco_ghost"  # GC4: a Coco Ghost Captain tile is being resolved
COCO_BUILD = "coco_build"  # CO2: a Coco free build is being placed
TRADE = "trade"  # TR4: an offer waits for the other player's answer
OVER = "over"  # EN1
PHASES = (ROLL, GHOST, MAIN, COCO_GHOST, COCO_BUILD, TRADE, OVER)


@dataclass(frozen=True)
class Offer:
    """A pending player trade (TR4): ``offerer`` gives ``give`` and receives ``get`` from ``target``.

    Both are 5-tuples of counts in resource order.
    """

    offerer: int
    target: int
    give: tuple[int, ...]
    get: tuple[int, ...]


@dataclass(frozen=True)
class Production:
    """What the last roll of the game produced, kept until the next roll so every phone can show it (PR1, GC1).

    ``seat`` rolled ``roll``; ``paid`` is per seat a resource count tuple
    (for a 6: the 2 tokens of the Ghost Captain's new island, once moved);
    ``short`` the resources whose shortage (SH1) fired; ``ghost`` the island
    the Ghost Captain was moved to after a 6 (``None`` before he moves).
    """

    seat: int
    roll: int
    paid: tuple[tuple[int, ...], ...]
    short: tuple[str, ...] = ()
    ghost: str | None = None


@dataclass(frozen=True)
class CocoNews:
    """What the last Coco tile did, kept until the next roll so every phone can announce it (CO2, CA1).

    ``seat`` bought a tile of kind ``tile``. ``paid``: resource counts the
    buyer received (a resources tile, or the Ghost Captain's 2 tokens);
    ``short``: resources whose shortage (SH1) fired; ``ghost``: the island the
    Ghost Captain was moved to; ``built``: the site or route of the free
    build; ``build_lost``: a free build with no legal placement (CO2 [D]);
    ``castle_gained`` / ``castle_lost``: the seat that put a lair on the
    castle / took it back to stock (CA1).
    """

    seat: int
    tile: str
    paid: tuple[int, ...] = ()
    short: tuple[str, ...] = ()
    ghost: str | None = None
    built: str | None = None
    build_lost: bool = False
    castle_gained: int | None = None
    castle_lost: int | None = None


@dataclass(frozen=True)
class State:
    """One moment of the game.

    ``active``: seat whose turn it is. ``phase``: one of :data:`PHASES`.
    ``ghost``: island id or ``"castle"``. ``lairs``/``ships``: owner per site/route.
    ``castle``: owner of the CASTLE lair or ``None``. ``hands``: per seat a
    resource count tuple. ``supply``: the general supply (stockpile).
    ``market``: the five marketplace spaces (resource names). ``coco_stack``:
    tiles left per kind. ``coco_taken``: per seat, face-up tiles per kind.
    ``swapped``: the marketplace swap of this turn is used (TR1).
    ``frozen``: resources the supply may not pay again this turn (SH2).
    ``die_left``: faces still in the balanced-die deck (counts for 1-6).
    ``rolls``: histogram of rolls (counts for 1-6). ``last_roll``: this turn's roll.
    ``last_payout``: per seat, what the last roll/ghost/Coco paid (resource counts).
    ``last_shortage``: resources whose shortage (SH1) fired on the last payout.
    ``offer``: the pending trade offer. ``winner``: seat with 7 lairs (EN1).
    ``production``: what the last roll produced, kept until the next roll.
    ``coco_news``: what the last Coco tile did, kept until the next roll.
    ``turn``: 1-based turn counter.
    """

    active: int
    phase: str
    ghost: str
    lairs: tuple[int | None, ...]
    ships: tuple[int | None, ...]
    castle: int | None
    hands: tuple[tuple[int, ...], ...]
    supply: tuple[int, ...]
    market: tuple[str, ...]
    coco_stack: tuple[int, ...]
    coco_taken: tuple[tuple[int, ...], ...]
    swapped: bool = False
    frozen: frozenset[str] = frozenset()
    die_left: tuple[int, ...] = (1, 1, 1, 1, 1, 1)
    rolls: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
    last_roll: int | None = None
    last_payout: tuple[tuple[int, ...], ...] = ()
    last_shortage: tuple[str, ...] = ()
    offer: Offer | None = None
    winner: int | None = None
    turn: int = 1
    production: Production | None = None
    coco_news: CocoNews | None = None

    def lair_count(self, seat: int) -> int:
        """Lairs of ``seat`` on the board, the CASTLE lair included (BU5, EN1)."""
        return sum(1 for owner in self.lairs if owner == seat) + (1 if self.castle == seat else 0)

    def ship_count(self, seat: int) -> int:
        """Ships of ``seat`` on the board (BU5)."""
        return sum(1 for owner in self.ships if owner == seat)


def counts_to_dict(counts: tuple[int, ...]) -> dict[str, int]:
    """A resource count tuple as ``{"wood": n, ...}`` (all five keys)."""
    return dict(zip(RESOURCES, counts, strict=True))


def encode_state(state: State, board: Board, kinds: tuple[str, ...]) -> dict[str, Any]:
    """The state as a JSON-serialisable dict (snapshot format); inverse of :func:`decode_state`."""
    offer = state.offer
    return {
        "active": state.active,
        "phase": state.phase,
        "ghost": state.ghost,
        "lairs": {site: owner for site, owner in zip(board.sites, state.lairs, strict=True) if owner is not None},
        "ships": {route: owner for route, owner in zip(board.routes, state.ships, strict=True) if owner is not None},
        "castle": state.castle,
        "hands": [counts_to_dict(hand) for hand in state.hands],
        "supply": counts_to_dict(state.supply),
        "market": list(state.market),
        "coco_stack": dict(zip(kinds, state.coco_stack, strict=True)),
        "coco_taken": [dict(zip(kinds, taken, strict=True)) for taken in state.coco_taken],
        "swapped": state.swapped,
        "frozen": sorted(state.frozen),
        "die_left": list(state.die_left),
        "rolls": list(state.rolls),
        "last_roll": state.last_roll,
        "last_payout": [counts_to_dict(p) for p in state.last_payout],
        "last_shortage": list(state.last_shortage),
        "offer": offer_to_json(offer),
        "winner": state.winner,
        "turn": state.turn,
        "production": None if state.production is None else _encode_production(state.production),
        "coco_news": None if state.coco_news is None else _encode_coco_news(state.coco_news),
    }


def _encode_coco_news(news: CocoNews) -> dict[str, Any]:
    return {
        "seat": news.seat,
        "tile": news.tile,
        "paid": counts_to_dict(news.paid) if news.paid else None,
        "short": list(news.short),
        "ghost": news.ghost,
        "built": news.built,
        "build_lost": news.build_lost,
        "castle_gained": news.castle_gained,
        "castle_lost": news.castle_lost,
    }


def _decode_coco_news(raw: Mapping[str, Any] | None) -> CocoNews | None:
    if raw is None:
        return None
    return CocoNews(
        int(raw["seat"]),
        str(raw["tile"]),
        () if raw["paid"] is None else _counts(raw["paid"]),
        tuple(raw["short"]),
        raw["ghost"],
        raw["built"],
        bool(raw["build_lost"]),
        raw["castle_gained"],
        raw["castle_lost"],
    )


def _encode_production(production: Production) -> dict[str, Any]:
    return {
        "seat": production.seat,
        "roll": production.roll,
        "paid": [counts_to_dict(p) for p in production.paid],
        "short": list(production.short),
        "ghost": production.ghost,
    }


def _decode_production(raw: Mapping[str, Any] | None) -> Production | None:
    if raw is None:
        return None
    return Production(
        int(raw["seat"]),
        int(raw["roll"]),
        tuple(_counts(p) for p in raw["paid"]),
        tuple(raw["short"]),
        raw["ghost"],
    )


def _counts(raw: Mapping[str, int]) -> tuple[int, ...]:
    return tuple(int(raw[r]) for r in RESOURCES)


def decode_state(data: Mapping[str, Any], board: Board, kinds: tuple[str, ...]) -> State:
    """Rebuild a :class:`State` from :func:`encode_state` output (``decode(encode(s)) == s``)."""
    lairs, ships = data["lairs"], data["ships"]
    offer = data.get("offer")
    return State(
        active=int(data["active"]),
        phase=str(data["phase"]),
        ghost=str(data["ghost"]),
        lairs=tuple(lairs.get(site) for site in board.sites),
        ships=tuple(ships.get(route) for route in board.routes),
        castle=data["castle"],
        hands=tuple(_counts(hand) for hand in data["hands"]),
        supply=_counts(data["supply"]),
        market=tuple(data["market"]),
        coco_stack=tuple(int(data["coco_stack"][k]) for k in kinds),
        coco_taken=tuple(tuple(int(taken[k]) for k in kinds) for taken in data["coco_taken"]),
        swapped=bool(data["swapped"]),
        frozen=frozenset(data["frozen"]),
        die_left=tuple(data["die_left"]),
        rolls=tuple(data["rolls"]),
        last_roll=data["last_roll"],
        last_payout=tuple(_counts(p) for p in data["last_payout"]),
        last_shortage=tuple(data["last_shortage"]),
        offer=None
        if offer is None
        else Offer(int(offer["offerer"]), int(offer["target"]), _counts(offer["give"]), _counts(offer["get"])),
        winner=data["winner"],
        turn=int(data["turn"]),
        # Snapshots written before the field existed have no production yet.
        production=_decode_production(data.get("production")),
        coco_news=_decode_coco_news(data.get("coco_news")),
    )


def offer_to_json(offer: Any) -> dict[str, Any] | None:
    """A pending player trade as JSON (snapshot and public view alike), or ``None``."""
    if offer is None:
        return None
    return {"offerer": offer.offerer, "target": offer.target, "give": counts_to_dict(offer.give),
            "get": counts_to_dict(offer.get)}
