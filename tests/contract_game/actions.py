"""Action kinds of the tile duel and the shape of each, checked at the edge before anything is stored.

* ``{"kind": "draw", "tile"?}`` chance (rule 2; ``tile`` only in physical mode)
* ``{"kind": "attack", "tile"}`` (rule 2)
* ``{"kind": "defend", "tile"}`` / ``{"kind": "yield"}`` the conflict step (rule 3)
"""

from __future__ import annotations

from games.engines.schema import Kind, Opt, Str

_TILE = Str(2)

SCHEMA = {
    "draw": Kind(tile=Opt(_TILE)),
    "attack": Kind(tile=_TILE),
    "defend": Kind(tile=_TILE),
    "yield": Kind(),
}
