"""Conflicts (§5): the revolt (§5.2) and the war (§5.3), resolved one phone at a time."""

from __future__ import annotations

from dataclasses import replace

from games.engines.base import gettext_noop

from ..state import CI, Hex, Outcome, Revolt, State, War, add
from .common import (
    Ctx,
    give_point,
    groups,
    hand_add,
    in_hand,
    leader_map,
    members,
    occupied,
    remove_leaders,
    remove_tiles,
    require,
    tile_map,
    under_pagoda,
)
from .turn import finish_action

# -- revolt (§5.2) --------------------------------------------------------------


def black_support(ctx: Ctx, s: State, h: Hex) -> int:
    """Black tiles next to the leader on ``h`` (§5.2 step 2; tiles under pagodas count)."""
    tmap = tile_map(s)
    return sum(1 for n in ctx.board.neighbours[h] if tmap.get(n) == "black")


def revolt_strengths(ctx: Ctx, s: State, r: Revolt, defender_tiles: int = 0) -> tuple[int, int]:
    """(attacker, defender) totals: base + committed black tiles + 1 for an off-board black leader."""
    att = black_support(ctx, s, r.attacker_hex) + r.attacker_tiles + (1 if in_hand(s, r.attacker, "black") else 0)
    dfn = black_support(ctx, s, r.defender_hex) + defender_tiles + (1 if in_hand(s, r.defender, "black") else 0)
    return att, dfn


def commit_revolt(ctx: Ctx, s: State, seat: int, tiles: int) -> State:
    """Commit ``tiles`` black tiles to the revolt; after the defender, settle it (§5.2 steps 3-5).

    The off-board black leader's +1 counts automatically (it is never discarded,
    §1.1). Ties go to the defender. Committed tiles go to the box.
    """
    r = s.pending
    assert isinstance(r, Revolt)
    require(tiles <= s.hands[seat][CI["black"]], "not_enough_black",
            gettext_noop("Rules §5.2: you do not hold that many black tiles."))
    s = hand_add(s, seat, "black", -tiles)
    s = replace(s, box=add(s.box, "black", tiles))
    if r.stage == "attacker":
        return replace(s, pending=replace(r, stage="defender", attacker_tiles=tiles))
    att, dfn = revolt_strengths(ctx, s, r, tiles)
    if att > dfn:
        winner, loser = r.attacker, r.defender
    else:
        winner, loser = r.defender, r.attacker
    s = remove_leaders(s, [(loser, r.colour)])
    s = give_point(s, winner, r.colour)
    outcome = Outcome(
        "revolt", ((r.attacker,), (r.defender,)), (att, dfn), 0 if winner == r.attacker else 1, tie=att == dfn,
        leaders=((loser, r.colour, r.attacker_hex if loser == r.attacker else r.defender_hex),),
        points=((winner, r.colour, 1),), turn=s.turn)
    return finish_action(ctx, replace(s, last_conflict=outcome))


# -- war (§5.3) -----------------------------------------------------------------


def war_sides(ctx: Ctx, s: State, h: Hex) -> tuple[tuple[Hex, ...], ...]:
    """The warring states joined through ``h`` (``h`` itself left out), or ``()`` if there is no war.

    A joined state fights when it holds a leader whose colour is also in
    another joined state (option ``who_fights`` = ``"involved"``, §5.3), or
    every joined state fights (``"all"``).
    """
    occ = occupied(s) - {h}
    lmap = leader_map(s)
    label = groups(ctx, occ)
    mem = members(label)
    seen: set[int] = set()
    states = []
    for n in ctx.board.neighbours[h]:
        k = label.get(n)
        if k is None or k in seen:
            continue
        seen.add(k)
        cols = {lmap[x][1] for x in mem[k] if x in lmap}
        if cols:
            states.append((mem[k], cols))
    if len(states) < 2:
        return ()
    count: dict[str, int] = {}
    for _, cols in states:
        for c in cols:
            count[c] = count.get(c, 0) + 1
    if all(v < 2 for v in count.values()):
        return ()
    if ctx.opt["who_fights"] == "all":
        fighting = states
    else:
        fighting = [st for st in states if any(count[c] >= 2 for c in st[1])]
    return tuple(sorted(tuple(sorted(hexes)) for hexes, _ in fighting))


def start_war(ctx: Ctx, s: State, unifier: int, h: Hex, sides: tuple[tuple[Hex, ...], ...]) -> State:
    """Put the unification token on ``h`` and open support from the unifier's left, unifier last (§5.3)."""
    order = tuple((unifier + i) % ctx.n for i in range(1, ctx.n + 1))
    return replace(s, pending=War(unifier=unifier, hex=h, sides=sides, order=order, commits=(), stage="support"))


def base_strength(s: State, side: tuple[Hex, ...]) -> int:
    """Red tiles on the board in a warring state (tiles under pagodas included; §5.3 Strength)."""
    tmap = tile_map(s)
    return sum(1 for h in side if tmap.get(h) == "red")


def war_strengths(s: State, w: War, with_leaders: bool = True) -> list[int]:
    """Each side's strength now: base red tiles + committed red tiles (+1 per red leader used)."""
    out = [base_strength(s, side) for side in w.sides]
    for _seat, side, tiles, leader in w.commits:
        if side >= 0:
            out[side] += tiles + (1 if leader and with_leaders else 0)
    return out


def stakes(s: State, w: War, side: int) -> list[int]:
    """The seats whose leaders on ``side`` share a colour with a leader on another side (the leaders at stake)."""
    lmap = leader_map(s)
    cols = [{lmap[h][1] for h in hexes if h in lmap} for hexes in w.sides]
    return sorted({lmap[h][0] for h in w.sides[side] if h in lmap
                   and any(lmap[h][1] in cs for j, cs in enumerate(cols) if j != side)})


def may_use_red_leader(ctx: Ctx, s: State, seat: int, w: War, side: int) -> bool:
    """An off-board red leader adds +1; option ``red_leader_any_side`` (default yes) lets it back any side (§1.1)."""
    if not in_hand(s, seat, "red"):
        return False
    if ctx.opt["red_leader_any_side"]:
        return True
    lmap = leader_map(s)
    return any(h in lmap and lmap[h][0] == seat for h in w.sides[side])


def commit_war(ctx: Ctx, s: State, seat: int, side: int, tiles: int, leader: bool) -> State:
    """Record ``seat``'s support (side ``-1``: abstain); after the unifier, find the winner (§5.3)."""
    w = s.pending
    assert isinstance(w, War)
    if side >= 0:
        require(side < len(w.sides), "no_such_side", gettext_noop("Rules §5.3: there is no warring state {side}."),
                side=side)
        require(tiles <= s.hands[seat][CI["red"]], "not_enough_red",
                gettext_noop("Rules §5.3: you do not hold that many red tiles."))
        require(not leader or may_use_red_leader(ctx, s, seat, w, side), "red_leader_unavailable",
                gettext_noop("Rules §1.1: only your off-board red leader may add 1 to a side."))
        require(tiles > 0 or leader, "empty_commit",
                gettext_noop("Rules §5.3: commit at least one red tile, or abstain."))
        s = hand_add(s, seat, "red", -tiles)
    w = replace(w, order=w.order[1:], commits=(*w.commits, (seat, side, tiles, leader)))
    s = replace(s, pending=w)
    if w.order:
        return s
    strengths = war_strengths(s, w)
    top = max(strengths)
    tied = tuple(i for i, v in enumerate(strengths) if v == top)
    if len(tied) > 1:
        return replace(s, pending=replace(w, stage="winner", tied=tied))
    return war_outcome(ctx, s, w, tied[0])


def choose_winner(ctx: Ctx, s: State, side: int) -> State:
    """The unifier picks the winner among the tied sides (§5.3 Winner)."""
    w = s.pending
    assert isinstance(w, War)
    require(side in w.tied, "not_tied", gettext_noop("Rules §5.3: the unifier may only pick one of the tied states."))
    return war_outcome(ctx, s, w, side)


def war_outcome(ctx: Ctx, s: State, w: War, winner: int) -> State:
    """Apply §5.3 consequences 1-4, then attrition (step 5), asking the unifier where there is a choice."""
    s_before = s
    lmap = leader_map(s)
    side_cols = [{lmap[h][1] for h in side if h in lmap} for side in w.sides]
    involved = {c for c in {c for cols in side_cols for c in cols} if sum(c in cols for cols in side_cols) >= 2}
    strengths = war_strengths(s, w)
    strengths_wo = war_strengths(s, w, with_leaders=False)
    winner_leaders = {lmap[h][1]: lmap[h][0] for h in w.sides[winner] if h in lmap}
    covered = under_pagoda(s)
    tmap = tile_map(s)
    losers = [i for i in range(len(w.sides)) if i != winner]
    removed_leaders = []
    removed_tiles = []
    for i in losers:
        for h in w.sides[i]:
            if h in lmap and lmap[h][1] in involved:
                removed_leaders.append((*lmap[h], h))
            if tmap.get(h) == "red" and not (h in covered and ctx.opt["red_under_pagoda"] == "stays"):
                removed_tiles.append(h)
    s = remove_leaders(s, [(st, c) for st, c, _h in removed_leaders])
    points: dict[tuple[int, str], int] = {}
    for _owner, colour, _h in removed_leaders:
        if colour in winner_leaders:
            s = give_point(s, winner_leaders[colour], colour)
            key = (winner_leaders[colour], colour)
            points[key] = points.get(key, 0) + 1
    s = remove_tiles(s, removed_tiles)
    box = s.box
    for _seat, side, tiles, _leader in w.commits:
        if side >= 0 and side != winner:
            box = add(box, "red", tiles)
    w = replace(w, commits=tuple((seat, side, t if side == winner else 0, lead)
                                 for seat, side, t, lead in w.commits))
    s = replace(s, box=box)
    lost = [strengths[i] if ctx.opt["attrition_counts_leader"] else strengths_wo[i] for i in losers]
    need = (sum(lost) if ctx.opt["attrition"] == "sum" else max(lost)) if lost else 0
    committed = sum(t for _seat, side, t, _l in w.commits if side == winner)
    burn = min(need, committed)
    supporters = {seat for seat, side, t, _l in w.commits if side == winner and t > 0}
    outcome = Outcome(
        "war", tuple(tuple(stakes(s_before, w, i)) for i in range(len(w.sides))), tuple(strengths), winner,
        tie=len(w.tied) > 1, leaders=tuple(sorted(removed_leaders)), tiles=tuple((h, "red") for h in removed_tiles),
        burned=burn, points=tuple((st, c, n) for (st, c), n in sorted(points.items())), turn=s.turn)
    w = replace(w, winner=winner, burn_left=burn, remove_left=need - burn, stage="burn", outcome=outcome)
    if burn < committed and len(supporters) > 1:
        return replace(s, pending=w)
    # No choice: burn the committed tiles in commit order (one supporter, or all of them burn).
    commits = list(w.commits)
    left = burn
    for i, (seat, side, t, lead) in enumerate(commits):
        if side == winner and left > 0:
            take = min(t, left)
            commits[i] = (seat, side, t - take, lead)
            left -= take
            s = replace(s, box=add(s.box, "red", take))
    return after_burn(ctx, s, replace(w, commits=tuple(commits), burn_left=0))


def burn(ctx: Ctx, s: State, seat: int) -> State:
    """The unifier burns one tile committed to the winner by ``seat`` (§5.3 step 5, [U] default)."""
    w = s.pending
    assert isinstance(w, War)
    commits = list(w.commits)
    for i, (st, side, t, lead) in enumerate(commits):
        if st == seat and side == w.winner and t > 0:
            commits[i] = (st, side, t - 1, lead)
            break
    else:
        raise_no_tile()
    s = replace(s, box=add(s.box, "red"))
    w = replace(w, commits=tuple(commits), burn_left=w.burn_left - 1)
    if w.burn_left > 0:
        return replace(s, pending=w)
    return after_burn(ctx, s, w)


def raise_no_tile() -> None:
    """Refuse a burn of a seat with no committed tile left on the winning side."""
    require(False, "no_committed_tile",
            gettext_noop("Rules §5.3: that player has no committed red tile left on the winning side."))


def winner_reds(s: State, w: War) -> list[Hex]:
    """Red tiles on the board in the winning state (the unifying tile is in no side)."""
    tmap = tile_map(s)
    return sorted(h for h in w.sides[w.winner] if tmap.get(h) == "red")


def after_burn(ctx: Ctx, s: State, w: War) -> State:
    """Return surplus committed tiles (option ``war_surplus``), then board attrition (§5.3 step 5)."""
    for seat, side, t, _lead in w.commits:
        if side == w.winner and t > 0:
            if ctx.opt["war_surplus"] == "return":
                s = hand_add(s, seat, "red", t)
            else:
                s = replace(s, box=add(s.box, "red", t))
    w = replace(w, commits=tuple((seat, side, 0 if side == w.winner else t, lead)
                                 for seat, side, t, lead in w.commits))
    reds = winner_reds(s, w)
    if w.remove_left >= len(reds):
        s = remove_tiles(s, reds)
        return war_done(ctx, s, with_removed(w, reds))
    if w.remove_left == 0:
        return war_done(ctx, s, w)
    return replace(s, pending=replace(w, stage="attrition"))


def remove_red(ctx: Ctx, s: State, h: Hex) -> State:
    """The unifier removes one red tile of the winning state for attrition (§5.3 step 5)."""
    w = s.pending
    assert isinstance(w, War)
    require(h in winner_reds(s, w), "not_winner_red",
            gettext_noop("Rules §5.3: pick a red tile of the winning state."))
    s = remove_tiles(s, [h])
    w = replace(with_removed(w, [h]), remove_left=w.remove_left - 1)
    if w.remove_left > 0:
        return replace(s, pending=w)
    return war_done(ctx, s, w)


def with_removed(w: War, hexes: list[Hex]) -> War:
    """``w`` with the winner's red tiles on ``hexes`` added to its outcome (attrition, §5.3 step 5)."""
    if w.outcome is None or not hexes:
        return w
    return replace(w, outcome=replace(w.outcome, tiles=(*w.outcome.tiles, *((h, "red") for h in hexes))))


def war_done(ctx: Ctx, s: State, w: War) -> State:
    """Remove the token; if a duplicate somehow remains, fight again with the same unifier (§5.3 step 7)."""
    s = replace(s, pending=None, last_conflict=w.outcome)
    sides = war_sides(ctx, s, w.hex) if w.hex in tile_map(s) else ()
    if sides:
        return start_war(ctx, s, w.unifier, w.hex, sides)
    return finish_action(ctx, s)
