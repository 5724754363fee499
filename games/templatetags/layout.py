"""Template helpers for the phone layout (issue 9): tap targets that a thumb can hit.

No rule lives here: these filters only regroup the legal actions the engine
already listed, by where their targets are drawn.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from django import template

from games.templatetags.companion import where

register = template.Library()

# Board units (Sorry! viewBox) that a 44 CSS px hit area covers on a 360 px phone (the board is drawn about 336 px
# wide, 0.89 px per unit): two destinations closer than this would share a tap.
SORRY_HIT_RADIUS = 25


@register.filter
def sorry_destinations(legal: Iterable[Mapping[str, Any]], points: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The board targets of the simple Sorry! moves (no split 7), one per place a thumb can tell apart.

    ``legal`` is the page's list of ``{"kind", "payload", "json", "label"}``;
    ``points`` the layout's ``{key: (x, y)}`` (``sorry.visibility``). Returns
    ``[{"pawn", "x", "y", "items"}]``: a pawn's destinations whose hit circles
    (radius :data:`SORRY_HIT_RADIUS`) would overlap are merged into one target
    whose ``items`` hold every move there (the page then opens the pawn's list
    of moves instead of guessing which one was meant, issue 9 item 2).
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
                     and any(math.dist((x, y), p) < 2 * SORRY_HIT_RADIUS for p in t["points"])), None)
        if near is None:
            targets.append({"pawn": payload.get("pawn"), "x": x, "y": y, "points": [(x, y)], "items": [item]})
        else:
            near["points"].append((x, y))
            near["items"].append(item)
            near["x"] = sum(p[0] for p in near["points"]) / len(near["points"])
            near["y"] = sum(p[1] for p in near["points"]) / len(near["points"])
    return targets


@register.filter
def hit_shape(board: Mapping[str, Any], px: float = 45.0) -> str:
    """A Yellow & Yangtze hexagon outline (axial units) grown so its narrowest side spans ``px`` CSS px.

    ``board`` is the view's board layout (``hex_shape`` and ``size``, the hex
    radius in px at the 360 px drawing width); the result keeps the hex shape
    when it is already large enough.
    """
    size = float(board.get("size") or 0)
    if not size:
        return str(board.get("hex_shape", ""))
    grow = max(1.0, float(px) / (math.sqrt(3) * size * 0.97))
    pairs = (pair.split(",") for pair in str(board["hex_shape"]).split())
    return " ".join(f"{float(x) * grow:.3f},{float(y) * grow:.3f}" for x, y in pairs)
