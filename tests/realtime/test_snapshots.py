"""The read model (games/read/snapshots.py): one immutable snapshot per (table, revision), its values memoized on it."""

from __future__ import annotations

import pickle

import pytest
from django.core.cache.backends.locmem import LocMemCache

from games.models import Table
from games.read import snapshots
from games.read.presenters import seat_context
from games.write.host import hand_over_seat
from games.write.moves import submit_action
from games.write.pregame import create_table

pytestmark = pytest.mark.django_db


def _table():
    table = create_table("sorry", {}, [{"name": "Ann"}, {"name": "Ben"}], seed=3)
    table.refresh_from_db()
    return table


def test_a_value_is_built_once_per_snapshot_and_anew_for_the_next_revision():
    table = _table()
    snap = snapshots.for_table(table)
    built = []
    assert snap.memo("test", 1, lambda: built.append(1) or "a") == "a"
    assert snap.memo("test", 1, lambda: built.append(1) or "b") == "a"
    assert built == [1]
    assert snapshots.for_table(Table.objects.get(code=table.code)) is snap, "same revision, same snapshot"
    hand_over_seat(table.code, 1)  # no new version, a new revision: no touch() needed
    after = snapshots.for_table(Table.objects.get(code=table.code))
    assert after is not snap and after.revision > snap.revision
    assert after.memo("test", 1, lambda: "c") == "c", "a revision's values are its own"


def test_a_phone_with_a_handed_over_secret_is_no_seat_at_the_next_revision():
    table = _table()
    old = table.seats.get(index=1).token
    assert snapshots.for_table(table).seat_index(old) == 1
    hand_over_seat(table.code, 1)
    assert snapshots.by_code(table.code).seat_index(old) is None


def test_a_snapshot_sent_to_another_worker_carries_no_derived_value():
    snap = snapshots.for_table(_table())
    seat_context(snap, 0)
    copy = pickle.loads(pickle.dumps(snap))
    assert copy.key == snap.key and not copy.decoded and copy._memos == {} and not copy.inherited
    assert seat_context(copy, 0)["view"] == seat_context(snap, 0)["view"]


def test_a_snapshots_log_rows_hold_no_table_so_another_worker_gets_one_table_not_one_per_row(
        django_capture_on_commit_callbacks):
    table = _table()
    for _ in range(6):  # moves through the write path: each new snapshot follows the last with the written row
        snap = snapshots.by_code(table.code)
        game, state = snap.game, snap.state
        seat = game.prompt(state).seats[0]
        with django_capture_on_commit_callbacks(execute=True):  # the write's snapshot, published once committed
            submit_action(table.code, seat, game.legal_actions(state, seat)[0], snap.table.version)
    made = snapshots.held(table.code, Table.objects.get(code=table.code).revision)
    assert made is not None and len(made.rows) >= 6
    assert all(not row._state.fields_cache for row in made.rows)  # the write's own row and the rows read alike
    sent = pickle.dumps(made)
    got = pickle.loads(sent)
    assert [r.payload for r in got.rows] == [r.payload for r in made.rows]
    assert seat_context(got, 0)["view"] == seat_context(made, 0)["view"]
    # One table's state in the bytes (the snapshot's own), not one per row.
    assert len(sent) < len(pickle.dumps(made.table)) + sum(len(pickle.dumps(r)) for r in made.rows)


def test_a_failing_shared_cache_is_a_miss_and_is_left_alone_for_a_while(monkeypatch):
    calls = []

    class Down(LocMemCache):
        def get(self, *args, **kwargs):
            calls.append("get")
            raise ConnectionError("redis is away")

        def set(self, *args, **kwargs):
            calls.append("set")
            raise ConnectionError("redis is away")

    monkeypatch.setattr(snapshots, "cache", Down("down", {}))
    monkeypatch.setattr(snapshots.SHARED, "shared", True)
    monkeypatch.setattr(snapshots.SHARED, "down_until", 0.0)
    assert snapshots.shared_get("k") is None
    snapshots.shared_set("k", 1)
    assert snapshots.shared_get("k") is None
    assert calls == ["get"], "after one failure the shared cache is skipped"
    table = _table()
    assert snapshots.by_code(table.code).revision == table.revision, "phones still read the table"


def test_a_table_never_holds_more_than_its_newest_revisions():
    cache = snapshots.SnapshotCache(100, per_table=2)
    table, other = _table(), _table()
    made = {r: snapshots.Snapshot(code=table.code, revision=r, table=table, seats=(), rows=(), corrections=())
            for r in range(1, 8)}
    for snap in made.values():
        assert cache.put(snap) is snap
        assert len(cache.revisions(table.code)) <= 2
    cache.put(snapshots.Snapshot(code=other.code, revision=1, table=other, seats=(), rows=(), corrections=()))
    assert cache.revisions(table.code) == (6, 7), "the newest two, whatever was read last"
    assert cache.get(table.code, 5) is None and cache.get(table.code, 7) is made[7]
    assert cache.newest(table.code) is made[7]
    late = snapshots.Snapshot(code=table.code, revision=3, table=table, seats=(), rows=(), corrections=())
    assert cache.put(late) is late, "a late reader of an old revision still gets its snapshot"
    assert cache.revisions(table.code) == (6, 7) and len(cache) == 3, "but it is not kept"


def test_a_played_table_keeps_only_its_newest_snapshots_in_the_process():
    table = _table()
    for _ in range(3 * snapshots.REVISIONS_KEPT):
        table.refresh_from_db()
        game = table.game()
        state = game.decode(table.state)
        seat = game.prompt(state).seats[0]
        submit_action(table.code, seat, game.legal_actions(state, seat)[0], table.version)
        snapshots.by_code(table.code)
    table.refresh_from_db()
    held = snapshots.CACHE.revisions(table.code)
    assert len(held) == snapshots.REVISIONS_KEPT and held[-1] == table.revision
    assert snapshots.latest(table.code).revision == table.revision


def test_the_process_keeps_a_bounded_number_of_snapshots():
    cache = snapshots.SnapshotCache(2)
    table = _table()
    made = [snapshots.Snapshot(code=table.code, revision=r, table=table, seats=(), rows=(), corrections=())
            for r in (1, 2, 3)]
    for snap in made:
        cache.put(snap)
    assert cache.get(table.code, 1) is None and cache.get(table.code, 3) is made[2]
    assert cache.newest(table.code) is made[2]
    assert cache.put(snapshots.Snapshot(code=table.code, revision=3, table=table, seats=(), rows=(),
                                        corrections=())) is made[2], "the snapshot held first is the one shared"


def test_a_snapshot_another_worker_made_reuses_what_this_worker_rendered(monkeypatch, django_capture_on_commit_callbacks):
    """A worker that reads the next snapshot from the shared cache renders only what changed, as the writer does."""
    from games.read import regions
    from games.socket.consumers import render_push

    table = _table()
    token = table.seats.get(index=1).token
    before = snapshots.for_table(table)
    render_push(table.code, token, "en", False, regions.Sent(), snap=before)  # this worker's phone, every region
    game = before.game
    seat = game.prompt(before.state).seats[0]
    with django_capture_on_commit_callbacks(execute=True):
        submit_action(table.code, seat, game.legal_actions(before.state, seat)[0], before.version)
    made = snapshots.CACHE.newest(table.code)
    assert made.revision == before.revision + 1
    shared = pickle.dumps(made)  # what the writing worker put in the shared cache

    rendered: list[str] = []
    real = regions.jinja2env.draw  # every region, part and log line is drawn by it
    monkeypatch.setattr(regions.jinja2env, "draw", lambda name, values: rendered.append(name) or real(name, values))
    monkeypatch.setattr(snapshots, "shared_get", lambda key: pickle.loads(shared))

    def renders(adopt: bool) -> int:
        snapshots.CACHE.clear()
        snapshots.CACHE.put(before)
        if not adopt:
            monkeypatch.setattr(snapshots, "_adopt", lambda snap: snap)
        read = snapshots.by_code(table.code, made.revision)
        assert read is not made and read.revision == made.revision
        rendered.clear()
        render_push(table.code, token, "en", False, regions.Sent(), snap=read)
        return len(rendered)

    adopted = renders(True)
    alone = renders(False)
    assert adopted < alone, (adopted, alone)


def test_a_snapshot_no_longer_held_is_freed_at_once_with_its_legal_actions(db):
    """A snapshot's legal actions make their labels on it (a memo); they refer to it weakly, so the snapshot and what
    it memoized go when the last reference does, without waiting for the garbage collector's cycle search."""
    import gc
    import weakref

    from games.models import Table
    from games.read.presenters import seat_context
    from games.write.pregame import create_table

    table = create_table("yellow_yangtze", {}, [{"name": n} for n in ("Ann", "Ben")], seed=5)
    snap = snapshots.build(Table.objects.get(code=table.code))
    mover = snap.game.prompt(snap.state).seats[0]
    legal = seat_context(snap, mover)["legal"]
    assert legal and legal[0]["label"], "a label, made on the snapshot"
    gone = weakref.ref(snap)
    snapshots.clear()
    gc.disable()
    try:
        del snap, legal
        assert gone() is None, "freed when dropped: no reference cycle keeps it"
    finally:
        gc.enable()
