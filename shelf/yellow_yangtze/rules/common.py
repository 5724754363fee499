"""Shared pieces: the table context, occupancy, groups and states (rules file §2)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from games.engines.base import IllegalAction

from ..board import Board, triangles_of
from ..state import COLOURS, Hex, State, add

LEADER_COLOURS = COLOURS


@dataclass(frozen=True)
class Ctx:
    """What the rules need besides the state: the board, seat count and options (never stored in state)."""

    board: Board
    n: int
    opt: dict[str, Any] = field(compare=False)

    @property
    def physical(self) -> bool:
        """Players type in chance outcomes (§ engine contract)."""
        return self.opt.get("components") == "physical"


def illegal(code: str, message: str, **details: Any) -> IllegalAction:
    """Shorthand for an :class:`IllegalAction`."""
    return IllegalAction(code, message, **details)


def require(cond: bool, code: str, message: str, **details: Any) -> None:
    """Raise ``IllegalAction(code, message)`` unless ``cond``."""
    if not cond:
        raise IllegalAction(code, message, **details)


def tile_map(s: State) -> dict[Hex, str]:
    """Hex -> tile colour."""
    return dict(s.tiles)


def leader_map(s: State) -> dict[Hex, tuple[int, str]]:
    """Hex -> (seat, colour) of the leader standing there."""
    return {h: (seat, c) for seat, c, h in s.leaders}


def leader_hex(s: State, seat: int, colour: str) -> Hex | None:
    """Where ``seat``'s ``colour`` leader stands, or ``None`` if it is in hand."""
    for st, c, h in s.leaders:
        if st == seat and c == colour:
            return h
    return None


def in_hand(s: State, seat: int, colour: str) -> bool:
    """True when ``seat``'s ``colour`` leader is off the board (§1.1)."""
    return leader_hex(s, seat, colour) is None


def groups(ctx: Ctx, occupied: Iterable[Hex]) -> dict[Hex, int]:
    """Label each occupied hex with its group number (§2: tiles and leaders connect)."""
    occ = set(occupied)
    label: dict[Hex, int] = {}
    nb = ctx.board.neighbours
    k = 0
    for h in occ:
        if h in label:
            continue
        label[h] = k
        todo = [h]
        while todo:
            x = todo.pop()
            for y in nb[x]:
                if y in occ and y not in label:
                    label[y] = k
                    todo.append(y)
        k += 1
    return label


def members(label: dict[Hex, int]) -> dict[int, set[Hex]]:
    """Group number -> its hexes."""
    out: dict[int, set[Hex]] = {}
    for h, k in label.items():
        out.setdefault(k, set()).add(h)
    return out


def group_of(ctx: Ctx, occupied: set[Hex], h: Hex) -> set[Hex]:
    """The group containing ``h`` (``h`` must be occupied)."""
    seen = {h}
    todo = [h]
    nb = ctx.board.neighbours
    while todo:
        x = todo.pop()
        for y in nb[x]:
            if y in occupied and y not in seen:
                seen.add(y)
                todo.append(y)
    return seen


def occupied(s: State) -> set[Hex]:
    """Every hex holding a tile or a leader."""
    return {h for h, _ in s.tiles} | {h for _, _, h in s.leaders}


def joined_states(ctx: Ctx, s: State, h: Hex, lmap: dict[Hex, tuple[int, str]], label: dict[Hex, int],
                  mem: dict[int, set[Hex]]) -> list[set[Hex]]:
    """The states (groups with a leader) next to the empty hex ``h``, each as its hex set (§2)."""
    seen: set[int] = set()
    out = []
    for n in ctx.board.neighbours[h]:
        k = label.get(n)
        if k is None or k in seen:
            continue
        seen.add(k)
        if any(x in lmap for x in mem[k]):
            out.append(mem[k])
    return out


def leader_colours(hexes: Iterable[Hex], lmap: dict[Hex, tuple[int, str]]) -> list[tuple[int, str, Hex]]:
    """Leaders standing on ``hexes``: ``(seat, colour, hex)``."""
    return [(lmap[h][0], lmap[h][1], h) for h in hexes if h in lmap]


def has_black_neighbour(ctx: Ctx, tmap: dict[Hex, str], h: Hex) -> bool:
    """True when a black tile touches ``h`` (§4.1 check 3)."""
    return any(tmap.get(n) == "black" for n in ctx.board.neighbours[h])


def under_pagoda(s: State) -> set[Hex]:
    """Hexes whose tile carries a pagoda."""
    return {h for _, tri in s.pagodas for h in tri}


def free_triangles(ctx: Ctx, s: State, h: Hex, tmap: dict[Hex, str] | None = None) -> list[tuple[Hex, Hex, Hex]]:
    """Triangles through ``h`` of three same-coloured tiles, none under a pagoda (§4.5, §4.6, E20)."""
    tmap = tmap if tmap is not None else tile_map(s)
    colour = tmap.get(h)
    if colour is None:
        return []
    covered = under_pagoda(s)
    return [tri for tri in triangles_of(h) if all(tmap.get(x) == colour and x not in covered for x in tri)]


def give_point(s: State, seat: int, colour: str, n: int = 1) -> State:
    """``seat`` gains ``n`` points of ``colour`` (behind their screen)."""
    pts = list(s.points)
    pts[seat] = add(pts[seat], colour, n)
    return replace(s, points=tuple(pts))


def hand_add(s: State, seat: int, colour: str, n: int = 1) -> State:
    """``seat``'s hand with ``n`` more tiles of ``colour`` (negative: fewer)."""
    hands = list(s.hands)
    hands[seat] = add(hands[seat], colour, n)
    return replace(s, hands=tuple(hands))


def remove_tiles(s: State, hexes: Iterable[Hex]) -> State:
    """Take the tiles on ``hexes`` off the board into the box; pagodas on them go back to the supply (§4.4, §5.3)."""
    gone = set(hexes)
    if not gone:
        return s
    box = s.box
    for h, c in s.tiles:
        if h in gone:
            box = add(box, c)
    supply = s.pagoda_supply
    pagodas = []
    for c, tri in s.pagodas:
        if gone & set(tri):
            supply = add(supply, c)
        else:
            pagodas.append((c, tri))
    return replace(s, tiles=tuple(t for t in s.tiles if t[0] not in gone), box=box, pagoda_supply=supply,
                   pagodas=tuple(pagodas))


def remove_leaders(s: State, keys: Iterable[tuple[int, str]]) -> State:
    """Send the leaders ``(seat, colour)`` back to their owners' hands."""
    ks = set(keys)
    return replace(s, leaders=tuple(x for x in s.leaders if (x[0], x[1]) not in ks))


def put_leader(s: State, seat: int, colour: str, h: Hex) -> State:
    """Stand ``seat``'s ``colour`` leader on ``h`` (lifting it first if it is on the board)."""
    rest = [x for x in s.leaders if not (x[0] == seat and x[1] == colour)]
    return replace(s, leaders=tuple(sorted([*rest, (seat, colour, h)])))


def return_unsupported(ctx: Ctx, s: State) -> State:
    """Every leader with no black tile next to it goes home at once (§4.1 "Leader support")."""
    tmap = tile_map(s)
    gone = [(seat, c) for seat, c, h in s.leaders if not has_black_neighbour(ctx, tmap, h)]
    return remove_leaders(s, gone) if gone else s


def duplicate_states(ctx: Ctx, s: State) -> list[set[Hex]]:
    """States holding two leaders of one colour (must be empty in every legal position, §2)."""
    lmap = leader_map(s)
    label = groups(ctx, occupied(s))
    out = []
    for hexes in members(label).values():
        cols = [lmap[h][1] for h in hexes if h in lmap]
        if len(cols) != len(set(cols)):
            out.append(hexes)
    return out

