"""Taps over a phone's websocket (shared/DESIGN.md "Pages and sync"): read one message, act for the socket's seat.

A phone sends on its open socket::

    {"action": {...}, "version": N, "key": "K"}                 a move
    {"command": "undo_mine", "args": {}, "version": N, "key": "K"}   take back my own last move
    {"command": "correction", "args": {"id": ID, "answer": "yes"|"no"}, "version": N, "key": "K"}
    {"frame": "ID", "ping": P}                                   the heartbeat (``ping`` optional)

The seat is the socket's own authentication (the seat secret it connected
with, from the signed cookie or ``Authorization: Bearer``), looked up again
for every tap (a move: on the row the write locks), so a secret the host
handed over acts for nobody; no field of a message names a seat, and a message
with any field not listed above is refused. A move goes through the one write
path with the seat's own idempotency key (``write_path.scoped_key``), so a tap
sent twice is one move. :func:`act` runs in a thread (it reads and writes
the database) and answers :class:`Done` when the tap was applied (the socket's
push of its revision is its answer) or the :class:`Refusal` to send to that socket only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils import translation
from django.utils.html import format_html
from django.utils.translation import pgettext

from games.api.serializers import MAX_VERSION
from games.engines.base import IllegalAction, gettext_noop
from games.engines.schema import MAX_JSON_DEPTH
from games.entry import taps
from games.entry.access import held_by_bearer
from games.entry.refusals import MISSING, REFUSALS, NoSeat, Refusal, refusal_for
from games.models import Table
from games.read import snapshots
from games.web import digits
from games.web.inputs import MAX_TAP_BYTES, load_json
from games.write import corrections, moves
from games.write.write_path import StaleVersion

#: The largest socket message read (bytes of UTF-8 text); a longer one is refused unread.
MAX_MESSAGE = MAX_TAP_BYTES
#: Characters of an idempotency key, as the HTTP tap takes them (the log's column holds the seat prefix too).
MAX_KEY = 80
#: The commands a phone may send besides a move.
COMMANDS = ("undo_mine", "correction")
#: The element of the phone page a refusal replaces (templates/games/table.html, in the action bar).
REFUSAL_ID = "tap-refusal"

_TAP_FIELDS = {"action": {"action", "version", "key"}, "command": {"command", "args", "version", "key"}}


@dataclass(frozen=True)
class Heartbeat:
    """``{"frame": ID}``: the last push the page applied; ``ping``: the page's heartbeat number, echoed in a pong."""

    frame: str
    ping: str | None = None


@dataclass(frozen=True)
class Tap:
    """One checked tap: a move (``action``) or a ``command`` with its ``args``, the version it was made at, its key."""

    action: dict[str, Any] | None
    command: str
    args: dict[str, Any] = field(default_factory=dict)
    version: int | None = None
    key: str = ""


def frame(refusal: Refusal, language: str, digit_system: str | None = None) -> str:
    """The HTML frame of ``refusal`` (:class:`games.entry.refusals.Refusal`) for a phone reading ``language``: an htmx
    out-of-band swap of the page's refusal slot with a banner carrying ``data-code``, and the rule's link.

    ``digit_system`` (games/web/digits.py) writes the message's digits as the phone reads them.
    """
    link = ""
    if refusal.rule_url:
        with translation.override(language):
            why = pgettext("rules at hand", "Why? Read the rule")
        link = format_html(' <a class="rule-link" href="{}">{}</a>', refusal.rule_url, why)
    html = format_html('<div id="{}" hx-swap-oob="true"><p class="banner error" role="alert" data-code="{}">{}{}</p>'
                       '</div>', REFUSAL_ID, refusal.code, refusal.message, link)
    return digits.localize_html(html, digit_system) if digit_system else html


def is_stale(refusal: Refusal) -> bool:
    """True when the table moved on before the tap: the socket also sends the regions the phone is missing."""
    return refusal.code == StaleVersion.code


def read_message(text: str | None, data: bytes | None = None) -> Heartbeat | Tap | IllegalAction:
    """The heartbeat or tap a socket message holds, or the ``IllegalAction`` that refuses it (never raises).

    Refusal codes: ``too_large`` (over :data:`MAX_MESSAGE` bytes), ``bad_json``
    (not JSON, a binary frame), ``too_deep``, ``nul_character``,
    ``bad_message`` (not an object, an unknown or mistyped field),
    ``unknown_command``, ``bad_version``, ``bad_key``.
    """
    try:
        return _read(text, data)
    except IllegalAction as exc:
        return exc


def _read(text: str | None, data: bytes | None) -> Heartbeat | Tap:
    if text is None:
        if data is not None and len(data) > MAX_MESSAGE:
            raise IllegalAction("too_large", gettext_noop("The {what} is longer than {limit} bytes."),
                                what="message", limit=MAX_MESSAGE)
        raise IllegalAction("bad_json", gettext_noop("The {what} is not valid JSON."), what="message")
    if len(text) > MAX_MESSAGE or len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
        raise IllegalAction("too_large", gettext_noop("The {what} is longer than {limit} bytes."),
                            what="message", limit=MAX_MESSAGE)
    message = load_json(text, max_bytes=MAX_MESSAGE, max_depth=MAX_JSON_DEPTH, what="message")
    if not isinstance(message, dict):
        raise _bad_message()
    if "frame" in message:
        frame, ping = message.get("frame"), message.get("ping")
        if set(message) - {"frame", "ping"} or not isinstance(frame, str) or len(frame) > 100:
            raise _bad_message()
        if ping is not None and not (isinstance(ping, int) and not isinstance(ping, bool) and 0 <= ping < 2**53):
            raise _bad_message()
        return Heartbeat(frame, None if ping is None else str(ping))
    kind = "action" if "action" in message else "command" if "command" in message else None
    if kind is None or set(message) - _TAP_FIELDS[kind]:
        raise _bad_message()
    version = message.get("version")
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)
                                or not 0 <= version <= MAX_VERSION):
        raise IllegalAction("bad_version", gettext_noop("Every tap names the table version it was chosen at."))
    key = message.get("key", "")
    if not isinstance(key, str) or len(key) > MAX_KEY:
        raise IllegalAction("bad_key", gettext_noop("An idempotency key is at most {limit} characters."), limit=MAX_KEY)
    if kind == "action":
        action = message["action"]
        if not isinstance(action, dict):
            raise IllegalAction("bad_action", gettext_noop("An action must be a JSON object."))
        if version is None:
            raise IllegalAction("bad_version", gettext_noop("Every tap names the table version it was chosen at."))
        return Tap(action=action, command="", version=version, key=key)
    command, args = message["command"], message.get("args", {})
    if not isinstance(command, str) or command not in COMMANDS:
        raise IllegalAction("unknown_command", gettext_noop("This phone page cannot do “{command}”."),
                            command=str(command)[:40])
    if not isinstance(args, dict):
        raise _bad_message()
    if command == "undo_mine":
        if args:
            raise _bad_message()
        if version is None:
            raise IllegalAction("bad_version", gettext_noop("Every tap names the table version it was chosen at."))
    elif set(args) != {"id", "answer"} or not isinstance(args["id"], int) or isinstance(args["id"], bool) \
            or not 0 < args["id"] < 2**63 or args["answer"] not in ("yes", "no"):
        raise _bad_message()
    return Tap(action=None, command=command, args=args, version=version, key=key)


def _bad_message() -> IllegalAction:
    return IllegalAction("bad_message", gettext_noop(
        "The phone sent a message this table does not understand; reload the page."))


def refusal_of(exc: IllegalAction, language: str) -> Refusal:
    """The refusal of a message :func:`read_message` refused, in ``language`` (no rule explains bad input)."""
    return refusal_for(exc, language)


def _move(code: str, token: str, tap: Tap, by_bearer: bool) -> taps.Tapped:
    """The socket's move through the one tap entry (:func:`games.entry.taps.play`)."""
    return taps.play(code, token, lambda table, seat: taps.Posted(tap.action, tap.version, tap.key), key=tap.key,
                     by_bearer=by_bearer)


def _command(code: str, token: str, tap: Tap) -> None:
    seat = taps.seat_of(snapshots.by_code(code), token)  # the current revision's: a handed-over secret is no seat
    if seat is None:
        raise NoSeat
    if tap.command == "undo_mine":
        moves.undo_own(code, seat, tap.version, tap.key)
    elif tap.args["answer"] == "yes":
        corrections.confirm_correction(code, tap.args["id"], seat)
    else:
        corrections.reject_correction(code, tap.args["id"], seat)


@dataclass(frozen=True)
class Done:
    """A tap applied (or a retried one): ``revision`` is the table revision its write made (a command: the table's
    revision once it is done), whose push answers it; ``None`` when it made none (a retried move)."""

    revision: int | None = None


def act(code: str, token: str | None, screen: bool, tap: Tap, language: str, by_bearer: bool = False) -> Refusal | Done:
    """Apply ``tap`` for the seat whose secret the socket holds: :class:`Done` when done (or a retried tap), else its
    refusal.

    Blocking (database): the consumer calls it through :func:`games.socket.socket_db.run`.
    A move goes through the one tap entry (:func:`games.entry.taps.play`). ``by_bearer``: the socket's secret came
    as a bearer token; its first use since a phone held the seat is logged (:func:`games.entry.access.held_by_bearer`).
    Every refusal is :func:`games.entry.refusals.refusal_for`'s, in ``language``, with the rule's link where a
    rules section explains the code: ``no_seat`` (a table screen, a secret that no longer holds a seat), the
    write path's codes (``stale_version``, the engine's code, ``table_closed``, ``key_reused``),
    ``no_table``, ``no_such_correction`` (a correction of another table).
    """
    table: Table | None = None
    seat: int | None = None
    revision = None
    try:
        if screen or not token:
            raise NoSeat
        if tap.action is not None:
            tapped = _move(code, token, tap, by_bearer)
            table, seat = tapped.table, tapped.seat
            if tapped.refused is not None:
                raise tapped.refused
            revision = tapped.outcome.revision if tapped.outcome is not None else None
        else:
            if by_bearer:
                held_by_bearer(code, token)
            _command(code, token, tap)
            revision = snapshots.current_revision(code)  # the command's revision, or the one the phone shows
    except (*REFUSALS, *MISSING) as exc:
        if table is None and isinstance(exc, REFUSALS):
            table = Table.objects.filter(code=code).first()  # the rule's link
        return refusal_for(exc, language, table, seat)
    return Done(revision)


def pong(ping: str) -> str:
    """The frame that answers heartbeat number ``ping``: every message the socket read before it has been handled."""
    return f'<i id="r-pong" hidden data-ping="{int(ping)}"></i>'
