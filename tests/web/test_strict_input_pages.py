"""Strict input on the phone pages, the editors and the edition import:
bad input is a 4xx (422 ``{code, message}`` for htmx), never a 500, and nothing is stored."""

from __future__ import annotations

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from games.models import Action, Correction, EditionProfile, Table
from games.write.pregame import create_table
from tests.conftest import phone_for, post_action

pytestmark = pytest.mark.django_db


@pytest.fixture
def sorry():
    """A physical-deck Sorry! table for Alice and Bob."""
    return create_table("sorry", {"components": "physical"}, [{"name": "Alice"}, {"name": "Bob"}], seed=1)


def assert_json_refusal(response, status=422, code=None):
    assert response.status_code == status, response.content[:300]
    body = response.json()
    assert body["message"] and (code is None or body["code"] == code), body


@pytest.mark.parametrize("action", [{"kind": ["x"]}, {"kind": {}}, {"kind": "draw", "card": "1", "junk": 1},
                                    {"kind": "draw", "card": 7}])
def test_a_malformed_tap_is_422_with_the_refusal_and_writes_nothing(sorry, action):
    response = post_action(phone_for(sorry, 0), sorry, action)
    assert response.status_code == 422
    assert not Action.objects.filter(table=sorry, seq__gt=0).exists()


def test_a_nul_character_in_a_tap_is_refused_with_422(sorry):
    """Escaped in the action JSON, the phone's fragment names the refusal; raw in the form, the door refuses it."""
    alice = phone_for(sorry, 0)
    response = post_action(alice, sorry, {"kind": "draw", "card": "1\x00"})
    assert response.status_code == 422 and "NUL" in response.content.decode()
    raw = alice.post(f"/t/{sorry.code}/act/", {"action": '{"kind": "draw", "card": "1\x00"}', "version": 0},
                     HTTP_HX_REQUEST="true")
    assert_json_refusal(raw, code="nul_character")
    assert not Action.objects.filter(table=sorry, seq__gt=0).exists()


def test_an_overlong_idempotency_key_is_refused_not_a_database_error(sorry):
    response = post_action(phone_for(sorry, 0), sorry, {"kind": "draw", "card": "1"}, key="k" * 81)
    assert response.status_code == 422
    assert not Action.objects.filter(table=sorry, seq__gt=0).exists()


@pytest.mark.parametrize("reason", ["it was a 3\x00", "x" * 201])
def test_a_correction_reason_with_nul_or_too_long_is_refused(sorry, reason):
    alice = phone_for(sorry, 0)
    assert post_action(alice, sorry, {"kind": "draw", "card": "1"}).status_code == 200
    response = alice.post(f"/t/{sorry.code}/corrections/", {"target": 1, "reason": reason,
                                                            "replacement": json.dumps({"kind": "draw", "card": "2"})},
                          HTTP_HX_REQUEST="true")
    assert_json_refusal(response)
    assert not Correction.objects.exists()


def test_a_correction_replacement_must_fit_the_kind_schema(sorry):
    alice = phone_for(sorry, 0)
    post_action(alice, sorry, {"kind": "draw", "card": "1"})
    response = alice.post(f"/t/{sorry.code}/corrections/", {
        "target": 1, "replacement": json.dumps({"kind": "draw", "card": "2", "junk": "x" * 500})},
        HTTP_HX_REQUEST="true")
    assert_json_refusal(response, code="bad_payload")
    assert not Correction.objects.exists()


@pytest.mark.parametrize("content", [b"[" * 100_000, b'{"format": "companion-edition/1", "data": "a\\u0000"}',
                                     b"\x00\x01", json.dumps({"x": [[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]}).encode()])
def test_a_hostile_profile_file_is_refused_not_a_500(content):
    response = Client().post("/editions/import/", {"file": SimpleUploadedFile("x.json", content)})
    assert 300 <= response.status_code < 500
    assert not EditionProfile.objects.exists()


def test_a_hostile_profile_file_gets_a_422_json_refusal_for_htmx():
    response = Client().post("/editions/import/", {"file": SimpleUploadedFile("x.json", b"[" * 100_000)},
                             HTTP_HX_REQUEST="true")
    assert_json_refusal(response, code="too_deep")


@pytest.mark.parametrize("cells", ["[" * 50_000 + "]" * 50_000, json.dumps({"0,0": {"terrain": [[["land"]]]}}),
                                   json.dumps({"0,0": {"terrain": "land", "capital": {"a": 1}}}),
                                   json.dumps({"0,0": {"terrain": "land", "extra": "x" * 100}})])
def test_the_board_editor_refuses_hostile_cells_with_a_400(cells):
    post = {"name": "Deep", "orientation": "pointy", "cols": 5, "rows": 5, "cells": cells, "save": "1"}
    response = Client().post("/editions/yellow_yangtze/board/", post)
    assert response.status_code == 400
    assert not EditionProfile.objects.exists()


def test_a_nul_in_a_page_path_or_form_is_a_400_json_refusal(sorry):
    assert_json_refusal(Client().get(f"/t/{sorry.code}%00/"), status=400, code="nul_character")
    assert_json_refusal(Client().post("/editions/yellow_yangtze/board/", {"name": "a\x00"}), status=400,
                        code="nul_character")


def test_a_nul_in_a_browsers_own_form_post_is_the_sites_400_page_not_raw_json(sorry):
    """The lobby form typed with a NUL: a browser (``Accept: text/html``) gets the refusal page in its language."""
    client = Client()
    client.cookies["django_language"] = "fa"
    response = client.post("/", {"game": "sorry", "players": 2, "name_0": "a\x00b"},
                           HTTP_ACCEPT="text/html,application/xhtml+xml,*/*;q=0.8")
    html = response.content.decode()
    assert response.status_code == 400 and response["Content-Type"].startswith("text/html")
    assert 'data-code="nul_character"' in html and 'dir="rtl"' in html and 'class="button back"' in html
    assert not Table.objects.exclude(pk=sorry.pk).exists()


# -- lesser doors ----------------------------------------------------------------------------


def host_of(table) -> Client:
    client = Client()
    response = client.post("/", {"game": "counting", "players": 2, "opt-components": "digital"})
    return client, response["Location"].split("/")[2]


@pytest.mark.parametrize("target", ["//evil.example/", "https://evil.example/x", "/\\evil.example", "\\\\evil.example",
                                    "999999999999999999999999", "lobby"])
def test_host_tools_never_redirect_off_site(fixture_game_registered, target):
    host, code = host_of(None)
    response = host.post(f"/t/{code}/host/end/", {"next": target})
    assert response.status_code == 302 and response["Location"] == f"/t/{code}/host/"


def test_host_tools_follow_a_local_next(fixture_game_registered):
    host, code = host_of(None)
    response = host.post(f"/t/{code}/host/end/", {"next": f"/t/{code}/"})
    assert response["Location"] == f"/t/{code}/"


def test_switching_language_never_redirects_off_site():
    response = Client().post("/i18n/setlang/", {"language": "fa", "next": "//evil.example/"})
    assert response.status_code == 302 and "evil.example" not in response["Location"]


def test_the_join_secret_never_travels_in_a_requested_url(fixture_game_registered):
    """The join link holds the seat token in its #fragment (browsers never send it); the page POSTs it."""
    host, code = host_of(None)
    table = Table.objects.get(code=code)
    token = table.seats.get(index=1).token
    page = host.get(f"/t/{code}/host/").content.decode()
    assert f"/t/{code}/join/#{token}" in page
    assert not re.search(rf"/join/{token}", page), "no link puts the token in a requested path"
    join_page = Client().get(f"/t/{code}/join/")
    assert join_page.status_code == 200 and token not in join_page.content.decode()
    assert 'method="post"' in join_page.content.decode()
    bob = Client()
    assert bob.post(f"/t/{code}/join/", {"token": token}).status_code == 302
    assert bob.get(f"/t/{code}/").status_code == 200
    assert Client().post(f"/t/{code}/join/", {"token": "not-a-seat"}).status_code == 404
