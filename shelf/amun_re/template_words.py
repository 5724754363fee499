"""Words Amun-Re's Jinja2 templates (``templates/amun_re/*.jinja``) translate with values, listed for makemessages.

makemessages reads only ``{{ _("text") }}`` of a literal in a ``.jinja`` file: a text with values
(``_("Kingdom %(n)s", n=...)``), a plural (``ngettext``) and a text in a context (``pgettext``) are listed here
once, exactly its msgid, so its catalogue entry stays; the templates look each up by the same msgid. Nothing reads
this list. Like the engines, it imports nothing of Django: the markers are the engines' (games/engines/errors.py).
"""

from __future__ import annotations

from games.engines.errors import gettext_noop, ngettext, pgettext

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
    gettext_noop("tie on %(n)s visible ankhs after auction %(a)s; %(holder)s holds the Ankh token, so %(holder)s keeps "
                 "it (ties go to the holder first, then clockwise)."),
    gettext_noop("After auction %(a)s, %(holder)s keeps the Ankh token: the most visible ankhs (%(n)s)."),
    gettext_noop("tie on %(n)s visible ankhs after auction %(a)s; %(new)s sits nearest to %(old)s (clockwise from the "
                 "holder), so %(new)s takes the Ankh token."),
    gettext_noop("After auction %(a)s, %(new)s has the most visible ankhs (%(n)s) and takes the Ankh token from "
                 "%(old)s."),
    gettext_noop("Outbid on province %(n)s: %(name)s’s %(card)s goes back to their hand."),
    gettext_noop("%(n)s of %(total)s have offered."),
    gettext_noop("Offerings revealed: total %(total)s, temple on column %(column)s"),
    gettext_noop("offered %(gold)s each; ties go to the seat nearest the start player %(start)s (clockwise), so "
                 "%(first)s ranks first."),
    gettext_noop("Income: temple column %(column)s pays %(farm)s per farm and %(caravan)s per caravan"),
    gettext_noop("Kingdom %(k)s scoring"),
    gettext_noop("This Kingdom’s three provinces with at least %(n)s farms: +1."),
    gettext_noop("Most ankhs: %(name)s +1 and takes the Ankh token for the next Kingdom."),
    gettext_noop("tied for the most ankhs; %(holder)s held the Ankh token and the tie goes to the seat nearest them, "
                 "so %(name)s wins."),
    gettext_noop("Fewest ankhs: %(name)s −1."),
    gettext_noop("tied for the fewest ankhs; %(holder)s held the Ankh token and the seats nearest them avoid the −1, "
                 "so %(name)s, the farthest, loses 1."),
    gettext_noop("Pyramids left in the box: %(left)s"),
)

PLURALS = (
    ngettext("%(n)s seat after the start player", "%(n)s seats after the start player", "n"),
)

IN_CONTEXT = (
    pgettext("joining the last of several names", "and"),
)
