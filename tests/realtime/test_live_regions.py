"""Live sync at café scale: shared snapshots, few queries, pushes of what changed only."""

from __future__ import annotations

import pytest

from games.read import regions, snapshots
from games.socket.consumers import render_push
from games.write.corrections import confirm_correction, propose_correction
from games.write.host import hand_over_seat, undo_last
from games.write.moves import submit_action
from games.write.pregame import create_table
from tests.conftest import phone_for

pytestmark = pytest.mark.django_db


def test_a_websocket_render_costs_at_most_two_queries_once_the_table_snapshot_is_cached(django_assert_max_num_queries):
    table = create_table("sorry", {}, [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cy"}], seed=3)
    tokens = [s.token for s in table.seats.order_by("index")]
    submit_action(table.code, 0, {"kind": "draw"}, 0)
    render_push(table.code, tokens[0], "en", False, regions.Sent())  # the first phone loads the snapshot
    for token in tokens[1:]:
        with django_assert_max_num_queries(2):
            frame = render_push(table.code, token, "en", False, regions.Sent())
        assert 'data-version="1"' in frame


def test_undone_marks_come_from_the_window_of_newest_rows_alone():
    """An undo names the move it dropped, so the newest rows alone say which moves are undone."""
    table = create_table("sorry", {}, [{"name": "Ann"}, {"name": "Ben"}], seed=3)
    submit_action(table.code, 0, {"kind": "draw"}, 0)
    undo_last(table.code, 1)
    table.refresh_from_db()
    from games.read.presenters import log_lines

    lines = log_lines(snapshots.for_table(table), table.game(), 0)
    assert [(line["seq"], line.get("counted")) for line in lines] == [(2, None), (1, False), (0, None)]


def test_a_seat_handed_over_gets_no_more_frames_with_its_old_secret():
    table = create_table("sorry", {}, [{"name": "Ann"}, {"name": "Ben"}], seed=3)
    old = table.seats.get(index=1).token
    assert render_push(table.code, old, "en", False, regions.Sent())
    hand_over_seat(table.code, 1)
    assert render_push(table.code, old, "en", False, regions.Sent()) is None


def test_a_correction_proposed_without_a_new_version_still_reaches_the_other_phones():
    table = create_table("sorry", {"components": "physical"}, [{"name": "Ann"}, {"name": "Ben"}], seed=3)
    ben = table.seats.get(index=1).token
    phone_for(table, 0)
    submit_action(table.code, 0, {"kind": "draw", "card": "1"}, 0)
    sent = regions.Sent()
    render_push(table.code, ben, "en", False, sent)
    propose_correction(table.code, 0, 1, {"kind": "draw", "card": "2"})
    frame = render_push(table.code, ben, "en", False, sent)
    assert 'id="r-corrections"' in frame and "Confirm" in frame


def test_a_move_the_table_dropped_by_a_correction_says_so_in_the_log(fixture_game_registered):
    """A dropped move reads as dropped by the table's correction, not as an undo (the log keeps both)."""
    table = create_table("counting", {"components": "physical"}, [{"name": "Ann"}, {"name": "Ben"}])
    submit_action(table.code, 0, {"kind": "draw", "card": "1"}, 0)
    correction = propose_correction(table.code, 1, 1, None)
    confirm_correction(table.code, correction.id, 0)
    page = phone_for(table, 1).get(f"/t/{table.code}/").content.decode()
    assert "dropped by a correction the table agreed" in page and "(undone)" not in page


def test_a_snapshot_being_decoded_in_one_thread_never_hands_another_thread_an_empty_state():
    """Two renders of one table run in two threads (a websocket push beside an HTTP move): while the
    first is still decoding the state, the second must not get the engine without its state (it crashed
    every push of that version with ``'NoneType' object has no attribute 'step'``)."""
    import threading

    table = create_table("sorry", {}, [{"name": "Ann"}, {"name": "Ben"}], seed=3)
    snap = snapshots.for_table(table)
    fresh = snapshots.Snapshot(code=snap.code, revision=snap.revision, table=snap.table, seats=snap.seats,
                               rows=snap.rows, corrections=snap.corrections)
    game = fresh.table.game(fresh.seat_infos())  # built here: the other thread reads no database
    real_decode = game.decode
    seen: list = []
    started: list = []

    def other_render() -> None:
        try:
            seen.append(fresh.state)
        except Exception as exc:  # noqa: BLE001 - the assertion below names it
            seen.append(exc)

    def decode(raw):
        if not started:  # the other thread asks while this one is inside decode
            started.append(True)
            other = threading.Thread(target=other_render)
            other.start()
            other.join(10)
        return real_decode(raw)

    game.decode = decode
    fresh.table.game = lambda *args, **kwargs: game
    assert fresh.state is not None
    assert len(seen) == 1 and seen[0] is not None and not isinstance(seen[0], Exception), seen
