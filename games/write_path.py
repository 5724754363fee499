"""The one write path (shared/DESIGN.md "The write path").

Every change to a table goes through :func:`write`: in one transaction it
locks the table row, checks the version the phone saw, lets the caller
compute the new state, appends one ``Action`` row with the next sequence
number, saves the state, version and revision, and on commit sends
:data:`table_written` and tells the table's channel group ``revision R``. A retried request with the same idempotency key
returns the first answer and writes nothing. Illegal actions raise before
anything is written. The commands over it live in :mod:`games.commands`.
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import IntegrityError, connection, models, transaction
from django.dispatch import Signal
from django.utils import timezone

from games.audit import NOTE_KINDS, opening_state
from games.engines.base import Game
from games.models import Action, Table

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
    """Raise ``Forbidden("table_imported")`` for a table rebuilt from an export (games/export.py): it is read-only."""
    if table.imported:
        raise Forbidden("table_imported", "This table was rebuilt from an exported game: it is read-only.")


class KeyReused(Exception):
    """An idempotency key already used for a different write (HTTP 409, code ``key_reused``)."""

    code = "key_reused"
    message = "This request key was already used for another move; send a new key."


@dataclass(frozen=True)
class Outcome:
    """What a write produced: the new table version and its log row; ``replayed`` for a retried key."""

    version: int
    seq: int
    replayed: bool = False


def group_name(code: str) -> str:
    """The channel group of a table's phones."""
    return f"table_{code}"


#: Sent after a write committed, with ``table`` (a copy of the saved row), ``row`` (the ``Action`` appended, or
#: ``None``), ``game`` (the engine), ``state`` (the decoded new state of a ``game`` row, else ``None``) and
#: ``before`` (the revision the write locked). The read model builds the new snapshot from it.
table_written = Signal()


def touch(code: str) -> None:
    """Mark table ``code`` changed without a new version (a seat claimed or handed over, a correction answered).

    Moves ``Table.revision`` (and ``updated_at``): phones read a table through the snapshot of its revision.
    """
    Table.objects.filter(code=code).update(updated_at=timezone.now(), revision=models.F("revision") + 1)


# How long a write waits for the channel layer (Redis) to take a "version N" message, in seconds.
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
    push) can be busy for longer than ``timeout``: the in-memory layer's send then waited in the loop,
    was cancelled at 0.5 s, and the table's phones never heard of the move (77 lost broadcasts at 60
    tables of 4 phones on 2 workers, 2 embedded at 40). So the send goes on for up to
    :data:`BROADCAST_GIVE_UP` seconds; only the write stops waiting for it.
    """
    task = asyncio.ensure_future(asyncio.wait_for(layer.group_send(group, message), BROADCAST_GIVE_UP))
    done, _ = await asyncio.wait({task}, timeout=timeout)
    if task in done:
        task.result()  # raises what the layer raised
        return True
    _in_flight.add(task)
    task.add_done_callback(_finished)
    return False


def broadcast_version(code: str, version: int, revision: int | None = None) -> bool:
    """Tell every phone of table ``code`` that it changed (they push what changed for them).

    The group message is ``{"type": "table.revision", "revision": R, "version": V}`` when the caller knows
    the table's ``revision`` (phones then find its snapshot without a query), else
    ``{"type": "table.version", "version": V}`` (phones read the revision).

    Best effort, after commit: the move is already saved, so a channel layer
    that is down (Redis refuses), slow or frozen must never change the answer
    to it. The write waits at most :data:`BROADCAST_TIMEOUT` seconds for the
    send; a send still going then (a busy event loop, a slow Redis) goes on
    in the server's event loop for up to :data:`BROADCAST_GIVE_UP` seconds
    (it is not cancelled: a busy loop is no reason to lose a move's push).
    Any failure is logged and swallowed. Phones that missed the message
    resync when their socket reopens or they wake (DESIGN.md "Pages and
    sync": a version gap means re-fetch). Returns ``True`` when the layer
    took the message in time, ``False`` otherwise (never raises).
    """
    try:
        layer = get_channel_layer()
        if layer is None:
            return False
        message: dict[str, Any] = {"type": "table.version", "version": version}
        if revision is not None:
            message = {"type": "table.revision", "revision": revision, "version": version}
        if not async_to_sync(_send_bounded)(layer, group_name(code), message, BROADCAST_TIMEOUT):
            log.info("table %s version %s: the broadcast is still being sent", code, version)
            return False
    except Exception:  # noqa: BLE001 - best effort: the phones resync on their own
        log.warning("could not tell table %s about version %s; phones will resync", code, version, exc_info=True)
        return False
    return True


def _same_request(row: Action, seat: int | None, posted: Mapping[str, Any] | None) -> bool:
    """True when ``row`` is the first answer to this very request: same seat, same fields posted."""
    if row.seat != seat:
        return False
    if posted is None:
        return True
    return all(row.payload.get(k) == v for k, v in posted.items())


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

    Said with the partial unique index's own condition (``key != ''``), so SQLite and PostgreSQL seek
    the ``(table, key)`` index: the plain look-up, ordered by the log's default ``(table, seq)``, joined
    the table for its ordering and read every row of the table's log (a cost that grew with every move).
    """
    return Action.objects.filter(table=table, idempotency_key=key).exclude(idempotency_key="").order_by()


# The three statements of every write (lock the table row, append the log row, save the row's new version
# and state) are said once here instead of through the ORM's query compiler, which costs more CPU than the
# database does on every move. Values go through each field's own ``pre_save`` and ``get_db_prep_save``
# and rows come back through ``Manager.raw`` (the fields' own converters), exactly as ``Model.save`` and
# ``QuerySet.get`` do them, so SQLite and PostgreSQL read and write the same data.


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _lock_sql(probe: bool) -> str:
    table = _q(Table._meta.db_table)
    columns = ", ".join(f"{table}.{_q(f.column)}" for f in Table._meta.concrete_fields)
    if probe:  # whether the key (the first parameter; the second is "") was used, as _keyed asks it
        action = _q(Action._meta.db_table)
        key = f"{action}.{_q('idempotency_key')}"
        columns += (f", EXISTS (SELECT 1 FROM {action} WHERE {action}.{_q('table_id')} = {table}.{_q('id')}"
                    f" AND {key} = %s AND NOT ({key} = %s)) AS {_q('key_used')}")
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    return f"SELECT {columns} FROM {table} WHERE {table}.{_q('code')} = %s{lock}"


_LOCK_SQL: dict[tuple[str, bool], str] = {}


def _lock_for_write(code: str, probe: str) -> Table:
    """``Table.objects.select_for_update().get(code=code)``, with ``key_used`` (was ``probe`` used?) when given.

    ``key_used`` is what :func:`_keyed` asks, in the partial unique
    index's own words (an ORM ``Exists`` compiled for ~0.5 ms per move).
    Raises ``Table.DoesNotExist``.
    """
    shape = (connection.vendor, bool(probe))
    sql = _LOCK_SQL.get(shape)
    if sql is None:
        sql = _LOCK_SQL[shape] = _lock_sql(bool(probe))
    rows = list(Table.objects.raw(sql, [probe, "", code] if probe else [code]))
    if not rows:
        raise Table.DoesNotExist(f"No table {code!r}.")
    return rows[0]


def _insert(row: Action) -> None:
    """``row.save(force_insert=True)``: every concrete field's ``pre_save`` and prepared value; the id back."""
    if not connection.features.can_return_columns_from_insert:
        row.save(force_insert=True)
        return
    meta = Action._meta
    fields = [f for f in meta.concrete_fields if f is not meta.pk]
    values = [f.get_db_prep_save(f.pre_save(row, True), connection) for f in fields]
    sql = (f"INSERT INTO {_q(meta.db_table)} ({', '.join(_q(f.column) for f in fields)}) "
           f"VALUES ({', '.join(['%s'] * len(fields))}) RETURNING {_q(meta.pk.column)}")
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
    sql = (f"UPDATE {_q(meta.db_table)} SET {', '.join(f'{_q(f.column)} = %s' for f in fields)} "
           f"WHERE {_q(meta.pk.column)} = %s")
    with connection.cursor() as cursor:
        cursor.execute(sql, [*values, table.pk])


def write(
    code: str,
    seen_version: int | None,
    key: str,
    compute: Callable[[Table, Game, int], tuple[str, int | None, dict[str, Any], dict[str, Any], str | None]],
    seat: int | None = None,
    posted: Mapping[str, Any] | None = None,
    independent: bool = False,
    resolve: Callable[[Table], tuple[int | None, Mapping[str, Any] | None, int | None, str]] | None = None,
    expect_key: str = "",
    hint: Any = None,
) -> Outcome:
    """Lock, check, compute, append, snapshot, broadcast on commit.

    ``compute(table, game, next_seq)`` returns ``(kind, seat, payload,
    new_state_json, new_status)`` or raises; nothing is written if it raises.
    A ``game`` row's compute may add a sixth item, the state it encoded
    (``decode(encode(s)) == s``, the engine contract): it is not decoded again.
    ``seen_version`` ``None`` skips the stale check (host tools that name
    their target explicitly). A key seen before returns the first answer if
    it came from the same ``seat`` with the same ``posted`` fields, and
    raises :class:`KeyReused` otherwise.

    ``resolve(table)``, when given, runs on the locked row before anything
    else and returns ``(seat, posted, seen_version, stored key)`` in place
    of the arguments (the API reads who is asking from the row it locks,
    so a move loads the table once); it may raise to refuse the request.
    ``expect_key`` is the stored key ``resolve`` is expected to return: the
    lock's query then also says whether that key was used, and a fresh key
    costs no look-up of its own (any other key is looked up as usual).

    ``hint`` (any object with ``.code``, ``.revision``, ``.game``,
    ``.newest_seq``: the read model's snapshot is one) is used only when it
    names the locked row's revision: the write then takes its engine and
    newest log row instead of building and reading them.
    """
    key = (key or "")[:80]
    try:
        with transaction.atomic():
            probe = key if resolve is None else expect_key[:80]
            table = _lock_for_write(code, probe)  # one query: the row, and whether the key was used at it
            if resolve is not None:
                seat, posted, seen_version, key = resolve(table)
                key = (key or "")[:80]
            refuse_imported(table)
            if key:
                first = None if key == probe and not table.key_used else _keyed(table, key).first()
                if first is not None:
                    if not _same_request(first, seat, posted):
                        raise KeyReused()
                    return Outcome(version=first.version, seq=first.seq, replayed=True)
            before = table.revision
            held = hint if hint is not None and hint.code == code and hint.revision == before else None
            game = held.game if held is not None else table.game()
            if seen_version is not None and seen_version != table.version and not (
                _only_refusals_since(table, seen_version)
                or independent and _only_others_answered(table, game, seat, seen_version)
            ):
                raise StaleVersion(seen_version, table.version)
            # The newest row by the (table, seq) index: the same cost at move 900 as at move 9 (the opening row is 0).
            # Or the hint's: every appended row moves the revision in the same transaction, so its newest row is
            # the table's newest.
            newest = held.newest_seq if held is not None else None
            if newest is None:
                newest = table.actions.order_by("-seq").values_list("seq", flat=True).first() or 0
            seq = newest + 1
            computed = compute(table, game, seq)
            kind, seat, payload, new_state, new_status = computed[:5]
            table.version += 1
            table.revision += 1
            table.state = new_state
            if new_status:
                table.status = new_status
            decoded = None
            if kind == Action.Kind.GAME:  # the state ``compute`` encoded, when it says it (no second decode)
                decoded = computed[5] if len(computed) > 5 else game.decode(new_state)
            step = prompt_key(game, decoded) if kind == Action.Kind.GAME else ""
            row = Action(table=table, seq=seq, kind=kind, seat=seat, payload=payload, idempotency_key=key,
                         version=table.version, prompt_step=step)
            _insert(row)
            _update(table, ["version", "revision", "state", "status", "updated_at"])
            version, revision = table.version, table.revision
            written = copy.copy(table)  # the caller's own row may be refreshed later: the signal's stays this moment

            def after_commit() -> None:
                try:  # the read model's new snapshot: a cache, never the answer
                    table_written.send(sender=write, table=written, row=row, game=game, state=decoded, before=before)
                except Exception:  # noqa: BLE001 - the phones build the snapshot themselves
                    log.warning("a receiver of table %s r%s failed", code, revision, exc_info=True)
                broadcast_version(code, version, revision)

            transaction.on_commit(after_commit)
            return Outcome(version=version, seq=seq)
    except IntegrityError:
        # Two requests with one key raced past the look-up: the other one won.
        first = Action.objects.filter(table__code=code, idempotency_key=key).first() if key else None
        if first is not None:
            if not _same_request(first, seat, posted):
                raise KeyReused() from None
            return Outcome(version=first.version, seq=first.seq, replayed=True)
        raise


def lock_table(code: str) -> Table:
    """The table row, locked until the end of the current transaction (always the first lock taken)."""
    table = Table.objects.select_for_update().get(code=code)
    refuse_imported(table)
    return table


def seat_key(seat: int, key: str) -> str:
    """The stored idempotency key of a seat's own write: ``"<seat>/<key>"`` (``""`` stays ``""``; at most 80 chars).

    Issue 11 C: keys are looked up before anything else, so a key shared
    by the whole table let seat A ask "did Bob write under key K?" (409
    ``key_reused``, or the usual answer): with a key Bob's client made
    guessable (a counter, the place of a list button), that said which move
    Bob made. Each seat's keys live apart, so another seat's key is a fresh
    key to A. A key too long for the column with its prefix is hashed.
    """
    if not key:
        return ""
    stored = f"{seat}/{key}"
    if len(stored) > 80:
        stored = f"{seat}/#{hashlib.sha256(key.encode()).hexdigest()}"
    return stored
