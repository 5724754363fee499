"""The read model: one immutable snapshot per ``(table code, Table.revision)`` (shared/DESIGN.md "The read model").

A :class:`Snapshot` holds what every phone of a table reads at one
revision: a copy of the table row, its seats, the newest :data:`LOG_LINES`
log rows with their undo and correction marks, the open corrections. Every
value derived from it (the decoded state and its engine, each seat's view,
the public part, log lines, button labels, rendered regions) is memoized on
the snapshot itself (:meth:`Snapshot.memo`), so a snapshot and everything
made from it are forgotten together.

``Table.revision`` moves on every change a phone may see, so
``(code, revision)`` names one moment of a table and nothing keyed by it
can go stale. This process keeps the snapshots it built or read in one
small LRU (:data:`CACHE`: the newest :data:`REVISIONS_KEPT` of each table,
:data:`SNAPSHOTS_KEPT` in all); Django's cache (Redis, when ``REDIS_URL`` is set)
shares the ones built from the database with other workers (:func:`shared_get`,
:func:`shared_set`).

After a write commits, :func:`_on_table_written` (a receiver of
``games.write.write_path.table_written``) builds the new snapshot from the one
the write locked plus the appended row, without a query. Another process that
holds the revision before does the same from the move's ``table.revision``
group message, which carries the saved fields and the row (:func:`from_move`).
A snapshot made that way inherits the previous one's content-keyed memos (log
lines, sentences, labels, region HTML): a line or a region whose content did
not change is not built again.
"""

from __future__ import annotations

import bisect
import copy
import hashlib
import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.core.cache import cache, caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.signals import setting_changed
from django.dispatch import receiver

from games.engines.base import Game, SeatInfo
from games.models import Action, Correction, Seat, Table
from games.write.write_path import read_move, table_written

log = logging.getLogger(__name__)

LOG_LINES = 40  # how many log rows a phone shows (and a snapshot holds)
CACHE_SECONDS = 600  # how long a snapshot stays in the shared cache
SNAPSHOTS_KEPT = 512  # snapshots this process keeps, all tables together
#: Revisions of one table this process keeps, its newest: a socket a move or two behind still renders the revision
#: its group message names from memory; one further behind renders the current one (:func:`by_code`).
REVISIONS_KEPT = 3

#: Memo kinds whose keys name their content fully (not the revision): a snapshot built from an earlier one of
#: the same table and engine configuration may reuse their values (:meth:`Snapshot.memo`).
CONTENT_KEYED = frozenset({"line", "text", "label", "html"})
#: How many generations of content-keyed memos a snapshot looks back through (its own, then the snapshot it was
#: built from, and so on): a value whose content recurs a round of moves later is found, not made again.
GENERATIONS = 8
#: Memo kinds a snapshot made by :meth:`Snapshot.following` (one more ``game`` row, nothing else changed) may
#: extend from the one before instead of building anew (:meth:`Snapshot.extended`): the log windows, and the table
#: screen's count of the draws every phone saw.
EXTENDED = ("log", "tally")


def _detached(row: Action) -> Action:
    """``row`` without the objects Django cached on it (the ``Table`` it was read or written with), as a snapshot's
    window holds it: a row keeps no table alive, and a snapshot pickled for another worker carries one table, not
    one per row (with its state, they were most of its bytes). Nothing reads a window row's table. A row with
    nothing cached is returned as is, any other is copied (the caller's row is left as it was)."""
    if not row._state.fields_cache:
        return row
    bare = copy.copy(row)
    bare._state = copy.copy(row._state)
    bare._state.fields_cache = {}
    return bare


def token_digest(token: str) -> str:
    """The SHA-256 of a seat secret (hex): what a snapshot keeps instead of the secret itself."""
    return hashlib.sha256(token.encode()).hexdigest()


def _marks(rows: tuple[Action, ...]) -> tuple[frozenset[int], dict[int, Action]]:
    """The undo and correction marks carried by ``rows``: seqs undone, and seq -> the row that replaced it.

    An undo row names the move it dropped (``{"undone": seq}``) and a ``correct`` row its target, and both
    come after their target, so the marks of every row of a window are found in the window itself.
    """
    undone: set[int] = set()
    replaced: dict[int, Action] = {}
    for row in rows:
        if row.kind == Action.Kind.UNDO and row.payload.get("undone"):
            undone.add(row.payload["undone"])
        elif row.kind == Action.Kind.CORRECT and "replacement" in row.payload and not (
            row.payload.get("rejected") or row.payload.get("void")
        ):
            replaced[row.payload.get("target")] = row
    return frozenset(undone), replaced


@dataclass(frozen=True, eq=False)
class Snapshot:
    """Everything the phones of one table read at one revision. Never changed once built.

    ``table`` is a copy of the ``Table`` row at ``revision``; ``seats`` a
    tuple of ``{"index", "name", "colour", "team", "claimed", "token", "by_bearer"}``
    (``token`` is the secret's :func:`token_digest`); ``rows`` the newest
    :data:`LOG_LINES` log rows in ``seq`` order, ``undone`` (seqs an undo
    dropped) and ``replaced`` (``seq`` → the ``correct`` row that replaced
    or dropped it) computed from them alone; ``corrections`` the open
    corrections as ``{"id", "proposer", "target", "replacement", "reason",
    "waiting", "mover", "original"}``. What is derived from it lives in its memo
    (per process; never pickled).
    """

    code: str
    revision: int
    table: Table = field(repr=False)
    seats: tuple[dict[str, Any], ...] = field(repr=False)
    rows: tuple[Action, ...] = field(repr=False)
    corrections: tuple[dict[str, Any], ...] = field(repr=False)
    inherited: Mapping[Any, tuple[dict[Any, Any], ...]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_memos", {})  # made with the snapshot: every thread shares this one dict

    def __getstate__(self) -> dict[str, Any]:
        names = ("code", "revision", "table", "seats", "rows", "corrections")
        return {name: self.__dict__[name] for name in names}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__dict__.update(data, inherited={}, _memos={})

    @property
    def key(self) -> str:
        """``"CODE:revision"``: the moment this snapshot names."""
        return f"{self.code}:{self.revision}"

    @property
    def version(self) -> int:
        """The table's move counter at this revision (what a phone's tap says it saw)."""
        return self.table.version

    @cached_property
    def _marks(self) -> tuple[frozenset[int], dict[int, Action]]:
        return _marks(self.rows)

    @property
    def undone(self) -> frozenset[int]:
        """Seqs of the window's moves that an undo row of the window dropped."""
        return self._marks[0]

    @property
    def replaced(self) -> Mapping[int, Action]:
        """``seq`` → the agreed ``correct`` row of the window that replaced or dropped that move."""
        return self._marks[1]

    @property
    def newest_seq(self) -> int | None:
        """The ``seq`` of the table's newest log row (every write appends one), ``None`` for an empty log."""
        return self.rows[-1].seq if self.rows else None

    @cached_property
    def _decoded(self) -> tuple[Game, Any]:
        # One attribute for both: a thread reading this snapshot meanwhile sees the engine with its state or neither.
        game = self.table.game(self.seat_infos())
        return game, game.decode(self.table.state)

    @property
    def game(self) -> Game:
        """The table's engine (built once per snapshot in this process)."""
        return self._decoded[0]

    @property
    def state(self) -> Any:
        """The decoded state at this revision (shared by every reader: engines never mutate a state)."""
        return self._decoded[1]

    @property
    def decoded(self) -> bool:
        """True once the engine and state are built (reading them costs no work)."""
        return "_decoded" in self.__dict__

    @cached_property
    def config_key(self) -> str:
        """What the table's engine is built from (slug, options, seats) as one digest.

        An engine's ``label(seat, action)`` reads no state, only its game and
        its arguments: two snapshots with this key label every action alike.
        """
        raw = json.dumps([self.table.slug, self.table.options,
                          [[s["index"], s["name"], s["colour"], s["team"]] for s in self.seats]],
                         sort_keys=True, default=str, separators=(",", ":"))
        return hashlib.sha1(raw.encode()).hexdigest()

    def memo(self, kind: str, key: Any, build: Callable[[], Any]) -> Any:
        """The value of ``build()`` under ``(kind, key)`` on this snapshot, built once (per process).

        ``kind`` names the family of values (``"view"``, ``"public"``, ``"line"``, ``"html"``...). For the
        kinds in :data:`CONTENT_KEYED`, whose keys name everything the value depends on, a value one of the
        :data:`GENERATIONS` snapshots before this one made or reused is reused. Two threads may build the same value at once; the
        values are equal and either is kept. Callers must not mutate what is returned.
        """
        store = self._memos.get(kind)
        if store is None:
            store = self._memos.setdefault(kind, {})  # atomic: two threads get the same dict
        try:
            return store[key]
        except KeyError:
            pass
        for earlier in self.inherited.get(kind, ()):
            if key in earlier:
                value = earlier[key]
                break
        else:
            value = build()
        store[key] = value
        return value

    def extended(self, kind: str, key: Any) -> Any:
        """What the snapshot this one extends by one ``game`` row (:meth:`following`) memoized under ``(kind,
        key)``, for the kinds a move only adds to (:data:`EXTENDED`); ``None`` otherwise."""
        for earlier in self.inherited.get(("extended", kind), ()):
            return earlier.get(key)
        return None

    def memoized(self, kind: str, key: Any) -> bool:
        """True when :meth:`memo` holds ``(kind, key)`` on this snapshot already (no inherited look-up)."""
        return key in self._memos.get(kind, ())

    def content_memos(self) -> dict[str, tuple[dict[Any, Any], ...]]:
        """What a following snapshot may inherit: per content-keyed kind, this snapshot's own memo (the values
        it made or reused) then those it inherited, :data:`GENERATIONS` at most. Shared, never copied: a
        region whose content recurs a few moves later (such as "waiting for Ann to draw") is not rendered
        again, and each snapshot adds one dictionary per kind."""
        return {kind: (self._memos.setdefault(kind, {}), *self.inherited.get(kind, ()))[:GENERATIONS]
                for kind in CONTENT_KEYED}

    def seat_infos(self) -> list[SeatInfo]:
        """The seats as the engine sees them."""
        return [SeatInfo(s["index"], s["name"], s["colour"], s["team"]) for s in self.seats]

    def seat_index(self, token: str | None) -> int | None:
        """The seat whose secret is ``token``, or ``None`` (the secret's digest made once per snapshot)."""
        if not token:
            return None

        def find() -> int | None:
            digest = token_digest(token)
            return next((s["index"] for s in self.seats if s["token"] == digest), None)

        return self.memo("seat", token, find)

    def following(self, table: Table, row: Action, game: Game | None, state: Any) -> Snapshot:
        """The snapshot of ``table`` (a copy of the row just written) = this one plus the appended ``row``.

        For a write that changes no seat and no open correction (a ``game`` row):
        seats and corrections carry over, the window gains ``row``, ``game`` and
        ``state`` (when given) are the write's own, content-keyed memos are
        inherited, and so are this snapshot's values of the kinds a move only
        adds to (:meth:`extended`). Costs no query; keeps no reference to this snapshot.
        """
        rows = (*self.rows, _detached(row))[-LOG_LINES:]
        inherited: dict[Any, tuple[dict[Any, Any], ...]] = dict(self.content_memos())
        for kind in EXTENDED:
            inherited["extended", kind] = (self._memos.setdefault(kind, {}),)
        snap = Snapshot(code=self.code, revision=table.revision, table=table, seats=self.seats, rows=rows,
                        corrections=self.corrections, inherited=inherited)
        if game is not None and state is not None:
            snap.__dict__["_decoded"] = (game, state)
        return snap


def _seats(table: Table) -> tuple[dict[str, Any], ...]:
    return tuple(
        {"index": s.index, "name": s.name, "colour": s.colour, "team": s.team, "claimed": bool(s.claimed_at),
         "token": token_digest(s.token), "by_bearer": s.claimed_by_device == Seat.API_DEVICE}
        for s in table.seats.order_by("index")
    )


def _window(table: Table, earlier: Snapshot | None) -> tuple[Action, ...]:
    """The newest log rows of ``table``: one indexed query (only the rows after ``earlier``'s, when given)."""
    if earlier is not None and earlier.rows:
        newer = map(_detached, table.actions.filter(seq__gt=earlier.rows[-1].seq).order_by("seq"))
        return (*earlier.rows, *newer)[-LOG_LINES:]
    rows = list(map(_detached, table.actions.order_by("-seq")[:LOG_LINES]))
    rows.reverse()
    return tuple(rows)


def _corrections(table: Table, seats: int) -> tuple[dict[str, Any], ...]:
    open_ones = list(table.corrections.filter(status=Correction.Status.OPEN).order_by("id"))
    if not open_ones:
        return ()
    targets = {seq: (seat, payload) for seq, seat, payload in table.actions.filter(
        seq__in=[c.target_seq for c in open_ones]).values_list("seq", "seat", "payload")}
    return tuple({"id": c.id, "proposer": c.proposer, "target": c.target_seq, "replacement": c.replacement,
                  "reason": c.reason, "waiting": c.waiting_for(seats),
                  "mover": targets.get(c.target_seq, (0, None))[0] or 0,
                  "original": targets.get(c.target_seq, (0, None))[1]}
                 for c in open_ones)


def build(table: Table) -> Snapshot:
    """The snapshot of ``table`` (a row as read; copied) from the database: seats, newest log rows, corrections.

    Three to four indexed queries. When this process holds an earlier
    snapshot of the same table, only the log rows after its newest are read
    and its content-keyed memos are inherited (when its engine is built
    from the same configuration).
    """
    table = copy.copy(table)  # the caller may go on to change its own row: this snapshot stays its moment
    earlier = CACHE.newest(table.code)
    if earlier is not None and (earlier.table.id != table.id or earlier.revision > table.revision):
        earlier = None
    seats = _seats(table)
    snap = Snapshot(code=table.code, revision=table.revision, table=table, seats=seats, rows=_window(table, earlier),
                    corrections=_corrections(table, len(seats)))
    if earlier is not None and earlier.config_key == snap.config_key:
        object.__setattr__(snap, "inherited", earlier.content_memos())
    return snap


# -- one cache per process -------------------------------------------------------------


class SnapshotCache:
    """This process's snapshots: an LRU keyed by ``(code, revision)`` of at most ``size`` snapshots and at most
    ``per_table`` revisions of each table (its newest ones), and the newest revision held per table.

    A socket renders the revision its group message names when it is held here, else the table's current one
    (:func:`by_code`); the write path builds the next snapshot from the newest (:func:`_on_table_written`). An
    older revision of a table is never asked for again once a few newer ones exist: keeping it only keeps its
    memos (views, legal taps, rendered regions) in memory.
    """

    def __init__(self, size: int, per_table: int = 3) -> None:
        self.size = size
        self.per_table = per_table
        self._items: OrderedDict[tuple[str, int], Snapshot] = OrderedDict()
        self._revisions: dict[str, list[int]] = {}  # code -> the revisions held, ascending
        self._lock = threading.Lock()

    def get(self, code: str, revision: int) -> Snapshot | None:
        """The snapshot of ``code`` at ``revision`` held here, or ``None``. No I/O."""
        with self._lock:
            snap = self._items.get((code, revision))
            if snap is not None:
                self._items.move_to_end((code, revision))
            return snap

    def put(self, snap: Snapshot) -> Snapshot:
        """Keep ``snap`` (the one already held under its key wins, so every reader shares one memo) and return
        the one held. Forgets the table's oldest revisions beyond ``per_table`` (``snap`` itself, when it is
        older than all of them: it is still returned) and the least recently used snapshots beyond ``size``."""
        key = (snap.code, snap.revision)
        with self._lock:
            held = self._items.get(key)
            if held is not None:
                self._items.move_to_end(key)
                return held
            self._items[key] = snap
            revisions = self._revisions.setdefault(snap.code, [])
            bisect.insort(revisions, snap.revision)
            while len(revisions) > self.per_table:
                del self._items[snap.code, revisions.pop(0)]
            while len(self._items) > self.size:
                (code, revision), _ = self._items.popitem(last=False)
                self._drop_revision(code, revision)
            return snap

    def _drop_revision(self, code: str, revision: int) -> None:
        revisions = self._revisions[code]
        revisions.remove(revision)
        if not revisions:
            del self._revisions[code]

    def newest(self, code: str) -> Snapshot | None:
        """The held snapshot of ``code`` with the highest revision (may be stale), or ``None``. No I/O."""
        with self._lock:
            revisions = self._revisions.get(code)
            return self._items[code, revisions[-1]] if revisions else None

    def revisions(self, code: str) -> tuple[int, ...]:
        """The revisions of ``code`` held here, ascending. No I/O."""
        with self._lock:
            return tuple(self._revisions.get(code, ()))

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)

    def clear(self) -> None:
        """Forget every snapshot (tests that rewrite rows behind the read model)."""
        with self._lock:
            self._items.clear()
            self._revisions.clear()


CACHE = SnapshotCache(SNAPSHOTS_KEPT, REVISIONS_KEPT)


def clear() -> None:
    """Forget this process's snapshots and everything memoized on them."""
    CACHE.clear()


# -- the shared cache (other workers) -------------------------------------------------


class SharedCache:
    """Django's cache when it is shared between processes (Redis), skipped for a while after it fails.

    The embedded default's local-memory cache would only pickle what this
    process holds already: it is never used. Redis down or frozen (its
    client's socket timeout, setting ``CACHES``) costs one timeout, then this
    process skips it for :data:`RETRY_SECONDS` and builds what it needs from
    the database, so moves are still answered and saved (scale_tests/test_redis_away.py).
    """

    RETRY_SECONDS = 5.0

    def __init__(self) -> None:
        self.shared: bool | None = None  # settled on first use, again when the CACHES setting changes
        self.down_until = 0.0  # time.monotonic() until which the shared cache is skipped

    def reset(self) -> None:
        """Settle again whether the cache is shared, and try it at once."""
        self.shared = None
        self.down_until = 0.0

    def usable(self) -> bool:
        """True when the cache is shared and not resting after a failure."""
        if self.shared is None:
            self.shared = not isinstance(caches["default"], LocMemCache)
        return self.shared and self.down_until <= time.monotonic()

    def failed(self, exc: Exception) -> None:
        """Note a failure: log it once per rest, and rest :data:`RETRY_SECONDS`."""
        if self.down_until < time.monotonic():
            log.warning("the shared cache failed (%s); phones' snapshots are built here for %.0f s", exc,
                        self.RETRY_SECONDS)
        self.down_until = time.monotonic() + self.RETRY_SECONDS


SHARED = SharedCache()


@receiver(setting_changed)
def _caches_changed(setting: str, **kwargs: Any) -> None:
    if setting == "CACHES":
        SHARED.reset()


def shared_get(key: str) -> Any:
    """``cache.get(key)`` of the shared cache (Redis), or ``None``: in the embedded default, or while it fails."""
    if not SHARED.usable():
        return None
    try:
        return cache.get(key)
    except Exception as exc:  # noqa: BLE001 - any failure of the cache is a miss
        SHARED.failed(exc)
        return None


def shared_set(key: str, value: Any) -> None:
    """``cache.set(key, value, CACHE_SECONDS)`` on the shared cache; nothing in the embedded default or while it fails."""
    if not SHARED.usable():
        return
    try:
        cache.set(key, value, CACHE_SECONDS)
    except Exception as exc:  # noqa: BLE001 - any failure of the cache is a miss for the other workers
        SHARED.failed(exc)


def _shared_key(code: str, revision: int) -> str:
    return f"snap:{code}:{revision}"


# -- finding a snapshot ------------------------------------------------------------------


def held(code: str, revision: int) -> Snapshot | None:
    """This process's snapshot of table ``code`` at ``revision``, or ``None``. No I/O."""
    return CACHE.get(code, revision)


def latest(code: str) -> Snapshot | None:
    """The newest snapshot this process holds of table ``code``, of any revision (may be stale), or ``None``. No I/O.

    What a caller of the write path passes as its ``hint``: the write uses
    it only when its revision is the locked row's.
    """
    return CACHE.newest(code)


def _adopt(snap: Snapshot) -> Snapshot:
    """A snapshot another worker made (read from the shared cache), linked to the newest one this process holds
    of the same table and engine configuration as :func:`build` links a snapshot it reads: it inherits that
    one's content-keyed memos (log lines, labels, region HTML), and, when it is that one plus one ``game`` row
    with the same seats and corrections (what :meth:`Snapshot.following` makes), the log windows it extends.
    A region or a line whose content did not change is then not rendered again on this worker either."""
    earlier = CACHE.newest(snap.code)
    if earlier is None or earlier.table.id != snap.table.id or earlier.revision >= snap.revision \
            or earlier.config_key != snap.config_key:
        return snap
    inherited: dict[Any, tuple[dict[Any, Any], ...]] = dict(earlier.content_memos())
    newest = earlier.newest_seq
    if snap.revision == earlier.revision + 1 and newest is not None and snap.rows \
            and snap.rows[-1].seq == newest + 1 and snap.rows[-1].kind == Action.Kind.GAME \
            and snap.seats == earlier.seats and snap.corrections == earlier.corrections:
        for kind in EXTENDED:
            inherited["extended", kind] = (earlier._memos.setdefault(kind, {}),)
    object.__setattr__(snap, "inherited", inherited)
    return snap


def _find(code: str, revision: int) -> Snapshot | None:
    snap = CACHE.get(code, revision)
    if snap is None:
        snap = shared_get(_shared_key(code, revision))  # another worker wrote it
        if snap is not None:
            snap = CACHE.put(_adopt(snap))
    return snap


def for_table(table: Table) -> Snapshot:
    """The snapshot of a ``Table`` row already loaded (HTTP views): no query when held or shared."""
    snap = _find(table.code, table.revision)
    if snap is None:
        snap = build(table)
        shared_set(_shared_key(snap.code, snap.revision), snap)
        snap = CACHE.put(snap)
    return snap


def current_revision(code: str) -> int | None:
    """The revision of table ``code`` now (one query), ``None`` if the table is gone."""
    return Table.objects.filter(code=code).values_list("revision", flat=True).first()


def by_code(code: str, revision: int | None = None) -> Snapshot | None:
    """The snapshot of table ``code`` at ``revision`` (websocket renders), ``None`` if the table is gone.

    With ``revision`` (from a ``table.revision`` message) a held or shared
    snapshot costs no query; without it, or when neither holds it, the
    current revision is read (one query) and its snapshot found or built.
    """
    if revision is not None:
        snap = _find(code, revision)
        if snap is not None:
            return snap
    revision = current_revision(code)
    if revision is None:
        return None
    snap = _find(code, revision)
    if snap is None:
        table = Table.objects.filter(code=code).first()
        if table is None:
            return None
        snap = for_table(table)
    return snap


def from_move(code: str, revision: int, move: str) -> Snapshot | None:
    """The snapshot of ``code`` at ``revision`` made from a ``table.revision`` message's ``move`` (the write's
    :func:`games.write.write_path.move_message`) and the snapshot of the revision before it held here, as the
    writing process made its own (:meth:`Snapshot.following`): no database read, no shared cache. Held and
    returned; the one held already when there is one; ``None`` when this process does not hold the revision before
    (the caller finds the snapshot as any other). No I/O; never raises (a message it cannot read is a miss)."""
    snap = CACHE.get(code, revision)
    if snap is not None:
        return snap
    try:
        before, fields, row = read_move(move)
        earlier = CACHE.get(code, before)
        if earlier is None or earlier.newest_seq is None or row.seq != earlier.newest_seq + 1 \
                or row.table_id != earlier.table.id:
            return None
        table = copy.copy(earlier.table)
        table.__dict__.update(fields)
        if table.revision != revision:
            return None
        game = earlier.game if earlier.decoded else None
        state = game.decode(table.state) if game is not None else None
        return CACHE.put(earlier.following(table, row, game, state))
    except Exception:  # noqa: BLE001 - a cache: the socket finds the snapshot as it would without the message
        log.warning("could not make table %s r%s from its move message", code, revision, exc_info=True)
        return None


@receiver(table_written)
def _on_table_written(sender: Any, table: Table, row: Action | None, game: Game | None, state: Any,
                      before: int, **kwargs: Any) -> None:
    """After a move commits: its snapshot, from the one the write locked plus the new row, held in this process.

    Only for a ``game`` row (a move changes no seat and no open correction);
    without the snapshot the write locked, it is built from the database as
    a phone would. Other writes leave the next snapshot to the first phone
    that reads it. Other processes make theirs from the move's group message
    (:func:`from_move`), so it is not put in the shared cache. Never raises:
    the move is saved, its snapshot is a cache.
    """
    if row is None or row.kind != Action.Kind.GAME:
        return
    try:
        earlier = CACHE.get(table.code, before)
        if earlier is not None and earlier.table.id == table.id and earlier.newest_seq == row.seq - 1:
            row.payload = json.loads(json.dumps(row.payload))  # as a phone would read it back from the database
            snap = earlier.following(table, row, game, state)  # the write's own copy of its row
        else:
            snap = build(table)
            if game is not None and state is not None:
                snap.__dict__["_decoded"] = (game, state)
        CACHE.put(snap)
    except Exception:  # noqa: BLE001 - a cache, never the answer: the phones build it themselves
        log.warning("could not publish the snapshot of table %s r%s", table.code, table.revision, exc_info=True)
