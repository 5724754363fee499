"""Template helpers for the phone layout: tap targets that a thumb can hit.

No rule lives here and no markup is written here: these filters only regroup the legal actions the
engine already listed, by where their targets are drawn; the templates draw them.
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
                     and any(math.dist((x, y), p) < 2 * SORRY_HIT_RADIUS for p in t["points"])), None)
        if near is None:
            targets.append({"pawn": payload.get("pawn"), "x": x, "y": y, "points": [(x, y)], "items": [item]})
        else:
            near["points"].append((x, y))
            near["items"].append(item)
            near["x"] = sum(p[0] for p in near["points"]) / len(near["points"])
            near["y"] = sum(p[1] for p in near["points"]) / len(near["points"])
    return targets


def _pick_name(kind: Any, payload: Mapping[str, Any]) -> str:
    """A legal item's pick as the board's ``data-picks`` and the action bar's ``data-yy-pick`` name it.

    ``peasants-1`` / ``peasants-0`` (the Peasants' Revolt with the blue leader or with two blue tiles),
    else ``<kind>-<colour>`` (``tile-red``, ``leader-black``; ``<kind>-`` for an item without a colour).
    """
    if kind == "peasants":
        return f"peasants-{int(bool(payload.get('leader')))}"
    return f"{kind}-{payload.get('colour', '')}"


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
        out.add(_pick_name(kind, payload))
    return out


def yy_hex_picks(legal: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The Yellow & Yangtze action step's hex targets: ``[{"q", "r", "picks"}]``, one per hex with a legal item.

    ``legal`` is the page's list of ``{"kind", "payload", "json", "label"}``; an item whose payload names a
    ``hex`` (``[q, r]`` axial) adds its pick (named as :func:`yy_picks` names it) to that hex's ``picks``, in
    the order of ``legal``. Hexes come in the order of their first item; items without a hex are left out.
    The board draws one target per hex; the picker script arms it for the picks it lists (rules §4.1-§4.3).
    """
    targets: dict[tuple[Any, ...], dict[str, Any]] = {}
    for item in legal:
        payload = item.get("payload")
        hex_ = payload.get("hex") if isinstance(payload, Mapping) else None
        if not hex_ or not isinstance(hex_, (list, tuple)) or len(hex_) < 2:
            continue
        key = tuple(hex_)
        target = targets.get(key)
        if target is None:
            target = targets[key] = {"q": hex_[0], "r": hex_[1], "picks": []}
        target["picks"].append(_pick_name(item.get("kind"), payload))
    return list(targets.values())
