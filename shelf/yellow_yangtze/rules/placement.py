"""The five actions (§4): position a leader, place a tile (with the blue chain and the
green market bonus), Peasants' Revolt, build a pagoda with green, swap tiles."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.engines.base import gettext_noop

from ..actions import tri_json
from ..board import triangles_of
from ..state import CI, COLOURS, FollowUp, Hex, Revolt, State, add, counts_of, plus
from .common import (
    LEADER_COLOURS,
    Ctx,
    free_triangles,
    give_point,
    group_of,
    groups,
    hand_add,
    has_black_neighbour,
    in_hand,
    leader_hex,
    leader_map,
    members,
    occupied,
    put_leader,
    remove_tiles,
    require,
    return_unsupported,
    tile_map,
    under_pagoda,
)
from .conflicts import start_war, war_sides
from .turn import finish_action, start_draws

MSG_OFF_BOARD = gettext_noop("Rules §3: that hex is not on the board.")
MSG_OCCUPIED = gettext_noop("Rules §4.1/§4.2: the hex must be empty.")

# -- §4.1 position a leader --------------------------------------------------------


class LeaderEnv:
    """Occupancy with one leader lifted (E5), computed once for many target hexes.

    ``unlifted`` is an env of the same state whose leader is in hand (nothing lifted): a leader also in hand sees
    the same occupancy and states, taken from it instead of labelled again (the legal list asks for every colour).
    """

    def __init__(self, ctx: Ctx, s: State, seat: int, colour: str, unlifted: LeaderEnv | None = None) -> None:
        self.ctx, self.seat, self.colour = ctx, seat, colour
        self.origin = leader_hex(s, seat, colour)
        if unlifted is not None and unlifted.origin is None and self.origin is None:
            self.tmap, self.lmap, self.occ, self.label, self.mem = (unlifted.tmap, unlifted.lmap, unlifted.occ,
                                                                    unlifted.label, unlifted.mem)
            return
        self.tmap = tile_map(s)
        self.lmap = leader_map(s)
        if self.origin is not None:
            del self.lmap[self.origin]
        self.occ = set(self.tmap) | set(self.lmap)
        self.label = groups(ctx, self.occ)
        self.mem = members(self.label)

    def check(self, h: Hex, by_black: bool = False) -> tuple[str | None, Hex | None]:
        """``(error code or None, hex of the defender if this starts a revolt)`` for target ``h`` (§4.1).

        ``by_black``: the caller knows a black tile touches ``h`` (check 3 holds), so it is not looked at again.
        """
        board = self.ctx.board
        if h not in board.neighbours:
            return "hex_off_board", None
        if h == self.origin:
            return "leader_same_hex", None
        if h in self.occ:
            return "hex_occupied", None
        if h in board.river:
            return "leader_on_river", None
        if not by_black and not has_black_neighbour(self.ctx, self.tmap, h):
            return "leader_needs_black", None
        seen: set[int] = set()
        states: list[list[tuple[str, Hex]]] = []
        for n in board.neighbours[h]:
            k = self.label.get(n)
            if k is None or k in seen:
                continue
            seen.add(k)
            ls = [(self.lmap[x][1], x) for x in self.mem[k] if x in self.lmap]
            if ls:
                states.append(ls)
        own = [x for ls in states for c, x in ls if c == self.colour]
        if len(states) >= 2:
            cols = [c for ls in states for c, _ in ls]
            if len(cols) != len(set(cols)):
                return "leader_joins_conflict", None
            if own and self.ctx.opt["leader_join_own_colour"] == "forbidden":
                return "leader_joins_conflict", None
        return None, (own[0] if own else None)


LEADER_MESSAGES = {
    "hex_off_board": MSG_OFF_BOARD,
    "leader_same_hex": gettext_noop("Rules §4.1: the leader already stands there."),
    "hex_occupied": MSG_OCCUPIED,
    "leader_on_river": gettext_noop("Rules §4.1: leaders stand on land, never on a river hex."),
    "leader_needs_black": gettext_noop("Rules §4.1: a leader must stand next to a black tile."),
    "leader_joins_conflict": gettext_noop(
        "Rules §4.1 (E9): a leader may not join states that would then hold two leaders of one colour."
    ),
}


def position_leader(ctx: Ctx, s: State, seat: int, colour: str, h: Hex) -> State:
    """Place ``seat``'s ``colour`` leader from hand, or move it, to ``h`` (§4.1); may start a revolt (§5.2)."""
    env = LeaderEnv(ctx, s, seat, colour)
    code, defender_hex = env.check(h)
    if code:
        require(False, code, LEADER_MESSAGES[code])
    s = put_leader(s, seat, colour, h)
    if defender_hex is None:
        return finish_action(ctx, s)
    defender = env.lmap[defender_hex][0]
    return replace(s, pending=Revolt(colour, seat, defender, h, defender_hex, "attacker"))


def withdraw_leader(ctx: Ctx, s: State, seat: int, colour: str) -> State:
    """Take a leader from the board back to hand (§4.1; always legal)."""
    require(not in_hand(s, seat, colour), "leader_not_on_board",
            gettext_noop("Rules §4.1: that leader is not on the board."))
    s = replace(s, leaders=tuple(x for x in s.leaders if not (x[0] == seat and x[1] == colour)))
    return finish_action(ctx, s)


# -- §4.2 place a tile -----------------------------------------------------------


def tile_target_code(ctx: Ctx, s: State, colour: str, h: Hex, occ: set[Hex]) -> str | None:
    """Why ``colour`` may not go on ``h`` (§4.2 step 1), or ``None``."""
    board = ctx.board
    if h not in board.neighbours:
        return "hex_off_board"
    if h in occ:
        return "hex_occupied"
    if colour == "blue" and h not in board.river:
        return "blue_tile_not_on_river"
    if colour != "blue" and h in board.river:
        return "tile_not_on_land"
    return None


TILE_MESSAGES = {
    "hex_off_board": MSG_OFF_BOARD,
    "hex_occupied": MSG_OCCUPIED,
    "blue_tile_not_on_river": gettext_noop("Rules §4.2: blue tiles go only on river hexes."),
    "tile_not_on_land": gettext_noop("Rules §4.2: only blue tiles may go on river hexes."),
}


def place_tile(ctx: Ctx, s: State, seat: int, colour: str, h: Hex) -> State:
    """Place a tile from hand (§4.2): war if it joins states with a shared leader colour, else score it.

    Scoring: the state's leader of the tile's colour, else its black leader,
    gives its owner 1 point of the tile's colour (E17, E18). Then the optional
    follow-ups: market tile (green), pagoda (§4.6), blue chain (§4.3).
    """
    require(s.hands[seat][CI[colour]] > 0, "tile_not_in_hand",
            gettext_noop("Rules §4.2: you have no {colour} tile in hand."), colour=colour)
    code = tile_target_code(ctx, s, colour, h, occupied(s))
    if code:
        require(False, code, TILE_MESSAGES[code])
    s = hand_add(s, seat, colour, -1)
    s = replace(s, tiles=tuple(sorted([*s.tiles, (h, colour)])))
    sides = war_sides(ctx, s, h)
    if sides:
        return start_war(ctx, s, seat, h, sides)
    lmap = leader_map(s)
    group = group_of(ctx, occupied(s), h)
    here = {lmap[x][1]: lmap[x][0] for x in group if x in lmap}
    if colour in here:
        s = give_point(s, here[colour], colour)
    elif "black" in here:
        s = give_point(s, here["black"], colour)
    return next_stage(ctx, s, FollowUp(h, colour, "market"))


STAGES = ("market", "pagoda", "chain")


def chain_targets(ctx: Ctx, s: State, fu: FollowUp) -> list[Hex]:
    """Empty river hexes next to the blue tile placed just before (§4.3)."""
    occ = occupied(s)
    return [n for n in ctx.board.neighbours[fu.hex] if n in ctx.board.river and n not in occ]


def next_stage(ctx: Ctx, s: State, fu: FollowUp) -> State:
    """Move to the first follow-up from ``fu.stage`` on that applies; none left ends the action."""
    for stage in STAGES[STAGES.index(fu.stage):]:
        if stage == "market" and fu.colour == "green" and sum(s.market) > 0:
            return replace(s, pending=replace(fu, stage="market"))
        if stage == "pagoda" and free_triangles(ctx, s, fu.hex):
            return replace(s, pending=replace(fu, stage="pagoda"))
        if (
            stage == "chain"
            and fu.colour == "blue"
            and s.hands[s.active][CI["blue"]] > 0
            and not (fu.pagoda_declined and ctx.opt["chain_after_declined_pagoda"] == "stop")
            and chain_targets(ctx, s, fu)
        ):
            return replace(s, pending=replace(fu, stage="chain"))
    return finish_action(ctx, s)


def chain_tile(ctx: Ctx, s: State, seat: int, colour: str, h: Hex) -> State:
    """Place the next blue tile of a farmer chain (§4.3)."""
    fu = s.pending
    assert isinstance(fu, FollowUp)
    require(colour == "blue", "chain_only_blue", gettext_noop("Rules §4.3: a farmer chain continues only with blue."))
    require(h in ctx.board.neighbours[fu.hex], "chain_not_adjacent",
            gettext_noop("Rules §4.3: the next blue tile must touch the blue tile placed just before."))
    return place_tile(ctx, s, seat, colour, h)


def take_market(ctx: Ctx, s: State, seat: int, colour: str) -> State:
    """Green bonus: move one face-up market tile into hand (§4.2 step 4); the gap waits for §6."""
    fu = s.pending
    assert isinstance(fu, FollowUp)
    require(s.market[CI[colour]] > 0, "not_in_market", gettext_noop("Rules §4.2: the market has no {colour} tile."),
            colour=colour)
    s = replace(s, market=add(s.market, colour, -1))
    s = hand_add(s, seat, colour)
    return next_stage(ctx, s, replace(fu, stage="pagoda"))


def decline(ctx: Ctx, s: State) -> State:
    """Skip the current optional follow-up (market tile, pagoda, further blue)."""
    fu = s.pending
    assert isinstance(fu, FollowUp)
    if fu.stage == "market":
        return next_stage(ctx, s, replace(fu, stage="pagoda"))
    if fu.stage == "pagoda":
        return next_stage(ctx, s, replace(fu, stage="chain", pagoda_declined=True))
    return finish_action(ctx, s)


# -- pagodas (§4.5, §4.6) ------------------------------------------------------------


def pagoda_sources(s: State, colour: str) -> list[tuple[Hex, Hex, Hex] | None]:
    """Where a new pagoda of ``colour`` comes from: the supply (``None``), else each one on the board."""
    if s.pagoda_supply[CI[colour]] > 0:
        return [None]
    return [tri for c, tri in s.pagodas if c == colour]


def put_pagoda(s: State, colour: str, tri: tuple[Hex, Hex, Hex], frm: tuple[Hex, Hex, Hex] | None) -> State:
    """Build a pagoda of ``colour`` on ``tri``: from the supply, or moved from ``frm`` when the supply is out."""
    require(frm in pagoda_sources(s, colour), "pagoda_source",
            gettext_noop("Rules §4.6: take the pagoda from the supply; only when the supply has none of that "
                         "colour, move one of that colour from the board (name its triangle in \"from\")."))
    if frm is None:
        supply = add(s.pagoda_supply, colour, -1)
        rest = list(s.pagodas)
    else:
        supply = s.pagoda_supply
        rest = [p for p in s.pagodas if p != (colour, frm)]
    return replace(s, pagoda_supply=supply, pagodas=tuple(sorted([*rest, (colour, tri)])))


def followup_pagoda(ctx: Ctx, s: State, tri: tuple[Hex, Hex, Hex], frm: tuple[Hex, Hex, Hex] | None) -> State:
    """Build the free pagoda offered after a placement (§4.6); it ends a farmer chain (§4.3, E15)."""
    fu = s.pending
    assert isinstance(fu, FollowUp)
    require(tri in free_triangles(ctx, s, fu.hex), "no_triangle",
            gettext_noop("Rules §4.6: the pagoda needs a triangle of three same-coloured tiles including the tile "
                         "just placed, none of them under a pagoda."))
    s = put_pagoda(s, fu.colour, tri, frm)
    return finish_action(ctx, s)


def is_free_triangle(s: State, tri: tuple[Hex, Hex, Hex]) -> str | None:
    """The colour of a triangle of three same-coloured tiles with no pagoda on any of them, else ``None``."""
    if tri not in triangles_of(tri[0]):
        return None
    tmap = tile_map(s)
    covered = under_pagoda(s)
    cols = {tmap.get(h) for h in tri}
    if len(cols) != 1 or None in cols or covered & set(tri):
        return None
    return next(iter(cols))  # type: ignore[return-value]


def build_pagoda(ctx: Ctx, s: State, seat: int, tri: tuple[Hex, Hex, Hex], leader: bool,
                 frm: tuple[Hex, Hex, Hex] | None) -> State:
    """Action D: discard 2 green (or 1 green + the off-board green leader) and build on any free triangle (§4.5)."""
    green = s.hands[seat][CI["green"]]
    if leader:
        require(in_hand(s, seat, "green") and green >= 1, "pagoda_cost",
                gettext_noop("Rules §4.5: you need 1 green tile and your green leader off the board."))
    else:
        require(green >= 2, "pagoda_cost", gettext_noop("Rules §4.5: you need 2 green tiles."))
    colour = is_free_triangle(s, tri)
    require(colour is not None, "no_triangle",
            gettext_noop("Rules §4.5: pick three touching tiles of one colour, none of them under a pagoda."))
    assert colour is not None
    cost = 1 if leader else 2
    s = hand_add(s, seat, "green", -cost)
    s = replace(s, box=add(s.box, "green", cost))
    s = put_pagoda(s, colour, tri, frm)
    return finish_action(ctx, s)


# -- §4.4 Peasants' Revolt, §4.7 swap ------------------------------------------------


def peasants(ctx: Ctx, s: State, seat: int, h: Hex, leader: bool) -> State:
    """Discard 2 blue (or 1 blue + off-board blue leader) and remove any one tile (§4.4, E12).

    Leaders left without a black neighbour go home; a pagoda on the tile goes
    back to the supply; no conflict can follow.
    """
    blue = s.hands[seat][CI["blue"]]
    if leader:
        require(in_hand(s, seat, "blue") and blue >= 1, "peasants_cost",
                gettext_noop("Rules §4.4: you need 1 blue tile and your blue leader off the board."))
    else:
        require(blue >= 2, "peasants_cost", gettext_noop("Rules §4.4: you need 2 blue tiles."))
    require(h in tile_map(s), "no_tile_there", gettext_noop("Rules §4.4: the Peasants' Revolt removes a tile."))
    cost = 1 if leader else 2
    s = hand_add(s, seat, "blue", -cost)
    s = replace(s, box=add(s.box, "blue", cost))
    s = remove_tiles(s, [h])
    s = return_unsupported(ctx, s)
    return finish_action(ctx, s)


def swap(ctx: Ctx, s: State, seat: int, tiles: list[str]) -> State:
    """Discard 1-6 tiles face down and draw as many (§4.7); the draw is a chance step."""
    require(1 <= len(tiles) <= 6, "swap_count", gettext_noop("Rules §4.7: swap 1 to 6 tiles."))
    out = counts_of(tiles)
    require(all(o <= h for o, h in zip(out, s.hands[seat], strict=True)), "tile_not_in_hand",
            gettext_noop("Rules §4.7: you can only swap tiles from your hand."))
    hands = list(s.hands)
    hands[seat] = plus(hands[seat], out, -1)
    s = replace(s, hands=tuple(hands), box=plus(s.box, out))
    return start_draws(ctx, s, ((seat, "swap", len(tiles)),), "action")


# -- legal lists --------------------------------------------------------------------


def main_actions(ctx: Ctx, s: State, seat: int) -> list[dict[str, Any]]:
    """Every action the active player may start (§4: A-E), ``pass`` only when there is none."""
    out: list[dict[str, Any]] = []
    board = ctx.board
    tmap = tile_map(s)
    occ = occupied(s)
    hand = s.hands[seat]
    # A: leaders. Targets are empty land hexes touching a black tile.
    black_nbrs = sorted({n for h, c in tmap.items() if c == "black" for n in board.neighbours[h]
                         if n in board.land and n not in tmap})
    unlifted: LeaderEnv | None = None  # the env of a leader in hand: every other leader in hand shares it
    for colour in LEADER_COLOURS:
        env = LeaderEnv(ctx, s, seat, colour, unlifted)
        if env.origin is not None:
            out.append({"kind": "withdraw", "colour": colour})
        elif unlifted is None:
            unlifted = env
        for h in black_nbrs:
            if env.check(h, by_black=True)[0] is None:
                out.append({"kind": "leader", "colour": colour, "hex": list(h)})
    # B: tiles.
    free_land = sorted(board.land - occ)
    free_river = sorted(board.river - occ)
    for i, colour in enumerate(COLOURS):
        if hand[i]:
            for h in free_river if colour == "blue" else free_land:
                out.append({"kind": "tile", "colour": colour, "hex": list(h)})
    # C: Peasants' Revolt.
    blue = hand[CI["blue"]]
    variants = ([False] if blue >= 2 else []) + ([True] if blue >= 1 and in_hand(s, seat, "blue") else [])
    for h in sorted(tmap):
        for leader in variants:
            out.append({"kind": "peasants", "hex": list(h), "leader": leader})
    # D: build a pagoda.
    green = hand[CI["green"]]
    variants = ([False] if green >= 2 else []) + ([True] if green >= 1 and in_hand(s, seat, "green") else [])
    if variants:
        tris = sorted({tri for h in tmap for tri in free_triangles(ctx, s, h, tmap)})
        for tri in tris:
            for frm in pagoda_sources(s, tmap[tri[0]]):
                for leader in variants:
                    a: dict[str, Any] = {"kind": "build_pagoda", "triangle": tri_json(tri), "leader": leader}
                    if frm is not None:
                        a["from"] = tri_json(frm)
                    out.append(a)
    # E: swap (every sub-multiset of the hand, 1 to 6 tiles).
    for sub in _submultisets(hand):
        if 1 <= sum(sub) <= 6:
            out.append({"kind": "swap", "tiles": [c for i, c in enumerate(COLOURS) for _ in range(sub[i])]})
    if not out:
        out.append({"kind": "pass"})
    return out


def _submultisets(hand: tuple[int, ...]) -> list[tuple[int, ...]]:
    subs: list[tuple[int, ...]] = [()]
    for n in hand:
        subs = [(*x, k) for x in subs for k in range(n + 1)]
    return subs


def followup_actions(ctx: Ctx, s: State) -> list[dict[str, Any]]:
    """The choices of the current follow-up stage, ``decline`` last."""
    fu = s.pending
    assert isinstance(fu, FollowUp)
    out: list[dict[str, Any]] = []
    if fu.stage == "market":
        out = [{"kind": "take_market", "colour": c} for i, c in enumerate(COLOURS) if s.market[i]]
    elif fu.stage == "pagoda":
        for tri in free_triangles(ctx, s, fu.hex):
            for frm in pagoda_sources(s, fu.colour):
                a: dict[str, Any] = {"kind": "pagoda", "triangle": tri_json(tri)}
                if frm is not None:
                    a["from"] = tri_json(frm)
                out.append(a)
    else:
        out = [{"kind": "tile", "colour": "blue", "hex": list(h)} for h in sorted(chain_targets(ctx, s, fu))]
    out.append({"kind": "decline"})
    return out
