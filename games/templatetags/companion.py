"""Small presentation filters for game templates (no rules here), and every game's own.

A game declares the filters its board templates use in its adapter (``WebAdapter.template_filters`` and
``template_words``, ``shelf/<slug>/web.py``); this library registers them all, and the Jinja2
environment (``games/web/jinja2env.py``) registers the same ones.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django import template
from django.core.exceptions import ImproperlyConfigured

from games.engines import adapters
from games.engines.base import LogLine

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
def term(value: Any) -> Any:
    """A game term or shipped edition name in the reader's words (``"black"`` -> "مشکی"); anything else as it is."""
    from games.text.words import terms, translated

    known = terms()
    return translated(known[value]) if isinstance(value, str) and value in known else value


@register.filter
def msgid(value: Any) -> str:
    """A catalogue entry named by a value (``"card\x04Sorry!"``: a message in a context) in the active language."""
    from games.text.words import translated

    return translated(str(value)) if value else ""


@register.filter(needs_autoescape=True)
def names(values: Any, autoescape: bool = True) -> str:
    """A list of names for a sentence: each isolated (FSI … PDI where its script differs from the page's),
    joined with the language's comma (``، `` in Persian and Pashto, ``, `` otherwise); escaped."""
    from django.utils.html import conditional_escape
    from django.utils.safestring import mark_safe

    from games.text.words import isolate, list_separator

    if values is None or isinstance(values, str):
        values = [] if values is None else [values]
    escape = conditional_escape if autoescape else str
    return mark_safe(list_separator().join(escape(isolate(str(v))) for v in values))


@register.filter(needs_autoescape=True)
def bdi(value: Any, autoescape: bool = True) -> str:
    """One name or number as an isolated run: ``<bdi>`` around it (escaped), so a Latin name beside Persian words and
    digits keeps its place in a right-to-left sentence ("Emma — ۶ تایل") and a Persian name in a left-to-right one."""
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

    from games.text.words import list_separator

    if values is None or isinstance(values, str):
        values = [] if values is None else [values]
    return mark_safe(list_separator().join(bdi(v, autoescape) for v in values))


@register.simple_tag
def taps_waiting(count: int) -> str:
    """The offline banner's count of waiting taps: the plural form for ``count`` taps in the active language,
    its number left as ``%(n)s`` for table.js to fill in (in the phone's digits). The page carries the form for
    1 and for 2; table.js uses the first for one tap and the second for more, the plural rule of every shipped
    language (tests/web/test_taps_waiting_words.py checks the catalogues)."""
    from django.utils.translation import ngettext

    return ngettext("%(n)s tap waits to be sent.", "%(n)s taps wait to be sent.", count)


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
    from games.text.words import list_separator

    return list_separator()


@register.simple_tag
def sep() -> str:
    """The separator between two parts of a status line (``games.text.words.PART_SEPARATOR``): never a glyph that reads
    as a digit beside a number."""
    from games.text.words import part_separator

    return part_separator()


@register.simple_tag
def list_semicolon() -> str:
    """The semicolon (and its space) between two parts of a list in the active language: ``؛ `` in Persian and
    Pashto."""
    from games.text.words import clause_separator

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


def shown(words: Callable[[Any], LogLine]) -> Callable[[Any], str]:
    """A game's word filter (``WebAdapter.template_words``: value -> engine ``LogLine``) as a template filter
    writing the line in the active language (:func:`games.text.words.show`)."""
    def filter_(value: Any) -> str:
        from games.text.words import show

        line = words(value)
        return show(line.text, line.details)

    filter_.__name__ = getattr(words, "__name__", "words")
    filter_.__doc__ = words.__doc__
    return filter_


def game_filters() -> tuple[dict[str, Callable[..., Any]], dict[str, Callable[[Any], str]]]:
    """Every registered game's template filters: ``(layout filters, word filters)`` by name, the word filters
    already shown in the active language (:func:`shown`). Both template backends register them.

    Raises ``ImproperlyConfigured`` when two games, or a game and this library, declare one name.
    """
    layout: dict[str, Callable[..., Any]] = {}
    words: dict[str, Callable[[Any], str]] = {}
    for slug, adapter in adapters().items():
        for name, function in [*adapter.template_filters.items(), *adapter.template_words.items()]:
            if name in layout or name in words or name in _PLATFORM_FILTERS:
                raise ImproperlyConfigured(f"The template filter {name!r} of {slug} is declared twice.")
            if name in adapter.template_words:
                words[name] = shown(function)
            else:
                layout[name] = function
    return layout, words


_PLATFORM_FILTERS = frozenset(register.filters)
_layout, _words = game_filters()
for _name, _filter in {**_layout, **_words}.items():
    register.filter(_name, _filter)
