"""Turn flow: two actions (§4), end of turn (§6), draws and the end of the game (§7, §1.3)."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

from games.engines.base import gettext_noop

from ..state import COLOURS, Counts, DrawStep, State, add, counts_of, plus
from .common import Ctx, group_of, leader_map, occupied, require

HAND_SIZE = 6
MARKET_SIZE = 6

#: The one message of a refused draw: it must not say which colour is missing, or who holds it (§1.2, §1.3).
DRAW_REFUSED = gettext_noop(
    "Rules §1.2: the table's record of the bag cannot give this draw. Check the tiles drawn; "
    "if an earlier move was entered wrongly, propose a correction."
)


def finish_action(ctx: Ctx, s: State) -> State:
    """Close the current action; after the second one, run the end of turn (§4, §6)."""
    s = replace(s, pending=None, actions_left=s.actions_left - 1)
    if s.actions_left > 0:
        return s
    return end_turn(ctx, s)


def pagoda_income(ctx: Ctx, s: State) -> State:
    """§6 step 1: one point per pagoda whose state holds the active player's leader of the pagoda's colour.

    The black leader's stand-in scoring does not apply here (E13).
    """
    if not s.pagodas:
        return s
    occ = occupied(s)
    lmap = leader_map(s)
    pts = s.points[s.active]
    for colour, tri in s.pagodas:
        group = group_of(ctx, occ, tri[0])
        if any(lmap[h] == (s.active, colour) for h in group if h in lmap):
            pts = add(pts, colour)
    points = list(s.points)
    points[s.active] = pts
    return replace(s, points=tuple(points))


def end_turn(ctx: Ctx, s: State) -> State:
    """§6: pagoda income, then the refills (active player, others clockwise, market) as draw steps."""
    s = pagoda_income(ctx, s)
    queue = []
    for i in range(ctx.n):
        seat = (s.active + i) % ctx.n
        queue.append((seat, "hand", HAND_SIZE - sum(s.hands[seat])))
    queue.append((s.active, "market", MARKET_SIZE - sum(s.market)))
    return start_draws(ctx, s, tuple(queue), "turn")


def start_draws(ctx: Ctx, s: State, queue: tuple[tuple[int, str, int], ...], then: str) -> State:
    """Queue draws (zero-size ones dropped); a draw wanted from an empty bag ends the game (§7)."""
    queue = tuple(q for q in queue if q[2] > 0)
    if not queue:
        return after_draws(ctx, replace(s, pending=None), then)
    if s.bag_left == 0:
        return game_over(s, "empty_bag")
    return replace(s, pending=DrawStep(queue, then))


def after_draws(ctx: Ctx, s: State, then: str) -> State:
    """What follows the last queued draw: start of play, end of the swap action, or the next turn."""
    if then == "play":
        return replace(s, phase="play", active=s.start, actions_left=2, pending=None)
    if then == "action":
        return finish_action(ctx, s)
    return replace(s, active=(s.active + 1) % ctx.n, actions_left=2, pending=None, turn=s.turn + 1)


def game_over(s: State, reason: str) -> State:
    """The game ends at once (§7); the rest of the turn is not played."""
    return replace(s, phase="over", pending=None, ended_by=reason)


def draw_size(s: State) -> int:
    """How many tiles the pending draw takes: what is wanted, or what is left in the bag."""
    assert isinstance(s.pending, DrawStep)
    return min(s.pending.queue[0][2], s.bag_left)


def apply_draw(ctx: Ctx, s: State, seat: int, tiles: list[str]) -> State:
    """Apply the head draw of the queue with the drawn colours ``tiles`` (§6 steps 2-4, §4.7, §1.3).

    Refuses a wrong count (``draw_count``) or colours the bag does not hold
    (``tile_not_in_bag``). The refusal never says which colour or why: in
    physical mode the drawer is offered every draw they cannot rule out
    (:func:`unseen_by`), so a draw refused here is one that only other
    seats' hidden hands or the face-down box rule out, a discrepancy between
    the record and the real table to settle by a correction; naming the
    colour would tell the drawer who holds it. Nothing is written, so the
    conservation of tiles holds. Drawing fewer than wanted (the bag ran out)
    ends the game; so does a following draw from an empty bag (E7).
    """
    p = s.pending
    assert isinstance(p, DrawStep)
    head_seat, target, want = p.queue[0]
    k = min(want, s.bag_left)
    require(len(tiles) == k, "draw_count", gettext_noop("Rules §6: this draw takes an exact number of tiles: {n}."), n=k)
    drawn = counts_of(tiles)
    require(all(d <= b for d, b in zip(drawn, s.bag, strict=True)), "tile_not_in_bag", DRAW_REFUSED)
    s = replace(s, bag=plus(s.bag, drawn, -1))
    if target == "market":
        s = replace(s, market=plus(s.market, drawn))
    else:
        hands = list(s.hands)
        hands[head_seat] = plus(hands[head_seat], drawn)
        s = replace(s, hands=tuple(hands))
    if k < want:
        return game_over(s, "empty_bag")
    rest = p.queue[1:]
    if not rest:
        return after_draws(ctx, replace(s, pending=None), p.then)
    if s.bag_left == 0:
        return game_over(s, "empty_bag")
    return replace(s, pending=DrawStep(rest, p.then))


def random_draw(bag: Counts, set_aside: int, k: int, rng: random.Random) -> list[str]:
    """Draw ``k`` colours uniformly without replacement from ``bag`` (set-aside tiles are unseen, §1.3)."""
    pool = list(bag)
    out = []
    for _ in range(k):
        x = rng.randrange(sum(pool))
        for i, c in enumerate(pool):
            if x < c:
                pool[i] -= 1
                out.append(COLOURS[i])
                break
            x -= c
    del set_aside
    return sorted(out, key=COLOURS.index)


def unseen_by(s: State, seat: int) -> Counts:
    """Per colour, the tiles ``seat`` cannot see: the bag, the face-down box and every other seat's hand.

    This is what a drawer may know the bag could hold (§1.2 public
    information: the board, the market, their own hand and the counts of
    others' hands and of the bag), so a physical draw prompt built from it
    tells the drawer nothing about another seat's hidden tiles.
    """
    out = plus(s.bag, s.box)
    for other, hand in enumerate(s.hands):
        if other != seat:
            out = plus(out, hand)
    return out


def outcomes(bag: Counts, k: int) -> list[list[str]]:
    """Every multiset of ``k`` colours ``bag`` can give (physical mode lists one payload per outcome).

    Physical prompts pass :func:`unseen_by` of the drawer, not the real bag,
    so that the list leaks no other seat's hand.
    """
    out = []
    for combo in itertools.combinations_with_replacement(range(len(COLOURS)), k):
        c = [0] * len(COLOURS)
        for i in combo:
            c[i] += 1
        if all(x <= b for x, b in zip(c, bag, strict=True)):
            out.append([COLOURS[i] for i in combo])
    return out
