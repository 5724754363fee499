"""Colour names the games use, marked for translation (templates translate them from variables).

makemessages cannot see ``{% translate colour %}`` with a variable, so the
names are listed here once.
"""

from __future__ import annotations

from games.engines.base import gettext_noop

COLOUR_NAMES = {
    "red": gettext_noop("red"),
    "blue": gettext_noop("blue"),
    "yellow": gettext_noop("yellow"),
    "green": gettext_noop("green"),
    "black": gettext_noop("black"),
    "purple": gettext_noop("purple"),
    "white": gettext_noop("white"),
    "orange": gettext_noop("orange"),
}
