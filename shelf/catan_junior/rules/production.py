"""Die roll, production, Ghost Captain and supply shortage (rules TU1, PR, GC, SH)."""

from __future__ import annotations

import dataclasses
import random

from games.engines.base import IllegalAction, gettext_noop
from shelf.catan_junior.board import RESOURCES
from shelf.catan_junior.rules import Ruleset
from shelf.catan_junior.state import COCO_GHOST, GHOST, MAIN, Production, State

FULL_DIE = (1, 1, 1, 1, 1, 1)


def add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """Element-wise sum of two count tuples."""
    return tuple(x + y for x, y in zip(a, b, strict=True))


def sub(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """Element-wise difference of two count tuples."""
    return tuple(x - y for x, y in zip(a, b, strict=True))


def one(resource: str, n: int = 1) -> tuple[int, ...]:
    """A count tuple holding ``n`` of ``resource``."""
    return tuple(n if r == resource else 0 for r in RESOURCES)


def covers(hand: tuple[int, ...], cost: tuple[int, ...]) -> bool:
    """True when ``hand`` holds at least ``cost``."""
    return all(h >= c for h, c in zip(hand, cost, strict=True))


def is_short(rs: Ruleset, demand: int, available: int) -> bool:
    """SH3: does a demand of ``demand`` tokens against ``available`` trigger the shortage?

    ``not_enough`` (default): only when the demand exceeds the supply.
    ``none_left``: also when it would take the last token (the supply runs out).
    """
    if demand <= 0:
        return False
    return demand > available if rs.shortage == "not_enough" else demand >= available


def confiscate(state: State, resource: str) -> State:
    """SH1: every player returns all their ``resource`` to the supply; SH2 freezes it for the turn."""
    i = RESOURCES.index(resource)
    returned = sum(hand[i] for hand in state.hands)
    hands = tuple(tuple(0 if j == i else n for j, n in enumerate(hand)) for hand in state.hands)
    supply = tuple(n + returned if j == i else n for j, n in enumerate(state.supply))
    return dataclasses.replace(state, hands=hands, supply=supply, frozen=state.frozen | {resource})


def pay_out(rs: Ruleset, state: State, demands: tuple[tuple[int, ...], ...], *, respect_freeze: bool) -> State:
    """Pay ``demands`` (per seat, a resource count tuple) from the supply (PR1, GC1, CO2, TR3 with SH).

    Each resource is settled on its own: if it is frozen this turn (SH2,
    when ``respect_freeze``) nothing of it is paid; if the total demand
    triggers the shortage (SH1/SH3) every player returns all of it and
    nothing of it is paid; otherwise each seat gets its share. Records what
    was paid in ``last_payout`` and the shortages in ``last_shortage``.
    """
    hands = [list(hand) for hand in state.hands]
    supply = list(state.supply)
    paid = [[0] * len(RESOURCES) for _ in state.hands]
    shortages: list[str] = []
    for i, resource in enumerate(RESOURCES):
        total = sum(d[i] for d in demands)
        if total == 0:
            continue
        if respect_freeze and rs.freeze and resource in state.frozen:
            continue
        if is_short(rs, total, supply[i]):
            shortages.append(resource)
            continue
        supply[i] -= total
        for seat, d in enumerate(demands):
            hands[seat][i] += d[i]
            paid[seat][i] += d[i]
    new = dataclasses.replace(
        state,
        hands=tuple(tuple(h) for h in hands),
        supply=tuple(supply),
        last_payout=tuple(tuple(p) for p in paid),
        last_shortage=tuple(shortages),
    )
    for resource in shortages:
        new = confiscate(new, resource)
    if not rs.freeze:
        new = dataclasses.replace(new, frozen=frozenset())
    return new


def roll_faces(rs: Ruleset, state: State) -> tuple[int, ...]:
    """The die faces a roll may show now: 1-6, or the faces left in the balanced-die deck."""
    if rs.balanced_die:
        return tuple(face for face in range(1, 7) if state.die_left[face - 1] > 0)
    return (1, 2, 3, 4, 5, 6)


def fill_roll(rs: Ruleset, state: State, rng: random.Random) -> int:
    """Digital mode: roll the die (uniform over the faces left, which for a plain die is 1-6)."""
    return rng.choice(roll_faces(rs, state))


def roll(rs: Ruleset, state: State, value: int) -> State:
    """TU1/PR1/GC1: record the roll; 1-5 produce, 6 sends the active player to move the Ghost Captain.

    Raises ``die_face_used`` (balanced die: that face was already dealt in this cycle).
    """
    if value not in roll_faces(rs, state):
        raise IllegalAction(
            "die_face_used",
            gettext_noop("Balanced die: the face {value} was already dealt; faces left: {left}."),
            value=value,
            left=list(roll_faces(rs, state)),
        )
    die_left = state.die_left
    if rs.balanced_die:
        die_left = tuple(n - 1 if face == value else n for face, n in enumerate(die_left, start=1))
        if not any(die_left):
            die_left = FULL_DIE
    rolls = tuple(n + 1 if face == value else n for face, n in enumerate(state.rolls, start=1))
    state = dataclasses.replace(
        state, die_left=die_left, rolls=rolls, last_roll=value, last_payout=(), last_shortage=(), coco_news=None
    )
    if value == 6:
        return dataclasses.replace(state, phase=GHOST, production=Production(state.active, 6, ()))
    state = produce(rs, state, value)
    production = Production(state.active, value, state.last_payout, state.last_shortage)
    return dataclasses.replace(state, phase=MAIN, production=production)


def production_demands(rs: Ruleset, state: State, number: int) -> tuple[tuple[int, ...], ...]:
    """PR1/GC2: what each seat earns for ``number``: one token per lair per touching island, blocked island excluded."""
    demands = [[0] * len(RESOURCES) for _ in range(rs.seat_count)]
    board = rs.board
    for island in board.islands_numbered(number):
        if island.id == state.ghost:
            continue
        r = RESOURCES.index(island.resource)
        for site_index, site in enumerate(board.sites):
            owner = state.lairs[site_index]
            if owner is not None and island.id in board.site_islands[site]:
                demands[owner][r] += 1
    return tuple(tuple(d) for d in demands)


def produce(rs: Ruleset, state: State, number: int) -> State:
    """PR1-PR3: pay every lair touching an unblocked island showing ``number`` (SH applies)."""
    return pay_out(rs, state, production_demands(rs, state, number), respect_freeze=False)


def ghost_targets(rs: Ruleset, state: State) -> tuple[str, ...]:
    """GC3: islands the Ghost Captain may move to (never where he stands; the castle only with the option)."""
    targets = [island for island in rs.board.island_ids if island != state.ghost]
    if rs.ghost_to_castle and state.ghost != "castle":
        targets.append("castle")
    return tuple(targets)


def move_ghost(rs: Ruleset, state: State, island: str, *, next_phase: str = MAIN) -> State:
    """GC1/GC4: move the Ghost Captain to ``island`` and give the active player 2 of its resource.

    Raises ``ghost_must_move`` (same island), ``ghost_not_to_castle`` (GC3),
    ``unknown_island``.
    """
    if island == state.ghost:
        raise IllegalAction(
            "ghost_must_move", gettext_noop("The Ghost Captain must move to a different island.")
        )
    if island == "castle" and not rs.ghost_to_castle:
        raise IllegalAction(
            "ghost_not_to_castle", gettext_noop("The Ghost Captain never goes back to the castle.")
        )
    if island not in ghost_targets(rs, state):
        raise IllegalAction("unknown_island", gettext_noop("{island} is not an island."), island=island)
    after_roll = state.phase == GHOST
    after_coco = state.phase == COCO_GHOST
    state = dataclasses.replace(state, ghost=island, phase=next_phase)
    if island == "castle":
        state = dataclasses.replace(state, last_payout=(), last_shortage=())
    else:
        demands = tuple(
            one(rs.board.island(island).resource, 2) if seat == state.active else one("wood", 0)
            for seat in range(rs.seat_count)
        )
        state = pay_out(rs, state, demands, respect_freeze=True)
    if after_roll:
        # The 6's outcome is the Ghost Captain's move: every phone shows where he went and what it paid.
        production = Production(state.active, 6, state.last_payout, state.last_shortage, island)
        state = dataclasses.replace(state, production=production)
    if after_coco and state.coco_news is not None:
        paid = state.last_payout[state.active] if state.last_payout else ()
        news = dataclasses.replace(state.coco_news, ghost=island, paid=paid, short=state.last_shortage)
        state = dataclasses.replace(state, coco_news=news)
    return state
