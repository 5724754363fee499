"""Words Catan Junior's Jinja2 templates (``templates/catan_junior/*.jinja``) translate with values, listed for
makemessages.

makemessages reads only ``{{ _("text") }}`` of a literal in a ``.jinja`` file: a text with values
(``_("%(name)s rolled %(v)s.", name=..., v=...)``) and a plural (``ngettext``) are listed here once, exactly as
Django's ``{% blocktranslate %}`` wrote them when the templates were Django's, so their catalogue entries stay;
the templates look each up by the same msgid. Nothing reads this list. Like the engines, it imports nothing of
Django: the markers are the engines' (games/engines/errors.py).
"""

from __future__ import annotations

from games.engines.errors import gettext_noop, ngettext

TEXTS = (
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
    # result.jinja
    gettext_noop("%(name)s has 7 lairs and wins!"),
    # dice.jinja, supply.jinja, controls.jinja
    ngettext("%(n)s roll so far", "%(n)s rolls so far", "n"),
    ngettext("%(n)s Coco tile left", "%(n)s Coco tiles left", "n"),
    ngettext("%(n)s left", "%(n)s left", "n"),
)
