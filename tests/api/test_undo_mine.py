"""``POST /api/tables/{code}/undo-mine/`` on the fixture game."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.api.test_api import created, seat_client  # noqa: F401  (the shared fixture)

pytestmark = pytest.mark.django_db


def _post(client, code, path, body):
    return client.post(f"/api/tables/{code}/{path}/", body, format="json")


def test_a_seat_takes_back_its_play_and_refusals_are_4xx_with_a_code(created):  # noqa: F811
    code = created["code"]
    alice, bob = seat_client(created, 0), seat_client(created, 1)
    assert _post(alice, code, "actions", {"action": {"kind": "draw"}, "version": 0}).status_code == 200
    refused = _post(alice, code, "undo-mine", {"version": 1, "key": "a"})
    assert refused.status_code == 400 and refused.json()["code"] == "undo_after_chance"
    assert "message" in refused.json()
    card = alice.get(f"/api/tables/{code}/view/").json()["view"]["private"]["hand"][0]
    assert _post(alice, code, "actions", {"action": {"kind": "play", "card": card}, "version": 1}).status_code == 200
    not_mine = _post(bob, code, "undo-mine", {"version": 2})
    assert not_mine.status_code == 400 and not_mine.json()["code"] == "undo_not_yours"
    stale = _post(alice, code, "undo-mine", {"version": 1})
    assert stale.status_code == 409 and stale.json()["code"] == "stale_version"
    done = _post(alice, code, "undo-mine", {"version": 2, "key": "b"})
    assert done.status_code == 200 and done.json() == {"version": 3, "seq": 3, "replayed": False}
    log = APIClient().get(f"/api/tables/{code}/log/").json()["log"]
    assert log[0]["text"] == "Alice took back move #2."


def test_undo_mine_needs_a_seat_token_and_a_version(created):  # noqa: F811
    code = created["code"]
    assert _post(APIClient(), code, "undo-mine", {"version": 0}).json()["code"] == "no_seat"
    bad = _post(seat_client(created, 0), code, "undo-mine", {"version": "x"})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_version"  # as the page and the socket refuse it


def test_undo_mine_is_in_the_openapi_schema():
    body = APIClient().get("/api/schema/?format=json").json()
    assert "/api/tables/{code}/undo-mine/" in body["paths"]
