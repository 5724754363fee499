"""Texts the platform's Jinja2 templates (``templates/games/**/*.jinja``: the phone page's regions, the pregame, the
fair draws, the chance statistics, the end chart) translate with values, in a context or as a plural, listed for
makemessages.

makemessages reads only ``{{ _("text") }}`` of a literal in a ``.jinja`` file: a text with values
(``_("Won by %(names)s", names=...)``), a plural (``ngettext``) and a text in a context (``pgettext``) are listed
here once, exactly their msgids, so their catalogue entries stay; the templates look each up by the same msgid.
Nothing reads this list. The markers are the engines' (games/engines/errors.py), as in each game's
``template_words.py``.
"""

from __future__ import annotations

from games.engines.errors import gettext_noop, ngettext, pgettext

TEXTS = (
    # regions/status.jinja
    gettext_noop("Edition data “%(name)s” is not verified against a real box."),
    gettext_noop("Won by %(names)s"),
    gettext_noop("Waiting for %(names)s."),
    pgettext("rules at hand", "How does this work?"),
    # regions/links.jinja
    pgettext("rules at hand", "Rules at hand"),
    # regions/corrections.jinja
    gettext_noop("%(who)s proposes to change the entry %(mover)s made behind their screen at move #%(n)s "
                 "(“%(before)s”); what it would become shows only on %(mover)s's phone."),
    gettext_noop("%(who)s says the table shows otherwise: move #%(n)s (“%(before)s”) should be “%(what)s”."),
    gettext_noop("%(who)s says the table shows otherwise: move #%(n)s should be “%(what)s”."),
    gettext_noop("%(who)s says move #%(n)s never happened and should be dropped."),
    # regions/log_line.jinja
    gettext_noop("corrected; first logged as “%(first)s”"),
    # _pregame.jinja
    gettext_noop("A tie: %(names)s draw again."),
    gettext_noop("%(who)s starts."),
    gettext_noop("Set-up: %(done)s of %(total)s steps done"),
    # _chance_stats.jinja
    ngettext("%(n)s roll in all.", "%(n)s rolls in all.", "n"),
    ngettext("%(n)s card drawn in all.", "%(n)s cards drawn in all.", "n"),
    ngettext("%(n)s tile drawn in all.", "%(n)s tiles drawn in all.", "n"),
    gettext_noop("Within what chance alone gives (chi-square %(chi2)s, below %(limit)s)."),
    gettext_noop("Further from chance than one game in twenty (chi-square %(chi2)s, above %(limit)s)."),
    ngettext("%(n)s draw into a hidden hand was typed in by hand: it is not counted.",
             "%(n)s draws into hidden hands were typed in by hand: they are not counted.", "n"),
    # _end_chart.jinja
    gettext_noop("Chart: %(what)s after each move (%(n)s moves)"),
)
