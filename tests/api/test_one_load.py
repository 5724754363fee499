"""``POST /actions/`` reads the table once, locked, by the write itself: the answers stay those of a
view that loaded the table first, and the snapshots this process holds stay the moments they name."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.models import Table
from games.read import snapshots
from games.write.host import hand_over_seat
from games.write.pregame import create_table

pytestmark = pytest.mark.django_db

THREE = [{"name": "Alice"}, {"name": "Bob"}, {"name": "Carol"}]


def _api(token: str | None = None) -> APIClient:
    client = APIClient()
    if token:
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def _post(client: APIClient, code: str, body, fmt: str = "json"):
    if fmt == "raw":
        return client.post(f"/api/tables/{code}/actions/", body, content_type="application/json")
    return client.post(f"/api/tables/{code}/actions/", body, format=fmt)


@pytest.fixture
def table(fixture_game_registered):
    return create_table("counting", {}, THREE, seed=3)


def _token(table: Table, index: int) -> str:
    return table.seats.get(index=index).token


def test_the_order_of_refusals_is_kept(table):
    assert _post(_api(), "NOPE99", "{not json", "raw").status_code == 404
    assert _post(_api(_token(table, 0)), "NOPE99", {"action": {"kind": "draw"}, "version": 0}).status_code == 404
    no_seat = _post(_api(), table.code, "{not json", "raw")
    assert no_seat.status_code == 403 and no_seat.json()["code"] == "no_seat"
    unreadable = _post(_api(_token(table, 0)), table.code, "{not json", "raw")
    assert unreadable.status_code == 400
    bad_body = _post(_api(_token(table, 0)), table.code, {"action": {"kind": "draw"}, "version": "x"})
    assert bad_body.status_code == 400 and "code" in bad_body.json()
    Table.objects.filter(pk=table.pk).update(imported=True)
    imported = _post(_api(_token(table, 0)), table.code.lower(), {"action": {"kind": "draw"}, "version": 0})
    assert imported.status_code == 403 and imported.json()["code"] == "table_imported"


def test_a_handed_over_secret_is_refused_though_this_process_holds_its_snapshot(table):
    old = _token(table, 0)
    assert _post(_api(old), table.code, {"action": {"kind": "draw"}, "version": 0, "key": "a"}).status_code == 200
    hand_over_seat(table.code, 0)
    table.refresh_from_db()
    refused = _post(_api(old), table.code, {"action": {"kind": "draw"}, "version": table.version, "key": "b"})
    assert refused.status_code == 403 and refused.json()["code"] == "no_seat"
    replay = _post(_api(old), table.code, {"action": {"kind": "draw"}, "version": 0, "key": "a"})
    assert replay.status_code == 403, "an old secret replays nothing either"


def test_keys_replay_and_refuse_per_seat_with_one_table_read(table):
    alice, bob = _api(_token(table, 0)), _api(_token(table, 1))
    first = _post(alice, table.code, {"action": {"kind": "draw"}, "version": 0, "key": "k"})
    assert first.json() == {"version": 1, "seq": 1, "replayed": False}
    with CaptureQueriesContext(connection) as replayed:
        again = _post(alice, table.code, {"action": {"kind": "draw"}, "version": 0, "key": "k"})
    assert again.status_code == 200 and again.json() == {"version": 1, "seq": 1, "replayed": True}
    assert sum('FROM "games_table"' in q["sql"] for q in replayed) == 1
    reused = _post(alice, table.code, {"action": {"kind": "pass"}, "version": 1, "key": "k"})
    assert reused.status_code == 409 and reused.json()["code"] == "key_reused"
    # Bob's "k" is his own: Alice's use of it says nothing to him (tests/secrecy/test_idempotency_keys.py).
    bobs = _post(bob, table.code, {"action": {"kind": "draw"}, "version": 1, "key": "k"})
    fresh = _post(bob, table.code, {"action": {"kind": "draw"}, "version": 1, "key": "never-used"})
    assert bobs.status_code == fresh.status_code and bobs.json() == fresh.json()


def test_a_move_reads_the_table_once_and_looks_up_no_key(table, django_capture_on_commit_callbacks):
    """After a move this process holds its snapshot (published on commit): the next move reads one row."""
    alice = _api(_token(table, 0))
    with django_capture_on_commit_callbacks(execute=True):
        _post(alice, table.code, {"action": {"kind": "draw"}, "version": 0, "key": "k0"})
    legal = alice.get(f"/api/tables/{table.code}/prompt/").json()["legal"]
    with CaptureQueriesContext(connection) as captured:
        done = _post(alice, table.code, {"action": legal[0]["action"], "version": 1, "key": "k1"})
    assert done.status_code == 200, done.json()
    sql = [q["sql"] for q in captured]
    assert sum('FROM "games_table"' in q for q in sql) == 1, sql
    assert not any(q.startswith('SELECT "games_action"') for q in sql), "\n".join(q[:150] for q in sql)


def test_a_bots_first_move_reads_only_the_table_row_its_prompt_did_not(table, django_capture_on_commit_callbacks):
    """A bearer token's first read logs its use (a write that moves the revision); the prompt then answers from the
    snapshot of that revision, with its version, and the move after it finds that snapshot: its write reads the
    locked row and nothing else (no seats, log window, corrections or newest row)."""
    alice = _api(_token(table, 0))
    prompt = alice.get(f"/api/tables/{table.code}/prompt/").json()
    table.refresh_from_db()
    assert prompt["version"] == table.version
    assert snapshots.held(table.code, table.revision) is not None
    with CaptureQueriesContext(connection) as read:
        again = alice.get(f"/api/tables/{table.code}/prompt/").json()
    assert again == prompt and len(read) == 1, [q["sql"][:120] for q in read]  # the table row; the rest is held
    with CaptureQueriesContext(connection) as captured, django_capture_on_commit_callbacks(execute=True):
        done = _post(alice, table.code, {"action": prompt["legal"][0]["action"], "version": prompt["version"]})
    assert done.status_code == 200, done.json()
    reads = [q["sql"] for q in captured if q["sql"].startswith("SELECT")]
    assert len(reads) == 1 and 'FROM "games_table"' in reads[0], [q[:120] for q in reads]


def test_a_stale_answer_leaves_the_cached_snapshot_as_it_was(table):
    alice = _api(_token(table, 0))
    snapshots.clear()
    stale = _post(alice, table.code, {"action": {"kind": "draw"}, "version": 7})
    assert stale.status_code == 409 and stale.json()["fresh"]["version"] == 0
    table.refresh_from_db()
    snap = snapshots.for_table(table)
    assert snap.table.version == table.version == 0 and snap.table is not table


def test_a_snapshot_rebuilt_from_the_log_is_what_the_next_move_applies_to(table, django_capture_on_commit_callbacks):
    """The write applies a move to this process's decoded snapshot of the locked row: ``replay_table --fix``
    (another process, same version) moves the revision, so the next move starts from the rebuilt state."""
    alice = _api(_token(table, 0))
    with django_capture_on_commit_callbacks(execute=True):
        assert _post(alice, table.code, {"action": {"kind": "draw"}, "version": 0}).status_code == 200
    table.refresh_from_db()
    assert snapshots.held(table.code, table.revision) is not None
    good = table.state
    damaged = {**good, "totals": [9, 9, 9]}
    Table.objects.filter(pk=table.pk).update(state=damaged, revision=F("revision") + 1)
    table.refresh_from_db()
    assert snapshots.for_table(table).state.totals == (9, 9, 9)  # this process holds the damaged moment
    call_command("replay_table", table.code, "--fix", stdout=io.StringIO())
    table.refresh_from_db()
    assert table.state == good
    card = good["hands"][0][0]
    with django_capture_on_commit_callbacks(execute=True):
        assert _post(alice, table.code, {"action": {"kind": "play", "card": card}, "version": 1}).status_code == 200
    table.refresh_from_db()
    assert table.state["totals"] == [int(card), 0, 0]
