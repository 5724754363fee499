"""A push's log lines: a move's new line found by identity, anything else by content (games/read/regions.py)."""

from __future__ import annotations

import pytest

from games.read import regions, snapshots
from games.read.presenters import ShownLine, line_key, log_lines
from games.socket.consumers import render_push
from games.write.host import undo_last
from games.write.moves import submit_action
from games.write.pregame import create_table

pytestmark = pytest.mark.django_db


def _line(seq: int, text: str) -> ShownLine:
    line = ShownLine(seq=seq, kind="game", seat=0, private=False, text=text)
    line.key = line_key(line)
    return line


def test_a_new_line_on_top_of_the_same_line_objects_is_found_by_identity_alone():
    older = [_line(2, "b"), _line(1, "a")]
    newer = [_line(3, "c"), *older]
    assert regions.log_changes(older, newer) == ([newer[0]], [])
    assert regions.log_changes(older, older) == ([], [])
    assert regions.log_changes(older, list(older)) == ([], []), "a new list of the same lines changes nothing"


def test_a_full_window_drops_its_oldest_line_and_sends_only_the_new_one():
    shown = [_line(seq, str(seq)) for seq in range(5, 0, -1)]  # newest first
    log = [_line(6, "6"), *shown[:-1]]
    assert regions.log_changes(shown, log) == ([log[0]], [])


def test_a_line_whose_content_changed_is_sent_again_and_one_the_phone_never_had_is_not():
    shown = [_line(3, "c"), _line(2, "b")]
    undone = _line(2, "b (undone)")
    log = [_line(4, "d"), shown[0], undone, _line(1, "a")]  # seq 1 is older than anything the phone was sent
    assert regions.log_changes(shown, log) == ([log[0]], [undone])
    assert regions.log_changes([], log) == (log, [])


def test_a_copy_of_equal_lines_is_compared_by_content_not_identity():
    shown = [_line(2, "b"), _line(1, "a")]
    same = [_line(2, "b"), _line(1, "a")]  # equal, other objects (a snapshot built again from the database)
    assert regions.log_changes(shown, same) == ([], [])


def test_an_undo_pushes_the_new_line_and_the_line_it_marked():
    """End to end: the phone's log after a move gets one new line; after an undo, the undo's line and the undone
    move's line again (now marked)."""
    table = create_table("sorry", {}, [{"name": "Ann"}, {"name": "Ben"}], seed=3)
    token = table.seats.get(index=1).token
    sent = regions.Sent()
    render_push(table.code, token, "en", False, sent)
    submit_action(table.code, 0, {"kind": "draw"}, 0)
    frame = render_push(table.code, token, "en", False, sent, revision=snapshots.current_revision(table.code))
    assert frame.count('<li id="log-') == 1 and 'hx-swap-oob="afterbegin:#loglines"' in frame
    undo_last(table.code, 1)
    frame = render_push(table.code, token, "en", False, sent, revision=snapshots.current_revision(table.code))
    table.refresh_from_db()
    lines = log_lines(snapshots.for_table(table), table.game(), 1)
    undone = next(line for line in lines if line.get("counted") is False)
    assert f'id="log-{undone["seq"]}"' in frame, "the undone move's line is sent again, marked"
    assert frame.count(' id="log-') == 2, "the undo's own line, and the undone one in place"
