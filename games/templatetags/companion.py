"""Small presentation filters for game templates (no rules here)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template

register = template.Library()


@register.filter
def get(mapping: Any, key: Any) -> Any:
    """``mapping[key]`` or ``None``: ``{{ view.layout.points|get:key }}``."""
    if isinstance(mapping, Mapping):
        return mapping.get(key)
    if isinstance(mapping, (list, tuple)) and isinstance(key, int) and 0 <= key < len(mapping):
        return mapping[key]
    return None


@register.filter
def where(payload: Mapping[str, Any]) -> str:
    """A Sorry!-style destination key of a move payload: ``T17``, or ``R:S2`` / ``R:HOME`` for a pawn's own lane."""
    to = str(payload.get("to", ""))
    if to.startswith("T"):
        return to
    return f"{str(payload.get('pawn', '?'))[:1]}:{to}"
