"""Auctions, entering won provinces and laying them on columns; the Ankh token (rules file 2.4, 6.1)."""

from __future__ import annotations

from dataclasses import replace

from games.engines.base import IllegalAction, gettext_noop
from shelf.amun_re.actions import Bid
from shelf.amun_re.edition import MAX_BOUND
from shelf.amun_re.rules.config import Config
from shelf.amun_re.rules.hand import start_auction
from shelf.amun_re.rules.ties import clockwise_from, rank
from shelf.amun_re.state import COLUMNS, OFFER, SETTLE, Player, Province, State

AUCTIONS_PER_KINGDOM = 3

_BEYOND = (
    " If the card really shows it, tap “Yes, the card really shows it” (or post it again with confirm: true);"
    " to change the bounds for good, use the Amun-Re calibration screen under Editions."
)
_OUT_OF_BOUNDS = {
    "farms": gettext_noop(
        "Rule 1.4: {value} farms is outside this edition profile's bounds ({low} to {high})." + _BEYOND
    ),
    "caravans": gettext_noop(
        "Rule 1.4: {value} caravans is outside this edition profile's bounds ({low} to {high})." + _BEYOND
    ),
    "ankhs": gettext_noop(
        "Rule 1.4: {value} ankhs is outside this edition profile's bounds ({low} to {high})." + _BEYOND
    ),
    "pyramid_spaces": gettext_noop(
        "Rule 1.4: {value} pyramid spaces is outside this edition profile's bounds ({low} to {high})." + _BEYOND
    ),
    "printed_pyramids": gettext_noop(
        "Rule 1.4: {value} printed pyramids is outside this edition profile's bounds ({low} to {high})." + _BEYOND
    ),
}
_IMPOSSIBLE = {
    "farms": gettext_noop("Rule 1.4: a card shows {low} to {high} farms, not {value}."),
    "caravans": gettext_noop("Rule 1.4: a card shows {low} to {high} caravans, not {value}."),
    "ankhs": gettext_noop("Rule 1.4: a card shows {low} to {high} ankhs, not {value}."),
    "pyramid_spaces": gettext_noop("Rule 1.4: a card shows {low} to {high} pyramid spaces, not {value}."),
    "printed_pyramids": gettext_noop(
        "Rule 1.4: printed pyramids fill pyramid spaces, so this card shows {low} to {high}, not {value}."
    ),
}


def _with(state: State, seat: int, player: Player) -> State:
    return replace(state, players=tuple(player if i == seat else p for i, p in enumerate(state.players)))


def has_live_bid(state: State, seat: int) -> bool:
    """True when ``seat`` has a card under some province of the running auction (2.4)."""
    return any(slot is not None and slot[0] == seat for slot in state.slots)


def check_bid(cfg: Config, state: State, seat: int, bid: Bid) -> None:
    """Raise unless ``bid`` is legal for ``seat`` now (2.4)."""
    if not 0 <= bid.province < len(state.slots):
        raise IllegalAction(
            "no_such_province", gettext_noop("Rule 2.4: there are {n} provinces in this auction."), n=len(state.slots)
        )
    if bid.card not in state.players[seat].hand:
        raise IllegalAction(
            "card_not_in_hand", gettext_noop("Rule 2.4: you do not hold the {card} card."), card=bid.card
        )
    slot = state.slots[bid.province]
    if slot is not None:
        if bid.card == 0:
            raise IllegalAction(
                "zero_only_on_empty", gettext_noop("Rule 2.4: the 0 card can only go under an empty province.")
            )
        if bid.card <= slot[1]:
            raise IllegalAction(
                "bid_not_higher",
                gettext_noop("Rule 2.4: your card must be higher than the {lying} lying there."),
                lying=slot[1],
            )
        if not cfg.rebid_same_province and bid.province in state.players[seat].displaced:
            raise IllegalAction(
                "no_rebid_same_province",
                gettext_noop(
                    "Rule 2.4 (setting rebid_same_province): you were outbid there and may not bid on it again this auction."
                ),
            )


def legal_bids(cfg: Config, state: State, seat: int) -> list[Bid]:
    """Every legal bid of ``seat``: each hand card under each province it can take (2.4)."""
    out = []
    for card in sorted(set(state.players[seat].hand)):
        for province in range(len(state.slots)):
            bid = Bid(province, card)
            try:
                check_bid(cfg, state, seat, bid)
            except IllegalAction:
                continue
            out.append(bid)
    return out


def apply_bid(cfg: Config, state: State, seat: int, bid: Bid) -> State:
    """Play the card; a displaced card returns to its owner; end the auction when every province is covered (2.4)."""
    check_bid(cfg, state, seat, bid)
    player = state.players[seat]
    hand = list(player.hand)
    hand.remove(bid.card)
    state = _with(state, seat, replace(player, hand=tuple(hand)))
    old = state.slots[bid.province]
    state = replace(state, returned=None if old is None else (old[0], old[1], bid.province))
    if old is not None:
        owner, card = old
        loser = state.players[owner]
        state = _with(
            state,
            owner,
            replace(loser, hand=tuple(sorted((*loser.hand, card))), displaced=loser.displaced | {bid.province}),
        )
    slots = tuple((seat, bid.card) if i == bid.province else s for i, s in enumerate(state.slots))
    state = replace(state, slots=slots)
    if all(s is not None for s in slots):
        return settle(cfg, state)
    for nxt in clockwise_from((seat + 1) % cfg.n, cfg.n):
        if not has_live_bid(state, nxt):
            return replace(state, turn=nxt)
    raise AssertionError("an uncovered province implies a seat without a live bid")


def settle(cfg: Config, state: State) -> State:
    """Each winner takes its province: 0 back to hand, other cards discarded; winners enter the card (2.4, 6.1)."""
    for slot in state.slots:
        assert slot is not None
        owner, card = slot
        p = state.players[owner]
        if card == 0:
            p = replace(p, hand=tuple(sorted((*p.hand, 0))))
        else:
            p = replace(p, discard=(*p.discard, card))
        state = _with(state, owner, replace(p, draft=()))
    return replace(state, phase=SETTLE)


def free_columns(state: State, seat: int) -> list[int]:
    """Columns that have not yet received a card this Kingdom (2.4: one card per column per Kingdom)."""
    return [c for c in range(COLUMNS) if len(state.players[seat].columns[c]) == state.kingdom - 1]


def next_field(cfg: Config, state: State, seat: int) -> str | None:
    """The field ``seat`` must enter next, or ``None`` when nothing is being entered."""
    draft = state.players[seat].draft
    if draft is None or len(draft) >= len(cfg.fields):
        return None
    return cfg.fields[len(draft)]


def awaiting_column(cfg: Config, state: State, seat: int) -> bool:
    """True when ``seat`` has entered its province and must choose a column."""
    draft = state.players[seat].draft
    return draft is not None and len(draft) == len(cfg.fields)


def field_range(cfg: Config, state: State, seat: int, field: str) -> range:
    """Values allowed for ``field`` by the edition bounds (1.4); printed pyramids also <= spaces."""
    low, high = cfg.edition.bound(field)
    if field == "printed_pyramids":
        draft = state.players[seat].draft or ()
        high = min(high, draft[cfg.fields.index("pyramid_spaces")])
    return range(low, high + 1)


def hard_range(cfg: Config, state: State, seat: int, field: str) -> range:
    """Values a card can physically show for ``field``: 0..20, printed pyramids at most the spaces (1.4)."""
    high = MAX_BOUND
    if field == "printed_pyramids":
        draft = state.players[seat].draft or ()
        high = min(high, draft[cfg.fields.index("pyramid_spaces")])
    return range(0, high + 1)


def unusual_values(cfg: Config, state: State, seat: int, field: str) -> list[int]:
    """Values outside the profile's bounds that a seat may still enter with ``confirm`` (1.4: warn, never refuse)."""
    usual = field_range(cfg, state, seat, field)
    return [v for v in hard_range(cfg, state, seat, field) if v not in usual]


def apply_reveal(cfg: Config, state: State, seat: int, field: str, value: int, confirm: bool = False) -> State:
    """Record one number of the won province (6.1); lay it down at once when the column is forced."""
    expected = next_field(cfg, state, seat)
    if expected is None:
        raise IllegalAction("nothing_to_reveal", gettext_noop("Rule 6.1: you have no province card to enter now."))
    if field != expected:
        raise IllegalAction(
            "reveal_wrong_field",
            gettext_noop("Rule 6.1: enter {expected} next, not {field}."),
            expected=expected,
            field=field,
        )
    possible = hard_range(cfg, state, seat, field)
    if value not in possible:
        raise IllegalAction(
            "province_impossible",
            _IMPOSSIBLE.get(field, _IMPOSSIBLE["farms"]),
            field=field,
            value=value,
            low=possible.start,
            high=possible.stop - 1,
        )
    allowed = field_range(cfg, state, seat, field)
    if value not in allowed and not confirm:
        raise IllegalAction(
            "province_out_of_bounds",
            _OUT_OF_BOUNDS.get(field, _OUT_OF_BOUNDS["farms"]),
            field=field,
            value=value,
            low=allowed.start,
            high=allowed.stop - 1,
        )
    p = state.players[seat]
    state = _with(state, seat, replace(p, draft=(*(p.draft or ()), value)))
    if awaiting_column(cfg, state, seat):
        columns = free_columns(state, seat)
        if state.kingdom == 1 or len(columns) == 1:
            return _lay(cfg, state, seat, columns[0])
    return state


def apply_place_province(cfg: Config, state: State, seat: int, column: int) -> State:
    """Lay the entered province on ``column`` (2.4: free choice, one card per column per Kingdom)."""
    if not awaiting_column(cfg, state, seat):
        raise IllegalAction(
            "card_not_entered", gettext_noop("Rule 6.1: enter what your province shows before laying it down.")
        )
    if column not in range(COLUMNS):
        raise IllegalAction("no_such_column", gettext_noop("Rule 2.4: you have three columns (1, 2, 3)."))
    if column not in free_columns(state, seat):
        raise IllegalAction(
            "column_taken",
            gettext_noop("Rule 2.4: column {column} already has a province of this Kingdom."),
            column=column + 1,
        )
    return _lay(cfg, state, seat, column)


def _lay(cfg: Config, state: State, seat: int, column: int) -> State:
    p = state.players[seat]
    values = dict(zip(cfg.fields, p.draft or (), strict=True))
    card = Province(
        kingdom=state.kingdom,
        farms=values["farms"],
        caravans=values["caravans"],
        ankhs=values["ankhs"],
        spaces=values["pyramid_spaces"],
        printed=values.get("printed_pyramids", 0),
    )
    columns = tuple((*col, card) if i == column else col for i, col in enumerate(p.columns))
    state = _with(state, seat, replace(p, columns=columns, draft=None))
    if any(q.draft is not None for q in state.players):
        return state
    return finish_auction(cfg, state)


def visible_ankhs(cfg: Config, state: State, seat: int) -> int:
    """Ankhs that count for the token mid-Kingdom (2.4, setting ``visible_ankhs_mid_kingdom``)."""
    p = state.players[seat]
    cards = p.top_cards() if cfg.visible_ankhs_mid_kingdom == "top_cards" else p.kingdom_cards(state.kingdom)
    return sum(c.ankhs for c in cards)


def finish_auction(cfg: Config, state: State) -> State:
    """Move the Ankh token (setting), then the next auction or the offering (2.4, 2.5)."""
    if cfg.ankh_after_each_auction:
        counts = tuple(visible_ankhs(cfg, state, s) for s in range(cfg.n))
        best = rank(range(cfg.n), state.ankh, cfg.n, key=lambda s: -counts[s])[0]
        state = replace(state, ankh=best, ankh_note=(state.auction, state.ankh, best, counts))
    if state.auction < AUCTIONS_PER_KINGDOM:
        return start_auction(cfg, state, state.auction + 1)
    return replace(state, phase=OFFER, slots=(), turn=state.ankh)
