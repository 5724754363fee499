"""Live sync at café scale (issue 8): one snapshot per table version, pages made of named regions.

Three layers keep the cost of a move close to a bare broadcast:

1. :class:`Snapshot`: what every phone of a table needs from the database at
   one moment (the table row, its seats, the newest log rows, the open
   corrections), loaded once per ``(table, version, revision)`` and kept in
   Django's cache (local memory in the embedded default, Redis when
   ``REDIS_URL`` is set) and, decoded, in a small per-process store. A phone's
   render then costs one query (the table's version and revision), or none for
   HTTP views that hold the row already.
2. :data:`REGIONS`: the phone page is a fixed set of named regions with
   stable ids. Each region declares the part of the seat context it shows;
   its digest is a hash of exactly that (plus the language), and its HTML is
   cached under the digest in this process, so N phones that show the same thing cost one
   render. Secrecy is unchanged: a region's inputs come from that seat's own
   context (built from ``game.view(state, seat)``), so two seats share HTML
   only when what they may see is identical.
3. :func:`push`: each websocket remembers the digest of every region it last
   sent; a push carries only the regions whose digest changed for that phone
   (htmx out-of-band swaps), and log lines one by one.

The board's fixed geometry (Sorry! track, Yellow & Yangtze hexes) lives in
the ``static`` region outside ``#table``: it is drawn with the page and never
pushed again, since its digest never changes during a game.
"""

from __future__ import annotations

import copy
import hashlib
import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache, caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template.loader import render_to_string
from django.utils import translation

from games.engines.base import Game
from games.models import Action, Correction, Table
from games.write_path import table_written

log = logging.getLogger(__name__)

LOG_LINES = 40  # how many log rows a phone shows (and a snapshot holds)
CACHE_SECONDS = 600  # how long a snapshot or a rendered region stays in the shared cache
PAGE = "games/table.html"
GENERIC_CONTROLS = "games/_controls.html"  # the one controls template with plain forms (a CSRF token inside)


# -- a small per-process store ----------------------------------------------------------


class _Store:
    """A thread-safe LRU dictionary (decoded snapshots and rendered regions of this process)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[Any, Any] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: Any) -> Any:
        with self.lock:
            value = self.items.get(key)
            if value is not None:
                self.items.move_to_end(key)
            return value

    def put(self, key: Any, value: Any) -> None:
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.items.clear()


_SNAPSHOTS = _Store(512)
_HTML = _Store(4096)
_LINES = _Store(20000)


def clear_local_caches() -> None:
    """Forget this process's snapshots, regions, log lines, sentences, labels and log windows (tests that
    rewrite rows behind the cache)."""
    from games import presenters  # presenters reads this module: imported when asked

    _SNAPSHOTS.clear()
    _HTML.clear()
    _LINES.clear()
    _LATEST.clear()
    for store in (presenters._TEXTS, presenters._LABELS, presenters._WINDOWS):
        store.clear()


# -- snapshots ---------------------------------------------------------------------------


def token_digest(token: str) -> str:
    """The SHA-256 of a seat secret: what a snapshot keeps instead of the secret itself."""
    return hashlib.sha256(token.encode()).hexdigest()


def snapshot_key(code: str, version: int, revision: int) -> str:
    """``code:version:revision``: one table at one moment (``Table.revision`` moves on every change a phone sees)."""
    return f"{code}:{version}:{revision}"


@dataclass
class Snapshot:
    """Everything the phones of one table read at one moment.

    ``table`` is the ``Table`` row; ``seats`` a list of ``{"index", "name",
    "colour", "team", "claimed", "token"}`` (``token`` is the secret's
    digest); ``rows`` the newest :data:`LOG_LINES` log rows in ``seq`` order,
    with ``undone`` (seqs an undo dropped) and ``replaced`` (``seq`` → the
    ``correct`` row that replaced or dropped it) computed from them alone;
    ``corrections`` the open corrections with the seat of their target move.
    ``game`` and ``state`` are filled in per process (not cached across
    processes).
    """

    key: str
    table: Table
    seats: list[dict[str, Any]]
    rows: list[Action]
    undone: set[int]
    replaced: dict[int, Action]
    corrections: list[dict[str, Any]]
    game: Game | None = field(default=None, repr=False)
    state: Any = field(default=None, repr=False)
    # Per process: what this snapshot's phones share (games/presenters.py _public_part, the view digests).
    memo: dict[Any, Any] = field(default_factory=dict, repr=False)

    def __getstate__(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        data["game"] = data["state"] = None  # rebuilt per process from the table row
        data["memo"] = {}
        return data

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__dict__.update(data)
        self.__dict__.setdefault("memo", {})

    def decoded(self) -> Snapshot:
        """This snapshot with its engine and decoded state (built once per process)."""
        if self.game is None:
            # Another thread may render this same cached snapshot meanwhile: it must see either no
            # engine (and decode its own) or the engine with its state, never the engine alone.
            game = self.table.game(self.seat_infos())
            self.state = game.decode(self.table.state)
            self.game = game
        return self

    @property
    def code(self) -> str:
        """The table's code (a write's ``hint``, games/write_path.py)."""
        return self.table.code

    @property
    def revision(self) -> int:
        """The table revision this snapshot is of."""
        return self.table.revision

    @property
    def newest_seq(self) -> int | None:
        """The ``seq`` of the newest log row held, or ``None``."""
        return self.rows[-1].seq if self.rows else None

    def seat_infos(self):
        """The seats as the engine sees them."""
        from games.engines.base import SeatInfo

        return [SeatInfo(s["index"], s["name"], s["colour"], s["team"]) for s in self.seats]

    def seat_index(self, token: str | None) -> int | None:
        """The seat whose secret is ``token``, or ``None``."""
        if not token:
            return None
        digest = token_digest(token)
        return next((s["index"] for s in self.seats if s["token"] == digest), None)


_LATEST = _Store(512)  # code -> the newest snapshot this process built: its rows seed the next window


def _marks(rows: list[Action]) -> tuple[set[int], dict[int, Action]]:
    """The undo and correction marks carried by ``rows``: seqs undone, and seq -> the row that replaced it."""
    undone: set[int] = set()
    replaced: dict[int, Action] = {}
    for row in rows:
        if row.kind == Action.Kind.UNDO and row.payload.get("undone"):
            undone.add(row.payload["undone"])
        elif row.kind == Action.Kind.CORRECT and "replacement" in row.payload and not (
            row.payload.get("rejected") or row.payload.get("void")
        ):
            replaced[row.payload.get("target")] = row
    return undone, replaced


def _window(table: Table) -> tuple[list[Action], set[int], dict[int, Action]]:
    """The newest log rows (one indexed query) and the undo/correction marks they carry.

    An undo row names the move it dropped (``{"undone": seq}``) and a
    ``correct`` row its target, and both come after their target, so the
    marks of every row in the window are found in the window itself: a
    render costs the same at move 900 as at move 9. When this process holds
    an earlier snapshot of the table, only the rows after it are read.
    """
    earlier = _LATEST.get(table.code)
    if earlier is not None and earlier.table.id == table.id and earlier.rows and earlier.table.version <= table.version:
        last = earlier.rows[-1].seq
        rows = [*earlier.rows, *table.actions.filter(seq__gt=last).order_by("seq")][-LOG_LINES:]
    else:
        rows = list(table.actions.order_by("-seq")[:LOG_LINES])
        rows.reverse()
    return (rows, *_marks(rows))


def _build(table: Table, key: str) -> Snapshot:
    seats = [
        {"index": s.index, "name": s.name, "colour": s.colour, "team": s.team, "claimed": bool(s.claimed_at),
         "token": token_digest(s.token)}
        for s in table.seats.order_by("index")
    ]
    rows, undone, replaced = _window(table)
    corrections = []
    open_ones = list(table.corrections.filter(status=Correction.Status.OPEN).order_by("id"))
    if open_ones:
        movers = dict(table.actions.filter(seq__in=[c.target_seq for c in open_ones]).values_list("seq", "seat"))
        for c in open_ones:
            corrections.append({"id": c.id, "proposer": c.proposer, "target": c.target_seq,
                                "replacement": c.replacement, "reason": c.reason,
                                "waiting": c.waiting_for(len(seats)), "mover": movers.get(c.target_seq) or 0})
    snap = Snapshot(key=key, table=table, seats=seats, rows=rows, undone=undone, replaced=replaced,
                    corrections=corrections)
    _LATEST.put(table.code, snap)
    return snap


_SHARED: dict[str, bool] = {}  # "default" -> whether it is shared; settled once per process (or settings change)


def _shared_cache() -> bool:
    """True when Django's cache is shared between processes (Redis): worth filling for other workers.

    The embedded default's local-memory cache would only pickle what this
    process's own store already holds. Asked several times per push, so
    the answer is kept (``caches[...]`` is a thread-local lookup) until
    the ``CACHES`` setting changes.
    """
    shared = _SHARED.get("default")
    if shared is None:
        shared = _SHARED["default"] = not isinstance(caches["default"], LocMemCache)
    return shared


@receiver(setting_changed)
def _caches_changed(setting: str, **kwargs: Any) -> None:
    if setting == "CACHES":
        _SHARED.clear()
        _SHARED_DOWN_UNTIL[0] = 0.0


SHARED_RETRY_SECONDS = 5.0  # after a failed call to the shared cache, this process leaves it alone this long
_SHARED_DOWN_UNTIL = [0.0]  # time.monotonic() until which the shared cache is skipped


def _shared_failed(exc: Exception) -> None:
    if _SHARED_DOWN_UNTIL[0] < time.monotonic():
        log.warning("the shared cache failed (%s); phones' snapshots are built here for %.0f s", exc,
                    SHARED_RETRY_SECONDS)
    _SHARED_DOWN_UNTIL[0] = time.monotonic() + SHARED_RETRY_SECONDS


def shared_get(key: str) -> Any:
    """``cache.get(key)`` of the shared cache (Redis), or ``None``: in the embedded default, or while it fails.

    A cache, never the answer: Redis down or frozen (its client's socket
    timeout, settings ``CACHES``) costs one timeout, then this process skips
    it for :data:`SHARED_RETRY_SECONDS` and builds what it needs from the
    database, so moves are still answered and saved (scale_tests/test_redis_away.py).
    """
    if not _shared_cache() or _SHARED_DOWN_UNTIL[0] > time.monotonic():
        return None
    try:
        return cache.get(key)
    except Exception as exc:  # noqa: BLE001 - any failure of the cache is a miss
        _shared_failed(exc)
        return None


def shared_set(key: str, value: Any) -> None:
    """``cache.set(key, value, CACHE_SECONDS)`` on the shared cache; nothing in the embedded default or while it fails."""
    if not _shared_cache() or _SHARED_DOWN_UNTIL[0] > time.monotonic():
        return
    try:
        cache.set(key, value, CACHE_SECONDS)
    except Exception as exc:  # noqa: BLE001 - any failure of the cache is a miss for the other workers
        _shared_failed(exc)


def _cached(key: str, build: Callable[[], Snapshot]) -> Snapshot:
    snap = _SNAPSHOTS.get(key)
    if snap is None:
        snap = shared_get(f"snap:{key}")
        if snap is None:
            snap = build()
            shared_set(f"snap:{key}", snap)
        _SNAPSHOTS.put(key, snap)
    return snap.decoded()


@receiver(table_written)
def _written(sender: Any, table: Table, row: Action | None, game: Game, state: Any, before: int, **kwargs: Any) -> None:
    """After a move commits (:data:`games.write_path.table_written`): cache its snapshot before the broadcast."""
    if row is not None and row.kind == Action.Kind.GAME and state is not None:
        publish_move(table, game, state, row, before)


def publish_move(table: Table, game: Game, state: Any, row: Action, before: int) -> Snapshot:
    """After a move commits: the table's new snapshot, built by the write path and cached before the broadcast.

    ``table`` is the saved row (new version and revision), ``game`` its
    engine, ``state`` the decoded new state, ``row`` the ``game`` log row just
    appended, ``before`` the revision the write locked. When this
    process's newest snapshot of the table is of exactly ``before`` (no claim,
    hand-over or correction since, each of which moves the revision) and the
    new row follows its newest row, the new snapshot is that one plus the
    row: seats and open corrections carry over (a move changes neither), so
    it costs no query. Otherwise it is built from the database as a phone
    would. Either way no phone's socket reloads it: the group message
    carries the new version and revision (:func:`snapshot_by_code`).
    """
    key = snapshot_key(table.code, table.version, table.revision)
    table = copy.copy(table)  # the caller's own row may be refreshed later (a tap's answer): this moment stays
    row.payload = json.loads(json.dumps(row.payload))  # as a phone would read it back from the database
    earlier = _LATEST.get(table.code)
    if (earlier is not None and earlier.table.id == table.id and earlier.table.revision == before and earlier.rows
            and earlier.rows[-1].seq == row.seq - 1 and row.kind == Action.Kind.GAME):
        rows = [*earlier.rows, row][-LOG_LINES:]
        snap = Snapshot(key=key, table=table, seats=earlier.seats, rows=rows, undone=set(earlier.undone),
                        replaced=dict(earlier.replaced), corrections=earlier.corrections)
        snap.undone, snap.replaced = _marks(rows)
        _LATEST.put(table.code, snap)
    else:
        snap = _build(table, key)
    shared_set(f"snap:{key}", snap)
    snap.game, snap.state = game, state  # after the pickle: each process decodes its own
    _SNAPSHOTS.put(key, snap)
    return snap


def snapshot_for(table: Table) -> Snapshot:
    """The snapshot of a ``Table`` row already loaded (HTTP views): no query when cached.

    A snapshot built here keeps a copy of the row: the caller may go on to
    change its own (a write bumps the version of the row it locked, a stale
    answer refreshes it), and a cached snapshot must stay the moment it names.
    """
    key = snapshot_key(table.code, table.version, table.revision)
    return _cached(key, lambda: _build(copy.copy(table), key))


def held_snapshot(code: str, marker: tuple[int, Any]) -> Snapshot | None:
    """This process's snapshot of table ``code`` at ``marker`` = ``(version, revision)``, decoded; ``None`` if not held.

    No I/O: the write path asks it about the row it just locked, so the
    snapshot names exactly that row (every change to the row moves its
    version or revision) and its engine and newest log row are the row's.
    """
    snap = _SNAPSHOTS.get(snapshot_key(code, *marker))
    return snap.decoded() if snap is not None else None


def latest_snapshot(code: str) -> Snapshot | None:
    """The newest snapshot this process built of table ``code``, of any version (may be stale), or ``None``. No I/O."""
    return _LATEST.get(code)


def held_state(table: Table, game: Game) -> Any:
    """The decoded state of ``table`` (a row as read) from this process's snapshot of it, or ``None``.

    Only when the snapshot names the row's version and revision and its engine
    is ``game`` (from :func:`held_snapshot`): the state is then exactly
    ``game.decode(table.state)``. It is shared with every reader of the
    snapshot: engines never mutate a state (the engine contract, tests/engines/test_contract.py).
    """
    snap = _SNAPSHOTS.get(snapshot_key(table.code, table.version, table.revision))
    return snap.state if snap is not None and snap.game is game and snap.state is not None else None


def newest_seq(code: str, marker: tuple[int, Any]) -> int | None:
    """The ``seq`` of the newest log row in this process's snapshot of table ``code`` at ``marker``, or ``None``."""
    snap = _SNAPSHOTS.get(snapshot_key(code, *marker))
    return snap.rows[-1].seq if snap is not None and snap.rows else None


def current_marker(code: str) -> tuple[int, Any] | None:
    """``(version, revision)`` of table ``code`` now (one query), ``None`` if the table is gone."""
    return Table.objects.filter(code=code).values_list("version", "revision").first()


def has_snapshot(code: str, marker: tuple[int, float]) -> bool:
    """True when this process holds table ``code``'s snapshot at ``marker`` = ``(version, revision)`` (no I/O)."""
    return _SNAPSHOTS.get(snapshot_key(code, *marker)) is not None


def snapshot_by_code(code: str, marker: tuple[int, float] | None = None) -> Snapshot | None:
    """The current snapshot of table ``code`` (websocket renders), ``None`` if the table is gone.

    ``marker`` is ``(version, revision)`` from a ``table.version`` message:
    with it a cached snapshot costs no query; without it one query reads the
    table's version and revision.
    """
    if marker is not None:
        snap = _SNAPSHOTS.get(snapshot_key(code, *marker))
        if snap is None:  # another worker wrote the move and put its snapshot in the shared cache
            snap = shared_get(f"snap:{snapshot_key(code, *marker)}")
            if snap is not None:
                _SNAPSHOTS.put(snapshot_key(code, *marker), snap)
        if snap is not None:
            return snap.decoded()
    marker = Table.objects.filter(code=code).values_list("version", "revision").first()
    if marker is None:
        return None
    key = snapshot_key(code, *marker)

    def build() -> Snapshot:
        table = Table.objects.get(code=code)
        return _build(table, snapshot_key(code, table.version, table.revision))

    return _cached(key, build)


# -- regions ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Region:
    """One named region of the phone page.

    ``id`` is its stable DOM id; ``partial`` the template partial that draws
    it (its root element carries the id); ``inputs(context)`` the part of
    the seat context it shows (JSON-able), from which its digest is made.
    A region's partial must read nothing from the context outside its inputs.
    ``write(context)``, when set, writes the same bytes as the partial in
    plain Python (a region that changes on every push, cheaper to write than
    to cache); the page itself still draws the partial.
    """

    name: str
    id: str
    partial: str
    inputs: Callable[[Mapping[str, Any]], Any]
    write: Callable[[Mapping[str, Any]], str] | None = None


def _table_meta(c: Mapping[str, Any]) -> list[Any]:
    t = c["table"]
    return [t.code, t.slug, t.status, c["screen"]]


# The parts of a game's view that never change during a game (board geometry): drawn by the
# static region, left out of the other regions' digests.
STATIC_VIEW_KEYS = {"sorry": ("layout",), "yellow_yangtze": ("board",)}
# Games whose board template reads nothing seat-specific besides the view and the legal actions:
# phones with the same view and no legal action share one render.
BOARD_WITHOUT_SEAT = {"sorry"}


def static_view(slug: str, view: Mapping[str, Any]) -> dict[str, Any]:
    """The fixed geometry of a game's board, taken from a view (the same for every viewer)."""
    return {key: view.get(key) for key in STATIC_VIEW_KEYS.get(slug, ())}


def region_part_digest(value: Any) -> str:
    """The digest of one piece of a seat context as the regions' digests read it (:func:`_parts`)."""
    return _digest(value)


VIEW_DIGESTS_KEPT = 8  # distinct views per snapshot whose digest is remembered (a table's seats, its screen)


def _view_digest(c: Mapping[str, Any]) -> str:
    """The digest of the seat's view without the fixed board geometry.

    Seats whose views are equal (compared in full, geometry included) share
    one digest per snapshot: comparing is far cheaper than encoding the view
    again. Equal content, same digest: nothing of one seat's view is inferred
    from another's.
    """
    view = c["view"]
    seen = c.get("_view_memo")
    if seen is not None:
        for other, digest in seen:
            if other == view:
                return digest
    fixed = STATIC_VIEW_KEYS.get(c["table"].slug, ())
    shown = {k: v for k, v in view.items() if k not in fixed} if isinstance(view, Mapping) and fixed else view
    digest = _digest(shown)
    if seen is not None and len(seen) < VIEW_DIGESTS_KEPT:
        seen.append((view, digest))
    return digest


def _parts(c: Mapping[str, Any]) -> dict[str, str]:
    """Digests of the big pieces of a seat context, made once per context and shared by the regions.

    ``_public_digests`` (games/presenters.py ``_public_part``) holds the
    digests of the prompt, seats and result, made once per snapshot and
    language, each with the objects it was made from: used only while this
    context still holds those very objects (a replaced piece is digested anew).
    """
    parts = c.get("_parts")
    if parts is None:
        public = c.get("_public_digests") or {}

        def made(name: str, objects: tuple[Any, ...], value: Any) -> str:
            known = public.get(name)
            if known is not None and len(known[0]) == len(objects) and all(
                    a is b for a, b in zip(known[0], objects, strict=True)):
                return known[1]  # made from these very objects (shared by the snapshot's phones)
            return _digest(value)

        result = (c["result"], c["result_steps"], c.get("result_ties"))
        parts = {
            "view": _view_digest(c),
            "legal": _digest([[item["json"], item["label"]] for item in c["legal"]]),
            "prompt": made("prompt", (c["prompt"],), c["prompt"]),
            "seats": made("seats", (c["seats"],), c["seats"]),
            "result": made("result", result, list(result)),
        }
        c["_parts"] = parts  # type: ignore[index]
    return parts


def _board_inputs(c: Mapping[str, Any]) -> list[Any]:
    p = _parts(c)
    inputs = [_table_meta(c), c["board_template"], p["view"], p["legal"], p["prompt"], p["seats"], p["result"]]
    if c["table"].slug not in BOARD_WITHOUT_SEAT:
        inputs += [c["seat"], c["my_turn"]]
    return inputs


def _undo_own_inputs(c: Mapping[str, Any]) -> list[Any]:
    """What the "Undo my move" button of the controls region reads (issue 10 item 4): nothing when it is hidden."""
    return [True, c["seat"], c["version"], c.get("csrf_token")] if c.get("can_undo_own") else []


def _pregame_inputs(c: Mapping[str, Any]) -> list[Any]:
    """What the status region shows before, between and after games (issue 10 items 1, 2, 6): the start
    question, the set-up steps, the next game; the CSRF token when one of them holds a form."""
    start, walk, after = c.get("start") or c.get("start_again"), c.get("walk"), c.get("next_code") or (
        c.get("result") is not None or c["table"].status == "ended")
    if not (start or walk or after):
        return []
    return [start, c.get("start_again"), walk, c.get("next_code"), c.get("is_host"), c.get("csrf_token")]


def escape_text(value: Any) -> str:
    """``value`` as escaped text (``django.utils.html.conditional_escape``)."""
    from django.utils.html import conditional_escape

    return conditional_escape(value)


def _attr_text(value: Any) -> str:
    """``{{ value }}`` as the template writes it inside an attribute: an int as is (no thousands separator is
    configured), anything else as escaped text; ``None`` as ``''`` (``default_if_none:''``)."""
    if value is None:
        return ""
    if type(value) is int:
        from django.conf import settings
        from django.utils.formats import localize  # no thousands separator unless one is configured

        return str(value) if not settings.USE_THOUSAND_SEPARATOR else escape_text(localize(value))
    return escape_text(value)


def write_meta(c: Mapping[str, Any]) -> str:
    """The ``r-meta`` region (version, signature, whose turn, which seat), byte for byte the ``r-meta``
    partial of ``games/table.html``: it changes on every push, so it is written, not rendered and cached."""
    return (f'<div id="r-meta" hidden data-version="{_attr_text(c["version"])}" data-sig="{_attr_text(c["signature"])}"'
            f' data-my-turn="{"1" if c["my_turn"] else "0"}" data-seat="{_attr_text(c["seat"])}"></div>')


REGIONS: tuple[Region, ...] = (
    Region("status", "r-status", "r-status", lambda c: [
        _table_meta(c), c["me"], _parts(c)["prompt"], c["my_turn"], _parts(c)["result"], c["waiting_names"],
        _parts(c)["seats"], (c["view"] or {}).get("edition") if isinstance(c["view"], Mapping) else None,
        c.get("draws") if c["screen"] else None] + _pregame_inputs(c)),
    Region("corrections", "r-corrections", "r-corrections", lambda c: [
        _table_meta(c), c["corrections"], c.get("csrf_token") if c["corrections"] else None]),
    Region("board", "r-board", "r-board", _board_inputs),
    # Without legal actions the controls region is empty whatever else changed (but for "Undo my move").
    Region("controls", "r-controls", "r-controls", lambda c: ([
        _table_meta(c), c["controls_template"], _parts(c)["legal"], _parts(c)["prompt"], c["seat"], c["my_turn"],
        _parts(c)["view"], c["version"], _parts(c)["seats"],
        c.get("csrf_token") if c["controls_template"] == GENERIC_CONTROLS else None] if c["legal"] else [_table_meta(c)])
        + _undo_own_inputs(c)),
    Region("links", "r-links", "r-links", lambda c: [_table_meta(c), bool(c["me"]), c["is_host"]]),
    Region("meta", "r-meta", "r-meta", lambda c: [_table_meta(c), c["version"], c["signature"], c["my_turn"],
                                                   c["seat"]], write_meta),
)
STATIC = Region("static", "r-static", "r-static", lambda c: [c["table"].slug, c["static_template"], c["static_view"]])
LOG = Region("log", "r-log", "r-log", lambda c: [_table_meta(c), bool(c["me"]), [_line_key(x) for x in c["log"]]])


_LINE_FIELDS = ("seq", "kind", "text", "who", "private", "counted", "corrected", "original", "dropped")


class ShownLine(dict):
    """A log line as :func:`games.presenters.log_lines` caches it (a plain ``dict`` to every reader) with its
    :func:`_line_key` made once, when it was built: the same line object is shown on every later push of that
    viewer, so its key is not remade 40 times per push. Never mutated once built."""

    __slots__ = ("key",)


def _line_key(line: Mapping[str, Any]) -> tuple[Any, ...]:
    """What identifies a log line's content: the fields its template shows."""
    key = getattr(line, "key", None)
    return key if key is not None else tuple(map(line.get, _LINE_FIELDS))


def line_key(line: Mapping[str, Any]) -> tuple[Any, ...]:
    """The content key of a log line (:func:`_line_key`): what a :class:`ShownLine` is given when built."""
    return tuple(map(line.get, _LINE_FIELDS))


# One encoder for every digest: ``json.dumps`` with these options builds a new encoder per call, which cost
# about as much as encoding a region's small inputs. Same options, same bytes.
_ENCODE = json.JSONEncoder(sort_keys=True, default=str, separators=(",", ":")).encode


def _digest(parts: Any) -> str:
    return hashlib.sha1(_ENCODE(parts).encode()).hexdigest()[:20]


def region_digest(region: Region, context: Mapping[str, Any]) -> str:
    """The digest of what ``region`` shows in ``context`` (same digest, same HTML)."""
    return _digest([region.name, translation.get_language(), region.inputs(context)])


def render_region(region: Region, context: Mapping[str, Any], digest: str | None = None) -> tuple[str, str]:
    """``(digest, html)`` of one region: rendered once per digest in this process, then served from its store.

    Kept out of the shared cache on purpose: on the scale-out bench (2 workers, T=100 paced) a Redis
    round trip per region cost more than rendering it again (19.7 against 16.0 CPU ms per move).
    """
    digest = digest or region_digest(region, context)
    if region.write is not None:
        return digest, region.write(context)
    html = _HTML.get(digest)
    if html is None:
        html = render_to_string(f"{PAGE}#{region.partial}", dict(context))
        _HTML.put(digest, html)
    return digest, html


def _line_digest(line: Mapping[str, Any], context: Mapping[str, Any]) -> tuple[Any, ...]:
    """What one log line ``<li id="log-SEQ">`` shows in ``context`` (same key, same HTML; in this process)."""
    return ("line", _line_key(line), bool(context["me"]), context["table"].is_open, context["table"].code)


def render_line(line: Mapping[str, Any], context: Mapping[str, Any]) -> tuple[Any, str]:
    """``(key, html)`` of one log line ``<li id="log-SEQ">``; the key identifies its content in this process."""
    digest = _line_digest(line, context)
    html = _HTML.get(digest)
    if html is None:
        html = render_to_string(f"{PAGE}#log-line", {**context, "line": line})
        _HTML.put(digest, html)
    return digest, html


def page_regions(context: Mapping[str, Any]) -> dict[str, tuple[str, str]]:
    """Every region of the page for ``context``: ``{name: (digest, html)}`` (log and static included)."""
    out = {region.name: render_region(region, context) for region in (*REGIONS, LOG)}
    if context.get("static_template"):
        out[STATIC.name] = render_region(STATIC, context)
    return out


def page_signature(regions: Mapping[str, tuple[str, str]]) -> str:
    """One short hash of every region digest of a page: a phone's socket sends it back on connect."""
    return _digest(sorted((name, digest) for name, (digest, _) in regions.items()))[:16]


# -- pushes ----------------------------------------------------------------------------


def _oob(html: str) -> str:
    """``html`` (a region's root element) as an htmx out-of-band swap of the element with the same id."""
    head, sep, rest = html.partition(" ")
    return f'{head} hx-swap-oob="true"{sep}{rest}'


@dataclass
class Sent:
    """What one websocket last sent: region digests and the digests of the log lines shown."""

    regions: dict[str, str] = field(default_factory=dict)
    lines: dict[int, str] = field(default_factory=dict)
    at: str = ""  # the key of the snapshot the last frame was made from ("code:version:revision")

    def copy(self) -> Sent:
        """An independent copy (a socket keeps one per frame, to resync a phone that missed later ones)."""
        return Sent(dict(self.regions), dict(self.lines), self.at)

    def seed(self, context: Mapping[str, Any], regions: Mapping[str, tuple[str, str]]) -> None:
        """Remember ``regions`` (and the log lines of ``context``) as what the phone shows."""
        self.regions = {name: digest for name, (digest, _) in regions.items()}
        self.regions["log-frame"] = _log_frame(context)
        self.lines = {line["seq"]: _line_key(line) for line in context["log"]}


def _log_frame(context: Mapping[str, Any]) -> str:
    """What around the log lines may change: who reads it, whether it is empty, whether the table is open."""
    return _digest([LOG.name, translation.get_language(), _table_meta(context), bool(context["me"]),
                    bool(context["log"])])


def in_digits(key: Any, html: str, system: str | None) -> str:
    """``html`` (cached under ``key``) with its text digits in ``system``: localized once per region and system.

    Regions are cached with ASCII digits (games/digits.py); every Persian-digit
    phone of a table shows the same localized region, so the pass runs once
    per ``(key, system)`` in this process instead of once per phone per push.
    ``system`` ``None`` leaves ``html`` as it is.
    """
    if system is None:
        return html
    from games import digits

    shown = _HTML.get(("digits", key, system))
    if shown is None:
        shown = digits.localize_html(html, system)
        _HTML.put(("digits", key, system), shown)
    return shown


def push(context: Mapping[str, Any], sent: Sent, system: str | None = None) -> str:
    """The frame that brings a phone from what ``sent`` says it shows to ``context`` ('' if nothing changed).

    Regions whose digest is unchanged are left out; the log sends new lines
    at its top and changed lines in place, or the whole region when its
    frame changed (first line, another viewer); ``sent`` is updated once the
    frame is made, with new dictionaries (never changed in place): should a
    render fail midway, ``sent`` still says what the phone shows, so a socket
    need not copy it before each push (games/consumers.py ``_render_inline``).
    ``system`` is the phone's digit system (``None``: ASCII digits as cached).
    """

    def region_html(region: Region, digest: str) -> str:
        if region.write is not None:  # written anew on every push: its digits are not worth a cache entry
            from games import digits

            html = region.write(context)
            return _oob(digits.localize_html(html, system) if system is not None else html)
        return _oob(in_digits(digest, render_region(region, context, digest)[1], system))

    def line_html(line: Mapping[str, Any]) -> str:
        key, html = render_line(line, context)
        return in_digits(key, html, system)

    parts: list[str] = []
    regions = dict(sent.regions)  # copied, never changed in place (see above)
    for region in (STATIC, *REGIONS) if context.get("static_template") else REGIONS:
        if region is STATIC and region.name in regions:
            continue  # fixed for the whole game (and this socket's language)
        digest = region_digest(region, context)
        if regions.get(region.name) != digest:
            parts.append(region_html(region, digest))
            regions[region.name] = digest
    lines = {line["seq"]: line for line in context["log"]}
    frame = _log_frame(context)
    # Lines are told apart by their content key alone: who reads them, the table's status and code are
    # the log frame's (a change of frame resends the whole region), and a line's HTML is cached under both.
    keys = {seq: _line_key(line) for seq, line in lines.items()}
    if regions.get("log-frame") != frame or not sent.lines:
        digest = region_digest(LOG, context)
        if regions.get(LOG.name) != digest:
            parts.append(region_html(LOG, digest))
            regions[LOG.name] = digest
        regions["log-frame"] = frame
    else:
        # Lines are compared by key and only new or changed ones are rendered. The whole region's digest is
        # not kept up to date here: its inputs hold the frame's, so a change of frame always resends it.
        newest = max(sent.lines)
        added = [line_html(lines[seq]) for seq in sorted(keys, reverse=True) if seq > newest]
        if added:
            parts.append(f'<ul hx-swap-oob="afterbegin:#loglines">{"".join(added)}</ul>')
        for seq, key in keys.items():
            if seq <= newest and seq in sent.lines and sent.lines[seq] != key:
                parts.append(_oob(line_html(lines[seq])))
        regions[LOG.name] = "by-lines"
    sent.regions, sent.lines = regions, keys
    return "".join(parts)
