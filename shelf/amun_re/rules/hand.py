"""Hand building at the start of every Kingdom (rules file 2.3)."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from itertools import combinations

from games.engines.base import IllegalAction, gettext_noop
from shelf.amun_re.rules.config import Config
from shelf.amun_re.rules.ties import clockwise_from
from shelf.amun_re.state import AUCTION, GOLD_VALUES, State

FIRST_BUDGET = 14  # Kingdom 1 (2.3)
FULL_SET = sum(GOLD_VALUES)  # 36: all nine cards


def budget(state: State, seat: int) -> int:
    """Gold the seat must pick this Kingdom: 14 in Kingdom 1, else its Revenue marker (2.3)."""
    return FIRST_BUDGET if state.kingdom == 1 else state.players[seat].marker


@cache
def hand_choices(amount: int, mode: str) -> tuple[tuple[int, ...], ...]:
    """Every legal hand (sorted values, the 0 card first) for a budget (2.3).

    ``mode`` ``"exact"``: the other cards add up to ``amount`` exactly; a budget
    of 36 or more means all nine cards. ``"at_most"``: add up to at most
    ``amount``. Never empty for ``amount >= 0`` (every 0..36 is a subset sum
    of 1..8, rules 1.2).
    """
    if mode == "exact" and amount >= FULL_SET:
        return (GOLD_VALUES,)
    out = []
    for size in range(0, 9):
        for combo in combinations(range(1, 9), size):
            total = sum(combo)
            if total == amount or (mode == "at_most" and total <= amount):
                out.append((0, *combo))
    return tuple(out)


def check_hand(cfg: Config, cards: tuple[int, ...], amount: int) -> tuple[int, ...]:
    """Return the sorted hand or raise: needs the 0 card, own distinct cards, the right sum (2.3)."""
    if any(c not in GOLD_VALUES for c in cards) or len(set(cards)) != len(cards):
        raise IllegalAction("hand_bad_card", gettext_noop("Rule 2.3: pick distinct cards of your own set 0-8."))
    if 0 not in cards:
        raise IllegalAction("hand_needs_zero", gettext_noop("Rule 2.3: the 0 card is always part of your hand."))
    total = sum(cards)
    if cfg.hand_sum_mode == "exact":
        target = min(amount, FULL_SET)
        if total != target:
            if amount >= FULL_SET:
                raise IllegalAction(
                    "hand_not_exact",
                    gettext_noop("Rule 2.3: with a budget of {budget} you take all nine cards."),
                    budget=amount,
                    total=total,
                )
            raise IllegalAction(
                "hand_not_exact",
                gettext_noop("Rule 2.3: your cards must add up to exactly {budget}, not {total}."),
                budget=amount,
                total=total,
            )
    elif total > amount:
        raise IllegalAction(
            "hand_over_budget",
            gettext_noop("Rule 2.3: your cards may add up to at most {budget}, not {total}."),
            budget=amount,
            total=total,
        )
    return tuple(sorted(cards))


def apply_build(cfg: Config, state: State, seat: int, cards: tuple[int, ...]) -> State:
    """Keep ``cards`` for this Kingdom; the marker goes back to 0 (2.3); next seat builds or the auction starts."""
    amount = budget(state, seat)
    hand = check_hand(cfg, cards, amount)
    player = state.players[seat]
    marker = 0
    if amount > FULL_SET and cfg.budget_over_36 == "take_all_keep_rest":
        marker = amount - FULL_SET
    new_player = replace(
        player,
        hand=hand,
        set_aside=tuple(c for c in GOLD_VALUES if c not in hand),
        built=True,
        marker=marker,
    )
    players = tuple(new_player if i == seat else p for i, p in enumerate(state.players))
    state = replace(state, players=players)
    waiting = [s for s in clockwise_from(state.ankh, cfg.n) if not state.players[s].built]
    if waiting:
        return replace(state, turn=waiting[0])
    return start_auction(cfg, state, 1)


def start_auction(cfg: Config, state: State, number: int) -> State:
    """Lay out ``n`` empty provinces; the Ankh holder bids first (2.4)."""
    players = tuple(replace(p, displaced=frozenset()) for p in state.players)
    return replace(
        state, players=players, phase=AUCTION, auction=number, slots=(None,) * cfg.n, turn=state.ankh, returned=None
    )
