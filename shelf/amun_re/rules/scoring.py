"""Honour scoring, the next Kingdom and the end of the game (rules file 2.7-2.9)."""

from __future__ import annotations

from dataclasses import replace

from shelf.amun_re.rules.config import Config
from shelf.amun_re.rules.ties import rank, seat_distance
from shelf.amun_re.state import BUILD, GOLD_VALUES, KINGDOMS, OVER, ScoreStep, State

FARM_BONUS = 9  # 2.7 step 2


def score_kingdom(cfg: Config, state: State) -> State:
    """Weakest column, 9+ farms, most/fewest ankhs; the most-ankh seat takes the Ankh (2.7)."""
    k = state.kingdom
    steps = list(state.steps)
    vps = [p.vp for p in state.players]

    def add(seat: int, reason: str, points: int, value: int) -> None:
        new = vps[seat] + points
        if not cfg.allow_negative_vp:
            new = max(0, new)
        steps.append(ScoreStep(k, seat, reason, new - vps[seat], value))
        vps[seat] = new

    for seat, p in enumerate(state.players):
        add(seat, "weakest_column", min(p.column_pyramids()), min(p.column_pyramids()))
        farms = sum(c.farms for c in p.kingdom_cards(k))
        if farms >= FARM_BONUS:
            add(seat, "farms", 1, farms)
    ankhs = [sum(c.ankhs for c in p.kingdom_cards(k)) for p in state.players]
    order = rank(range(cfg.n), state.ankh, cfg.n, key=lambda s: -ankhs[s])
    steps.append(ScoreStep(k, state.ankh, "ankh_holder", 0, ankhs[state.ankh]))
    add(order[0], "most_ankhs", 1, ankhs[order[0]])
    add(order[-1], "fewest_ankhs", -1, ankhs[order[-1]])
    players = tuple(replace(p, vp=vps[i]) for i, p in enumerate(state.players))
    state = replace(state, players=players, steps=tuple(steps), ankh=order[0])
    if k == KINGDOMS:
        return replace(state, phase=OVER)
    return next_kingdom(state)


def next_kingdom(state: State) -> State:
    """All nine cards come back; the most-ankh seat starts hand building (2.8)."""
    players = tuple(
        replace(
            p,
            hand=(),
            set_aside=GOLD_VALUES,
            discard=(),
            built=False,
            offering=None,
            bought=False,
            pending=0,
            draft=None,
            displaced=frozenset(),
        )
        for p in state.players
    )
    return replace(
        state,
        players=players,
        kingdom=state.kingdom + 1,
        kingdom_start=state.ankh,
        phase=BUILD,
        turn=state.ankh,
        auction=1,
        slots=(),
        offerings=None,
        ankh_note=None,
        income=None,
    )


def final_order(state: State) -> list[int]:
    """Seats best first: honour, then pyramids, then nearest the last Kingdom's start player (2.9)."""
    n = len(state.players)
    return sorted(
        range(n),
        key=lambda s: (
            -state.players[s].vp,
            -state.players[s].total_pyramids(),
            seat_distance(s, state.kingdom_start, n),
        ),
    )
