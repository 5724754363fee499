"""Where the Sorry! board draws its tap targets: a thumb-sized target per destination of a simple move.

No rule lives here and no markup is written here: these functions only regroup the legal actions the
engine already listed, by where their targets are drawn; the board templates draw them (the adapter
declares them as template filters, ``web.py``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any


def where(payload: Mapping[str, Any]) -> str:
    """A Sorry!-style destination key of a move payload: ``T17``, or ``R:S2`` / ``R:HOME`` for a pawn's own lane."""
    to = str(payload.get("to", ""))
    if to.startswith("T"):
        return to
    return f"{str(payload.get('pawn', '?'))[:1]}:{to}"


# Board units (Sorry! viewBox) that a 44 CSS px hit area covers on a 360 px phone (the board is drawn about 336 px
# wide, 0.89 px per unit): two destinations closer than this would share a tap.
HIT_RADIUS = 25


def destinations(legal: Iterable[Mapping[str, Any]], points: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The board targets of the simple Sorry! moves (no split 7), one per place a thumb can tell apart.

    ``legal`` is the page's list of ``{"kind", "payload", "json", "label"}``;
    ``points`` the layout's ``{key: (x, y)}`` (``sorry.visibility``). Returns
    ``[{"pawn", "x", "y", "items"}]``: a pawn's destinations whose hit circles
    (radius :data:`HIT_RADIUS`) would overlap are merged into one target
    whose ``items`` hold every move there (the page then opens the pawn's list
    of moves instead of guessing which one was meant).
    """
    targets: list[dict[str, Any]] = []
    for item in legal:
        payload = item.get("payload") or {}
        if item.get("kind") != "move" or not payload.get("to") or payload.get("then"):
            continue
        xy = points.get(where(payload))
        if not xy:
            continue
        x, y = float(xy[0]), float(xy[1])
        near = next((t for t in targets if t["pawn"] == payload.get("pawn")
                     and any(math.dist((x, y), p) < 2 * HIT_RADIUS for p in t["points"])), None)
        if near is None:
            targets.append({"pawn": payload.get("pawn"), "x": x, "y": y, "points": [(x, y)], "items": [item]})
        else:
            near["points"].append((x, y))
            near["items"].append(item)
            near["x"] = sum(p[0] for p in near["points"]) / len(near["points"])
            near["y"] = sum(p[1] for p in near["points"]) / len(near["points"])
    return targets
