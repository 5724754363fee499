"""The refusal every engine raises, and the markers for translatable engine strings.

The bottom of ``games/engines/``: imports nothing of the project, so the engine
contract (:mod:`games.engines.base`) and the payload schemas
(:mod:`games.engines.schema`) both build on it. Nothing here imports Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

JSON = dict[str, Any]


def gettext_noop(message: str) -> str:
    """Mark ``message`` for translation without translating it.

    Engines cannot import Django, so user-facing English strings are marked
    with this function (``makemessages`` collects ``gettext_noop``) and the
    web layer translates them when it renders.
    """
    return message


def ngettext(singular: str, plural: str, count: object) -> tuple[str, str]:
    """Mark a plural text for translation without translating it: ``makemessages`` reads ``ngettext(singular,
    plural, n)`` as one plural entry. Returns the pair itself. A game lists this way the plurals its Jinja2
    templates translate (its ``template_words.py``); ``count`` names the template's number."""
    return singular, plural


def pgettext(context: str, message: str) -> str:
    """Mark ``message`` in ``context`` for translation without translating it: ``makemessages`` reads
    ``pgettext(context, message)`` as one entry in that context. Returns ``message``."""
    return message


class IllegalAction(Exception):
    """An action the rules forbid.

    ``code`` is a stable machine code naming the rule
    (``"own_pawn_on_target"``); ``message`` is an English template with
    ``{name}`` placeholders filled from ``details``; it names the rule (and
    rulebook section) that forbids the action. Raised by
    :meth:`games.engines.base.Game.apply` and option/board validators; never
    leaves a half-changed state because engines never mutate their input.
    """

    def __init__(self, code: str, message: str, **details: Any) -> None:
        self.code = code
        self.template = message
        self.details = details
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """The English message with the details filled in."""
        try:
            return self.template.format(**self.details)
        except (KeyError, IndexError, ValueError):
            return self.template

    def as_json(self) -> JSON:
        """The error as the API returns it: ``{"code", "message", "details"}``."""
        return {"code": self.code, "message": self.message, "details": jsonable(self.details)}


def jsonable(value: Any) -> Any:
    """``value`` with mappings as ``dict`` (string keys), sequences and sets as ``list``, other objects as ``str``."""
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [jsonable(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)
