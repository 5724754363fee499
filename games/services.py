"""The one write path (shared/DESIGN.md "The write path").

Every change to a table goes through :func:`_write`: in one transaction it
locks the table row, checks the version the phone saw, lets the caller
compute the new state, appends one ``Action`` row with the next sequence
number, saves the snapshot and version, and on commit tells the table's
channel group ``version N``. A retried request with the same idempotency key
returns the first answer and writes nothing. Illegal actions raise before
anything is written.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import IntegrityError, connection, models, transaction
from django.utils import timezone
from django.utils.translation import gettext

from games import live
from games import pregame as pregame_rules
from games.engines import get_game_class
from games.engines.base import Game, IllegalAction, SeatInfo, gettext_noop
from games.engines.chance import table_rng
from games.models import Action, Correction, Seat, Table
from games.models import seed_commitment as seed_commitment_of

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


@dataclass(frozen=True)
class Outcome:
    """What a write produced: the new table version and its log row; ``replayed`` for a retried key."""

    version: int
    seq: int
    replayed: bool = False


def group_name(code: str) -> str:
    """The channel group of a table's phones."""
    return f"table_{code}"


def touch(code: str) -> None:
    """Mark table ``code`` changed without a new version (a seat claimed or handed over, a correction answered).

    Phones read a table through a snapshot cached per ``(version,
    updated_at)`` (games/live.py), so a change that keeps the version must
    move ``updated_at``.
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


def broadcast_version(code: str, version: int, stamp: float | None = None) -> bool:
    """Tell every phone of table ``code`` that version ``version`` exists (they push what changed for them).

    ``stamp`` is the table's ``updated_at`` (a POSIX timestamp) when the
    caller knows it: phones then find the table's snapshot without a query.

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
        if stamp is not None:
            message["stamp"] = stamp
        if not async_to_sync(_send_bounded)(layer, group_name(code), message, BROADCAST_TIMEOUT):
            log.info("table %s version %s: the broadcast is still being sent", code, version)
            return False
    except Exception:  # noqa: BLE001 - best effort: the phones resync on their own
        log.warning("could not tell table %s about version %s; phones will resync", code, version, exc_info=True)
        return False
    return True


# -- the opening position ----------------------------------------------------


#: The sequence number of the ``setup`` row that records the opening position (moves count from 1).
OPENING_SEQ = 0


class IncompleteLog(Exception):
    """The log cannot be replayed from a recorded opening (no ``setup`` row, or the row is unreadable)."""


def opening_state(table: Table, game: Game, rows: Iterable[Action] | None = None, *, strict: bool = False) -> Any:
    """The opening position of ``table`` as ``game`` decodes it: the recorded ``setup`` row.

    ``rows`` is the log already loaded (any order), else it is read. A table
    created before the opening was logged has no such row: its opening is
    ``game.setup`` with seed ``(table.seed, 0)``, which is only right while
    the set-up does not depend on options changed since (the components);
    ``strict=True`` raises :class:`IncompleteLog` instead of falling back
    (``manage.py replay_table --fix`` writes only complete replays).
    DESIGN.md "The engine contract": every random outcome is in the log.
    """
    if rows is None:
        row = table.actions.filter(kind=Action.Kind.SETUP).order_by("seq").first()
    else:
        row = next((r for r in rows if r.kind == Action.Kind.SETUP), None)
    if row is not None and isinstance(row.payload.get("state"), dict):
        state = game.decode(row.payload["state"])
    elif strict:
        raise IncompleteLog(f"table {table.code}: the log has no recorded opening position")
    else:
        state = game.setup(table_rng(table.seed, 0))
    return with_logged_start(table, game, state, rows)


def _start_rows(table: Table, rows: Iterable[Action] | None) -> list[Action]:
    if rows is None:
        return list(table.actions.filter(kind=Action.Kind.START).order_by("seq"))
    return sorted((r for r in rows if r.kind == Action.Kind.START), key=lambda r: r.seq)


def with_logged_start(table: Table, game: Game, state: Any, rows: Iterable[Action] | None = None) -> Any:
    """``state`` (the opening) with the start player the log decided (issue 10 item 1), if it decided one.

    The last ``start`` row counts: one naming a seat applies it
    (:meth:`Game.with_start`); one without (a tie still to draw again, or the
    host asking again) and a table without any keep the engine's own opening
    (seat 0, or Yellow & Yangtze's set-up draw).
    """
    starts = _start_rows(table, rows)
    seat = starts[-1].payload.get("seat") if starts else None
    return game.with_start(state, seat) if seat is not None else state


# -- creating ---------------------------------------------------------------


def create_table(
    slug: str,
    options: Mapping[str, Any],
    seats: Iterable[Mapping[str, Any]],
    device: str = "",
    seed: int | None = None,
    start: str | None = None,
    start_seat: int | None = None,
    walkthrough: bool = False,
    devices: list[str] | None = None,
    previous: str = "",
) -> Table:
    """Create a table and its seats, deal the opening position and log it as row #0 (kind ``setup``).

    Who starts (issue 10 item 1): ``start`` is one of :data:`START_RULES` or
    ``"printed"`` (the game's own rule, :attr:`Game.start_rule`); ``None``
    (the API default) keeps the engine's opening (seat 0 starts). ``random``,
    ``chosen`` and ``winner`` (with ``start_seat``) are decided at once and
    logged as row #1 (kind ``start``, still version 0: ``random`` draws from
    ``table_rng(seed, 1)``); ``youngest``, ``oldest`` and ``highest_card``
    are asked on the phones before the first move (:func:`decide_start`).
    ``walkthrough`` turns on the set-up walkthrough (item 2). ``devices``
    (one per seat) and ``previous`` (the last game's code) come from
    :func:`play_again`. ``IllegalAction("bad_start")`` for a bad rule or seat.

    ``seats`` is a list of ``{"name": str, "colour": str, "team": int | None}``
    (2 to the game's maximum). ``seed`` fixes the table's RNG (tests, demos);
    by default it is random. Raises ``IllegalAction`` for a bad option,
    seat count or colour, before anything is written. ``KeyError`` for an
    unknown slug.
    """
    cls = get_game_class(slug)
    seat_list = list(seats)
    if not cls.min_seats <= len(seat_list) <= cls.max_seats:  # said before colours: six seats have no sixth colour
        raise IllegalAction("seat_count", gettext_noop("{title} is played by {min} to {max} players, not {n}."),
                            title=cls.title, min=cls.min_seats, max=cls.max_seats, n=len(seat_list))
    infos = []
    for index, seat in enumerate(seat_list):
        colour = seat.get("colour") or cls.colours[index % len(cls.colours)]
        name = (seat.get("name") or "").strip() or gettext(colour).capitalize()
        infos.append(SeatInfo(index, name[:40], colour, seat.get("team")))
    colours = [info.colour for info in infos]
    if len(set(colours)) != len(colours) or any(c not in cls.colours for c in colours):
        raise IllegalAction(
            "bad_colours",
            gettext_noop("Each seat needs its own colour from {colours}."),
            colours=list(cls.colours),
        )
    game = cls(options, infos)
    played = game.seat_colours()
    if played != colours:  # the edition fixes colours: store what the pieces really are
        infos = [SeatInfo(i.index, i.name if (seat_list[i.index].get("name") or "").strip()
                          else gettext(played[i.index]).capitalize(), played[i.index], i.team) for i in infos]
        game = cls(options, infos)
    pregame: dict[str, Any] = {}
    if start is not None and cls.start_rule is not None:
        rule, seat = pregame_rules.check_rule(game, cls.start_rule if start == "printed" else start, start_seat)
        pregame["start"] = {"rule": rule, "seat": seat}
    if walkthrough:
        pregame["walk"] = {"checked": [], "skipped": False}
    if previous:
        pregame["previous"] = previous
    with transaction.atomic():
        table = Table(slug=slug, options=game.options, created_by_device=device, pregame=pregame)
        if seed is not None:
            table.seed = seed
        opening = game.setup(table_rng(table.seed, 0))
        table.state = game.encode(opening)
        table.save()
        claimed, devs = timezone.now(), list(devices or [])
        devs += [""] * (len(infos) - len(devs))
        Seat.objects.bulk_create(
            [Seat(table=table, index=i.index, name=i.name, colour=i.colour, team=i.team,
                  claimed_by_device=devs[i.index], claimed_at=claimed if devs[i.index] else None) for i in infos]
        )
        # The outcome of the set-up randomness is in the log like every other chance outcome, so the table
        # replays exactly after a component switch (DESIGN.md "The engine contract": randomness is an action).
        Action.objects.create(
            table=table, seq=OPENING_SEQ, kind=Action.Kind.SETUP, seat=None, payload={"state": table.state},
            version=0, prompt_step=_prompt_key(game, opening),
        )
        start_now = pregame.get("start")
        if start_now and start_now["rule"] in ("random", "chosen", "winner"):
            _log_start_at_creation(table, game, opening, start_now)
    return table


def _log_start_at_creation(table: Table, game: Game, opening: Any, start: dict[str, Any]) -> None:
    """Log row #1 (kind ``start``, version 0) for a start decided when the table is made: ``random`` from
    ``table_rng(seed, 1)`` (re-derived by :func:`check_draws`), or the seat the host chose / the last winner."""
    seq = OPENING_SEQ + 1
    seat = start["seat"]
    if start["rule"] == "random":
        seat = table_rng(table.seed, seq).randrange(len(game.seats))
    payload = {"rule": start["rule"], "seat": seat, "mode": "digital" if start["rule"] == "random" else "chosen"}
    state = game.with_start(opening, seat)
    table.state = game.encode(state)
    table.pregame = {**table.pregame, "start": {"rule": start["rule"], "seat": seat}}
    table.save(update_fields=["state", "pregame", "updated_at"])
    # Version 0 like the opening deal: who starts is part of the table as it was made.
    Action.objects.create(table=table, seq=seq, kind=Action.Kind.START, seat=None, payload=payload, version=0,
                          prompt_step=_prompt_key(game, state))


# -- the write path -----------------------------------------------------------


class KeyReused(Exception):
    """An idempotency key already used for a different write (HTTP 409, code ``key_reused``)."""

    code = "key_reused"
    message = "This request key was already used for another move; send a new key."


def _same_request(row: Action, seat: int | None, posted: Mapping[str, Any] | None) -> bool:
    """True when ``row`` is the first answer to this very request: same seat, same fields posted."""
    if row.seat != seat:
        return False
    if posted is None:
        return True
    return all(row.payload.get(k) == v for k, v in posted.items())


def _prompt_key(game: Game, state: Any) -> str:
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
    seen_key = before.prompt_step if before and before.prompt_step else _prompt_key(game, opening_state(table, game))
    return _asks(seen_key, prompt.step, seat)


#: Log rows that only note something for every phone and change no state (issue 11): a refused entry, a seat
#: opened on another phone.
NOTE_KINDS = (Action.Kind.REFUSED, Action.Kind.OPENED)


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


# -- the write path's own SQL ---------------------------------------------------
#
# The three statements of every write (lock the table row, append the log row, save the row's new version
# and state) said once here instead of through the ORM's query compiler, which cost more CPU than the
# database did (issue 8: Django ORM was a fifth of a saturated server's GIL time, most of it compiling
# these statements on every move). Values go through each field's own ``pre_save`` and
# ``get_db_prep_save`` and rows come back through ``Manager.raw`` (the fields' own converters), exactly
# as ``Model.save`` and ``QuerySet.get`` do them, so SQLite and PostgreSQL read and write the same data.


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


def _write(
    code: str,
    seen_version: int | None,
    key: str,
    compute: Callable[[Table, Game, int], tuple[str, int | None, dict[str, Any], dict[str, Any], str | None]],
    seat: int | None = None,
    posted: Mapping[str, Any] | None = None,
    independent: bool = False,
    resolve: Callable[[Table], tuple[int | None, Mapping[str, Any] | None, int | None, str]] | None = None,
    expect_key: str = "",
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
            before = (table.version, table.updated_at)
            # The engine of this process's snapshot of exactly this row, when it holds one (no new engine).
            held = live.held_snapshot(code, before)
            game = held.game if held is not None else table.game()
            if seen_version is not None and seen_version != table.version and not (
                _only_refusals_since(table, seen_version)
                or independent and _only_others_answered(table, game, seat, seen_version)
            ):
                raise StaleVersion(seen_version, table.version)
            # The newest row by the (table, seq) index: the same cost at move 900 as at move 9 (the opening row is 0).
            # Or, when this process holds the snapshot of exactly this (version, stamp), its newest row: every
            # appended row moves the stamp in the same transaction, so that row is the table's newest.
            newest = held.rows[-1].seq if held is not None and held.rows else None
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
            step = _prompt_key(game, decoded) if kind == Action.Kind.GAME else ""
            row = Action(table=table, seq=seq, kind=kind, seat=seat, payload=payload, idempotency_key=key,
                         version=table.version, prompt_step=step)
            _insert(row)
            _update(table, ["version", "revision", "state", "status", "updated_at"])
            version = table.version
            stamp = table.updated_at.timestamp()

            def after_commit() -> None:
                if kind == Action.Kind.GAME:
                    try:  # the phones' snapshot, made here from what the write holds (games/live.py)
                        live.publish_move(table, game, decoded, row, before)
                    except Exception:  # noqa: BLE001 - a cache, never the answer: the phones build it themselves
                        log.warning("could not publish the snapshot of table %s v%s", code, version, exc_info=True)
                broadcast_version(code, version, stamp)

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


def submit_action(code: str, seat: int, action: Mapping[str, Any], seen_version: int | None, key: str = "") -> Outcome:
    """Apply ``action`` for ``seat`` at table ``code`` (the one write path for moves).

    In digital mode the chance outcome is filled from the table's RNG for
    this sequence number. Raises ``IllegalAction`` (the rules forbid it),
    ``StaleVersion`` (the table moved on), ``Forbidden`` (game closed),
    ``Table.DoesNotExist``.
    """
    if not isinstance(action, Mapping):
        raise IllegalAction("bad_action", gettext_noop("An action must be a JSON object."))
    return submit_checked(code, lambda table: (seat, action, seen_version, key), seat_key(seat, key))


def submit_checked(code: str, authorize: Callable[[Table], tuple[int, Any, int | None, str]],
                   expect_key: str = "") -> Outcome:
    """:func:`submit_action` for a request that says who it is from only once the table is locked (the API).

    ``authorize(table)`` runs on the locked row, before anything else is
    checked or read, and returns ``(seat, action, seen_version, key)`` (the
    key as posted), or raises to refuse the request (nothing is written).
    ``expect_key`` is :func:`seat_key` of the seat and key it is expected to
    return (a guess is fine: it only lets a fresh key cost no query of its
    own). Raises what :func:`submit_action` raises.
    """
    move: dict[str, Any] = {}

    def resolve(table: Table) -> tuple[int, Mapping[str, Any], int | None, str]:
        seat, action, seen_version, key = authorize(table)
        if not isinstance(action, Mapping):
            raise IllegalAction("bad_action", gettext_noop("An action must be a JSON object."))
        move.update(seat=seat, action=action)
        return seat, action, seen_version, seat_key(seat, key)

    def compute(table: Table, game: Game, seq: int):
        if not table.is_open:
            raise Forbidden("table_closed", "This table is closed: the game has ended.")
        if pregame_rules.start_pending(table.pregame):
            raise IllegalAction("start_first", gettext_noop(
                "Before the first move the table decides who starts: {rule}."),
                rule=pregame_rules.RULE_NAMES[table.pregame["start"]["rule"]])
        seat = move["seat"]
        state = live.held_state(table, game)  # this process's decoded snapshot of this row (never mutated)
        if state is None:
            state = game.decode(table.state)
        payload = dict(move["action"])
        if not game.physical:
            game.refuse_client_outcome(payload)
            payload = game.fill_chance(state, seat, payload, table_rng(table.seed, seq))
        try:
            new_state = game.apply(state, seat, payload)
        except IllegalAction as exc:
            if game.refusal_is_hidden(exc):
                refused.append(exc)
            raise
        status = Table.Status.FINISHED if game.result(new_state) is not None else None
        return Action.Kind.GAME, seat, payload, game.encode(new_state), status, new_state

    refused: list[IllegalAction] = []
    try:
        return _write(code, None, "", compute, independent=True, resolve=resolve, expect_key=expect_key)
    except IllegalAction as exc:
        if refused and refused[0] is exc:
            _log_refused_entry(code, move["seat"], move["action"])
        raise


def _log_refused_entry(code: str, seat: int, action: Mapping[str, Any]) -> None:
    """Log that ``seat``'s physical entry was refused, with no content: a ``refused`` row every phone reads.

    Issue 11 B: the bag or pile a drawer enters from is the whole set less
    the board and every hand, so a refused entry (one the drawer could not
    rule out, :meth:`Game.refusal_is_hidden`) tells the drawer something
    about the others' hidden hands. The refusal stays as it is (one code,
    one message whatever the reason), and each one is logged publicly
    ("Alice's entry was refused; asked again"), so a seat probing the bag
    through refusals does it in front of the whole table. The payload holds
    only the action kind (never the outcome typed in); the row changes no
    state, counts no move and is skipped by every replay. Written in its own
    transaction after the refusal (nothing of the refused action is kept),
    without an idempotency key: every refused request is logged, a retry
    too, so no choice of keys can make a refusal go unlogged.
    """
    kind = action.get("kind") if isinstance(action.get("kind"), str) else ""

    def compute(table: Table, game: Game, seq: int):
        return Action.Kind.REFUSED, seat, {"kind": kind[:40]}, table.state, None

    try:
        _write(code, None, "", compute, seat=seat)
    except Forbidden:
        pass  # the table was closed or imported in between: nothing more can be learnt at it


def effective_actions(rows: Iterable[Action]) -> list[Action]:
    """The game actions that count, after folding undo and correction rows in log order.

    ``undo`` drops the last counted game action (the host's ``{"undone": seq}``
    and a player's own take-back ``{"undone": seq, "by": seat}`` alike);
    ``correct`` replaces (or
    drops) its target. The returned rows for replaced targets carry the
    replacement payload (unsaved copies).
    """
    counted: list[Action] = []
    for row in rows:
        if row.kind == Action.Kind.GAME:
            counted.append(row)
        elif row.kind == Action.Kind.UNDO:
            if counted:
                counted.pop()
        elif row.kind == Action.Kind.CORRECT:
            if row.payload.get("rejected") or row.payload.get("void"):
                continue  # a correction the table said no to (or that no longer fits) changes nothing
            target = row.payload.get("target")
            replacement = row.payload.get("replacement")
            for i, old in enumerate(counted):
                if old.seq == target:
                    if replacement is None:
                        counted.pop(i)
                    else:
                        counted[i] = Action(
                            table_id=old.table_id, seq=old.seq, kind=old.kind, seat=old.seat, payload=replacement,
                            version=old.version,
                        )
                    break
    return counted


def replay_rows(table: Table, game: Game, rows: Iterable[Action], *, strict: bool = False) -> Any:
    """Fold the log: the recorded opening position, then every counted action applied in order.

    The opening comes from the log's ``setup`` row (:func:`opening_state`;
    ``strict`` refuses a log without one). Raises ``IllegalAction`` if a
    counted action no longer applies (a correction that the rest of the log
    contradicts), :class:`IncompleteLog` when ``strict`` and the opening is missing.
    """
    rows = list(rows)
    state = opening_state(table, game, rows, strict=strict)
    for row in effective_actions(rows):
        try:
            state = game.apply(state, row.seat, row.payload)
        except IllegalAction as exc:
            raise IllegalAction(
                "log_conflict",
                gettext_noop("With this change, move #{seq} would no longer be legal: {reason}"),
                seq=row.seq, reason=exc.message, rule=exc.code,
            ) from exc
    return state


def correction_choices(table: Table, target_seq: int) -> tuple[int, dict[str, Any], list[dict[str, Any]]]:
    """What logged move ``target_seq`` could have been instead: ``(seat, original payload, alternatives)``.

    The alternatives are the legal actions of the same seat in the position
    before that move, with chance outcomes spelled out (as in physical mode,
    so "the card was a 7, not a 2" is one tap), without the original.
    Raises ``IllegalAction("no_such_action")`` if the move does not count.
    """
    rows = list(table.actions.order_by("seq"))
    counted = effective_actions(rows)
    index = next((i for i, row in enumerate(counted) if row.seq == target_seq), None)
    if index is None:
        raise IllegalAction("no_such_action", gettext_noop("Move #{seq} is not in the counted log."), seq=target_seq)
    target = counted[index]
    game = get_game_class(table.slug)({**table.options, "components": "physical"}, table.seat_infos())
    state = opening_state(table, game, rows)
    for row in counted[:index]:
        state = game.apply(state, row.seat, row.payload)
    alternatives = [a for a in game.legal_actions(state, target.seat) if a != target.payload]
    return target.seat, target.payload, alternatives


def replay(table: Table, *, strict: bool = False) -> Any:
    """The state rebuilt from the whole log (the snapshot is only a cache of this).

    ``strict``: raise :class:`IncompleteLog` for a log without its recorded opening.
    """
    game = table.game()
    return replay_rows(table, game, table.actions.order_by("seq"), strict=strict)


def _status_after(game: Game, state: Any, table: Table) -> str:
    if table.status == Table.Status.ENDED:
        return Table.Status.ENDED
    return Table.Status.FINISHED if game.result(state) is not None else Table.Status.PLAYING


#: Why a finished game whose seed was revealed is not reopened (undo or correction): the message of ``seed_revealed``.
SEED_REVEALED = gettext_noop(
    "The final tally revealed this table's seed, and every draw the app made can be worked out from it: "
    "reopening the game would show everyone the hidden hands and the draws still to come. The result stands; "
    "use Play again for a new game.")


def seeded_secrets(table: Table, rows: Iterable[Action]) -> bool:
    """True when ``table``'s seed drew something at some point: it was created or switched to digital components.

    Once the game is over the seed is revealed (``Table.seed_revealed``),
    and with it every digital draw can be re-derived (``check_draws``):
    the opening hands, each hidden draw and every draw to come. A table
    played physically from its creation (only the start player was drawn
    from the seed, in public) keeps no secret in its seed.
    """
    rows = list(rows)
    return _initial_mode(table, rows) == "digital" or any(
        r.kind == Action.Kind.OPTIONS and r.payload.get("components") == "digital" for r in rows)


def refuse_reopening(table: Table, rows: Iterable[Action], status: str) -> None:
    """Raise ``IllegalAction("seed_revealed")`` when a write would make a finished, seeded table playable again.

    DESIGN.md "The engine contract" (every random outcome comes from the
    table's seed) and README "Fair draws": the seed is published at the end.
    A game reopened after that (the host undoes the last move, a correction
    is agreed) would go on with secrets anyone can compute (see :func:`seeded_secrets`).
    """
    if table.status == Table.Status.FINISHED and status == Table.Status.PLAYING and seeded_secrets(table, rows):
        raise IllegalAction("seed_revealed", SEED_REVEALED)


def undo_last(code: str, seen_version: int | None, key: str = "") -> Outcome:
    """The host rewinds the last counted game action (logged as an ``undo`` row, nothing deleted).

    Raises ``IllegalAction("nothing_to_undo")`` when no game action counts.
    """

    def compute(table: Table, game: Game, seq: int):
        if table.status == Table.Status.ENDED:
            raise Forbidden("table_closed", "The host ended this game; it can no longer be changed.")
        rows = list(table.actions.order_by("seq"))
        counted = effective_actions(rows)
        if not counted:
            raise IllegalAction("nothing_to_undo", gettext_noop("There is no move to undo."))
        payload = {"undone": counted[-1].seq}
        probe = [*rows, Action(table_id=table.id, seq=seq, kind=Action.Kind.UNDO, payload=payload, version=0)]
        state = replay_rows(table, game, probe)
        status = _status_after(game, state, table)
        refuse_reopening(table, rows, status)
        return Action.Kind.UNDO, None, payload, game.encode(state), status

    return _void_corrections_of_undone(code, _write(code, seen_version, key, compute))


def _void_corrections_of_undone(code: str, outcome: Outcome) -> Outcome:
    """Close, as ``void``, every open correction of the move an undo (``outcome``) just took back.

    An undo is public (its log row names the move), so closing the proposals about that move tells
    nobody anything new; left open, they kept asking every phone to confirm a change to a move that
    no longer counts. Each closes through :func:`_settle` (its own write and ``correct`` log row, the
    one closing transition). A replayed undo (a retried key) closes nothing more. Returns ``outcome``,
    its ``version`` moved to the table's newest when a correction closed (the phone's next tap names it).
    """
    if outcome.replayed:
        return outcome
    row = Action.objects.filter(table__code=code, seq=outcome.seq, kind=Action.Kind.UNDO).first()
    undone = row.payload.get("undone") if row is not None else None
    open_ids = list(Correction.objects.filter(table__code=code, status=Correction.Status.OPEN,
                                              target_seq=undone).values_list("id", flat=True)) if undone else []
    for correction_id in open_ids:
        try:
            _settle(code, correction_id, None)
        except IllegalAction:
            pass  # the expected outcome: the target is no longer counted, so the correction turned void
    if not open_ids:
        return outcome
    return Outcome(version=Table.objects.get(code=code).version, seq=outcome.seq)


def own_undo_target(rows: Iterable[Action], seat: int, game: Game, complete: bool = True) -> Action:
    """The log row ``seat`` may take back now (issue 10 item 4), or ``IllegalAction`` naming why not.

    ``rows`` are log rows in ``seq`` order: the whole log, or (``complete``
    false) only its newest rows, as a snapshot holds them. Walking back from
    the newest row, only this seat's own earlier take-backs (and the moves
    they dropped) may come after the target: the target is then the last
    counted game action. Codes: ``nothing_to_undo`` (no move counts),
    ``undo_not_yours`` (another seat moved last), ``undo_not_last`` (the host
    or the table did something since: an undo, a correction, a switch of
    components), ``undo_after_chance`` (the move drew, rolled or revealed
    something: :meth:`Game.reveals`). ``IllegalAction("undo_unknown")``
    when an incomplete window does not reach the target.
    """
    taken_back: set[int] = set()
    for row in reversed(list(rows)):
        if row.kind == Action.Kind.UNDO and row.payload.get("by") == seat and row.payload.get("undone"):
            taken_back.add(row.payload["undone"])
            continue
        if row.kind == Action.Kind.GAME and row.seq in taken_back:
            continue
        if row.kind in (Action.Kind.SETUP, Action.Kind.START):
            break  # the opening position (and who starts): no move before it
        if row.kind in NOTE_KINDS:
            continue  # a refused entry or a seat opened on another phone changed nothing (issue 11)
        if row.kind != Action.Kind.GAME:
            raise IllegalAction("undo_not_last", gettext_noop(
                "Only your last move can be taken back, and something else has happened at the table since; "
                "ask the host to undo."))
        if row.seat != seat:
            raise IllegalAction("undo_not_yours", gettext_noop(
                "The last move was not yours: you can only take back your own move while nobody has played since."))
        if game.reveals(row.payload):
            raise IllegalAction("undo_after_chance", gettext_noop(
                "Move #{seq} drew, rolled or revealed something the table has seen; it cannot be taken back "
                "(the host can undo it, or the table can correct it)."), seq=row.seq)
        return row
    if complete:
        raise IllegalAction("nothing_to_undo", gettext_noop("There is no move to undo."))
    raise IllegalAction("undo_unknown", gettext_noop("There is no move to undo."))


def undo_own(code: str, seat: int, seen_version: int | None, key: str = "") -> Outcome:
    """Seat ``seat`` takes back its own last move (issue 10 item 4): an ``undo`` row ``{"undone": seq, "by": seat}``.

    Allowed while nothing else has happened since (see :func:`own_undo_target`
    for the refusals, all ``IllegalAction``). Through the write path with the
    version the phone saw: ``StaleVersion`` if the table moved on,
    ``Forbidden("table_closed")`` once the game is over, ``KeyReused``.
    """

    def compute(table: Table, game: Game, seq: int):
        if not table.is_open:
            raise Forbidden("table_closed", "This table is closed: the game has ended.")
        rows = list(table.actions.order_by("seq"))
        target = own_undo_target(rows, seat, game)
        counted = effective_actions(rows)
        if not counted or counted[-1].seq != target.seq:  # the log says otherwise: never drop another move
            raise IllegalAction("undo_not_last", gettext_noop(
                "Only your last move can be taken back, and something else has happened at the table since; "
                "ask the host to undo."))
        payload = {"undone": target.seq, "by": seat}
        probe = [*rows, Action(table_id=table.id, seq=seq, kind=Action.Kind.UNDO, payload=payload, version=0)]
        state = replay_rows(table, game, probe)
        return Action.Kind.UNDO, seat, payload, game.encode(state), _status_after(game, state, table)

    return _void_corrections_of_undone(code, _write(code, seen_version, seat_key(seat, key), compute, seat=seat, posted={"by": seat}))


def end_game(code: str, key: str = "") -> Outcome:
    """The host ends the game early; the log keeps an ``end`` row and the table closes."""

    def compute(table: Table, game: Game, seq: int):
        if not table.is_open:
            raise Forbidden("table_closed", "This table is closed already.")
        return Action.Kind.END, None, {}, table.state, Table.Status.ENDED

    return _write(code, None, key, compute)


def set_components(code: str, mode: str, key: str = "") -> Outcome:
    """Switch the table between a digital and a physical deck/bag/die mid-game.

    Safe because every chance outcome is in the log, the opening deal included
    (the ``setup`` row every replay starts from; DESIGN.md "The engine
    contract"). Raises ``IllegalAction("bad_option")`` for another mode.
    """

    def compute(table: Table, game: Game, seq: int):
        if not table.is_open:
            raise Forbidden("table_closed", "This table is closed: the game has ended.")
        before = table.options.get("components", "digital")
        options = {**table.options, "components": mode}
        checked = get_game_class(table.slug)(options, table.seat_infos()).options
        table.options = checked
        table.save(update_fields=["options"])
        # "from" lets check_draws tell which moves were drawn by the server (issue 10 item 9).
        return Action.Kind.OPTIONS, None, {"components": mode, "from": before}, table.state, None

    return _write(code, None, key, compute)


def hand_over_seat(code: str, index: int) -> Seat:
    """Give seat ``index`` a new secret: the old link and cookie die, a new link is shown."""
    with transaction.atomic():
        seat = Seat.objects.select_for_update().get(table__code=code, index=index)
        seat.token = Seat._meta.get_field("token").default()
        seat.claimed_by_device = ""
        seat.claimed_at = None
        seat.save(update_fields=["token", "claimed_by_device", "claimed_at"])
        touch(code)
    broadcast_version(code, Table.objects.get(code=code).version)
    return seat


def claim_seat(seat: Seat, device: str) -> Seat:
    """Record that ``device`` holds ``seat`` now (the same phone rejoins after a reload).

    A seat another device held is opened on this one as well (its join
    link used again): that is logged as an ``opened`` row every phone reads
    ("Bob's seat was opened on another phone"), with no content, since the
    new phone reads the seat's hidden hand. Whoever holds every link (the
    host's page shows them all, the API's creator gets every token) can
    then not read another player's hand unseen (issue 11 C). The row
    changes no state and counts no move.
    """
    before = seat.claimed_by_device
    seat.claimed_by_device = device
    seat.claimed_at = timezone.now()
    seat.save(update_fields=["claimed_by_device", "claimed_at"])
    code = seat.table.code
    if before and device and before != device:
        def compute(table: Table, game: Game, seq: int):
            return Action.Kind.OPENED, seat.index, {}, table.state, None

        try:
            _write(code, None, "", compute, seat=seat.index)
            return seat
        except Forbidden:
            pass  # an imported (read-only) table: nothing to hide there
    touch(code)
    return seat


# -- corrections --------------------------------------------------------------
#
# A correction is a small state machine: open (proposed) -> applied (agreed) |
# rejected (turned down by another seat) | withdrawn (by its proposer) | void
# (the later moves no longer fit it). Each transition happens once, under ONE
# lock order: the table row first (``_write`` or ``_lock_table``), then the
# correction row. Every closing transition appends one ``correct`` log row
# under the single idempotency key ``correction-<id>``, so the database
# itself refuses a second closing row. A repeat (a second "no", a double
# confirm) answers the current outcome instead of an error.
#
# What a seat is told about a correction that no longer fits is computed from
# that seat's own view: never the engine's refusal text, code or values, which
# may describe another seat's hidden hand or sealed offering.


class _Decided(Exception):
    """Internal: the correction was already decided; nothing is written."""


def _lock_table(code: str) -> Table:
    """The table row, locked until the end of the current transaction (always the first lock taken)."""
    table = Table.objects.select_for_update().get(code=code)
    refuse_imported(table)
    return table


def _move_is_visible(game: Game, row: Action, viewer: int | None) -> bool:
    """True when ``viewer`` may read all of ``row``: it is their own move, or its log line hides nothing.

    A move hides something when its mover's own line is marked private or
    says more (other details) than ``viewer``'s line does.
    """
    if row.seat is None or viewer == row.seat:
        return True
    own = game.describe(row.seat, row.payload, row.seat)
    theirs = game.describe(row.seat, row.payload, viewer)
    return not own.private and not theirs.private and dict(own.details) == dict(theirs.details)


def _no_longer_fits(game: Game, probe: list[Action], conflict: IllegalAction, viewer: int | None) -> IllegalAction:
    """The refusal ``viewer`` may read for a correction that a later (or the target) move no longer fits.

    Shape: ``IllegalAction("log_conflict", ..., seq=N, move="...")`` naming
    the move only when ``viewer`` may read it (:func:`_move_is_visible`),
    described through ``game.describe`` for ``viewer``; otherwise
    ``IllegalAction("log_conflict", ...)`` with no details. Never carries the
    engine's message, code or details (they may quote another seat's secret).
    """
    seq = conflict.details.get("seq")
    row = next((r for r in effective_actions(probe) if r.seq == seq), None)  # the target as corrected
    if row is not None and row.kind == Action.Kind.GAME and _move_is_visible(game, row, viewer):
        line = game.describe(row.seat, row.payload, viewer)
        return IllegalAction("log_conflict", gettext_noop("This change no longer fits move #{seq} ({move})."),
                             seq=seq, move=_line_text(line))
    return IllegalAction("log_conflict", gettext_noop("This change no longer fits the moves logged after it."))


def _line_text(line: Any) -> str:
    """A log line in the active language, placeholders filled (lists joined), as ``presenters.tr`` does."""
    from games.words import show

    return show(line.text, line.details)


def _check_fits(table: Table, game: Game, probe: list[Action], viewer: int | None) -> Any:
    """Replay ``probe``; the state, or the refusal ``viewer`` may read (:func:`_no_longer_fits`)."""
    try:
        return replay_rows(table, game, probe)
    except IllegalAction as exc:
        raise _no_longer_fits(game, probe, exc, viewer) from None


def _check_seat(table: Table, seat: int) -> None:
    if not isinstance(seat, int) or not 0 <= seat < table.seats.count():
        raise Forbidden("not_a_seat", "Only a player at this table can propose or answer a correction.")


def propose_correction(code: str, proposer: int, target_seq: int, replacement: Mapping[str, Any] | None,
                       reason: str = "") -> Correction:
    """Seat ``proposer`` proposes that logged action ``target_seq`` be replaced by ``replacement`` (or dropped).

    ``replacement`` is an action payload (a JSON object) or ``None`` (drop).
    What the proposer is told is computed from what the proposer may know
    (issue 11): whether a change still fits the log depends on hidden hands,
    bags and sealed offerings, so it is not checked here — a refusal or an
    acceptance would answer a question about another seat's secrets, and a
    refused probe would leave no trace. The proposal goes to the other
    phones; when the last of them confirms, the whole log is replayed and a
    change that no longer fits closes as ``void`` with a log row every phone
    reads. Probing therefore needs every other player's consent and stays in
    the log. Each seat has at most one open proposal at a time. Returns the
    open ``Correction``. Raises ``IllegalAction`` with code
    ``no_such_action`` (the move does not count), ``bad_action`` (the
    replacement is not a JSON object of a declared shape),
    ``correction_open`` (this seat already has one waiting); ``Forbidden``
    (``not_a_seat``); ``Table.DoesNotExist``.
    """
    if replacement is not None and not isinstance(replacement, Mapping):
        raise IllegalAction("bad_action", gettext_noop("An action must be a JSON object."))
    with transaction.atomic():
        table = _lock_table(code)
        _check_seat(table, proposer)
        rows = list(table.actions.order_by("seq"))
        targets = {row.seq: row for row in effective_actions(rows)}
        if target_seq not in targets:
            raise IllegalAction("no_such_action", gettext_noop("Move #{seq} is not in the counted log."),
                                seq=target_seq)
        if replacement is not None:
            table.game().check_payload(replacement)  # its shape only: nothing hidden decides this
        if Correction.objects.filter(table=table, proposer=proposer, status=Correction.Status.OPEN).exists():
            raise IllegalAction("correction_open", gettext_noop(
                "You already have a correction waiting for the others; withdraw it or wait for their answer first."))
        correction = Correction.objects.create(
            table=table, proposer=proposer, target_seq=target_seq,
            replacement=dict(replacement) if replacement is not None else None, reason=(reason or "")[:200],
        )
        touch(code)  # the phones' snapshots are keyed by version and stamp
        if correction.waiting_for(table.seats.count()):
            version = table.version
            transaction.on_commit(lambda: broadcast_version(code, version))
            return correction
    _settle(code, correction.id, proposer)  # nobody else to ask
    correction.refresh_from_db()
    return correction


def confirm_correction(code: str, correction_id: int, seat: int) -> Correction:
    """Seat ``seat`` confirms; the last confirmation applies the correction through the write path.

    Idempotent: confirming twice, confirming one's own proposal, or
    confirming a correction already decided changes nothing and returns the
    correction as it stands (check ``status``). Returns the ``Correction``.
    Raises ``IllegalAction("log_conflict")`` only to the seat whose
    confirmation found that the log moved on and no longer fits (the
    correction is then closed as ``void`` with a log row; the message is
    what that seat may read); ``Forbidden("not_a_seat")``;
    ``Correction.DoesNotExist`` for another table's correction.
    """
    refusal: IllegalAction | None = None
    with transaction.atomic():
        table = _lock_table(code)
        _check_seat(table, seat)
        correction = Correction.objects.select_for_update().get(id=correction_id, table=table)
        if correction.status != Correction.Status.OPEN or seat == correction.proposer:
            return correction
        if seat not in correction.confirmations:
            correction.confirmations = [*correction.confirmations, seat]
            correction.save(update_fields=["confirmations"])
            touch(code)
        if correction.waiting_for(table.seats.count()):
            version = table.version
            transaction.on_commit(lambda: broadcast_version(code, version))
            return correction
        try:  # the last "yes": decided in the same transaction, still holding the table lock
            _settle(code, correction_id, seat)
        except IllegalAction as exc:
            refusal = exc  # raised after the commit, so the void row stays
    if refusal is not None:
        raise refusal
    return Correction.objects.get(id=correction_id)


def reject_correction(code: str, correction_id: int, seat: int) -> Correction:
    """Another seat turns the correction down, or its proposer withdraws it: it closes, the moves stand.

    Appends one ``correct`` row ``{"target", "correction", "rejected": True,
    "by": seat, "withdrawn": bool}`` and sets the status ``rejected`` or
    ``withdrawn``. Idempotent: a correction already decided (by anyone,
    any way) is returned as it stands. Raises ``Forbidden("not_a_seat")``,
    ``Correction.DoesNotExist``.
    """

    def compute(table: Table, game: Game, seq: int):
        _check_seat(table, seat)
        correction = Correction.objects.select_for_update().get(id=correction_id, table=table)
        if correction.status != Correction.Status.OPEN:
            raise _Decided()
        withdrawn = seat == correction.proposer
        correction.status = Correction.Status.WITHDRAWN if withdrawn else Correction.Status.REJECTED
        correction.confirmations = [*correction.confirmations, f"no:{seat}"]
        correction.save(update_fields=["status", "confirmations"])
        payload = {"target": correction.target_seq, "correction": correction.id, "rejected": True, "by": seat,
                   "withdrawn": withdrawn}
        return Action.Kind.CORRECT, seat, payload, table.state, None

    _close(code, correction_id, seat, compute)
    return Correction.objects.get(id=correction_id, table__code=code)


def _close(code: str, correction_id: int, seat: int | None, compute: Callable[..., Any]) -> None:
    """Run one closing transition through the write path; a correction already decided is left as it is."""
    Correction.objects.get(id=correction_id, table__code=code)  # DoesNotExist before any lock
    try:
        _write(code, None, f"correction-{correction_id}", compute, seat=seat)
    except (_Decided, KeyReused):
        pass  # another phone (or this one, a moment ago) closed it first: the current outcome stands


def _settle(code: str, correction_id: int, seat: int | None) -> None:
    """Apply an open correction everyone confirmed, or close it as ``void`` if the log no longer fits it.

    Raises, when it turned void, the ``log_conflict`` refusal ``seat`` may
    read, or ``no_such_action`` when the target move was undone meanwhile.
    """
    refusal: list[IllegalAction] = []

    def compute(table: Table, game: Game, seq: int):
        correction = Correction.objects.select_for_update().get(id=correction_id, table=table)
        if correction.status != Correction.Status.OPEN:
            raise _Decided()
        payload = {"target": correction.target_seq, "replacement": correction.replacement, "correction": correction.id}
        rows = list(table.actions.order_by("seq"))
        probe = [*rows, Action(table_id=table.id, seq=seq, kind=Action.Kind.CORRECT, payload=payload, version=0)]
        try:
            if correction.target_seq not in {row.seq for row in effective_actions(rows)}:  # undone meanwhile
                raise IllegalAction("no_such_action", gettext_noop("Move #{seq} is not in the counted log."),
                                    seq=correction.target_seq)
            state = _check_fits(table, game, probe, seat)
            refuse_reopening(table, rows, _status_after(game, state, table))
        except IllegalAction as exc:
            # The log moved on since the proposal: close it, never leave it open, and keep no engine text.
            refusal.append(exc)
            correction.status = Correction.Status.VOID
            correction.save(update_fields=["status"])
            void = {"target": correction.target_seq, "correction": correction.id, "void": True}
            if exc.code == "seed_revealed":
                void["reason"] = exc.code
            return Action.Kind.CORRECT, None, void, table.state, None
        correction.status = Correction.Status.APPLIED
        correction.save(update_fields=["status"])
        return Action.Kind.CORRECT, correction.proposer, payload, game.encode(state), _status_after(game, state, table)

    _close(code, correction_id, seat, compute)
    if refusal:
        raise refusal[0]


def apply_correction(code: str, correction_id: int) -> Correction:
    """Apply an open correction now (or close it as ``void``); a decided one is returned as it stands.

    Raises ``IllegalAction("log_conflict")`` (phrased for the table screen,
    naming only a public move) when it no longer fits.
    """
    _settle(code, correction_id, None)
    return Correction.objects.get(id=correction_id)


# -- fair draws (issue 10 item 9) ------------------------------------------------------------


@dataclass(frozen=True)
class DrawCheck:
    """What :func:`check_draws` found.

    ``ok``: every digital chance outcome in the log is what ``table_rng(seed,
    seq)`` gives and the seed matches the published commitment;
    ``commitment_ok``: ``sha256(str(seed)) == table.seed_commitment``;
    ``checked``: seqs whose outcome was re-derived; ``physical``: seqs of
    chance moves entered by hand (physical components: nothing to re-derive);
    ``mismatch``: the first seq whose outcome differs (``None`` if none);
    ``reason``: an English sentence naming it.
    """

    ok: bool
    commitment_ok: bool
    checked: tuple[int, ...]
    physical: tuple[int, ...]
    mismatch: int | None = None
    reason: str = ""


def _initial_mode(table: Table, rows: list[Action]) -> str:
    """The components mode the table was created with (``digital`` or ``physical``), read back from the log."""
    first = next((r for r in rows if r.kind == Action.Kind.OPTIONS), None)
    if first is None:
        return table.options.get("components", "digital")
    if "from" in first.payload:
        return first.payload["from"]
    return "physical" if first.payload.get("components") == "digital" else "digital"  # a switch changes the mode


def check_draws(table: Table, seed: int | None = None) -> DrawCheck:
    """Re-derive every digital chance outcome of ``table``'s log from ``table_rng(seed, seq)`` (issue 10 item 9).

    ``seed`` defaults to the table's own. Walks the whole log as it was
    written (undone moves included, each checked in the position it was
    played in): for a game row recorded in digital mode whose payload holds
    a chance outcome (:attr:`Game.chance_fields`), the outcome fields are
    removed, :meth:`Game.fill_chance` fills them again with the same RNG and
    the result must equal the logged payload. Rows in physical mode are
    listed in ``physical``; a correction agreed by the table stands (the
    physical table is the final authority). Raises nothing for a bad log:
    a move that no longer applies is the mismatch.
    """
    seed = table.seed if seed is None else seed
    rows = list(table.actions.order_by("seq"))
    mode = _initial_mode(table, rows)
    game = get_game_class(table.slug)({**table.options, "components": "digital"}, table.seat_infos())
    commitment_ok = seed_commitment_of(seed) == table.seed_commitment
    checked: list[int] = []
    physical: list[int] = []

    def failed(seq: int, reason: str) -> DrawCheck:
        return DrawCheck(False, commitment_ok, tuple(checked), tuple(physical), seq, reason)

    # The opening is dealt again in the mode the table was created with: a physically dealt table
    # (Yellow & Yangtze hands entered by hand) opens with an entry step, not a digital deal.
    dealer = get_game_class(table.slug)({**table.options, "components": mode}, table.seat_infos())
    opening = dealt = dealer.setup(table_rng(seed, 0))
    counted: list[Action] = []
    befores: list[Any] = []
    state = opening
    drawing = list(range(len(game.seats)))
    for row in rows:
        if row.kind == Action.Kind.OPTIONS:
            mode = row.payload.get("components", mode)
            continue
        if row.kind == Action.Kind.START:  # who starts (issue 10 item 1): a random seat or a card per seat
            rule, seat, rounds = row.payload.get("rule"), row.payload.get("seat"), row.payload.get("rounds")
            if row.payload.get("mode") == "physical":
                physical.append(row.seq)
            elif rule == "random":
                derived = table_rng(seed, row.seq).randrange(len(game.seats))
                if derived != seat:
                    return failed(row.seq, f"move #{row.seq}: the log says seat {seat} starts, the seed gives {derived}.")
                checked.append(row.seq)
            elif rule == "highest_card":
                again, winner = pregame_rules.draw_highest(game, drawing, table_rng(seed, row.seq))
                if (again, winner) != (rounds, seat):
                    return failed(row.seq, f"move #{row.seq}: the log says {rounds}, the seed gives {again}.")
                checked.append(row.seq)
            drawing = list(row.payload.get("tied") or range(len(game.seats)))
            try:
                opening = game.with_start(dealt, seat) if seat is not None else dealt
            except IllegalAction as exc:
                return failed(row.seq, f"move #{row.seq}: {exc.message}")
            state = opening
            continue
        if row.kind == Action.Kind.UNDO:
            if counted:
                counted.pop()
                state = befores.pop()
            continue
        if row.kind == Action.Kind.CORRECT:
            if row.payload.get("rejected") or row.payload.get("void"):
                continue
            counted = effective_actions([*counted, row])
            befores, state = [], opening
            for kept in counted:
                befores.append(state)
                state = game.apply(state, kept.seat, kept.payload)
            continue
        if row.kind != Action.Kind.GAME:
            continue
        fields = [f for f in game.chance_fields.get(row.payload.get("kind"), ()) if f in row.payload]
        if fields and mode == "physical":
            physical.append(row.seq)
        elif fields:
            bare = {k: v for k, v in row.payload.items() if k not in fields}
            try:
                again = game.fill_chance(state, row.seat, bare, table_rng(seed, row.seq))
            except (IllegalAction, ValueError, IndexError, KeyError) as exc:
                return failed(row.seq, f"move #{row.seq} cannot be drawn again from this seed ({exc}).")
            if again != row.payload:
                shown = {f: row.payload[f] for f in fields}
                derived = {f: again.get(f) for f in fields}
                return failed(row.seq, f"move #{row.seq}: the log says {shown}, the seed gives {derived}.")
            checked.append(row.seq)
        try:
            after = game.apply(state, row.seat, row.payload)
        except IllegalAction as exc:
            return failed(row.seq, f"move #{row.seq} no longer applies from this seed's opening: {exc.message}")
        counted.append(row)
        befores.append(state)
        state = after
    if not commitment_ok:
        return DrawCheck(False, False, tuple(checked), tuple(physical), None,
                         "the seed does not match the table's published commitment.")
    return DrawCheck(True, True, tuple(checked), tuple(physical))


# -- before, between and after games (issue 10 items 1, 2, 6) ------------------------------------------------


def decide_start(code: str, *, seat: int | None = None, cards: Mapping[Any, Any] | None = None,
                 draw: bool = False, key: str = "", by: int | str | None = None) -> Outcome:
    """Answer the table's "who starts?" question before the first move (issue 10 item 1).

    ``youngest`` / ``oldest``: ``seat`` is the tapped seat. ``highest_card``:
    in digital mode ``draw=True`` turns up a card for every seat still
    drawing from ``table_rng(seed, seq)`` (ties draw again in the same row,
    :func:`games.pregame.draw_highest`); in physical mode ``cards`` maps each
    seat still drawing to the card its real card showed, one round per call
    (a tie leaves the tied seats to draw again). Logged as a ``start`` row
    ``{"rule", "seat" (or None while tied), "rounds", "tied", "mode"}``
    through the write path; the snapshot gets the opening with that start
    player (:meth:`Game.with_start`). Raises ``IllegalAction``:
    ``start_decided`` (already decided, or a move was played),
    ``bad_start`` / ``bad_start_cards``; ``Forbidden("table_closed")``.
    """

    def compute(table: Table, game: Game, seq: int):
        if not table.is_open:
            raise Forbidden("table_closed", "This table is closed: the game has ended.")
        start = pregame_rules.start_state(table.pregame)
        rows = list(table.actions.order_by("seq"))
        if start is None or start.get("seat") is not None or effective_actions(rows):
            raise IllegalAction("start_decided", gettext_noop("Who starts is already decided."))
        rule = start["rule"]
        payload: dict[str, Any] = {"rule": rule}
        chosen: int | None
        if rule in ("youngest", "oldest"):
            chosen = game.check_start_seat(seat)
            payload.update(seat=chosen, mode="asked")
        elif rule == "highest_card":
            drawing = pregame_rules.still_drawing(rows, len(game.seats))
            if game.physical:
                round_, top = pregame_rules.tapped_round(game, drawing, cards or {})
                chosen = top[0] if len(top) == 1 else None
                payload.update(rounds=[round_], seat=chosen, tied=top if chosen is None else [], drawing=drawing,
                               mode="physical")
            else:
                if not draw:
                    raise IllegalAction("bad_start", gettext_noop("In digital mode the app draws the cards."))
                rounds, chosen = pregame_rules.draw_highest(game, drawing, table_rng(table.seed, seq))
                payload.update(rounds=rounds, seat=chosen, tied=[], drawing=drawing, mode="digital")
        else:
            raise IllegalAction("start_decided", gettext_noop("Who starts is already decided."))
        state = game.decode(table.state)
        if chosen is not None:
            state = game.with_start(opening_state(table, game, rows), chosen)
        table.pregame = {**table.pregame, "start": {"rule": rule, "seat": chosen, "tied": payload.get("tied", [])}}
        table.save(update_fields=["pregame"])
        return Action.Kind.START, None, payload, game.encode(state), None

    # The key lives with the asker's own keys (seat_key, issue 11 C): posted as is, "1/K" would have asked
    # whether seat 1 wrote a move under K (409 key_reused or not), and a phone's tap keys can be guessed.
    return _write(code, None, seat_key(by, key) if by is not None else key, compute)


def ask_start_again(code: str, key: str = "") -> Outcome:
    """The host asks "who starts?" again before the first move (a mis-tapped seat or card, issue 10 item 1).

    Logs a ``start`` row ``{"rule", "seat": None, "again": True}``: the
    opening goes back to the engine's, and the question is asked again.
    Only for the asked rules (youngest, oldest, highest card). Raises
    ``IllegalAction("start_decided")`` once a move was played or for a start
    decided at creation (random, chosen, winner).
    """

    def compute(table: Table, game: Game, seq: int):
        if not table.is_open:
            raise Forbidden("table_closed", "This table is closed: the game has ended.")
        start = pregame_rules.start_state(table.pregame)
        rows = list(table.actions.order_by("seq"))
        if (start is None or start.get("seat") is None or start["rule"] not in ("youngest", "oldest", "highest_card")
                or any(r.kind == Action.Kind.GAME for r in rows)):
            raise IllegalAction("start_decided", gettext_noop("Who starts is already decided."))
        table.pregame = {**table.pregame, "start": {"rule": start["rule"], "seat": None, "tied": []}}
        table.save(update_fields=["pregame"])
        payload = {"rule": start["rule"], "seat": None, "again": True, "mode": "asked"}
        probe = [*rows, Action(table_id=table.id, seq=seq, kind=Action.Kind.START, payload=payload, version=0)]
        return Action.Kind.START, None, payload, game.encode(opening_state(table, game, probe)), None

    return _write(code, None, key, compute)


def _lock_and_walk(code: str, change: Callable[[dict[str, Any]], None]) -> Table:
    with transaction.atomic():
        table = _lock_table(code)
        walk = pregame_rules.walk_state(table.pregame)
        if not walk["on"]:
            raise IllegalAction("no_walkthrough", gettext_noop("This table has no set-up walkthrough."))
        change(walk)
        table.pregame = {**table.pregame, "walk": {"checked": walk["checked"], "skipped": walk["skipped"]}}
        table.save(update_fields=["pregame", "updated_at"])
        version = table.version
        stamp = table.updated_at.timestamp()
        transaction.on_commit(lambda: broadcast_version(code, version, stamp))
    return table


def check_walk_step(code: str, step: str, checked: bool = True) -> Table:
    """The host checks (or unchecks) set-up step ``step`` (issue 10 item 2); kept on the table, pushed to phones.

    Raises ``IllegalAction("no_such_step")`` for a step this table's
    walkthrough does not have, ``IllegalAction("no_walkthrough")``.
    """
    table = Table.objects.get(code=code)
    ids = [s.id for s in pregame_rules.walkthrough(table.game())]
    if step not in ids:
        raise IllegalAction("no_such_step", gettext_noop("This set-up has no such step."))

    def change(walk: dict[str, Any]) -> None:
        marked = [s for s in walk["checked"] if s != step]
        walk["checked"] = [s for s in ids if s in (marked + [step] if checked else marked)]

    return _lock_and_walk(code, change)


def skip_walkthrough(code: str) -> Table:
    """The host skips the rest of the set-up walkthrough (issue 10 item 2)."""

    def change(walk: dict[str, Any]) -> None:
        walk["skipped"] = True

    return _lock_and_walk(code, change)


def next_game_start(table: Table) -> tuple[str, int | None]:
    """Who starts the next game with the same players (issue 10 item 6): ``(rule, seat)``.

    A game whose rulebook says the winner starts (:attr:`Game.next_game_start`
    ``"winner"``, Sorry! section 2.3) gives the seat that won (the one who
    finished, in team play); the others their printed rule, asked again.
    """
    game = table.game()
    if game.next_game_start == "winner":
        state = game.decode(table.state)
        winner = getattr(state, "winner", None)
        if winner is None:
            winners = (game.result(state) or {}).get("winners") or []
            winner = winners[0] if winners else None
        if winner is not None:
            return "winner", int(winner)
    return game.start_rule, None


def play_again(code: str, device: str = "") -> Table:
    """From the final tally, a new table with the same seats, phones and options (issue 10 item 6).

    Same game, options (components included), seat names, colours and
    teams; each new seat is claimed by the device that held the old one
    (:func:`follow_seat` moves each phone's cookie); who starts follows
    :func:`next_game_start`; the walkthrough is on when it was on before.
    The old table records the new code (``pregame["next"]``) and every phone
    is told, so each shows a "Next game" button. Idempotent: a second call
    returns the same new table. Raises ``Forbidden("table_open")`` while the
    game is still played.
    """
    with transaction.atomic():
        table = _lock_table(code)
        if table.is_open:
            raise Forbidden("table_open", "The next game starts from the final tally of this one.")
        existing = table.pregame.get("next")
        if existing and Table.objects.filter(code=existing).exists():
            return Table.objects.get(code=existing)
        seats = list(table.seats.order_by("index"))
        rule, seat = next_game_start(table)
        new = create_table(
            table.slug, table.options, [{"name": s.name, "colour": s.colour, "team": s.team} for s in seats],
            device=table.created_by_device or device, start=rule, start_seat=seat,
            walkthrough=pregame_rules.walk_state(table.pregame)["on"],
            devices=[s.claimed_by_device for s in seats], previous=table.code,
        )
        table.pregame = {**table.pregame, "next": new.code}
        table.save(update_fields=["pregame", "updated_at"])
        version = table.version
        transaction.on_commit(lambda: broadcast_version(code, version))
    return new


def follow_seat(old: Table, old_seat: Seat) -> Seat:
    """The seat of the next game that the phone holding ``old_seat`` of ``old`` takes (same index).

    Only the current secret of the old seat leads here (the caller read it
    from the phone's cookie), so no other phone can take it. Raises
    ``Forbidden("no_next_game")`` before the host started the next game.
    """
    code = old.pregame.get("next")
    seat = Seat.objects.filter(table__code=code, index=old_seat.index).select_related("table").first() if code else None
    if seat is None:
        raise Forbidden("no_next_game", "The host has not started the next game yet.")
    return seat
