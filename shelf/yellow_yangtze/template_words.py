"""Words the Yellow & Yangtze Jinja2 templates (``templates/yellow_yangtze/*.jinja``) translate with values, listed
for makemessages.

makemessages reads only ``{{ _("text") }}`` of a literal in a ``.jinja`` file: a text with values
(``_("Side %(n)s", n=...)``), a plural (``ngettext``) and a text in a context (``pgettext``) are listed here
once, so their catalogue entries stay; the templates look each up by the same msgid. Nothing reads this list.
Like the engines, it imports nothing of Django: the markers are the engines' (games/engines/errors.py).
"""

from __future__ import annotations

from games.engines.errors import gettext_noop, ngettext, pgettext

TEXTS = (
    gettext_noop("Revolt over the %(colour)s leaders"),
    gettext_noop("%(name)s is deciding how many black tiles to commit."),
    gettext_noop("Attacker %(name)s (leader on %(hex)s): black tiles next to the leader: %(n)s"),
    gettext_noop("committed: %(n)s"),
    gettext_noop("Defender %(name)s (leader on %(hex)s): black tiles next to the leader: %(n)s"),
    gettext_noop("War! %(name)s joined the states at %(hex)s"),
    gettext_noop("%(name)s is deciding which side to support."),
    gettext_noop("%(name)s is deciding who wins the tie."),
    gettext_noop("Your decision: pick whose committed red tiles burn (still to burn: %(n)s)."),
    gettext_noop("%(name)s is deciding whose committed red tiles burn."),
    gettext_noop("Your decision: remove red tiles of the winning state (tap a lit hex); still to remove: %(n)s."),
    gettext_noop("%(name)s is deciding which red tiles the winner loses."),
    gettext_noop("%(names)s's side"),
    gettext_noop("Side %(n)s"),
    gettext_noop("strength %(n)s"),
    gettext_noop("%(name)s: red tiles %(n)s to %(side)s's side"),
    gettext_noop("%(name)s: red tiles %(n)s to side %(side)s"),
    gettext_noop("%(name)s: nothing"),
    gettext_noop("Revolt over: %(name)s wins"),
    gettext_noop("War over: %(name)s's side wins"),
    gettext_noop("War over: side %(n)s wins"),
    gettext_noop("side %(n)s"),
    gettext_noop("%(name)s's %(colour)s leader from %(hex)s"),
    gettext_noop("(+ committed red tiles burned: %(n)s)"),
    gettext_noop("%(name)s +%(n)s %(colour)s"),
    gettext_noop("Draw tiles from the real bag (how many: %(n)s), then enter their colours:"),
    gettext_noop("%(names)s's side wins"),
    gettext_noop("tiles in the bag: %(n)s"),
    gettext_noop("Dealing: %(name)s starts."),
    gettext_noop("Your turn — %(n)s of 2 actions left"),
    gettext_noop("%(name)s's turn — %(n)s of 2 actions left"),
)

PLURALS = (
    ngettext("Build a pagoda (%(n)s place)", "Build a pagoda (%(n)s places)", "n"),
    ngettext("%(n)s tile", "%(n)s tiles", "n"),
)

IN_CONTEXT = (
    pgettext("dynasty", "Lion"),
    pgettext("dynasty", "Bow"),
    pgettext("dynasty", "Jar"),
    pgettext("dynasty", "Buffalo"),
)
