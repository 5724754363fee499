"""The write path's signal builds the phones' snapshot, sockets reload nothing, taps get 204."""

from __future__ import annotations

import json
import random

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Table
from games.read import regions, snapshots
from games.read.presenters import legal_for
from games.socket.consumers import render_push
from games.write.corrections import propose_correction
from games.write.moves import submit_action
from games.write.pregame import create_table
from tests.conftest import cookie_header, phone_for, post_action, socket_for

pytestmark = pytest.mark.django_db(transaction=True)  # the snapshot is published on commit


def _built_from_the_database(table: Table) -> snapshots.Snapshot:
    """The snapshot a phone would load itself (no earlier one in this process)."""
    snapshots.clear()
    return snapshots.for_table(table)


def _shape(snap: snapshots.Snapshot) -> tuple:
    return ([(r.seq, r.kind, r.seat, json.dumps(r.payload, sort_keys=True)) for r in snap.rows], sorted(snap.undone),
            {k: v.seq for k, v in snap.replaced.items()}, snap.seats, snap.corrections, snap.table.version)


def _play(table: Table, moves: int, seed: int = 5) -> None:
    rng = random.Random(seed)
    for _ in range(moves):
        table.refresh_from_db()
        game = table.game()
        state = game.decode(table.state)
        seat = game.prompt(state).seats[0]
        submit_action(table.code, seat, rng.choice(legal_for(game, state, seat))["payload"], table.version)


def test_after_a_move_no_phone_reads_the_database_and_the_snapshot_is_the_one_the_database_gives():
    table = create_table("sorry", {}, [{"name": n} for n in ("Ann", "Bob", "Cy", "Di")], seed=4)
    tokens = [s.token for s in table.seats.order_by("index")]
    sents = [regions.Sent() for _ in tokens]
    for token, sent in zip(tokens, sents, strict=True):
        render_push(table.code, token, "en", False, sent)
    for _ in range(45):  # past the 40-row log window
        _play(table, 1)
        table.refresh_from_db()
        revision = table.revision
        assert snapshots.held(table.code, revision) is not None, "the write path left the new snapshot in this process"
        with CaptureQueriesContext(connection) as queries:
            frames = [render_push(table.code, t, "en", False, s, revision=revision)
                      for t, s in zip(tokens, sents, strict=True)]
        assert len(queries) == 0, [q["sql"] for q in queries]
        assert all(f'data-version="{table.version}"' in f for f in frames)
    published = snapshots.by_code(table.code, table.revision)
    assert _shape(published) == _shape(_built_from_the_database(table))


def test_a_move_after_a_claim_or_a_correction_builds_its_snapshot_from_the_database():
    """The earlier snapshot no longer holds the seats or corrections: the revision moved, so it is not reused."""
    table = create_table("sorry", {"components": "physical"}, [{"name": "Ann"}, {"name": "Ben"}], seed=3)
    phone_for(table, 0)
    submit_action(table.code, 0, {"kind": "draw", "card": "1"}, 0)
    table.refresh_from_db()
    snapshots.for_table(table)
    propose_correction(table.code, 0, 1, {"kind": "draw", "card": "2"})
    table.refresh_from_db()
    game = table.game()
    state = game.decode(table.state)
    seat = game.prompt(state).seats[0]
    submit_action(table.code, seat, legal_for(game, state, seat)[0]["payload"], table.version)
    table.refresh_from_db()
    published = snapshots.by_code(table.code, table.revision)
    assert published.corrections, "the open correction is in the new snapshot"
    assert _shape(published) == _shape(_built_from_the_database(table))


def test_a_tap_from_a_page_whose_socket_is_open_is_answered_204_and_its_socket_pushes_the_move(counting_table):
    alice = phone_for(counting_table, 0)
    counting_table.refresh_from_db()
    data = {"action": json.dumps({"kind": "draw"}), "version": counting_table.version, "key": "k1"}
    answer = alice.post(f"/t/{counting_table.code}/act/", data, HTTP_HX_REQUEST="true", HTTP_X_LIVE_SOCKET="open")
    assert answer.status_code == 204 and answer.content == b""
    counting_table.refresh_from_db()
    assert counting_table.version == 1
    game = counting_table.game()
    state = game.decode(counting_table.state)
    seat = game.prompt(state).seats[0]
    without = post_action(phone_for(counting_table, seat), counting_table,  # no open socket: the whole #table
                          legal_for(game, state, seat)[0]["payload"])
    assert without.status_code == 200 and without.content.decode().lstrip().startswith('<div id="table"')


def test_a_refused_tap_still_gets_the_banner_with_its_rule_when_the_socket_is_open(counting_table):
    alice = phone_for(counting_table, 0)
    bob = phone_for(counting_table, 1)
    counting_table.refresh_from_db()
    data = {"action": json.dumps({"kind": "draw"}), "version": counting_table.version, "key": "k2"}
    refused = bob.post(f"/t/{counting_table.code}/act/", data, HTTP_HX_REQUEST="true", HTTP_X_LIVE_SOCKET="open")
    assert refused.status_code == 422 and 'data-code="' in refused.content.decode()
    alice.post(f"/t/{counting_table.code}/act/", data, HTTP_HX_REQUEST="true", HTTP_X_LIVE_SOCKET="open")
    stale = alice.post(f"/t/{counting_table.code}/act/", {**data, "key": "k3"}, HTTP_HX_REQUEST="true",
                       HTTP_X_LIVE_SOCKET="open")
    assert stale.status_code == 409 and 'id="table"' in stale.content.decode()


@pytest.mark.asyncio
async def test_a_socket_renders_a_move_in_the_event_loop_with_no_query(counting_table, monkeypatch):
    """With the write's snapshot in the process, the push skips the executor thread (games/socket/consumers.py)."""
    bob = await sync_to_async(phone_for)(counting_table, 1)
    comm = socket_for(counting_table.code, cookie_header(bob, counting_table.code))
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=5)
    threaded = []
    from games.socket import consumers

    real = consumers.TableConsumer._render

    async def counted(self, *args, **kwargs):
        threaded.append(args)
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(consumers.TableConsumer, "_render", counted)
    await sync_to_async(submit_action)(counting_table.code, 0, {"kind": "draw"}, 0)
    pushed = await comm.receive_from(timeout=5)
    assert 'data-version="1"' in pushed and "Alice plays a card." in pushed
    assert threaded == [], "rendered without the thread hop"
    await comm.disconnect()


def test_a_write_sends_table_written_with_the_saved_row_and_broadcasts_its_revision(monkeypatch):
    from games.write import write_path

    table = create_table("sorry", {}, [{"name": "Ann"}, {"name": "Ben"}], seed=3)
    table.refresh_from_db()
    heard: list = []
    sent: list = []

    def receiver(sender, **kwargs):
        heard.append(kwargs)

    write_path.table_written.connect(receiver)
    monkeypatch.setattr(write_path, "broadcast_revision", lambda *args: sent.append(args) or True)
    try:
        submit_action(table.code, 0, {"kind": "draw"}, table.version)
    finally:
        write_path.table_written.disconnect(receiver)
    saved = Table.objects.get(code=table.code)
    assert len(heard) == 1
    told = heard[0]
    assert told["before"] == table.revision and told["table"].revision == saved.revision == table.revision + 1
    assert told["row"].seq == 1 and told["row"].kind == "game" and told["state"] == told["game"].decode(saved.state)
    assert [args[:3] for args in sent] == [(table.code, saved.revision, saved.version)]


def test_the_write_takes_a_hint_only_at_the_revision_it_locks():
    """A snapshot of another revision is no hint: the write builds its own engine (and reads the newest row)."""
    from games.write import write_path

    table = create_table("sorry", {}, [{"name": "Ann"}, {"name": "Ben"}], seed=3)
    table.refresh_from_db()
    hint = snapshots.for_table(table)
    used: list = []

    def compute(at):
        used.append((at.game is hint.game, at.seq))
        return write_path.Change("end")

    write_path.write(write_path.WriteRequest(table.code, write_path.HOST, compute, hint=hint))
    # the hint is one revision behind now
    write_path.write(write_path.WriteRequest(table.code, write_path.HOST, compute, hint=hint))
    assert used == [(True, 1), (False, 2)]


@pytest.mark.asyncio
async def test_the_table_screen_renders_in_the_event_loop_when_a_move_extends_its_draw_tally(monkeypatch):
    """The screen's tally is counted from the log once; a move's snapshot adds the move's draws to it, so the
    screen renders it in the event loop. A snapshot the write did not make (after an undo) is built, and its
    tally counted from the log, in the sockets' database thread. Decided up front from the snapshot, never by catching Django's refusal."""
    from channels.layers import get_channel_layer

    from games.socket import consumers
    from games.write.host import undo_last

    table = await sync_to_async(create_table)("sorry", {}, [{"name": "Ann"}, {"name": "Ben"}], seed=3)
    screen = socket_for(table.code, screen=True)
    assert (await screen.connect())[0]
    await screen.receive_from(timeout=5)  # the whole page: its tally counted from the log
    threaded = []
    real = consumers.TableConsumer._render

    async def counted(self, *args, **kwargs):
        threaded.append(kwargs.get("revision"))
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(consumers.TableConsumer, "_render", counted)
    await sync_to_async(submit_action)(table.code, 0, {"kind": "draw"}, 0)
    assert 'data-version="1"' in await screen.receive_from(timeout=5)
    revision = (await sync_to_async(Table.objects.get)(code=table.code)).revision
    snap = snapshots.held(table.code, revision)
    assert snap is not None and snap.memoized("draws", True) and snap.extended("tally", None) is not None
    assert threaded == [], "the move's snapshot extended the tally before it: rendered in the event loop"
    await get_channel_layer().group_send(f"table_{table.code}", {"type": "table.revision", "revision": revision,
                                                                 "version": 1})
    assert await screen.receive_nothing(0.3), "nothing changed for the screen"

    await sync_to_async(undo_last)(table.code, 1)  # no move: its snapshot is built from the database
    assert 'data-version="2"' in await screen.receive_from(timeout=5)
    undone = (await sync_to_async(Table.objects.get)(code=table.code)).revision
    assert threaded == [undone], "a snapshot built from the database, its tally with it, in the database thread"
    await screen.disconnect()


def test_another_process_makes_a_moves_snapshot_from_its_message_with_no_query(monkeypatch):
    """A worker that did not write a move but holds the revision before makes the move's snapshot from the group
    message alone (no database, no shared cache), equal to the one the database gives, and renders every phone's
    frame from it with no query."""
    from games.write import write_path

    told: list[tuple] = []
    real_broadcast = write_path.broadcast_revision
    monkeypatch.setattr(write_path, "broadcast_revision", lambda *args: told.append(args) or real_broadcast(*args))
    table = create_table("sorry", {}, [{"name": n} for n in ("Ann", "Bob", "Cy", "Di")], seed=4)
    tokens = [s.token for s in table.seats.order_by("index")]
    _play(table, 3)
    table.refresh_from_db()
    sents = [regions.Sent() for _ in tokens]
    for _ in range(45):  # past the 40-row log window
        table.refresh_from_db()
        other = _built_from_the_database(table)  # what the other worker holds: read from the database, no memo
        for token, sent in zip(tokens, sents, strict=True):
            render_push(table.code, token, "en", False, sent, snap=other)
        told.clear()
        _play(table, 1)
        (code, revision, version, move), = told
        snapshots.clear()  # this process now stands for the other one: it holds the revision before only
        snapshots.CACHE.put(other)
        monkeypatch.setattr(snapshots, "shared_get", lambda key: pytest.fail("read the shared cache"))
        with CaptureQueriesContext(connection) as queries:
            made = snapshots.from_move(code, revision, move)
            assert made is not None and made is snapshots.held(code, revision)
            frames = [render_push(code, t, "en", False, s, revision=revision) for t, s in zip(tokens, sents, strict=True)]
        assert len(queries) == 0, [q["sql"] for q in queries]
        assert all(f'data-version="{version}"' in f for f in frames)
        monkeypatch.undo()
        monkeypatch.setattr(write_path, "broadcast_revision", lambda *args: told.append(args) or real_broadcast(*args))
        table.refresh_from_db()
        assert _shape(made) == _shape(_built_from_the_database(table))
        assert made.table.state == table.state and made.table.updated_at == table.updated_at
        assert made.rows[-1].created_at == table.actions.get(seq=made.rows[-1].seq).created_at


def test_a_move_message_without_the_revision_before_or_unreadable_is_a_miss(monkeypatch):
    from games.write import write_path

    told: list[tuple] = []
    monkeypatch.setattr(write_path, "broadcast_revision", lambda *args: told.append(args) or True)
    table = create_table("sorry", {}, [{"name": n} for n in ("Ann", "Bob")], seed=4)
    _play(table, 2)
    code, revision, _, move = told[-1]
    snapshots.clear()
    assert snapshots.from_move(code, revision, move) is None  # the revision before is not held here
    table.refresh_from_db()
    snapshots.CACHE.put(_built_from_the_database(table))  # the revision itself: held already, returned as is
    assert snapshots.from_move(code, revision, move) is snapshots.held(code, revision)
    assert snapshots.from_move(code, revision + 1, "{not json") is None
    # A message naming another table's row (a code used again) is no move of the table held under this code.
    table.refresh_from_db()
    held = _built_from_the_database(table)
    _play(table, 1)
    code, revision, _, move = told[-1]
    data = json.loads(move)
    data["row"]["table_id"] += 1
    snapshots.clear()
    snapshots.CACHE.put(held)
    assert snapshots.from_move(code, revision, json.dumps(data)) is None
    assert snapshots.from_move(code, revision, move) is not None  # the message as it was sent makes the snapshot
