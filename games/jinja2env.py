"""The Jinja2 environment of the second template backend (``TEMPLATES`` in ``companion/settings.py``).

Jinja2 draws the board parts that change on every move and hold many elements (the Sorry! pieces, the
Yellow & Yangtze map's tiles, targets, pagodas and leaders): its compiled templates write them several
times faster than Django's template nodes. Those templates are named ``*.jinja`` and live beside the
Django templates of their game; a Django template includes one with ``{% jinja "name" key=value %}``
(``games/templatetags/jinja.py``), so each piece of markup has exactly one source.

What the templates get here, and nothing else:

- autoescaping on: every ``{{ value }}`` is escaped by Django's own ``conditional_escape`` (the
  environment's ``finalize``) unless it is already safe markup, so both backends write the same
  entities (``&quot;``, ``&#x27;``) and a page reads the same whichever engine drew a part of it;
- translation through Django's own catalogues: ``_("text")`` / ``gettext`` / ``ngettext`` call Django's
  ``gettext`` in the active language (the ``jinja2.ext.i18n`` extension, new-style: ``%(name)s``
  placeholders are filled by keyword and escaped, a literal ``%`` is written ``%%``); the translation is
  escaped as Django's ``{% translate %}`` escapes it;
- the project's presentation filters these templates use: ``where``, ``get``, ``term``,
  ``sorry_pawn``, ``sorry_square`` (``games/templatetags/companion.py``), ``sorry_destinations`` and
  ``yy_hex_picks`` (``games/templatetags/layout.py``).

Numbers print as Python writes them (``377.3``, never localized): the templates draw SVG coordinates.
"""

from __future__ import annotations

from typing import Any

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString
from django.utils.translation import gettext, ngettext
from jinja2 import Environment, Undefined

from games.templatetags.companion import get, sorry_pawn, sorry_square, term, where
from games.templatetags.layout import sorry_destinations, yy_hex_picks


def _gettext(message: object) -> SafeString:
    """Django's ``gettext`` of ``message`` (a missing value translates to ``""``), HTML-escaped."""
    return conditional_escape(gettext(str(message)))


def _ngettext(singular: object, plural: object, number: int) -> SafeString:
    """Django's ``ngettext`` (the form for ``number``), HTML-escaped."""
    return conditional_escape(ngettext(str(singular), str(plural), number))


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
    options["finalize"] = conditional_escape
    extensions = list(options.pop("extensions", ()))
    if "jinja2.ext.i18n" not in extensions:
        extensions.append("jinja2.ext.i18n")
    env = Environment(extensions=extensions, **options)
    env.install_gettext_callables(_gettext, _ngettext, newstyle=True)  # type: ignore[attr-defined]
    env.filters.update({
        "where": where,
        "get": get,
        "term": term,
        "sorry_pawn": sorry_pawn,
        "sorry_square": sorry_square,
        "sorry_destinations": sorry_destinations,
        "yy_hex_picks": yy_hex_picks,
    })
    return env
