"""Action kinds of Sorry!: the declared payload schema of each (shapes in the package docstring).

* ``{"kind": "draw", "card"?}`` chance (2.2; ``card`` only in physical mode)
* ``{"kind": "move", "card", "pawn", "steps"?, "target"?, "to"?, "then"?, "effects"?}`` (2.3-2.5, 1.4)
* ``{"kind": "pass", "card"?}`` no legal move, or decline an 11 that can only swap (2.3)
* ``{"kind": "discard", "card"}`` play for points, no card in the hand can move (3.2)

Legality stays in :meth:`SorryGame.apply`; this is the shape checked at the edge before anything is stored.
"""

from __future__ import annotations

from games.engines.schema import Int, Kind, ListOf, Opt, Str

_CARD = Str(8)
_PAWN = Str(4)
_SQUARE = Str(8)
_STEPS = Int(-100, 100)

SCHEMA = {
    "draw": Kind(card=Opt(_CARD)),
    "move": Kind(card=_CARD, pawn=_PAWN, steps=Opt(_STEPS), target=Opt(_PAWN), to=Opt(_SQUARE),
                 then=Opt(Kind(pawn=_PAWN, steps=_STEPS, to=Opt(_SQUARE))),
                 effects=Opt(ListOf(Kind(pawn=_PAWN, to=_SQUARE), max_len=16))),
    "pass": Kind(card=Opt(_CARD)),
    "discard": Kind(card=_CARD),
}
