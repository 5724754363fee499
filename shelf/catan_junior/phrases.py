"""The sentences with placeholders that Catan Junior's Jinja2 templates (``templates/catan_junior/*.jinja``) translate.

``makemessages`` reads ``{{ _("text") }}`` in a ``.jinja`` file but not a call that fills placeholders
(``_("%(name)s rolled %(v)s.", name=..., v=...)``): those msgids are listed here, once, exactly as Django's
``{% blocktranslate %}`` wrote them when the templates were Django's, so the catalogues keep them and every
translation still applies. Nothing imports this module; a template that adds such a sentence adds it here. Like
the engines, it imports nothing of Django: ``gettext_noop`` is the engines' marker, ``ngettext`` the one below.
"""
from __future__ import annotations

from games.engines.base import gettext_noop


def ngettext(singular: str, plural: str, count: str) -> tuple[str, str]:
    """A plural sentence marked for ``makemessages`` (xgettext reads ``ngettext(singular, plural, n)`` as one
    plural entry): the pair itself, translated by nothing here. ``count`` names the template's number."""
    return singular, plural


SENTENCES = (
    # news.jinja
    gettext_noop("%(name)s rolled the Ghost Captain."),
    gettext_noop("The die shows %(v)s"),
    gettext_noop("%(name)s rolled %(v)s."),
    gettext_noop("%(name)s drew a Coco tile: the Ghost Captain."),
    gettext_noop("%(name)s drew a Coco tile: a free lair or ship."),
    gettext_noop("%(name)s drew a Coco tile:"),
    gettext_noop("%(name)s moves the Ghost Captain now."),
    gettext_noop("%(name)s places the free piece now."),
    gettext_noop("%(name)s has the most Coco tiles and puts a lair on the castle."),
    gettext_noop("%(name)s's castle lair goes back to their stock."),
    gettext_noop("A tie for the most Coco tiles: %(name)s's castle lair goes back to their stock."),
    # offer.jinja
    gettext_noop("%(name)s offers you"),
    gettext_noop("Waiting for %(target)s to answer your offer:"),
    gettext_noop("Waiting for %(target)s to answer %(name)s's offer:"),
    # dice.jinja, supply.jinja, controls.jinja
    ngettext("%(n)s roll so far", "%(n)s rolls so far", "n"),
    ngettext("%(n)s Coco tile left", "%(n)s Coco tiles left", "n"),
    ngettext("%(n)s left", "%(n)s left", "n"),
)
