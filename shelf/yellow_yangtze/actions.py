"""Payload parsing for Yellow & Yangtze actions: every bad field becomes ``IllegalAction``.

Action kinds and payload shapes (hexes are ``[q, r]`` axial; colours are
``"black"``, ``"red"``, ``"blue"``, ``"green"``, ``"yellow"``):

* ``{"kind": "leader", "colour": c, "hex": [q, r]}`` place a leader from hand or move it (§4.1)
* ``{"kind": "withdraw", "colour": c}`` take a leader back to hand (§4.1)
* ``{"kind": "tile", "colour": c, "hex": [q, r]}`` place a tile; also the next blue of a chain (§4.2, §4.3)
* ``{"kind": "peasants", "hex": [q, r], "leader": bool}`` Peasants' Revolt; ``leader``: the blue
  leader in hand replaces one blue tile (§4.4)
* ``{"kind": "build_pagoda", "triangle": [[q, r] x3], "leader": bool, "from": [[q, r] x3]}``
  action D (§4.5); ``from`` (the moved pagoda's triangle) only when the supply has none of that colour
* ``{"kind": "swap", "tiles": [c, ...]}`` discard 1-6 tiles, then draw as many (§4.7)
* ``{"kind": "pass"}`` only listed when no other action is possible (app safeguard)
* ``{"kind": "take_market", "colour": c}`` green tile bonus (§4.2 step 4)
* ``{"kind": "pagoda", "triangle": [[q, r] x3], "from": [[q, r] x3]}`` free pagoda after a placement (§4.6)
* ``{"kind": "decline"}`` skip the current optional step (market tile, pagoda, further blue)
* ``{"kind": "commit", "tiles": n}`` revolt support: black tiles (§5.2)
* ``{"kind": "commit", "side": i, "tiles": n, "leader": bool}`` war support: red tiles (§5.3)
* ``{"kind": "abstain"}`` commit nothing to a war (§5.3)
* ``{"kind": "choose_winner", "side": i}`` the unifier breaks a tie (§5.3)
* ``{"kind": "burn", "seat": s}`` the unifier picks whose committed red tile burns (§5.3 step 5)
* ``{"kind": "remove_red", "hex": [q, r]}`` the unifier removes a red tile for attrition (§5.3 step 5)
* ``{"kind": "draw", "tiles": [c, ...]}`` chance: refill a hand, the market, or after a swap (§6, §4.7, §1.3)

Listed conflict payloads carry two optional fields for their log line, checked by ``apply`` and never
trusted: ``owners`` on a war ``commit``/``choose_winner`` (the seats whose leaders are at stake on that side,
so the log says "Ann's side"), and ``outcome`` on the action that settles a revolt or war (the
:func:`.state.encode_outcome` of what it leads to, so the log states who won and what left the board).
A payload posted without them is still legal: the write path stores it with both filled in by the engine
(``YellowYangtzeGame.canonical``), so its log line is the full one either way. Old logs whose rows lack them
replay the same (``apply`` needs neither).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engines.base import IllegalAction, gettext_noop
from games.engines.schema import Bool, Int, Kind, ListOf, Null, OneOf, Opt, Str, Tuple

from .state import COLOURS, Hex

KINDS = (
    "leader", "withdraw", "tile", "peasants", "build_pagoda", "swap", "pass", "take_market", "pagoda",
    "decline", "commit", "abstain", "choose_winner", "burn", "remove_red", "draw",
)


def bad(field: str) -> IllegalAction:
    """The error for a missing or malformed payload field."""
    return IllegalAction("bad_action", gettext_noop("The action's field {field} is missing or malformed."), field=field)


def colour(action: Mapping[str, Any], field: str = "colour") -> str:
    """A colour name from ``action[field]``."""
    value = action.get(field)
    if not isinstance(value, str) or value not in COLOURS:
        raise bad(field)
    return value


def colours(action: Mapping[str, Any], field: str = "tiles") -> list[str]:
    """A list of colour names from ``action[field]``."""
    value = action.get(field)
    if not isinstance(value, list) or not all(isinstance(c, str) and c in COLOURS for c in value):
        raise bad(field)
    return list(value)


def _hexval(value: Any, field: str) -> Hex:
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in value)
    ):
        raise bad(field)
    return (value[0], value[1])


def hexfield(action: Mapping[str, Any], field: str = "hex") -> Hex:
    """An axial hex ``[q, r]`` from ``action[field]``."""
    return _hexval(action.get(field), field)


def triangle(action: Mapping[str, Any], field: str = "triangle") -> tuple[Hex, Hex, Hex] | None:
    """Three hexes from ``action[field]``, sorted; ``None`` when the field is absent."""
    value = action.get(field)
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 3:
        raise bad(field)
    hexes = sorted(_hexval(v, field) for v in value)
    return (hexes[0], hexes[1], hexes[2])


def integer(action: Mapping[str, Any], field: str, lo: int = 0, hi: int = 1000) -> int:
    """An int in ``[lo, hi]`` from ``action[field]``."""
    value = action.get(field)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise bad(field)
    return value


def flag(action: Mapping[str, Any], field: str) -> bool:
    """A boolean from ``action[field]`` (absent means false)."""
    value = action.get(field, False)
    if not isinstance(value, bool):
        raise bad(field)
    return value


def tri_json(tri: tuple[Hex, Hex, Hex]) -> list[list[int]]:
    """A triangle as posted: ``[[q, r], [q, r], [q, r]]`` sorted."""
    return [list(h) for h in sorted(tri)]


_COLOUR = Str(12)
_HEX = Tuple((Int(-1000, 1000), Int(-1000, 1000)))
_TRIANGLE = ListOf(_HEX, max_len=3)
_SEAT = Int(-10, 10)
_SEATS = ListOf(_SEAT, max_len=5)
#: The sides of a war: three or more states may fight (rules §5.3), at most one per neighbour of the unifying tile.
_SIDES = 6
_OUTCOME = Kind(  # encode_outcome's shape, carried for the log line and checked by apply
    kind=Str(12), sides=ListOf(_SEATS, max_len=_SIDES), strengths=ListOf(Int(-1000, 1000), max_len=_SIDES),
    winner=Int(-10, 10), tie=Bool(), leaders=ListOf(Tuple((_SEAT, _COLOUR, _HEX)), max_len=20),
    tiles=ListOf(Tuple((_HEX, _COLOUR)), max_len=200), burned=Int(-1000, 1000),
    points=ListOf(Tuple((_SEAT, _COLOUR, Int(-1000, 1000))), max_len=40), turn=Int(-1000, 100_000),
)
_SETTLES = {"outcome": Opt(OneOf((Null(), _OUTCOME)))}

#: The declared payload of every action kind, checked at the edge before anything is stored
#: (types, ranges, no unknown keys; see games/engines/schema.py). Legality stays in ``apply``.
SCHEMA = {
    "leader": Kind(colour=_COLOUR, hex=_HEX),
    "withdraw": Kind(colour=_COLOUR),
    "tile": Kind(colour=_COLOUR, hex=_HEX),
    "peasants": Kind(hex=_HEX, leader=Opt(Bool()), **_SETTLES),
    "build_pagoda": Kind(triangle=_TRIANGLE, leader=Opt(Bool()), **{"from": Opt(_TRIANGLE)}),
    "swap": Kind(tiles=ListOf(_COLOUR, max_len=6)),
    "pass": Kind(),
    "take_market": Kind(colour=_COLOUR),
    "pagoda": Kind(triangle=_TRIANGLE, **{"from": Opt(_TRIANGLE)}),
    "decline": Kind(**_SETTLES),
    "commit": Kind(tiles=Int(-1000, 1000), side=Opt(Int(-10, 10)), leader=Opt(Bool()), owners=Opt(_SEATS),
                   **_SETTLES),
    "abstain": Kind(**_SETTLES),
    "choose_winner": Kind(side=Int(-10, 10), owners=Opt(_SEATS), **_SETTLES),
    "burn": Kind(seat=_SEAT, **_SETTLES),
    "remove_red": Kind(hex=_HEX, **_SETTLES),
    "draw": Kind(tiles=Opt(ListOf(_COLOUR, max_len=20))),
}
