"""One table of refusals: what every door (the API, the htmx pages, the socket) answers a refused write.

A write refuses with one of the exceptions below; :func:`refusal_for` maps
it to a :class:`Refusal`: the stable ``code``, the HTTP status, the message
in the asker's language and, where a rules section explains it, the link to
that section (games/read/rulebook.py). The doors only shape the answer (JSON, a
page banner, an htmx frame); what a refusal says is decided here once.
STYLE.md: bad input is a 4xx with a stable code and a message naming the
rule, never a 500.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from games.engines.base import IllegalAction
from games.models import Correction, Table
from games.read import rulebook
from games.read.presenters import error_message
from games.write.write_path import Forbidden, KeyReused, StaleVersion


class BadVersion(ValueError):
    """The posted ``version`` is missing or not a whole number (HTTP 400, code ``bad_version``)."""

    code = "bad_version"


class BadInput(ValueError):
    """A posted field is refused before the write (HTTP 400): ``code`` is stable, ``message`` in the asker's words."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(message)


class NoSeat(Exception):
    """The credential holds no seat of the table now (a table screen, none sent, a secret handed over): 403."""

    code = "no_seat"


#: Every exception :func:`refusal_for` answers (catch these around a write, nothing else).
REFUSALS = (IllegalAction, StaleVersion, Forbidden, KeyReused, BadVersion, BadInput)
#: What a door that names no table by its own look-up also answers with :func:`refusal_for`: no seat, no
#: table, no such correction.
MISSING = (NoSeat, Table.DoesNotExist, Correction.DoesNotExist)


@dataclass(frozen=True)
class Refusal:
    """A refused write as every door answers it.

    ``code``: stable (the engine's rule code, ``stale_version``,
    ``key_reused``, ``bad_version``, a ``Forbidden`` code...); ``status``:
    the HTTP status (400 rules or bad input, 403 not allowed, 409 stale or a
    reused key); ``message``: in the asker's language; ``rule_url``: the
    rules section that explains it, or ``None``; ``details``: the engine's
    placeholders of an ``IllegalAction`` (what the asker's own refusal says).
    """

    code: str
    status: int
    message: str
    rule_url: str | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        """``{"code", "message", "rule_url"}``: the body of an htmx or API refusal."""
        return {"code": self.code, "message": self.message, "rule_url": self.rule_url}


def no_seat_message() -> str:
    """What a phone with no seat at a table is told, in the active language (every door says it this way)."""
    return _("This phone has no seat at this table. Ask the host for your link.")


def server_error(language: str | None = None) -> Refusal:
    """The refusal of a tap the server failed to handle (``server_error``, 500): look at the board, then tap again."""
    if language:
        with translation.override(language):
            return server_error()
    return Refusal("server_error", 500, _(
        "Something went wrong with this tap on the server; look at the board, then tap again if it is still needed."))


def _forbidden_message(exc: Forbidden) -> str:
    messages = {
        "table_closed": _("This table is closed: the game has ended."),
        "table_imported": _("Imported from an exported game: read-only, every move replayed and checked."),
        "not_a_seat": no_seat_message(),
        "table_open": _("The next game starts from the final tally of this one."),
        "no_next_game": _("The host has not started the next game yet."),
    }
    return messages.get(exc.code, exc.message)


def refusal_for(exc: Exception, language: str | None = None, table: Table | None = None,
                seat: int | None = None) -> Refusal:
    """The :class:`Refusal` of ``exc`` (one of :data:`REFUSALS`) for the asker at ``table``, seat ``seat``.

    Also answers :data:`MISSING` (403 ``no_seat``, 404 ``no_table``,
    404 ``no_such_correction``). ``language`` is the asker's (``None``: the active language); ``table``
    gives the rule link of an ``IllegalAction``. ``seat`` is the asker's seat
    (``None`` for the host or a screen): every message is the asker's own
    refusal, computed from what the asker sent and may see. Raises
    ``TypeError`` for any other exception (a bug, not a refusal).
    """
    if language:
        with translation.override(language):
            return refusal_for(exc, None, table, seat)
    if isinstance(exc, IllegalAction):
        link = rulebook.rule_url(table.slug, exc.code, table.code) if table is not None else None
        return Refusal(exc.code, 400, error_message(exc), link, dict(exc.as_json().get("details") or {}))
    if isinstance(exc, StaleVersion):
        return Refusal(exc.code, 409, _("The table moved on before your tap arrived; here is the new position."))
    if isinstance(exc, KeyReused):
        return Refusal(exc.code, 409, _("This tap was already used for another move; tap again."))
    if isinstance(exc, Forbidden):
        return Refusal(exc.code, 403, _forbidden_message(exc))
    if isinstance(exc, BadVersion):
        return Refusal(exc.code, 400, _("Every move names the table version it was chosen at."))
    if isinstance(exc, BadInput):
        return Refusal(exc.code, 400, exc.message)
    if isinstance(exc, NoSeat):
        return Refusal(NoSeat.code, 403, no_seat_message())
    if isinstance(exc, Table.DoesNotExist):
        return Refusal("no_table", 404, _("This table no longer exists."))
    if isinstance(exc, Correction.DoesNotExist):
        return Refusal("no_such_correction", 404, _("There is no such correction at this table."))
    raise TypeError(f"not a refusal: {exc!r}")
