"""The Jinja2 environment of the second template backend (``TEMPLATES`` in ``companion/settings.py``).

Jinja2 draws the board parts that change on every move and hold many elements (the Sorry! pieces, the
Yellow & Yangtze map's tiles, targets, pagodas and leaders, its other part bodies and its controls): its compiled templates write them several
times faster than Django's template nodes. Those templates are named ``*.jinja`` and live beside the
Django templates of their game; a Django template includes one with ``{% jinja "name" key=value %}``
(``games/templatetags/jinja.py``), so each piece of markup has exactly one source.

What the templates get here, and nothing else:

- autoescaping on: every ``{{ value }}`` is HTML-escaped unless it is already safe markup (MarkupSafe
  writes ``&#34;`` and ``&#39;`` where Django writes ``&quot;`` and ``&#x27;``: the same characters);
- Django's lookup order: ``item.key`` of a dictionary is its key ``"key"``;
- translation through Django's own catalogues, in the active language and escaped as Django's tags escape:
  ``_("text")`` is ``{% translate "text" %}`` of a literal and ``_("text %(n)s", n=value)`` its
  ``{% blocktranslate with n=value %}`` (the translation as written, each value escaped, a literal ``%`` written
  ``%%``); ``ngettext("%(n)s tile", "%(n)s tiles", count, n=count)`` is ``{% blocktranslate count %}``,
  ``pgettext("dynasty", "Lion")`` ``{% translate "Lion" context "dynasty" %}``, and ``gettext(value)``
  ``{% translate value %}`` of a variable (the translation escaped); ``{{ sep() }}``, ``{{ list_comma() }}`` and
  ``{{ list_semicolon() }}`` are the tags of the same names;
- Django's own ``truncatechars`` and the project's ``names`` (:func:`django_text_filters`), which write a
  name exactly as the Django templates do;
- the project's presentation filters ``get``, ``bdi``, ``bdi_joined`` and ``term``
  (``games/templatetags/companion.py``), and every game's own
  filters, as its adapter declares them (``WebAdapter.template_filters``; its ``template_words`` are
  shown in the page's language and remembered per language and value).

Numbers print as Python writes them (``377.3``, never localized): the templates draw SVG coordinates.
Write a translated text as ``{{ _("text") }}`` with the literal inside: ``makemessages -e html,txt,py,jinja``
collects it (Django's template lexer reads that form in a ``.jinja`` file too, and only that form); a text with
values, a plural or a text in a context is listed once in Python for it, in the game's
``shelf/<slug>/template_words.py``, and a word translated from a variable (``gettext(colour)``) once in
``games/text/colours.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from django.template.defaultfilters import truncatechars
from django.utils.html import conditional_escape
from django.utils.translation import get_language, gettext, ngettext, pgettext
from jinja2 import Environment, Undefined
from markupsafe import Markup

from games.templatetags.companion import (
    bdi,
    bdi_joined,
    game_filters,
    get,
    list_comma,
    list_semicolon,
    names,
    sep,
    term,
)


def _translate(message: str, **variables: Any) -> Markup:
    """``_("text")``: Django's ``{% translate "text" %}`` of a literal, the catalogue's text as written (a literal is
    safe to Django, and so is its translation); ``_("text %(n)s", n=value)``: its ``{% blocktranslate with
    n=value %}``, the same text with each value escaped. A literal ``%`` is written ``%%``."""
    return Markup(gettext(message)) % variables


def _gettext(message: object) -> Markup:
    """``gettext(value)``: Django's ``{% translate value %}`` of a variable, HTML-escaped (a missing value translates
    to ``""``)."""
    return Markup(conditional_escape(gettext(str(message))))


def _ngettext(singular: str, plural: str, number: int, **variables: Any) -> Markup:
    """``ngettext("%(n)s tile", "%(n)s tiles", count, n=count)``: Django's ``{% blocktranslate count n=count %}``, the
    form for ``number`` as written, each value escaped (``num`` is ``number`` unless given)."""
    variables.setdefault("num", number)
    return Markup(ngettext(singular, plural, number)) % variables


def _pgettext(context: str, message: str) -> Markup:
    """``pgettext("dynasty", "Lion")``: Django's ``{% translate "Lion" context "dynasty" %}``, as written."""
    return Markup(pgettext(context, message))


def _remembered(write: Callable[..., Any]) -> Callable[..., Any]:
    """``write`` (a filter that reads only its arguments and the active language) remembered per (language, arguments).

    A name is truncated, a hand of cards listed, a pawn or a square named, the same way on every draw of a board
    (the games' word filters and :func:`django_text_filters`); each argument is keyed
    with its type (a safe string and the same plain text are written differently), a list as a tuple of its items;
    arguments that cannot be a key are written without the memory.
    """

    def key(value: Any) -> tuple[Any, Any]:
        if type(value) is list:  # its items as they are: an item that cannot be a key leaves the memory out
            return (list, tuple((type(v), v) for v in value))
        return (type(value), value)

    def value(keyed: tuple[Any, Any]) -> Any:
        kind, held = keyed
        return [v for _, v in held] if kind is list else held

    @lru_cache(maxsize=2048)
    def remembered(language: str | None, *keyed: tuple[Any, Any]) -> Any:
        return write(*map(value, keyed))

    def written(*args: Any) -> Any:
        try:
            return remembered(get_language(), *map(key, args))
        except TypeError:
            return write(*args)

    written.__doc__ = write.__doc__
    return written


def django_text_filters() -> dict[str, Callable[..., Any]]:
    """Django template filters a Jinja2 template uses to write text exactly as a Django template writes it:
    ``truncatechars`` (Django's, ``{{ name|truncatechars(9) }}``) and ``names`` (``games/templatetags/companion.py``:
    a list of names for a sentence, each isolated, escaped), each remembered per language and arguments
    (:func:`_remembered`). Each returns plain text, escaped on output, or safe markup."""
    return {"truncatechars": _remembered(truncatechars), "names": _remembered(names)}


class _Environment(Environment):
    """Jinja2's environment with Django's lookup order for dictionaries: ``item.key`` is ``item["key"]`` first.

    The views the templates draw are dictionaries; Jinja2 alone would try an attribute first (a failed
    ``getattr`` per field, and ``t.items`` the method rather than the key).
    """

    def getattr(self, obj: Any, attribute: str) -> Any:
        """``obj.attribute`` in a template: the key ``attribute`` of a dictionary, else Jinja2's own lookup."""
        if type(obj) is dict and attribute in obj:
            return obj[attribute]
        return super().getattr(obj, attribute)


def environment(**options: Any) -> Environment:
    """A Jinja2 :class:`~jinja2.Environment` for Django's ``Jinja2`` backend (its ``OPTIONS["environment"]``).

    ``options`` are the backend's (loader, ``auto_reload``...). Autoescaping is forced on, and a missing
    value prints as nothing in every mode, as in Django templates (the backend's default would print
    ``{{ name }}`` with ``DEBUG`` on: a page would differ between development and production). Returns the
    environment with the i18n extension bound to Django's ``gettext`` and ``ngettext`` and the project's
    filters listed in the module docstring.
    """
    options["autoescape"] = True
    options["undefined"] = Undefined
    extensions = list(options.pop("extensions", ()))
    if "jinja2.ext.i18n" not in extensions:
        extensions.append("jinja2.ext.i18n")
    env = _Environment(extensions=extensions, **options)
    # Not Jinja2's new style: these take their values themselves, to escape a translation as Django's tag would.
    env.install_gettext_callables(_gettext, _ngettext, newstyle=False, pgettext=_pgettext)  # type: ignore[attr-defined]
    env.globals["_"] = _translate
    layout, words = game_filters()
    env.globals["sep"] = sep  # {{ sep() }}: the status-line separator of every language (games/text/words.py)
    env.globals["list_comma"] = list_comma  # {{ list_comma() }}: Django's {% list_comma %}, ", " or "، "
    env.globals["list_semicolon"] = list_semicolon  # {{ list_semicolon() }}: Django's {% list_semicolon %}
    env.filters.update({"get": get, "bdi": bdi, "bdi_joined": bdi_joined, "term": term, **django_text_filters(),
                        **layout, **{name: _remembered(shown) for name, shown in words.items()}})
    return env
