"""Strict input on the API: every bad body is a 4xx ``{code, message}``
that writes nothing, never a 500; cookie writes need this site's Origin; the schema says what is answered."""

from __future__ import annotations

import json
import time
from array import array

import pytest
from django.conf import settings as django_settings
from django.core.cache import caches
from django.test import override_settings
from rest_framework.test import APIClient

from games.entry.access import host_cookie, seat_cookie, set_signed
from games.models import Action, Table
from games.write.pregame import create_table
from tests.registry import GAMES

pytestmark = pytest.mark.django_db


@pytest.fixture
def sorry():
    """A physical-deck Sorry! table for Alice and Bob (a real game with a declared action schema)."""
    return create_table("sorry", {"components": "physical"}, [{"name": "Alice"}, {"name": "Bob"}], seed=1)


def alice(table) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {table.seats.get(index=0).token}")
    return client


def post(client: APIClient, table, action, version=0, **extra):
    return client.post(f"/api/tables/{table.code}/actions/", {"action": action, "version": version, **extra},
                       format="json")


def assert_refused(response, status=400, code=None):
    assert response.status_code == status, response.content[:300]
    body = response.json()
    assert set(body) >= {"code", "message"} and body["message"]
    if code:
        assert body["code"] == code, body


def assert_nothing_written(table):
    table.refresh_from_db()
    assert table.version == 0 and not Action.objects.filter(table=table, version__gt=0).exists()  # rows of the creation are version 0


@pytest.mark.parametrize("components", ["digital", "physical"])
@pytest.mark.parametrize("slug", GAMES)
@pytest.mark.parametrize("action", [{"kind": ["x"]}, {"kind": {}}, {"kind": "draw", "card": ["1"]},
                                    {"kind": "roll", "value": [6]}, {"kind": "tile", "colour": {}, "hex": [[0], 1]},
                                    {"kind": "bid", "province": {"a": 1}, "card": [5]}])
def test_an_action_of_the_wrong_shape_is_400_not_500(slug, action, components):
    table = create_table(slug, {"components": components}, [{"name": "A"}, {"name": "B"}], seed=1)
    assert_refused(post(alice(table), table, action))
    assert_nothing_written(table)


def test_unknown_keys_in_an_action_are_refused_not_stored(sorry):
    response = post(alice(sorry), sorry, {"kind": "draw", "card": "1", "junk": "x" * 1000})
    assert_refused(response, code="bad_payload")
    assert "junk" in response.json()["message"]
    assert_nothing_written(sorry)


def test_a_megabyte_of_junk_in_one_move_is_refused(sorry):
    response = post(alice(sorry), sorry, {"kind": "draw", "card": "1", "notes": ["x" * 1000] * 900})
    assert response.status_code in (400, 413) and response.json()["code"] in ("too_large", "bad_payload")
    assert_nothing_written(sorry)


@pytest.mark.parametrize("slug", GAMES)
def test_every_engine_declares_a_schema_that_accepts_its_own_legal_actions(slug):
    """Rule: a payload from legal_actions (what /prompt/ offers) always passes its kind's schema."""
    import random

    from games.engines import get_game_class
    from games.engines.base import IllegalAction, SeatInfo
    from games.engines.chance import table_rng

    cls = get_game_class(slug)
    assert cls.action_schemas(), f"{slug} declares SCHEMA in its actions module"
    for mode in ("digital", "physical"):
        game = cls({"components": mode}, [SeatInfo(i, f"P{i}", cls.colours[i]) for i in range(3)])
        state, chooser = game.setup(table_rng(7, 0)), random.Random(7)
        for step in range(150):
            if game.result(state) is not None:
                break
            seat = chooser.choice(game.prompt(state).seats)
            legal = game.legal_actions(state, seat)
            for payload in legal:
                game.check_payload(payload)
            # In physical mode a listed draw may still be one the real bag cannot give (the list is what the
            # drawer may know): try the listed actions until one applies.
            for choice in chooser.sample(legal, len(legal)):
                action = game.fill_chance(state, seat, choice, table_rng(7, step + 1))
                game.check_payload(action)
                try:
                    state = game.apply(state, seat, action)
                    break
                except IllegalAction:
                    continue


def test_undo_with_a_version_too_large_for_a_float_is_400(sorry):
    host = APIClient()
    response = host.post(f"/api/tables/{sorry.code}/undo/", data=b'{"version": 1e400}',
                         content_type="application/json", HTTP_X_HOST_TOKEN=sorry.host_token)
    assert_refused(response, code="bad_json")  # as the socket refuses the same text: no float holds it


@pytest.mark.parametrize("where", ["path", "action", "key", "escaped"])
def test_a_nul_character_anywhere_is_400_on_every_database(sorry, where):
    client = alice(sorry)
    if where == "path":
        response = client.get(f"/api/tables/{sorry.code}%00/prompt/")
    elif where == "action":
        response = post(client, sorry, {"kind": "draw", "card": "1\x00"})
    elif where == "key":
        response = post(client, sorry, {"kind": "draw", "card": "1"}, key="k\x00")
    else:
        response = client.post(f"/api/tables/{sorry.code}/actions/",
                               data=b'{"action": {"kind": "draw", "card": "1\\u0000"}, "version": 0}',
                               content_type="application/json")
    assert_refused(response, code="nul_character")
    assert_nothing_written(sorry)


def test_a_body_over_the_limit_is_413_json_not_an_html_page(sorry):
    with override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=10_000):
        response = alice(sorry).post(f"/api/tables/{sorry.code}/actions/",
                                     data=json.dumps({"action": {"kind": "draw"}, "version": 0, "pad": "x" * 20_000}),
                                     content_type="application/json")
    assert response["Content-Type"].startswith("application/json")
    assert_refused(response, status=413, code="too_large")


def test_a_catan_junior_board_with_a_malformed_route_is_400(sorry):
    board_file = "shelf/catan_junior/boards/side_3_4.json"
    with open(board_file, encoding="utf-8") as f:
        board = json.load(f)
    board["routes"][next(iter(board["routes"]))] = [["L01"], {"x": 1}]
    response = APIClient().post("/api/tables/", {"game": "catan_junior", "options": {"board": board},
                                                 "seats": [{"name": "A"}, {"name": "B"}, {"name": "C"}]}, format="json")
    assert_refused(response, code="bad_edition")
    assert not Table.objects.filter(slug="catan_junior").exists()


# -- lesser doors ---------------------------------------------------------------------------


def cookie_client(table, origin: str | None) -> APIClient:
    """A browser holding Alice's seat cookie and the host cookie, posting from ``origin``."""
    from django.http import HttpResponse

    carrier = HttpResponse()
    set_signed(carrier, seat_cookie(table.code), table.seats.get(index=0).token)
    set_signed(carrier, host_cookie(table.code), table.host_token)
    client = APIClient()
    client.cookies.update(carrier.cookies)
    if origin:
        client.defaults["HTTP_ORIGIN"] = origin
    return client


@pytest.mark.parametrize("origin", ["https://evil.example", None, "null"])
def test_a_cookie_authenticated_api_write_from_another_origin_is_403(sorry, origin):
    client = cookie_client(sorry, origin)
    assert_refused(post(client, sorry, {"kind": "draw", "card": "1"}), status=403, code="bad_origin")
    assert_refused(client.post(f"/api/tables/{sorry.code}/undo/", {"version": 0}, format="json"), status=403,
                   code="bad_origin")
    assert_nothing_written(sorry)


def test_a_cookie_write_from_this_site_and_a_bearer_write_need_no_more(sorry):
    same_site = cookie_client(sorry, "http://testserver")
    assert post(same_site, sorry, {"kind": "draw", "card": "1"}).status_code == 200
    bob = APIClient()  # bearer: no Origin at all (a script, not a browser)
    bob.credentials(HTTP_AUTHORIZATION=f"Bearer {sorry.seats.get(index=1).token}")
    assert bob.get(f"/api/tables/{sorry.code}/prompt/").status_code == 200


def test_the_public_endpoints_are_throttled_with_a_json_429(sorry):
    throttle_counts = caches["throttle"]
    throttle_counts.clear()
    rates = {"create_table": "2/min", "claim": "2/min", "table": "3/min"}
    with override_settings(REST_FRAMEWORK={**django_settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}):
        answers = [APIClient().get(f"/api/tables/{sorry.code}/").status_code for _ in range(4)]
        assert answers == [200, 200, 200, 429]
        assert_refused(APIClient().get(f"/api/tables/{sorry.code}/log/"), status=429, code="throttled")
    throttle_counts.clear()


def test_a_window_counted_before_as_a_list_counts_on_as_one_array(sorry):
    """A window stored as DRF's list (a worker of the version before) goes on counting the same requests."""
    throttle_counts = caches["throttle"]
    throttle_counts.clear()
    key = "throttle_table_127.0.0.1"
    now = time.time()
    throttle_counts.set(key, [now - 1, now - 2, now - 120], 60)
    rates = {"create_table": "2/min", "claim": "2/min", "table": "4/min"}
    with override_settings(REST_FRAMEWORK={**django_settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}):
        answers = [APIClient().get(f"/api/tables/{sorry.code}/").status_code for _ in range(3)]
    assert answers == [200, 200, 429]  # the two within the minute and two more; the old one dropped
    stored = throttle_counts.get(key)
    assert isinstance(stored, array) and len(stored) == 4 and list(stored) == sorted(stored, reverse=True)
    throttle_counts.clear()


def test_the_default_throttles_leave_a_cafe_of_fifty_tables_alone(settings):
    """50 tables x 4 phones polling the public prompt once a second stay under the per-address rate."""
    rate = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["table"]
    count, period = rate.split("/")
    per_minute = int(count) * {"s": 60, "m": 1, "h": 1 / 60}[period[0]]
    assert per_minute >= 50 * 4 * 60


def test_the_schema_says_what_the_api_answers():
    schema = APIClient().get("/api/schema/?format=json").json()
    components = schema["components"]["schemas"]
    assert all("data" not in c.get("properties", {}) for c in components.values()), "no invented {data: ...}"
    undo = schema["paths"]["/api/tables/{code}/undo/"]["post"]
    assert undo["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith("/Undo")
    assert any(p["name"] == "X-Host-Token" and p["in"] == "header" for p in undo["parameters"])
    actions = schema["paths"]["/api/tables/{code}/actions/"]["post"]["responses"]
    assert {"200", "400", "403", "404", "409", "413", "429"} <= set(actions)
    stale = actions["409"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert "fresh" in components[stale]["properties"]
    assert "hostToken" in schema["components"]["securitySchemes"]


def test_a_stale_version_answers_409_with_the_fresh_prompt(sorry):
    client = alice(sorry)
    assert post(client, sorry, {"kind": "draw", "card": "1"}).status_code == 200
    stale = post(client, sorry, {"kind": "draw", "card": "2"}, version=0)
    assert stale.status_code == 409 and stale.json()["fresh"]["version"] == 1


@pytest.mark.parametrize("version", [0.0, -0.0, "0", True])
def test_a_version_that_is_no_json_integer_is_refused_as_the_socket_and_the_page_refuse_it(sorry, version):
    assert_refused(post(alice(sorry), sorry, {"kind": "pass"}, version=version), 400, "bad_version")
    assert Table.objects.get(pk=sorry.pk).version == 0
