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
def yy_picks(legal: Iterable[Mapping[str, Any]]) -> set[str]:
    """The Yellow & Yangtze picks of the action step that have at least one legal hex (rules §4.1-§4.3).

    ``legal`` is the page's list of ``{"kind", "payload", "json", "label"}``.
    A pick is named as the board's ``data-picks`` names it: ``tile-<colour>``,
    ``leader-<colour>``, ``peasants-1`` (with the blue leader) or
    ``peasants-0`` (two blue tiles). The action bar disables a pick not in
    this set, so every enabled pick lights at least one hex.
    """
    out: set[str] = set()
    for item in legal:
        payload = item.get("payload") or {}
        kind = item.get("kind")
        if not payload.get("hex") or kind not in ("tile", "leader", "peasants"):
            continue
        out.add(f"{kind}-{int(bool(payload.get('leader')))}" if kind == "peasants" else f"{kind}-{payload.get('colour')}")
    return out
