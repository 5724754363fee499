"""Words Sorry!'s Jinja2 templates (``templates/sorry/*.jinja``) translate with values, listed for makemessages.

makemessages reads only ``{{ _("text") }}`` of a literal in a ``.jinja`` file: a text with values
(``_("%(n)s cards to draw", n=...)``) is listed here once, exactly its msgid, so its catalogue entry stays; the
templates look each up by the same msgid. Nothing reads this list. Like the engines, it imports nothing of
Django: the marker is the engines' (games/engines/errors.py).
"""

from __future__ import annotations

from games.engines.errors import gettext_noop

TEXTS = (
    gettext_noop("%(n)s cards to draw"),
    # static.jinja
    gettext_noop("square %(n)s"),
    gettext_noop("safety square %(n)s"),
)
