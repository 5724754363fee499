"""The one write path (shared/DESIGN.md "The write path").

Every change to a table that any phone may see goes through :func:`write`,
given one :class:`WriteRequest`: in one transaction it locks the table row,
checks the version the phone saw, lets the request's ``compute`` decide a
:class:`Change` on the locked row, appends its ``Action`` row (the table's
``version`` moves) or none, moves ``Table.revision``, saves, and after commit
sends :data:`table_written` (the read model builds the next snapshot from
it) and then tells the table's channel group ``table.revision`` (best effort,
bounded). Idempotency keys live in their sender's own scope
(:func:`scoped_key`); a retried request returns the first answer and writes
nothing. Refusals raise before anything is written. The commands over it
live in :mod:`games.write`; this module imports nothing of the read model
or the pages.
"""

from __future__ import annotations

import asyncio
import copy
import datetime
import hashlib
import json
import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import IntegrityError, connection, transaction
from django.db.models import Model
from django.db.models.expressions import Col
from django.dispatch import Signal

from games.engines.base import Game
from games.models import Action, Table
from games.record.audit import NOTE_KINDS, opening_state

log = logging.getLogger(__name__)


class StaleVersion(Exception):
    """The phone acted on version ``seen`` but the table is at ``current`` (HTTP 409)."""

    code = "stale_version"

    def __init__(self, seen: int | None, current: int) -> None:
        self.seen = seen
        self.current = current
        super().__init__(f"The table moved on (you saw version {seen}, it is now at {current}); look again.")

    @property
    def message(self) -> str:
        """The English message."""
        return str(self)


class Forbidden(Exception):
    """The seat or device may not do this (HTTP 403). ``code`` is stable."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(message)


def refuse_imported(table: Table) -> None:
    """Raise ``Forbidden("table_imported")`` for a table rebuilt from an export (games/write/export.py): it is read-only."""
    if table.imported:
        raise Forbidden("table_imported", "This table was rebuilt from an exported game: it is read-only.")


class KeyReused(Exception):
    """An idempotency key already used, in the asker's own scope, for a different write (HTTP 409, ``key_reused``)."""

    code = "key_reused"
    message = "This request key was already used for another move; send a new key."


#: The actor of a host tool (undo, end, components, ask again): keys posted by the host live under ``host/``.
HOST = "host"
#: The actor of a write no phone asked for in its own name (a correction closing, a claim, a refused entry's note).
SYSTEM = "system"

Actor = int | str  # a seat index, HOST or SYSTEM


def scoped_key(actor: Actor, key: str) -> str:
    """The stored idempotency key of ``actor``'s write: ``"<seat>/<key>"``, ``"host/<key>"``; ``""`` stays ``""``.

    Every key a client sends is stored and looked up under its sender's own
    scope, on every door (API, pages, socket), so a key from another scope
    is a fresh key: no answer (``key_reused`` or not) says whether another
    seat, or the host, wrote under it (DESIGN.md "The write path"; STYLE.md:
    anything looked up by a client-sent value is looked up in the asker's
    scope). :data:`SYSTEM` keys are the app's own (``correction-<id>``) and
    are stored as they are. A key too long for the column (80 characters)
    with its prefix is hashed.
    """
    if not key:
        return ""
    if actor == SYSTEM:
        return key[:80]
    stored = f"{actor}/{key}"
    if len(stored) > 80:
        stored = f"{actor}/#{hashlib.sha256(key.encode()).hexdigest()}"
    return stored


@dataclass(frozen=True)
class Change:
    """What a write's ``compute`` decided, on the locked row.

    ``kind``: the ``Action.Kind`` of the one log row to append (the table's
    ``version`` moves with it), or ``None`` for a change phones see without a
    log row (a seat claimed, a correction proposed, a set-up step ticked):
    only ``revision`` moves. ``seat`` and ``payload`` are the row's.
    ``state``: the new encoded state (``None`` keeps it); ``decoded``: that
    state decoded, when ``compute`` holds it (a ``game`` row is not decoded
    again: ``decode(encode(s)) == s``, the engine contract). ``status``: the
    new ``Table.status`` or ``None``. ``fields``: other ``Table`` fields
    ``compute`` set on the row (``pregame``, ``options``), saved with it.
    """

    kind: str | None
    seat: int | None = None
    payload: dict[str, Any] = field(default_factory=dict)
    state: dict[str, Any] | None = None
    decoded: Any = None
    status: str | None = None
    fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class WriteRequest:
    """One request to change table ``code``: who asks, what they saw, and how to compute the change.

    ``actor``: a seat index, :data:`HOST` or :data:`SYSTEM`. ``seen_version``:
    the table version the phone acted on (``None`` skips the stale check:
    host tools that name their target). ``key``: the idempotency key as
    posted (stored under :func:`scoped_key`). ``compute(locked)`` returns a
    :class:`Change` or raises (nothing is written). ``posted``: the fields a
    retry must repeat to get the first answer (else :class:`KeyReused`).
    ``independent``: a tap on a step that asks several seats at once is not
    stale when only other seats answered since. ``hint``: any object with
    ``.code``, ``.revision``, ``.game``, ``.state``, ``.newest_seq`` (a read
    model snapshot) used only when its revision is the locked row's.
    ``authorize(table, request)``, when given, runs on the locked row before
    anything else and returns the request as it really is (the API reads who
    is asking from the row it locks); it may raise to refuse. ``imported_ok``:
    the change may happen at a read-only imported table (a phone claiming a
    seat there); no log row is then appended. ``kind``: the ``Action.Kind``
    this request logs, when known: a key found on a row of another kind
    answers :class:`KeyReused` (the same key sent to another tool).
    """

    code: str
    actor: Actor
    compute: Callable[[Locked], Change]
    seen_version: int | None = None
    key: str = ""
    posted: Mapping[str, Any] | None = None
    independent: bool = False
    hint: Any = None
    authorize: Callable[[Table, WriteRequest], WriteRequest] | None = None
    imported_ok: bool = False
    kind: str | None = None

    @property
    def stored_key(self) -> str:
        """The key as stored: :func:`scoped_key` of the actor and the posted key."""
        return scoped_key(self.actor, (self.key or "")[:80])


@dataclass
class Locked:
    """What ``compute`` gets: the locked ``table`` row, its engine ``game``, the next log ``seq``, the request."""

    table: Table
    game: Game
    seq: int
    request: WriteRequest
    held_state: Any = None

    def state(self) -> Any:
        """The table's current state, decoded (the hint's when it names this row; engines never mutate it)."""
        if self.held_state is None:
            self.held_state = self.game.decode(self.table.state)
        return self.held_state


@dataclass(frozen=True)
class Outcome:
    """What a write produced: the table's new ``version`` and ``revision``, the ``seq`` of its log row
    (``None`` for a change without one); ``replayed`` for a retried key (nothing written, ``revision``
    ``None``)."""

    version: int
    seq: int | None
    replayed: bool = False
    revision: int | None = None


#: Sent after a write commits, before the broadcast: ``table`` (a copy of the saved row that nothing else holds:
#: a receiver may keep it as it is), ``row`` (the
#: ``Action`` appended, or ``None``), ``game`` (the engine), ``state`` (the new state decoded, or ``None``),
#: ``before`` (the revision the write locked). The read model builds the next snapshot from it.
table_written = Signal()


def group_name(code: str) -> str:
    """The channel group of a table's phones."""
    return f"table_{code}"


# How long a write waits for the channel layer (Redis) to take a "table.revision" message, in seconds.
BROADCAST_TIMEOUT = 0.5


# How long a send that outlived BROADCAST_TIMEOUT may still go on in the worker's event loop before it is
# given up, in seconds (a frozen Redis must not collect sends forever).
BROADCAST_GIVE_UP = 10.0


_in_flight: set[asyncio.Task] = set()  # sends that outlived BROADCAST_TIMEOUT, still running (kept from the GC)


def _finished(task: asyncio.Task) -> None:
    _in_flight.discard(task)
    if task.cancelled():  # its event loop ended first (a sync caller's own loop)
        log.warning("a late table broadcast was dropped with its event loop; phones will resync")
    elif task.exception() is not None:
        log.warning("a late table broadcast failed; phones will resync", exc_info=task.exception())


async def _send_bounded(layer: Any, group: str, message: dict[str, Any], timeout: float) -> bool:
    """Send on the running loop; wait ``timeout`` s for it. ``False`` when it is still going (never cancelled).

    Under load the server's event loop (the one that holds the channel layer and renders every socket's
    push) can be busy for longer than ``timeout``; a send cancelled then would leave the table's phones
    without the change. So the send goes on for up to :data:`BROADCAST_GIVE_UP` seconds; only the write
    stops waiting for it.
    """
    task = asyncio.ensure_future(asyncio.wait_for(layer.group_send(group, message), BROADCAST_GIVE_UP))
    done, _ = await asyncio.wait({task}, timeout=timeout)
    if task in done:
        task.result()  # raises what the layer raised
        return True
    _in_flight.add(task)
    task.add_done_callback(_finished)
    return False


#: While set (by :func:`broadcasts_deferred`), the list that collects each committed write's broadcast instead
#: of sending it from this thread: a caller on the event loop sends them itself (:func:`send_broadcasts`).
_DEFERRED: ContextVar[list[tuple[str, dict[str, Any]]] | None] = ContextVar("deferred_broadcasts", default=None)


@contextmanager
def broadcasts_deferred(pending: list[tuple[str, dict[str, Any]]]) -> Iterator[None]:
    """Within this block, the writes committed hand their ``table.revision`` messages to ``pending`` instead of
    sending them. The sockets' database thread enters it around each call with its caller's list, and the caller,
    on the event loop, sends them with :func:`send_broadcasts` once the thread returns: the thread never hops back
    into the loop."""
    token = _DEFERRED.set(pending)
    try:
        yield
    finally:
        _DEFERRED.reset(token)


async def send_broadcasts(pending: list[tuple[str, dict[str, Any]]]) -> None:
    """Send the messages :func:`broadcasts_deferred` collected, on the running loop; best effort and bounded
    as :func:`broadcast_revision` (never raises)."""
    for group, message in pending:
        try:
            layer = get_channel_layer()
            if layer is not None and not await _send_bounded(layer, group, message, BROADCAST_TIMEOUT):
                log.info("%s revision %s: the broadcast is still being sent", group, message["revision"])
        except Exception:  # noqa: BLE001 - best effort: the phones resync on their own
            log.warning("could not tell %s about revision %s; phones will resync", group, message["revision"],
                        exc_info=True)


#: The fields of a move's log row a ``table.revision`` message carries (:func:`move_message`): all of them.
MOVE_ROW_FIELDS = ("id", "table_id", "seq", "kind", "seat", "payload", "idempotency_key", "version", "prompt_step",
                   "created_at")


def move_message(table: Table, row: Action, before: int, fields: Sequence[str]) -> str:
    """What a ``table.revision`` message carries of a move, so that another process that holds the table's snapshot
    of revision ``before`` makes the next one itself, with no database read and no shared cache: the ``fields``
    the write saved on ``table`` (by name) and the log row it appended, as JSON text. Read it with :func:`read_move`.
    """
    return json.dumps({"before": before,
                       "table": {name: getattr(table, Table._meta.get_field(name).attname) for name in fields},
                       "row": {name: getattr(row, name) for name in MOVE_ROW_FIELDS}},
                      default=_moment, separators=(",", ":"))


def _moment(value: Any) -> str:
    """A date and time of a move message, to the microsecond as the database keeps it."""
    if isinstance(value, datetime.datetime):
        return value.isoformat()
    raise TypeError(f"a move message holds no {type(value).__name__}")


def read_move(text: str) -> tuple[int, dict[str, Any], Action]:
    """A :func:`move_message` read back: ``(before, {attname: value} of the table's saved fields, the log row)``,
    each value as the database gives it back (its field's ``to_python``). Raises ``ValueError``, ``KeyError`` or
    ``django.core.exceptions.ValidationError`` for a text that is not one."""
    data = json.loads(text)
    fields = {}
    for name, value in data["table"].items():
        field = Table._meta.get_field(name)
        fields[field.attname] = field.to_python(value)
    row = Action(**{name: Action._meta.get_field(name).to_python(value) for name, value in data["row"].items()})
    return int(data["before"]), fields, row


def broadcast_revision(code: str, revision: int, version: int, move: str | None = None) -> bool:
    """Tell every phone of table ``code`` that ``revision`` exists: ``{"type": "table.revision", "revision": R,
    "version": V}`` to group ``table_<code>`` (each phone pushes what changed for it); with ``"move"`` (a
    :func:`move_message`) when the revision is a move's, from which another process makes its snapshot.

    Best effort, after commit: the change is already saved, so a channel
    layer that is down (Redis refuses), slow or frozen must never change the
    answer to it. The write waits at most :data:`BROADCAST_TIMEOUT` seconds
    for the send; a send still going then (a busy event loop, a slow Redis)
    goes on in the server's event loop for up to :data:`BROADCAST_GIVE_UP`
    seconds (it is not cancelled: a busy loop is no reason to lose a move's
    push). Any failure is logged and swallowed. Phones that missed the
    message resync when their socket reopens or they wake (DESIGN.md "Pages
    and sync": a gap means re-fetch). Returns ``True`` when the layer took
    the message in time, ``False`` otherwise (never raises). Inside
    :func:`broadcasts_deferred` the message is handed to its caller instead.
    """
    message: dict[str, Any] = {"type": "table.revision", "revision": revision, "version": version}
    if move is not None:
        message["move"] = move
    pending = _DEFERRED.get()
    if pending is not None:
        pending.append((group_name(code), message))
        return True
    try:
        layer = get_channel_layer()
        if layer is None:
            return False
        if not async_to_sync(_send_bounded)(layer, group_name(code), message, BROADCAST_TIMEOUT):
            log.info("table %s revision %s: the broadcast is still being sent", code, revision)
            return False
    except Exception:  # noqa: BLE001 - best effort: the phones resync on their own
        log.warning("could not tell table %s about revision %s; phones will resync", code, revision, exc_info=True)
        return False
    return True


def _same_request(row: Action, request: WriteRequest) -> bool:
    """True when ``row``, found under the request's own scoped key (so written by the same asker), answers this
    very request: the same kind of row (when the request names one) and the same fields posted."""
    if request.kind is not None and row.kind != request.kind:
        return False
    if request.posted is None:
        return True
    return all(row.payload.get(k) == v for k, v in request.posted.items())


def prompt_key(game: Game, state: Any) -> str:
    """``"step|0,2"``: the step prompted in ``state`` and the seats it asks (stored on each log row)."""
    prompt = game.prompt(state)
    return f"{prompt.step}|{','.join(str(s) for s in prompt.seats)}"


def _asks(key: str, step: str, seat: int) -> bool:
    name, _, seats = key.partition("|")
    return name == step and str(seat) in seats.split(",")


def _only_others_answered(table: Table, game: Game, seat: int | None, seen_version: int) -> bool:
    """True when, since ``seen_version``, only other seats answered one simultaneous step that still asks ``seat``.

    Amun-Re's offering and province entry prompt several phones at once: one
    phone's answer does not change what another phone's tap means, so such a
    tap is not stale (DESIGN.md "The write path": 409 only when the action no
    longer means what the player saw). Every log row records the step it left
    prompted and the seats it asked; the seat must have been asked all along.
    """
    if seat is None or seen_version >= table.version or seen_version < 0:
        return False
    prompt = game.prompt(game.decode(table.state))
    if seat not in prompt.seats or not prompt.step:
        return False
    since = list(table.actions.filter(version__gt=seen_version).order_by("seq"))
    if any(row.kind != Action.Kind.GAME or row.seat == seat or not _asks(row.prompt_step, prompt.step, seat)
           for row in since):
        return False
    before = table.actions.filter(version=seen_version).order_by("-seq").first()  # the last row of that version
    seen_key = before.prompt_step if before and before.prompt_step else prompt_key(game, opening_state(table, game))
    return _asks(seen_key, prompt.step, seat)


def _only_refusals_since(table: Table, seen_version: int) -> bool:
    """True when every row since ``seen_version`` is a note (:data:`NOTE_KINDS`): the state is what the phone saw.

    A refused entry is logged (and moves the version, so every phone shows
    its line) but changes nothing, so a tap chosen before it still means
    what its player saw (DESIGN.md "The write path": 409 only when it no longer does).
    """
    if seen_version < 0 or seen_version > table.version:
        return False
    kinds = set(table.actions.filter(version__gt=seen_version).values_list("kind", flat=True))
    return bool(kinds) and kinds <= set(NOTE_KINDS)


def _keyed(table: Any, key: str) -> Any:
    """The log rows of ``table`` stored under idempotency key ``key``, unordered (at most one: the key is unique).

    Said with the partial unique index's own condition (``key != ''``) and no ordering, so SQLite and
    PostgreSQL seek the ``(table, key)`` index instead of reading the table's whole log in ``seq`` order.
    """
    return Action.objects.filter(table=table, idempotency_key=key).exclude(idempotency_key="").order_by()


# The three statements of every write (lock the table row, append the log row, save the row's new version
# and state) are said once here instead of through the ORM's query compiler, which costs more CPU than the
# database does on every move; each statement's text is made the first time it is needed (:func:`_said_once`).
# Values go through each field's own ``pre_save`` and ``get_db_prep_save`` and rows come back through
# the fields' own and the backend's converters into ``Model.from_db`` (:func:`_loaded`), exactly as ``Model.save``
# and ``QuerySet.get`` do them, so SQLite and PostgreSQL read and write the same data.


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _lock_sql(probe: bool) -> str:
    table = _q(Table._meta.db_table)
    columns = ", ".join(f"{table}.{_q(f.column)}" for f in Table._meta.concrete_fields)
    if probe:  # whether the key (the parameter) was used, as _keyed asks it
        action = _q(Action._meta.db_table)
        key = f"{action}.{_q('idempotency_key')}"
        # The partial index's condition is written as it is declared, a literal: SQLite then proves the index
        # usable when it prepares the statement. Said with a parameter, the plan depends on that parameter's
        # value, and SQLite prepares the statement again on every move.
        columns += (f", EXISTS (SELECT 1 FROM {action} WHERE {action}.{_q('table_id')} = {table}.{_q('id')}"
                    f" AND {key} = %s AND NOT ({key} = '')) AS {_q('key_used')}")
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    return f"SELECT {columns} FROM {table} WHERE {table}.{_q('code')} = %s{lock}"


_SQL: dict[tuple[Any, ...], str] = {}


def _said_once(shape: tuple[Any, ...], make: Callable[[], str]) -> str:
    """The statement of ``shape`` for this connection's database, made by ``make()`` the first time only."""
    key = (connection.vendor, *shape)
    sql = _SQL.get(key)
    if sql is None:
        sql = _SQL[key] = make()
    return sql


def _lock_for_write(code: str, probe: str) -> Table:
    """``Table.objects.select_for_update().get(code=code)``, with ``key_used`` (was ``probe`` used?) when given.

    ``key_used`` is what :func:`_keyed` asks, in the partial unique
    index's own words (an ORM ``Exists`` would be compiled again on every move).
    Raises ``Table.DoesNotExist``.
    """
    sql = _said_once(("lock", bool(probe)), lambda: _lock_sql(bool(probe)))
    with connection.cursor() as cursor:
        cursor.execute(sql, [probe, code] if probe else [code])
        values = cursor.fetchone()
    if values is None:
        raise Table.DoesNotExist(f"No table {code!r}.")
    table = _loaded(Table, values)
    table.key_used = bool(values[-1]) if probe else False
    return table


_CONVERTERS: dict[tuple[str, type[Model]], list[tuple[int, Col, list[Callable[..., Any]]]]] = {}


def _loaded[M: Model](model: type[M], values: Sequence[Any]) -> M:
    """The ``model`` instance of ``values``, a row of its concrete fields in order (and maybe more columns after
    them), each value through the backend's converters and then the field's own, as the ORM's query compiler
    applies them (the list is made once per database vendor and model); ``Model.from_db`` makes the instance."""
    fields = model._meta.concrete_fields
    converters = _CONVERTERS.get((connection.vendor, model))
    if converters is None:
        converters = _CONVERTERS[connection.vendor, model] = [
            (i, col, found) for i, field in enumerate(fields) for col in (field.get_col(model._meta.db_table),)
            if (found := [*connection.ops.get_db_converters(col), *col.get_db_converters(connection)])]
    row = list(values[:len(fields)])
    for i, col, found in converters:
        for convert in found:
            row[i] = convert(row[i], col, connection)
    return model.from_db(connection.alias, [field.attname for field in fields], row)


def _insert(row: Action) -> None:
    """``row.save(force_insert=True)``: every concrete field's ``pre_save`` and prepared value; the id back."""
    if not connection.features.can_return_columns_from_insert:
        row.save(force_insert=True)
        return
    meta = Action._meta
    fields = [f for f in meta.concrete_fields if f is not meta.pk]
    values = [f.get_db_prep_save(f.pre_save(row, True), connection) for f in fields]
    sql = _said_once(("insert",), lambda: (
        f"INSERT INTO {_q(meta.db_table)} ({', '.join(_q(f.column) for f in fields)}) "
        f"VALUES ({', '.join(['%s'] * len(fields))}) RETURNING {_q(meta.pk.column)}"))
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        row.pk = cursor.fetchone()[0]
    row._state.adding = False
    row._state.db = connection.alias


def _update(table: Table, names: list[str]) -> None:
    """``table.save(update_fields=names)``: ``pre_save`` moves ``updated_at`` when it is named."""
    meta = Table._meta
    fields = [meta.get_field(name) for name in names]
    values = [f.get_db_prep_save(f.pre_save(table, False), connection) for f in fields]
    sql = _said_once(("update", *names), lambda: (
        f"UPDATE {_q(meta.db_table)} SET {', '.join(f'{_q(f.column)} = %s' for f in fields)} "
        f"WHERE {_q(meta.pk.column)} = %s"))
    with connection.cursor() as cursor:
        cursor.execute(sql, [*values, table.pk])


def write(request: WriteRequest) -> Outcome:
    """The one write: lock, check, compute, append, save; on commit :data:`table_written`, then the broadcast.

    In one transaction: lock the table row (one query, which also says
    whether the request's scoped key was used), run ``request.authorize``,
    refuse an imported table, answer a key seen before in the asker's scope
    with the first answer (:class:`KeyReused` when the posted fields differ),
    refuse a stale version (:class:`StaleVersion`, unless only notes or, for
    ``independent`` taps, only other seats' answers came since), run
    ``request.compute`` on the locked row, append its log row (``version``
    moves), move ``revision`` (every change any phone may see) and save.
    After commit: :data:`table_written`, then :func:`broadcast_revision`
    (best effort, bounded). Raises what ``compute`` and ``authorize`` raise,
    ``StaleVersion``, ``KeyReused``, ``Forbidden("table_imported")``,
    ``Table.DoesNotExist``; nothing is written when it raises.
    """
    probe = request.stored_key
    try:
        with transaction.atomic():
            table = _lock_for_write(request.code, probe)  # one query: the row, and whether the key was used at it
            if request.authorize is not None:
                request = request.authorize(table, request)
            if not request.imported_ok:
                refuse_imported(table)
            key = request.stored_key
            looked = False
            if key:
                looked = key != probe or bool(table.key_used)
                first = _keyed(table, key).first() if looked else None
                if first is not None:
                    return _replayed(first, request)
            before = table.revision
            hint = request.hint
            if not (hint is not None and getattr(hint, "game", None) is not None and hint.code == table.code
                    and hint.revision == table.revision):
                hint = None
            game = hint.game if hint is not None else table.game()
            seen = request.seen_version
            if seen is not None and seen != table.version and not (
                _only_refusals_since(table, seen)
                or request.independent and isinstance(request.actor, int)
                and _only_others_answered(table, game, request.actor, seen)
            ):
                # The lock's key probe read the database as it was before this request waited for the lock:
                # a retry that raced its own first try sees the key only in a statement of its own.
                first = _keyed(table, key).first() if key and not looked else None
                if first is not None:
                    return _replayed(first, request)
                raise StaleVersion(seen, table.version)
            # The newest row: the hint's, or by the (table, seq) index (the same cost at move 900 as at move 9).
            newest = hint.newest_seq if hint is not None else None
            if newest is None:
                newest = table.actions.order_by("-seq").values_list("seq", flat=True).first() or 0
            seq = newest + 1
            change = request.compute(Locked(table, game, seq, request, hint.state if hint is not None else None))
            return _apply(request, table, game, seq, change, key, before)
    except IntegrityError:
        # Two requests with one key raced past the look-up: the other one won.
        key = request.stored_key
        first = Action.objects.filter(table__code=request.code, idempotency_key=key).first() if key else None
        if first is not None:
            return _replayed(first, request)
        raise


def _replayed(first: Action, request: WriteRequest) -> Outcome:
    """The first answer to a retried key, or :class:`KeyReused` when this request is another one."""
    if not _same_request(first, request):
        raise KeyReused()
    return Outcome(version=first.version, seq=first.seq, replayed=True)


def _apply(request: WriteRequest, table: Table, game: Game, seq: int, change: Change, key: str,
           before: int) -> Outcome:
    """Save ``change`` on the locked ``table`` (log row, version, revision, fields) and plan what follows commit."""
    names = ["revision", "updated_at", *change.fields]
    table.revision += 1
    if change.state is not None:
        table.state = change.state
        names.append("state")
    if change.status:
        names.extend(table.move_status(change.status))
    row = None
    decoded = change.decoded
    if change.kind is not None and not (request.imported_ok and table.imported):
        table.version += 1
        names.append("version")
        step = ""
        if change.kind == Action.Kind.GAME:
            if decoded is None:
                decoded = game.decode(table.state)
            step = prompt_key(game, decoded)
        # Named by id, the row holds no table: the read model keeps it in a snapshot's window as it is.
        row = Action(table_id=table.pk, seq=seq, kind=change.kind, seat=change.seat, payload=change.payload,
                     idempotency_key=key, version=table.version, prompt_step=step)
        _insert(row)
    fields = list(dict.fromkeys(names))
    _update(table, fields)
    saved = copy.copy(table)  # the caller's own row may be refreshed later: this moment stays
    code, revision, version = table.code, table.revision, table.version

    def after_commit() -> None:
        move = None
        try:  # the read model's snapshot, made from what the write holds; what other processes make theirs from
            table_written.send(sender=Table, table=saved, row=row, game=game, state=decoded, before=before)
            if row is not None and row.kind == Action.Kind.GAME:
                move = move_message(saved, row, before, fields)
        except Exception:  # noqa: BLE001 - a cache, never the answer: the phones build it themselves
            log.warning("the snapshot or the move message of table %s revision %s failed", code, revision,
                        exc_info=True)
        broadcast_revision(code, revision, version, move)

    transaction.on_commit(after_commit)
    return Outcome(version=version, seq=row.seq if row is not None else None, revision=revision)
