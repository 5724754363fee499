"""What one seat may see (rules file 2.3, 2.5; shared/STYLE.md principle 7).

Built from allowed pieces only. Public: provinces and bids on the table,
won provinces, pyramids, Revenue markers, honour, discards, how many cards
each seat holds, who has offered (not how much) and, once revealed, every
offering. Private to a seat (``view["private"]``): its hand, the cards it set
aside this Kingdom and its sealed offering. The rules file (2.3) says hands
may be public; the table keeps them private and shows counts.
"""

from __future__ import annotations

from typing import Any

from games.engines.amun_re.rules.auction import free_columns, has_live_bid, next_field, visible_ankhs
from games.engines.amun_re.rules.config import Config
from games.engines.amun_re.rules.hand import budget
from games.engines.amun_re.state import AUCTION, BUILD, Player, Province, State


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
    return {
        "seat": seat,
        "hand_count": len(p.hand),
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


def build_view(cfg: Config, state: State, seat: int | None) -> dict[str, Any]:
    """The JSON view of ``state`` for ``seat`` (``None``: the table screen)."""
    used = sum(c.pyramids for p in state.players for col in p.columns for c in col)
    view: dict[str, Any] = {
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
        "offerings": None
        if state.offerings is None
        else {
            "amounts": list(state.offerings.amounts),
            "rewards": list(state.offerings.rewards),
            "total": state.offerings.total,
            "column": state.offerings.column,
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
    if seat is not None:
        p = state.players[seat]
        view["private"] = {
            "seat": seat,
            "hand": list(p.hand),
            "set_aside": list(p.set_aside),
            "offering": p.offering,
            "budget": budget(state, seat) if state.phase == BUILD and not p.built else None,
        }
    return view
