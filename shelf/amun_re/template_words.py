"""Words Amun-Re's Jinja2 templates (``templates/amun_re/*.jinja``) translate with values, listed for makemessages.

makemessages reads only ``{{ _("text") }}`` of a literal in a ``.jinja`` file: a text with values
(``_("Kingdom %(n)s", n=...)``) is listed here once, exactly its msgid, so its catalogue entry stays; the
templates look each up by the same msgid. Nothing reads this list. Like the engines, it imports nothing of
Django: the marker is the engines' (games/engines/errors.py).
"""

from __future__ import annotations

from games.engines.errors import gettext_noop

TEXTS = (
    gettext_noop("Keep gold cards worth %(budget)s for this Kingdom (the 0 card is always kept):"),
    gettext_noop("Your secret offering (%(n)s of %(total)s have offered). Nobody sees it until everyone has offered. "
                 "Only the total matters: every card left after the offering goes on your Revenue track."),
    gettext_noop("Kingdom %(k)s of 3 — auction %(a)s of 3"),
    gettext_noop("%(gold)s gold left after your offering"),
    gettext_noop("you offered %(gold)s (sealed)"),
    gettext_noop("%(gold)s gold left"),
    gettext_noop("farms: %(n)s"),
    gettext_noop("caravans: %(n)s"),
    gettext_noop("Kingdom %(n)s"),
)
