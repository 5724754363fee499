"""What one seat may see (rules file 2.3, 2.5; shared/STYLE.md principle 7).

Built from allowed pieces only. Public: provinces and bids on the table,
the card a bid just sent back to its owner's hand, won provinces, pyramids,
Revenue markers, honour, discards, every seat's unspent gold cards (2.3:
"Hands are public ... The app may show every hand to everyone"), who has
offered (not how much), once revealed every offering, and the explained
scoring of every finished Kingdom. Private to a seat (``view["private"]``):
its own hand again (what the phone's pickers use), the cards it set aside
this Kingdom, its budget while building, and its sealed offering, the one
secret of the game (2.5): only the total is posted, so the hand a seat still
holds says nothing about how much of it was offered.

Everything but ``private`` is the same for every viewer: it is made once per state object
(:func:`public_view`) and every seat's view holds those very objects: never mutate a view.
"""

from __future__ import annotations

from typing import Any

from games.engines.base import kept_view
from shelf.amun_re.rules.auction import free_columns, has_live_bid, next_field, visible_ankhs
from shelf.amun_re.rules.config import Config
from shelf.amun_re.rules.hand import budget
from shelf.amun_re.rules.scoring import FARM_BONUS
from shelf.amun_re.rules.ties import seat_distance
from shelf.amun_re.state import AUCTION, BUILD, REWARD, Player, Province, State


def _card(card: Province) -> dict[str, int]:
    return {
        "kingdom": card.kingdom,
        "farms": card.farms,
        "caravans": card.caravans,
        "ankhs": card.ankhs,
        "pyramid_spaces": card.spaces,
        "printed_pyramids": card.printed,
        "pyramids": card.pyramids,
        "free": card.free,
    }


def _public_player(cfg: Config, state: State, seat: int, p: Player) -> dict[str, Any]:
    entering = None
    if p.draft is not None:
        entering = {
            "entered": dict(zip(cfg.fields, p.draft, strict=False)),
            "next_field": next_field(cfg, state, seat),
            "free_columns": free_columns(state, seat),
        }
    # Offered cards are discarded at the reveal (2.5 step 7); only the total is
    # known, so after the reveal a hand is shown as the gold left, not as cards.
    revealed = state.offerings is not None and state.phase == REWARD
    return {
        "seat": seat,
        "hand": [] if revealed else list(p.hand),
        "hand_count": 0 if revealed else len(p.hand),
        "unspent": sum(p.hand) - state.offerings.amounts[seat] if revealed and state.offerings else None,
        "discard": list(p.discard),
        "marker": p.marker,
        "vp": p.vp,
        "columns": [[_card(c) for c in col] for col in p.columns],
        "column_pyramids": list(p.column_pyramids()),
        "column_free": list(p.column_free()),
        "visible_ankhs": visible_ankhs(cfg, state, seat),
        "kingdom_farms": sum(c.farms for c in p.kingdom_cards(state.kingdom)),
        "live_bid": has_live_bid(state, seat),
        "built": p.built,
        "offered": p.offering is not None,
        "pending_pyramids": p.pending,
        "bought": p.bought,
        "entering": entering,
    }


def _tied(ankhs: list[int], seat: int, start: int | None) -> list[int]:
    """Every seat with as many ankhs as ``seat`` (``seat`` first, then clockwise from ``start``); [] without a tie."""
    group = [s for s, n in enumerate(ankhs) if n == ankhs[seat]]
    if len(group) < 2:
        return []
    n = len(ankhs)
    return [seat, *sorted((s for s in group if s != seat), key=lambda s: seat_distance(s, start or 0, n))]


def _tied_last(ankhs: list[int], seat: int, start: int | None) -> list[int]:
    """Every seat with as many ankhs as ``seat`` (the loser of the tie-break, 2.7 step 5) last; [] without a tie."""
    group = _tied(ankhs, seat, start)
    return [*group[1:], seat] if group else []


def ankh_note(state: State) -> dict[str, Any] | None:
    """Why the Ankh token moved (or stayed) after the last auction (2.4): counts and the tie-break."""
    if state.ankh_note is None:
        return None
    auction, old, new, counts = state.ankh_note
    best = counts[new]
    n = len(counts)
    tied = sorted((s for s, c in enumerate(counts) if c == best), key=lambda s: seat_distance(s, old, n))
    return {
        "auction": auction,
        "from": old,
        "to": new,
        "counts": list(counts),
        "best": best,
        "stayed": old == new,
        "tied": tied if len(tied) > 1 else [],
        "others": [s for s in tied if s != new] if len(tied) > 1 else [],
    }


def offering_ties(state: State) -> list[dict[str, Any]]:
    """Groups of seats that offered the same amount (at least 1), in reward order, with the start player (2.5)."""
    assert state.offerings is not None
    amounts = state.offerings.amounts
    n = len(amounts)
    out = []
    for amount in sorted({a for a in amounts if a >= 1}, reverse=True):
        group = [s for s in range(n) if amounts[s] == amount]
        if len(group) > 1:
            group.sort(key=lambda s: seat_distance(s, state.ankh, n))
            out.append(
                {
                    "amount": amount,
                    "seats": group,
                    "first": group[0],
                    "others": group[1:],
                    "start": state.ankh,
                    "distances": [seat_distance(s, state.ankh, n) for s in group],
                }
            )
    return out


def income_rows(cfg: Config, state: State) -> dict[str, Any] | None:
    """Each seat's income, spelled out (2.6): cards left + farms x rate + caravans x rate."""
    if state.income is None or state.offerings is None:
        return None
    column = cfg.edition.columns[state.offerings.column - 1]
    rows = []
    for seat, (unspent, farms, caravans, total) in enumerate(state.income):
        rows.append(
            {
                "seat": seat,
                "unspent": unspent,
                "farms": farms,
                "farm_gold": farms * column.gold_per_farm,
                "caravans": caravans,
                "caravan_gold": caravans * column.gold_per_caravan,
                "total": total,
            }
        )
    return {
        "column": state.offerings.column,
        "gold_per_farm": column.gold_per_farm,
        "gold_per_caravan": column.gold_per_caravan,
        "rows": rows,
    }


def kingdom_scores(state: State) -> list[dict[str, Any]]:
    """Every scored Kingdom, explained (2.7): one row per seat and the ankh ranking with its tie-break.

    Shape: ``[{"kingdom", "ankh_holder", "farm_bonus", "most", "fewest",
    "most_tied", "fewest_tied", "rows": [{"seat", "weakest", "weakest_points",
    "farms", "farm_points", "ankhs", "ankh_points", "total"}]}]``. ``weakest``
    is the pyramid count of the weakest column at scoring time; ``*_tied``
    list the seats with as many ankhs who lost the tie-break (nearest the
    Ankh holder wins, 2.7 step 5); ``ankh_holder`` is ``None`` for games
    scored before it was recorded.
    """
    out = []
    for k in sorted({st.kingdom for st in state.steps}):
        steps = [st for st in state.steps if st.kingdom == k]
        ankhs = [sum(c.ankhs for c in p.kingdom_cards(k)) for p in state.players]
        rows = []
        for seat, p in enumerate(state.players):
            mine = {st.reason: st for st in steps if st.seat == seat}
            ankh_points = sum(
                st.points for st in steps if st.seat == seat and st.reason in ("most_ankhs", "fewest_ankhs")
            )
            weakest = mine.get("weakest_column")
            rows.append(
                {
                    "seat": seat,
                    "weakest": weakest.value if weakest else 0,
                    "weakest_points": weakest.points if weakest else 0,
                    "farms": sum(c.farms for c in p.kingdom_cards(k)),
                    "farm_points": mine["farms"].points if "farms" in mine else 0,
                    "ankhs": ankhs[seat],
                    "ankh_points": ankh_points,
                    "total": sum(st.points for st in steps if st.seat == seat),
                }
            )
        most = next((st.seat for st in steps if st.reason == "most_ankhs"), None)
        fewest = next((st.seat for st in steps if st.reason == "fewest_ankhs"), None)
        holder = next((st.seat for st in steps if st.reason == "ankh_holder"), None)
        out.append(
            {
                "kingdom": k,
                "ankh_holder": holder,
                "farm_bonus": FARM_BONUS,
                "most": most,
                "fewest": fewest,
                "most_tied": [] if most is None else _tied(ankhs, most, holder),
                "fewest_tied": [] if fewest is None else _tied_last(ankhs, fewest, holder),
                "rows": rows,
            }
        )
    return out


def build_view(cfg: Config, state: State, seat: int | None, holder: object | None = None) -> dict[str, Any]:
    """The JSON view of ``state`` for ``seat`` (``None``: the table screen): the public view (:func:`public_view`)
    and, for a seat, its own hand, set-aside cards, sealed offering and budget under ``private``.

    ``holder``: the object that keeps the public view of the last state asked (the engine); ``None``: it is made
    for this call. A new dictionary per call whose public pieces are the objects :func:`public_view` made once for
    ``state``: every seat's view shares them (read them, never mutate them)."""
    view = dict(public_view(cfg, state, holder))
    if seat is not None:
        p = state.players[seat]
        view["private"] = {
            "seat": seat,
            # Spent at the reveal like the public hand (2.5 step 7): only the gold left is known.
            "hand": [] if state.offerings is not None else list(p.hand),
            "set_aside": list(p.set_aside),
            "offering": p.offering,
            "budget": budget(state, seat) if state.phase == BUILD and not p.built else None,
        }
    return view


def public_view(cfg: Config, state: State, holder: object | None = None) -> dict[str, Any]:
    """What every seat and the table screen see of ``state`` (the view without ``private``), made once per state
    object and kept on ``holder`` (the last one asked; ``state`` and ``cfg`` compared by identity). Never mutate it."""
    return kept_view(holder, (state, cfg), (), lambda: _build_public(cfg, state))


def _build_public(cfg: Config, state: State) -> dict[str, Any]:
    used = sum(c.pyramids for p in state.players for col in p.columns for c in col)
    return {
        "edition": {"name": cfg.edition.name, "verified": cfg.edition.verified},
        "kingdom": state.kingdom,
        "auction": state.auction,
        "phase": state.phase,
        "ankh": state.ankh,
        "kingdom_start": state.kingdom_start,
        "turn": state.turn if state.phase in (BUILD, AUCTION) else None,
        "provinces": [
            {"index": i, "owner": None if slot is None else slot[0], "card": None if slot is None else slot[1]}
            for i, slot in enumerate(state.slots)
        ],
        "players": [_public_player(cfg, state, i, p) for i, p in enumerate(state.players)],
        "offered_count": sum(1 for p in state.players if p.offering is not None),
        "returned": None
        if state.returned is None
        else {"owner": state.returned[0], "card": state.returned[1], "province": state.returned[2]},
        "kingdom_scores": kingdom_scores(state),
        "ankh_note": ankh_note(state),
        "income": income_rows(cfg, state),
        "offerings": None
        if state.offerings is None
        else {
            "amounts": list(state.offerings.amounts),
            "rewards": list(state.offerings.rewards),
            "total": state.offerings.total,
            "column": state.offerings.column,
            "start": state.ankh,
            "ties": offering_ties(state),
        },
        "offering_table": [
            {
                "column": i,
                "min_total": c.min_total,
                "max_total": c.max_total,
                "gold_per_farm": c.gold_per_farm,
                "gold_per_caravan": c.gold_per_caravan,
            }
            for i, c in enumerate(cfg.edition.columns, start=1)
        ],
        "pyramid_cost": list(cfg.edition.pyramid_cost),
        "pyramid_supply": {
            "total": cfg.pyramid_supply,
            "used": used,
            "left": cfg.pyramid_supply - used,
            "warning": used >= cfg.pyramid_supply,
        },
    }
