"""The per-seat view of Catan Junior (STYLE principle 7).

Everything in this game is public: tokens lie open in front of each player,
bought Coco tiles are face up, and the Coco stack is a multiset (only the
counts left are shown, which anyone can work out from the face-up tiles).
So every seat sees the same public view; there is no ``"private"`` key. The
view is still built here from named pieces, never by dumping the state. It is
made once per state object (:func:`public_view`) and every viewer's view holds
its very pieces, only ``viewer`` set apart: never mutate a view.

Drawing data: ``board.islands``/``sites``/``routes`` carry pixel positions
``px``/``py`` for a circumradius of 40 (2.1: ``x * 0.866 * R``, ``y * 0.5 * R``)
shifted so everything is positive; ``board.width``/``height`` give the viewBox.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, Protocol

from games.engines.base import SeatInfo, kept_view
from shelf.catan_junior.board import CASTLE, RESOURCES, Board
from shelf.catan_junior.rules import Ruleset, building, coco
from shelf.catan_junior.state import State, counts_to_dict, offer_to_json


class Table(Protocol):
    """What a view reads of the engine (``CatanJuniorGame`` is one): the table's fixed rules and its seats."""

    rules: Ruleset
    seats: tuple[SeatInfo, ...]


R = 40.0
MARGIN = 12.0


def _xy(x: float, y: float, min_x: float, min_y: float) -> tuple[float, float]:
    return round((x - min_x) * 0.866 * R + MARGIN, 1), round((y - min_y) * 0.5 * R + MARGIN, 1)


def board_drawing(game: Table, state: State) -> dict[str, Any]:
    """The board with owners and pixel positions (islands, sites, routes, castle, CASTLE lair)."""
    geometry = _geometry(game.rules.board)
    colours = game.rules.colours
    return {
        "side": geometry["side"],
        "width": geometry["width"],
        "height": geometry["height"],
        "islands": [{**island, "ghost": state.ghost == island["id"]} for island in geometry["islands"]],
        "sites": [
            {**site, "owner": owner, "colour": None if owner is None else colours[owner]}
            for site, owner in zip(geometry["sites"], state.lairs, strict=True)
        ],
        "routes": [
            {**route, "owner": owner, "colour": None if owner is None else colours[owner]}
            for route, owner in zip(geometry["routes"], state.ships, strict=True)
        ],
        "castle": {
            **geometry["castle"],
            "ghost": state.ghost == "castle",
            "owner": state.castle,
            "colour": None if state.castle is None else colours[state.castle],
        },
    }


def route_islands(board: Board, a: str, b: str) -> list[str]:
    """The islands a route runs along: those touching both its ends (a coast route has one)."""
    ends_a, ends_b = set(board.site_islands[a]), set(board.site_islands[b])
    return [i for i in board.island_ids if i in (ends_a & ends_b or ends_a | ends_b)]


def _places(board: Board, island_ids: Sequence[str]) -> list[dict[str, Any]]:
    """Islands as ``{"resource", "number"}`` so a button can show where a piece goes as pictures."""
    return [{"resource": board.island(i).resource, "number": board.island(i).number} for i in island_ids]


@cache
def _geometry(board: Board) -> dict[str, Any]:
    """Pixel positions of one board side, computed once (the board never changes)."""
    # Hex corners lie 1 unit left/right and 2 units up/down of an island's centre (2.1).
    xs = [i.x + d for i in board.islands for d in (-1, 1)] + [xy[0] for xy in board.site_xy.values()]
    ys = [i.y + d for i in board.islands for d in (-2, 2)] + [xy[1] for xy in board.site_xy.values()]
    xs += [board.castle_xy[0] - 0.6, board.castle_xy[0] + 1]  # room for the castle and the Ghost Captain beside it
    ys += [board.castle_xy[1] - 1.6, board.castle_xy[1] + 1.6]
    min_x, min_y = min(xs) - 0.1, min(ys) - 0.4
    max_x, max_y = max(xs) + 0.1, max(ys) + 0.4
    right, bottom = _xy(max_x, max_y, min_x, min_y)
    width, height = round(right + MARGIN, 1), round(bottom + MARGIN, 1)  # the same margin on every side
    islands = []
    for island in board.islands:
        px, py = _xy(island.x, island.y, min_x, min_y)
        islands.append(
            {
                "id": island.id,
                "resource": island.resource,
                "number": island.number,
                "px": px,
                "py": py,
                "corners": " ".join(
                    f"{px + dx * 0.866 * R:.1f},{py + dy * 0.5 * R:.1f}"
                    for dx, dy in ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))
                ),
            }
        )
    site_px = {site: _xy(*board.site_xy[site], min_x, min_y) for site in board.sites}
    sites = [
        {
            "id": site,
            "px": site_px[site][0],
            "py": site_px[site][1],
            "islands": tuple(board.site_islands[site]),
            "places": _places(board, board.site_islands[site]),
        }
        for site in board.sites
    ]
    routes = []
    for route in board.routes:
        a, b = board.route_ends[route]
        routes.append(
            {
                "id": route,
                "ends": (a, b),
                "x1": site_px[a][0],
                "y1": site_px[a][1],
                "x2": site_px[b][0],
                "y2": site_px[b][1],
                "mx": round((site_px[a][0] + site_px[b][0]) / 2, 1),
                "my": round((site_px[a][1] + site_px[b][1]) / 2, 1),
                "places": _places(board, route_islands(board, a, b)),
            }
        )
    cx, cy = _xy(*board.castle_xy, min_x, min_y)
    return {
        "side": board.side,
        "width": width,
        "height": height,
        "islands": islands,
        "sites": sites,
        "routes": routes,
        "castle": {"px": cx, "py": cy, "lair_site": CASTLE},
    }


def tokens(counts: tuple[int, ...]) -> list[str]:
    """A count tuple as one resource name per token, in resource order: ``["wood", "wood", "gold"]``."""
    return [r for r, n in zip(RESOURCES, counts, strict=True) for _ in range(n)]


#: Histogram drawing (viewBox 0 0 240 120): bar slot width, tallest bar, bar base line.
BAR_SLOT, BAR_MAX, BAR_BASE = 40, 70, 86


def histogram_bars(rolls: tuple[int, ...]) -> list[dict[str, Any]]:
    """Die faces 1-6: roll count, percent of the most rolled face, and the bar's ``x``/``y``/``h`` to draw."""
    top = max(rolls) or 1
    bars = []
    for face, n in enumerate(rolls, start=1):
        h = round(BAR_MAX * n / top)
        x = (face - 1) * BAR_SLOT
        bars.append({"face": face, "count": n, "pct": round(100 * n / top), "x": x, "y": BAR_BASE - h, "h": h})
    return bars


def production_news(game: Table, state: State) -> dict[str, Any] | None:
    """What the last roll produced, for every phone: ``{seat, name, roll, ghost, short, paid}``.

    ``paid`` lists only the seats that received something, each as
    ``{seat, name, colour, tokens}``; ``ghost`` is the island the Ghost
    Captain went to after a 6 (``None`` while he waits to be moved).
    """
    news = state.production
    if news is None:
        return None
    colours = game.rules.colours
    paid = [
        {"seat": s, "name": game.seats[s].name, "colour": colours[s], "tokens": tokens(counts)}
        for s, counts in enumerate(news.paid)
        if any(counts)
    ]
    return {
        "seat": news.seat,
        "name": game.seats[news.seat].name,
        "colour": colours[news.seat],
        "roll": news.roll,
        "ghost": news.ghost,
        "short": list(news.short),
        "paid": paid,
    }


def coco_news(game: Table, state: State) -> dict[str, Any] | None:
    """What the last Coco tile did, for every phone (CO2, CA1); ``None`` once the next roll is made.

    ``{seat, name, colour, tile, effect, take, tokens, short, ghost, built,
    build_lost, castle_gained, castle_lost}``: ``take`` the tokens printed on a
    resources tile, ``tokens`` what the buyer really got (a shortage may cut
    it), ``ghost`` the island ``{resource, number}`` the Ghost Captain went
    to, ``built`` ``{piece, places}`` of the free build, ``castle_gained`` /
    ``castle_lost`` ``{seat, name, colour}`` of the castle lair's change.
    """
    news = state.coco_news
    if news is None:
        return None
    rs = game.rules
    board = rs.board
    kind = rs.deck.kinds[rs.deck.names.index(news.tile)]
    built = None
    if news.built in board.site_islands:
        built = {"piece": "lair", "places": _places(board, board.site_islands[news.built])}
    elif news.built in board.route_ends:
        built = {"piece": "ship", "places": _places(board, route_islands(board, *board.route_ends[news.built]))}
    ghost = None
    if news.ghost is not None and news.ghost != "castle":
        ghost = _places(board, [news.ghost])[0]

    def who(seat: int | None) -> dict[str, Any] | None:
        return None if seat is None else {"seat": seat, "name": game.seats[seat].name, "colour": rs.colours[seat]}

    return {
        **(who(news.seat) or {}),
        "tile": news.tile,
        "effect": kind.effect,
        "take": tokens(kind.take),
        "tokens": tokens(news.paid) if news.paid else [],
        "short": list(news.short),
        "ghost": ghost,
        "ghost_moved": news.ghost is not None,
        "built": built,
        "build_lost": news.build_lost,
        "castle_gained": who(news.castle_gained),
        "castle_lost": who(news.castle_lost),
    }


def build_view(game: Table, state: State, seat: int | None) -> dict[str, Any]:
    """The view for ``seat`` (``None``: table screen). The same public data for every viewer.

    Keys: ``edition`` {name, verified}, ``phase``, ``active``, ``turn``,
    ``board``, ``ghost``, ``players`` (per seat: name, colour, resources,
    lairs/ships on board and in stock, coco tiles by kind, castle),
    ``supply``, ``market``, ``coco`` {left, by_kind}, ``swapped``,
    ``frozen``, ``dice`` {last, histogram, balanced, faces_left},
    ``last_payout``, ``last_shortage``, ``offer``, ``winner``; for drawing:
    ``production`` (what the last roll paid, kept until the next roll, see
    :func:`production_news`), ``coco_news`` (what the last Coco tile did, see
    :func:`coco_news`), ``market_spaces`` (each space once per token
    type: ``first`` marks the first space holding it, so equal swaps show one
    button), ``dice.bars`` (histogram bars scaled to the highest count) and
    ``coco.kinds`` (effect and tokens of each kind).

    A new dictionary per call: the public view (:func:`public_view`) with ``viewer`` set, whose pieces are the
    objects made once for ``state``: every seat's view shares them (read them, never mutate them).
    """
    view = dict(public_view(game, state))
    view["viewer"] = seat
    return view


def public_view(game: Table, state: State) -> dict[str, Any]:
    """The view of ``state`` every viewer shares (``viewer`` is ``None`` in it), made once per state object and kept
    on ``game`` (the last one asked; ``state``, the rules and the seats compared by identity). Never mutate it."""
    return kept_view(game, (state, game.rules, game.seats), (), lambda: _build_public(game, state))


def _build_public(game: Table, state: State) -> dict[str, Any]:
    rs = game.rules
    names = rs.deck.names
    players = []
    for s, info in enumerate(game.seats):
        players.append(
            {
                "seat": s,
                "name": info.name,
                "colour": rs.colours[s],
                "resources": counts_to_dict(state.hands[s]),
                "tokens": tokens(state.hands[s]),
                "total": sum(state.hands[s]),
                "lairs": state.lair_count(s),
                "ships": state.ship_count(s),
                "lairs_in_stock": building.lair_stock(state, s),
                "ships_in_stock": building.ship_stock(rs, state, s),
                "coco": dict(zip(names, state.coco_taken[s], strict=True)),
                "coco_total": sum(state.coco_taken[s]),
                "castle": state.castle == s,
                "active": s == state.active,
            }
        )
    offer = state.offer
    return {
        "edition": {"name": rs.deck.name, "verified": rs.deck.verified, "colours": list(rs.colours)},
        "viewer": None,
        "phase": state.phase,
        "active": state.active,
        "turn": state.turn,
        "ghost": state.ghost,
        "board": board_drawing(game, state),
        "players": players,
        "resources": list(RESOURCES),
        "supply": counts_to_dict(state.supply),
        "market": list(state.market),
        "swapped": state.swapped,
        "frozen": sorted(state.frozen),
        "coco": {
            "left": coco.tiles_left(state),
            "by_kind": dict(zip(names, state.coco_stack, strict=True)),
            "kinds": [
                {"name": kind.name, "effect": kind.effect, "take": tokens(kind.take), "left": left}
                for kind, left in zip(rs.deck.kinds, state.coco_stack, strict=True)
            ],
        },
        "market_spaces": [
            {"space": i, "resource": r, "first": r not in state.market[:i]} for i, r in enumerate(state.market)
        ],
        "production": production_news(game, state),
        "coco_news": coco_news(game, state),
        "dice": {
            "last": state.last_roll,
            "histogram": {str(face): n for face, n in enumerate(state.rolls, start=1)},
            "balanced": rs.balanced_die,
            "faces_left": [f for f, n in enumerate(state.die_left, start=1) if n > 0] if rs.balanced_die else None,
            "bars": histogram_bars(state.rolls),
            "total": sum(state.rolls),
        },
        "last_payout": [counts_to_dict(p) for p in state.last_payout],
        "last_shortage": list(state.last_shortage),
        "offer": offer_to_json(offer),
        "winner": state.winner,
    }
