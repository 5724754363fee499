"""The phone's tap (``POST /t/<code>/act/``) reads the table once, locked, by the write: the seat comes
from the table's snapshot, and the answers stay those of the view that loaded the table and its seat first."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.write.host import hand_over_seat
from games.write.pregame import create_table
from tests.conftest import phone_for, post_action

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(fixture_game_registered):
    return create_table("counting", {}, [{"name": "Alice"}, {"name": "Bob"}], seed=5)


def test_refusals_keep_their_order(table):
    assert Client().post("/t/NOPE99/act/", {"action": "{", "version": "x"}).status_code == 404
    no_seat = Client().post(f"/t/{table.code}/act/", {"action": "{", "version": "x"}, HTTP_HX_REQUEST="true")
    assert no_seat.status_code == 403
    alice = phone_for(table, 0)
    bad_json = alice.post(f"/t/{table.code}/act/", {"action": "{", "version": "x"}, HTTP_HX_REQUEST="true")
    assert bad_json.status_code == 422 and b"not valid JSON" in bad_json.content
    bad_version = alice.post(f"/t/{table.code}/act/", {"action": json.dumps({"kind": "draw"}), "version": "x"},
                             HTTP_HX_REQUEST="true")
    assert bad_version.status_code == 422


def test_a_handed_over_cookie_taps_nothing(table, django_capture_on_commit_callbacks):
    alice = phone_for(table, 0)
    with django_capture_on_commit_callbacks(execute=True):
        assert post_action(alice, table, {"kind": "draw"}, key="a").status_code == 200
    hand_over_seat(table.code, 0)
    assert post_action(alice, table, {"kind": "play", "card": "1"}, key="b").status_code == 403
    table.refresh_from_db()
    assert table.version == 1


def test_a_tap_reads_the_table_once_and_replays_its_key(table, django_capture_on_commit_callbacks):
    alice = phone_for(table, 0)
    with django_capture_on_commit_callbacks(execute=True):
        assert post_action(alice, table, {"kind": "draw"}, key="k0").status_code == 200
    table.refresh_from_db()
    card = table.state["hands"][0][0]
    with CaptureQueriesContext(connection) as captured, django_capture_on_commit_callbacks(execute=True):
        done = alice.post(f"/t/{table.code}/act/", {"action": json.dumps({"kind": "play", "card": card}),
                                                    "version": 1, "key": "k1"},
                          HTTP_HX_REQUEST="true", HTTP_X_LIVE_SOCKET="open")
    assert done.status_code == 204
    sql = [q["sql"] for q in captured]
    assert sum('FROM "games_table"' in q for q in sql) == 1, sql
    assert not any(q.startswith(('SELECT "games_seat"', 'SELECT "games_action"')) for q in sql), sql
    again = post_action(alice, table, {"kind": "play", "card": card}, version=1, key="k1")
    assert again.status_code == 200
    table.refresh_from_db()
    assert table.version == 2, "the retried tap wrote nothing"
