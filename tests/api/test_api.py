"""The REST API over the same write path (fixture game)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


@pytest.fixture
def created():
    client = APIClient()
    response = client.post("/api/tables/", {"game": "counting", "seats": [{"name": "Alice"}, {"name": "Bob"},
                                                                          {"name": "Carol"}]}, format="json")
    assert response.status_code == 201
    return response.json()


def seat_client(created, index: int) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {created['seats'][index]['token']}")
    return client


def test_the_prompt_lists_legal_actions_as_ready_to_post_payloads(created):
    alice = seat_client(created, 0)
    body = alice.get(f"/api/tables/{created['code']}/prompt/").json()
    assert body["prompt"]["seats"] == [0] and body["legal"][0]["action"] == {"kind": "draw"}
    posted = alice.post(f"/api/tables/{created['code']}/actions/",
                        {"action": body["legal"][0]["action"], "version": body["version"], "key": "k"}, format="json")
    assert posted.status_code == 200 and posted.json() == {"version": 1, "seq": 1, "replayed": False}
    again = alice.post(f"/api/tables/{created['code']}/actions/",
                       {"action": {"kind": "draw"}, "version": 0, "key": "k"}, format="json")
    assert again.json()["replayed"] is True


def test_an_illegal_action_is_400_with_a_stable_code_and_the_rule(created):
    bob = seat_client(created, 1)
    response = bob.post(f"/api/tables/{created['code']}/actions/", {"action": {"kind": "draw"}, "version": 0},
                        format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "not_your_turn" and "Alice" in response.json()["message"]


def test_a_stale_version_is_409_with_the_fresh_prompt(created):
    alice = seat_client(created, 0)
    alice.post(f"/api/tables/{created['code']}/actions/", {"action": {"kind": "draw"}, "version": 0}, format="json")
    response = alice.post(f"/api/tables/{created['code']}/actions/",
                          {"action": {"kind": "draw"}, "version": 0}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "stale_version" and response.json()["fresh"]["version"] == 1


@pytest.mark.parametrize("body", [{}, {"action": "draw", "version": 0}, {"action": {}, "version": "x"},
                                  {"action": {"kind": "play", "card": ["1"]}, "version": 0}])
def test_malformed_bodies_are_4xx_never_500(created, body):
    response = seat_client(created, 0).post(f"/api/tables/{created['code']}/actions/", body, format="json")
    assert 400 <= response.status_code < 500 and "code" in response.json()


def test_without_a_token_there_is_no_seat(created):
    response = APIClient().get(f"/api/tables/{created['code']}/view/")
    assert response.status_code == 403 and response.json()["code"] == "no_seat"
    assert APIClient().get("/api/tables/NOPE99/").status_code == 404


def test_my_view_holds_my_hand_and_never_another_seats(created):
    alice, carol = seat_client(created, 0), seat_client(created, 2)
    alice.post(f"/api/tables/{created['code']}/actions/", {"action": {"kind": "draw"}, "version": 0}, format="json")
    mine = alice.get(f"/api/tables/{created['code']}/view/").json()
    card = mine["view"]["private"]["hand"][0]
    theirs = carol.get(f"/api/tables/{created['code']}/view/").json()
    assert theirs["view"]["private"]["hand"] == []
    log_for_carol = carol.get(f"/api/tables/{created['code']}/log/").json()
    assert all(card not in line["text"] for line in log_for_carol["log"])
    public_log = APIClient().get(f"/api/tables/{created['code']}/log/").json()
    assert all("You drew" not in line["text"] for line in public_log["log"])


def test_claiming_with_a_join_token_and_host_undo(created):
    client = APIClient()
    claimed = client.post(f"/api/tables/{created['code']}/claim/", {"token": created["seats"][1]["token"]},
                          format="json")
    assert claimed.status_code == 200 and claimed.json()["seat"] == 1
    assert client.post(f"/api/tables/{created['code']}/claim/", {"token": "nope"}, format="json").status_code == 403
    seat_client(created, 0).post(f"/api/tables/{created['code']}/actions/", {"action": {"kind": "draw"},
                                                                             "version": 0}, format="json")
    assert APIClient().post(f"/api/tables/{created['code']}/undo/", {"version": 1}, format="json").status_code == 403
    host = APIClient()
    host.credentials(HTTP_X_HOST_TOKEN=created["host_token"])
    undone = host.post(f"/api/tables/{created['code']}/undo/", {"version": 1}, format="json")
    assert undone.status_code == 200 and undone.json()["version"] == 2


def test_creating_with_bad_options_is_a_400_naming_the_option():
    response = APIClient().post("/api/tables/", {"game": "counting", "options": {"components": "psychic"},
                                                 "seats": [{}, {}]}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "bad_option"
    response = APIClient().post("/api/tables/", {"game": "chess", "seats": [{}, {}]}, format="json")
    assert response.status_code == 400


def test_the_openapi_schema_describes_the_action_endpoint(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    assert b"/api/tables/{code}/actions/" in response.content


def test_the_api_docs_page_serves_swagger_from_this_server(client):
    page = client.get("/api/docs/").content.decode()
    assert "cdn.jsdelivr.net" not in page and "/static/drf_spectacular_sidecar/" in page
