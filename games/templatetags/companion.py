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


@register.filter
def term(value: Any) -> Any:
    """A game term or shipped edition name in the reader's words (``"black"`` -> "مشکی"); anything else as it is."""
    from django.utils.translation import gettext

    from games.words import terms

    known = terms()
    return gettext(known[value]) if isinstance(value, str) and value in known else value


@register.filter(needs_autoescape=True)
def names(values: Any, autoescape: bool = True) -> str:
    """A list of names for a sentence: each isolated (FSI … PDI where its script differs from the page's),
    joined with the language's comma (``، `` in Persian and Pashto, ``, `` otherwise); escaped."""
    from django.utils.html import conditional_escape
    from django.utils.safestring import mark_safe

    from games.words import isolate, list_separator

    if values is None or isinstance(values, str):
        values = [] if values is None else [values]
    escape = conditional_escape if autoescape else str
    return mark_safe(list_separator().join(escape(isolate(str(v))) for v in values))


@register.filter
def sorry_pawn(pawn: Any) -> str:
    """A Sorry! pawn id as players name it: ``R0`` -> "red pawn 1" (translated)."""
    from games.engines.sorry import pawn_words
    from games.words import show

    line = pawn_words(pawn)
    return show(line.text, line.details)


@register.filter
def sorry_square(loc: Any) -> str:
    """A Sorry! location as players count it: ``T40`` -> "square 41", ``S2`` -> "safety square 2" (translated)."""
    from games.engines.sorry import square_words
    from games.words import show

    line = square_words(loc)
    return show(line.text, line.details)
