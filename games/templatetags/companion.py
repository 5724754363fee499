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


@register.filter(needs_autoescape=True)
def bdi(value: Any, autoescape: bool = True) -> str:
    """One name or number as an isolated run: ``<bdi>`` around it (escaped), so a Latin name beside Persian words and
    digits keeps its place in a right-to-left sentence ("Emma · ۶ تایل") and a Persian name in a left-to-right one."""
    from django.utils.html import conditional_escape
    from django.utils.safestring import mark_safe

    if value is None or value == "":
        return ""
    escape = conditional_escape if autoescape else str
    return mark_safe(f"<bdi>{escape(str(value))}</bdi>")


@register.filter(needs_autoescape=True)
def bdi_list(values: Any, autoescape: bool = True) -> str:
    """A list of names for a sentence, each in ``<bdi>`` (escaped), joined with the language's comma (``، `` in
    Persian and Pashto, ``, `` otherwise)."""
    from django.utils.safestring import mark_safe

    from games.words import list_separator

    if values is None or isinstance(values, str):
        values = [] if values is None else [values]
    return mark_safe(list_separator().join(bdi(v, autoescape) for v in values))


@register.filter(needs_autoescape=True)
def bdi_joined(value: Any, autoescape: bool = True) -> str:
    """An engine's comma-joined names (``"Ann, Ben"``, as a view's ``names`` holds them) as :func:`bdi_list` shows a
    list: each in ``<bdi>``, joined with the language's comma."""
    if value is None or value == "":
        return ""
    return bdi_list(str(value).split(", "), autoescape)


@register.simple_tag
def list_comma() -> str:
    """The comma (and its space) between two names of a list in the active language: ``، `` in Persian and Pashto."""
    from games.words import list_separator

    return list_separator()


@register.simple_tag
def list_semicolon() -> str:
    """The semicolon (and its space) between two parts of a list in the active language: ``؛ `` in Persian and
    Pashto."""
    from games.words import clause_separator

    return clause_separator()


@register.filter
def seat_names(seats: Any, indices: Any) -> list[str]:
    """The names of the seats whose ``index`` is in ``indices`` (a game result's winners), in seat order; ``[]`` when
    either is missing. ``seats`` is the page's list of seat views (each with ``.index``/``["index"]`` and a name)."""
    if not seats or indices is None:
        return []
    wanted = set(indices)

    def field(seat: Any, name: str) -> Any:
        return seat.get(name) if isinstance(seat, Mapping) else getattr(seat, name, None)

    return [str(field(s, "name")) for s in seats if field(s, "index") in wanted]


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
