"""Action kinds of Amun-Re: one frozen dataclass each, parsed from JSON payloads.

Payload shapes (what a phone posts; every field required):

* ``{"kind": "build_hand", "cards": [0, 6, 8]}``: the gold values kept for this
  Kingdom, the 0 card included (2.3).
* ``{"kind": "bid", "province": 0, "card": 5}``: put gold card ``card`` under
  province ``province`` (0-based, left to right) (2.4).
* ``{"kind": "reveal", "field": "farms", "value": 3}``: enter one number shown
  on the province just won, fields in the order farms, caravans, ankhs,
  pyramid_spaces (then printed_pyramids when the edition allows any) (6.1).
  A value outside the edition profile's bounds also needs ``"confirm": true``
  (1.4: the bounds warn, they never refuse).
* ``{"kind": "place_province", "column": 1}``: lay the province just won on
  column 0..2 (Kingdoms 2 and 3; 2.4).
* ``{"kind": "offer", "gold": 7}``: the secret offering, the total of the cards
  offered (2.5). Only the total matters (offered and kept cards are both
  discarded at 2.6), so the payload is the total, not the card list.
* ``{"kind": "place_pyramids", "columns": [1, 0, 2]}``: how many pending
  pyramids go on columns 0, 1, 2 (2.5, 2.6).
* ``{"kind": "buy", "count": 5}``: buy ``count`` pyramids at once, 0 for none
  (2.6, once per Kingdom).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engines.base import IllegalAction, action_kind, gettext_noop, require
from games.engines.schema import Bool, Int, Kind, ListOf, Opt, Str


@dataclass(frozen=True)
class BuildHand:
    """Keep ``cards`` (gold values, 0 included) for this Kingdom (2.3)."""

    cards: tuple[int, ...]


@dataclass(frozen=True)
class Bid:
    """Put gold card ``card`` under province ``province`` (0-based) (2.4)."""

    province: int
    card: int


@dataclass(frozen=True)
class Reveal:
    """Enter ``value`` for ``field`` of the province just won (6.1)."""

    field: str
    value: int
    confirm: bool = False  # the seat confirmed a value outside the profile's bounds (1.4)


@dataclass(frozen=True)
class PlaceProvince:
    """Lay the province just won on ``column`` (0..2) (2.4)."""

    column: int


@dataclass(frozen=True)
class Offer:
    """Offer cards worth ``gold`` in secret (2.5)."""

    gold: int


@dataclass(frozen=True)
class PlacePyramids:
    """Put ``columns[i]`` pending pyramids on column ``i`` (2.5, 2.6)."""

    columns: tuple[int, int, int]


@dataclass(frozen=True)
class Buy:
    """Buy ``count`` pyramids at once (0: no purchase) (2.6)."""

    count: int


Action = BuildHand | Bid | Reveal | PlaceProvince | Offer | PlacePyramids | Buy

KINDS: dict[str, type] = {
    "build_hand": BuildHand,
    "bid": Bid,
    "reveal": Reveal,
    "place_province": PlaceProvince,
    "offer": Offer,
    "place_pyramids": PlacePyramids,
    "buy": Buy,
}


def _int_list(action: Mapping[str, Any], name: str) -> tuple[int, ...]:
    value = require(action, name, list)
    if any(isinstance(v, bool) or not isinstance(v, int) for v in value):
        raise IllegalAction("bad_action", gettext_noop("Field {name} must be a list of whole numbers."), name=name)
    return tuple(value)


def parse_action(action: Mapping[str, Any]) -> Action:
    """Turn a payload into its dataclass; ``IllegalAction("bad_action"|"unknown_action")`` if malformed."""
    kind = action_kind(action)
    if kind not in KINDS:
        raise IllegalAction("unknown_action", gettext_noop("Amun-Re has no action {kind}."), kind=kind)
    if kind == "build_hand":
        return BuildHand(_int_list(action, "cards"))
    if kind == "bid":
        return Bid(require(action, "province", int), require(action, "card", int))
    if kind == "reveal":
        confirm = action.get("confirm", False)
        if not isinstance(confirm, bool):
            raise IllegalAction("bad_action", gettext_noop("Field {name} must be true or false."), name="confirm")
        return Reveal(require(action, "field", str), require(action, "value", int), confirm)
    if kind == "place_province":
        return PlaceProvince(require(action, "column", int))
    if kind == "offer":
        return Offer(require(action, "gold", int))
    if kind == "place_pyramids":
        columns = _int_list(action, "columns")
        if len(columns) != 3:
            raise IllegalAction(
                "bad_action", gettext_noop("Field columns must list three numbers, one per column."), name="columns"
            )
        return PlacePyramids((columns[0], columns[1], columns[2]))
    return Buy(require(action, "count", int))


def to_payload(action: Action) -> dict[str, Any]:
    """The JSON payload of an action (inverse of :func:`parse_action`)."""
    if isinstance(action, BuildHand):
        return {"kind": "build_hand", "cards": list(action.cards)}
    if isinstance(action, Bid):
        return {"kind": "bid", "province": action.province, "card": action.card}
    if isinstance(action, Reveal):
        payload: dict[str, Any] = {"kind": "reveal", "field": action.field, "value": action.value}
        if action.confirm:
            payload["confirm"] = True
        return payload
    if isinstance(action, PlaceProvince):
        return {"kind": "place_province", "column": action.column}
    if isinstance(action, Offer):
        return {"kind": "offer", "gold": action.gold}
    if isinstance(action, PlacePyramids):
        return {"kind": "place_pyramids", "columns": list(action.columns)}
    return {"kind": "buy", "count": action.count}


def notation(action: Action) -> str:
    """Short stable notation for logs and fixtures, e.g. ``bid 5@P2``, ``offer 7``."""
    if isinstance(action, BuildHand):
        return "hand " + ",".join(str(c) for c in action.cards)
    if isinstance(action, Bid):
        return f"bid {action.card}@P{action.province + 1}"
    if isinstance(action, Reveal):
        return f"reveal {action.field}={action.value}"
    if isinstance(action, PlaceProvince):
        return f"column {action.column + 1}"
    if isinstance(action, Offer):
        return f"offer {action.gold}"
    if isinstance(action, PlacePyramids):
        return "pyramids " + "/".join(str(c) for c in action.columns)
    return f"buy {action.count}"


#: The declared payload of every action kind, checked at the edge before anything is stored
#: (types, ranges, no unknown keys; see games/engines/schema.py). Ranges are generous bounds of the
#: printed game; the rules themselves (which card, which column) stay in ``apply``.
SCHEMA = {
    "build_hand": Kind(cards=ListOf(Int(0, 100), max_len=30)),
    "bid": Kind(province=Int(-100, 100), card=Int(-100, 100)),
    "reveal": Kind(field=Str(24), value=Int(-1000, 1000), confirm=Opt(Bool())),
    "place_province": Kind(column=Int(-100, 100)),
    "offer": Kind(gold=Int(-1000, 1000)),
    "place_pyramids": Kind(columns=ListOf(Int(-100, 100), max_len=6)),
    "buy": Kind(count=Int(-100, 100)),
}
