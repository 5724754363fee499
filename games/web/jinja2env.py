"""The Jinja2 environment of the second template backend (``TEMPLATES`` in ``companion/settings.py``).

Jinja2 draws the board parts that change on every move and hold many elements (the Sorry! pieces, the
Yellow & Yangtze map's tiles, targets, pagodas and leaders): its compiled templates write them several
times faster than Django's template nodes. Those templates are named ``*.jinja`` and live beside the
Django templates of their game; a Django template includes one with ``{% jinja "name" key=value %}``
(``games/templatetags/jinja.py``), so each piece of markup has exactly one source.

What the templates get here, and nothing else:

- autoescaping on: every ``{{ value }}`` is HTML-escaped unless it is already safe markup (MarkupSafe
  writes ``&#34;`` and ``&#39;`` where Django writes ``&quot;`` and ``&#x27;``: the same characters);
- Django's lookup order: ``item.key`` of a dictionary is its key ``"key"``;
- translation through Django's own catalogues: ``_("text")`` / ``gettext`` / ``ngettext`` call Django's
  ``gettext`` in the active language (the ``jinja2.ext.i18n`` extension, new-style: ``%(name)s``
  placeholders are filled by keyword and escaped, a literal ``%`` is written ``%%``); the translation is
  escaped as Django's ``{% translate %}`` escapes it; a call with placeholders (``_("%(name)s rolled %(v)s.",
  name=..., v=...)``, ``ngettext(singular, plural, n, n=n)``) reads as Django's ``{% blocktranslate %}`` with the
  same msgid: the values are escaped (unless already safe markup), the translation is not;
- the project's presentation filters ``get``, ``bdi`` and ``term`` (``games/templatetags/companion.py``), and every game's own
  filters, as its adapter declares them (``WebAdapter.template_filters``; its ``template_words`` are
  shown in the page's language and remembered per language and value).

Numbers print as Python writes them (``377.3``, never localized): the templates draw SVG coordinates.
Write a translated text as ``{{ _("text") }}`` with the literal inside: ``makemessages -e html,txt,py,jinja``
collects it (Django's template lexer reads that form in a ``.jinja`` file too); a word translated from a
variable (``gettext(colour)``) is listed once in ``games/text/colours.py``. The lexer does not read a call with
placeholders: a game lists those msgids once in Python (``gettext_noop``, ``ngettext_lazy``) for makemessages.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext, ngettext
from jinja2 import Environment, Undefined, pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from games.templatetags.companion import bdi, game_filters, get, sep, term


def _gettext(message: object) -> SafeString:
    """Django's ``gettext`` of ``message`` (a missing value translates to ``""``), HTML-escaped."""
    return conditional_escape(gettext(str(message)))


def _ngettext(singular: object, plural: object, number: int) -> SafeString:
    """Django's ``ngettext`` (the form for ``number``), HTML-escaped."""
    return conditional_escape(ngettext(str(singular), str(plural), number))


@pass_context
def _translate(context: Context, message: object, **values: Any) -> Markup:
    """``_("text")`` / ``gettext``: Django's ``gettext`` of ``message``, as ``{% translate %}`` writes it (escaped);
    with ``values``, as ``{% blocktranslate with name=value %}`` writes it: the translation as it stands, its
    ``%(name)s`` filled with the values escaped (a safe value, ``bdi``'s markup, as it is). ``%%`` is a ``%``."""
    if not values:
        return Markup(_gettext(message)) % {}
    return Markup(gettext(str(message))) % values


@pass_context
def _translate_plural(context: Context, singular: object, plural: object, number: int, **values: Any) -> Markup:
    """``ngettext``: Django's ``ngettext`` (the form for ``number``); with ``values`` (``n=number``...) as
    ``{% blocktranslate count n=number %}`` writes it, the translation unescaped and the values escaped, else as
    the i18n extension writes it (escaped, ``%(num)s`` the number)."""
    if not values:
        return Markup(_ngettext(singular, plural, number)) % {"num": number}
    return Markup(ngettext(str(singular), str(plural), number)) % {"num": number, **values}


def _per_language(words: Callable[[Any], str]) -> Callable[[Any], str]:
    """``words`` remembered per (active language, value): names of pieces and places, the same every time.

    ``words`` is a filter that reads only its argument and the active language's catalogue (a pawn's or a
    square's name); a value that cannot be a key (unhashable) is named without the memory.
    """
    remembered = lru_cache(maxsize=2048)(lambda language, value: words(value))

    def named(value: Any) -> str:
        try:
            return remembered(get_language(), value)
        except TypeError:
            return words(value)

    named.__doc__ = words.__doc__
    return named


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
    env.install_gettext_callables(_gettext, _ngettext, newstyle=True)  # type: ignore[attr-defined]
    env.globals.update({"_": _translate, "gettext": _translate, "ngettext": _translate_plural})
    layout, words = game_filters()
    env.globals["sep"] = sep  # {{ sep() }}: the status-line separator of every language (games/text/words.py)
    env.filters.update({"get": get, "bdi": bdi, "term": term, **layout, **{name: _per_language(shown) for name, shown in words.items()}})
    return env
