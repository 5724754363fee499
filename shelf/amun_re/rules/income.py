"""Income, buying and placing pyramids (rules file 2.5 step 5, 2.6)."""

from __future__ import annotations

from dataclasses import replace

from games.engines.base import IllegalAction, gettext_noop
from shelf.amun_re.rules.config import Config
from shelf.amun_re.rules.scoring import score_kingdom
from shelf.amun_re.state import INCOME, REWARD, Player, State


def income(cfg: Config, state: State, seat: int) -> int:
    """Gold from farms and caravans of this Kingdom's provinces at the temple column's rates (2.6)."""
    assert state.offerings is not None
    column = cfg.edition.columns[state.offerings.column - 1]
    farms, caravans = icons(state, seat)
    return farms * column.gold_per_farm + caravans * column.gold_per_caravan


def icons(state: State, seat: int) -> tuple[int, int]:
    """Farms and caravans on this Kingdom's provinces of ``seat`` (covered cards do not count, 2.6)."""
    cards = state.players[seat].kingdom_cards(state.kingdom)
    return sum(c.farms for c in cards), sum(c.caravans for c in cards)


def start_income(cfg: Config, state: State) -> State:
    """Unspent cards and income go on the Revenue marker; all cards are discarded (2.6 steps 1-2)."""
    players = []
    rows = []
    for seat, p in enumerate(state.players):
        unspent = sum(p.hand) - (p.offering or 0)
        rows.append((unspent, *icons(state, seat), unspent + income(cfg, state, seat)))
        players.append(
            replace(
                p,
                marker=p.marker + unspent + income(cfg, state, seat),
                discard=(*p.discard, *p.hand),
                hand=(),
                bought=False,
                pending=0,
            )
        )
    return replace(state, players=tuple(players), phase=INCOME, income=tuple(rows))


def check_buy(cfg: Config, player: Player, count: int) -> None:
    """Raise unless ``player`` may buy ``count`` pyramids now (2.6 step 3)."""
    if player.bought:
        raise IllegalAction("already_bought", gettext_noop("Rule 2.6: pyramids are bought once per Kingdom."))
    if not 0 <= count <= cfg.edition.max_purchase:
        raise IllegalAction(
            "no_such_purchase",
            gettext_noop("Rule 1.6: the price list covers 0 to {max} pyramids."),
            max=cfg.edition.max_purchase,
        )
    cost = cfg.edition.cost(count)
    if cost > player.marker:
        raise IllegalAction(
            "cannot_afford",
            gettext_noop("Rule 2.6: 1 pyramid costs {cost} gold; your marker is at {marker}.")
            if count == 1
            else gettext_noop("Rule 2.6: {count} pyramids cost {cost} gold; your marker is at {marker}."),
            count=count,
            cost=cost,
            marker=player.marker,
        )
    if count > sum(player.column_free()):
        raise IllegalAction(
            "no_space_for_pyramids",
            gettext_noop("Rule 2.6: you have only 1 empty pyramid space.")
            if sum(player.column_free()) == 1
            else gettext_noop("Rule 2.6: you have only {free} empty pyramid spaces."),
            free=sum(player.column_free()),
        )


def legal_buys(cfg: Config, player: Player) -> list[int]:
    """Counts ``player`` may buy now (0 = no purchase)."""
    out = []
    for count in range(cfg.edition.max_purchase + 1):
        try:
            check_buy(cfg, player, count)
        except IllegalAction:
            continue
        out.append(count)
    return out


def apply_buy(cfg: Config, state: State, seat: int, count: int) -> State:
    """Pay for ``count`` pyramids; they must then be placed (2.6 step 3)."""
    p = state.players[seat]
    check_buy(cfg, p, count)
    p = replace(p, marker=p.marker - cfg.edition.cost(count), bought=True, pending=count)
    state = replace(state, players=tuple(p if i == seat else q for i, q in enumerate(state.players)))
    return _after_income_step(cfg, state)


def distributions(free: tuple[int, ...], count: int) -> list[tuple[int, int, int]]:
    """Every way to put ``count`` pyramids on three columns with ``free`` empty spaces."""
    out = []
    for a in range(min(free[0], count) + 1):
        for b in range(min(free[1], count - a) + 1):
            c = count - a - b
            if c <= free[2]:
                out.append((a, b, c))
    return out


def apply_place_pyramids(cfg: Config, state: State, seat: int, columns: tuple[int, int, int]) -> State:
    """Put the seat's pending pyramids on empty spaces of its columns (2.5 step 5, 2.6 step 3)."""
    p = state.players[seat]
    if p.pending == 0:
        raise IllegalAction("nothing_to_place", gettext_noop("Rule 2.6: you have no pyramids to place."))
    if any(c < 0 for c in columns):
        raise IllegalAction("bad_action", gettext_noop("Pyramid counts cannot be negative."), name="columns")
    free = p.column_free()
    for index, (want, room) in enumerate(zip(columns, free, strict=True)):
        if want > room:
            raise IllegalAction(
                "column_full",
                gettext_noop("Rule 2.6: column {column} has only 1 empty space.")
                if room == 1
                else gettext_noop("Rule 2.6: column {column} has only {free} empty spaces."),
                column=index + 1,
                free=room,
            )
    if sum(columns) != p.pending:
        raise IllegalAction(
            "place_all_pyramids",
            gettext_noop("Rule 2.6: place your 1 pyramid.")
            if p.pending == 1
            else gettext_noop("Rule 2.6: place all {pending} pyramids."),
            pending=p.pending,
        )
    new_columns = []
    for col, want in zip(p.columns, columns, strict=True):
        cards = list(col)
        # Fill the top card first: only the column total counts (2.7).
        for i in range(len(cards) - 1, -1, -1):
            put = min(want, cards[i].free)
            if put:
                cards[i] = replace(cards[i], pyramids=cards[i].pyramids + put)
                want -= put
        new_columns.append(tuple(cards))
    p = replace(p, columns=tuple(new_columns), pending=0)
    state = replace(state, players=tuple(p if i == seat else q for i, q in enumerate(state.players)))
    if state.phase == REWARD:
        if all(q.pending == 0 for q in state.players):
            return start_income(cfg, state)
        return state
    return _after_income_step(cfg, state)


def _after_income_step(cfg: Config, state: State) -> State:
    if all(q.bought and q.pending == 0 for q in state.players):
        return score_kingdom(cfg, state)
    return state
