"""The secret offering and its rewards (rules file 2.5)."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from games.engines.base import IllegalAction, gettext_noop
from shelf.amun_re.rules.config import Config
from shelf.amun_re.rules.income import start_income
from shelf.amun_re.rules.ties import rank
from shelf.amun_re.state import REWARD, Offerings, State

REWARDS_2P = (3, 1)  # 2.5 step 4
REWARDS_3P = (3, 2, 1)  # 2.5 step 3: third and later places get 1


@cache
def subset_sums(hand: tuple[int, ...]) -> tuple[int, ...]:
    """Every total a seat can offer from ``hand`` (any subset, possibly empty), ascending."""
    sums = {0}
    for card in hand:
        sums |= {s + card for s in sums}
    return tuple(sorted(sums))


def apply_offer(cfg: Config, state: State, seat: int, gold: int) -> State:
    """Seal ``seat``'s offering; reveal when every seat has offered (2.5)."""
    player = state.players[seat]
    if player.offering is not None:
        raise IllegalAction("already_offered", gettext_noop("Rule 2.5: you have already made your offering."))
    if gold not in subset_sums(player.hand):
        raise IllegalAction(
            "offer_not_possible", gettext_noop("Rule 2.5: no set of your cards adds up to {gold}."), gold=gold
        )
    players = tuple(replace(p, offering=gold) if i == seat else p for i, p in enumerate(state.players))
    state = replace(state, players=players)
    if any(p.offering is None for p in state.players):
        return state
    return reveal(cfg, state)


def rewards(amounts: tuple[int, ...], start: int) -> tuple[int, ...]:
    """Pyramids per seat (2.5): rank offerings >= 1 by size, ties nearest the start player; 0 offered gets nothing."""
    n = len(amounts)
    table = REWARDS_2P if n == 2 else REWARDS_3P
    order = rank([s for s in range(n) if amounts[s] >= 1], start, n, key=lambda s: -amounts[s])
    out = [0] * n
    for place, seat in enumerate(order):
        out[seat] = table[min(place, len(table) - 1)]
    return tuple(out)


def reveal(cfg: Config, state: State) -> State:
    """Reveal all offerings at once, give rewards, set the temple column (2.5)."""
    amounts = tuple(p.offering or 0 for p in state.players)
    gains = rewards(amounts, state.ankh)
    total = sum(amounts)
    offerings = Offerings(amounts=amounts, rewards=gains, total=total, column=cfg.edition.column_for(total))
    # Pyramids beyond the free spaces are lost (2.5 step 5 [U], our default).
    players = tuple(replace(p, pending=min(gains[i], sum(p.column_free()))) for i, p in enumerate(state.players))
    state = replace(state, players=players, offerings=offerings, phase=REWARD)
    if all(p.pending == 0 for p in state.players):
        return start_income(cfg, state)
    return state
