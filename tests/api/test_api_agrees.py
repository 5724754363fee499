"""The API says what the lobby and docs/api.md say: the same table options, start rules, seat counts and fields."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.write.pregame import create_table

pytestmark = pytest.mark.django_db


def test_a_tables_options_show_an_edition_by_name_and_a_plain_mapping_as_it_is():
    """Sorry! section 2.1: the table's deck (``deck_counts``) is a mapping of card values, not an edition profile:
    shown as its counts, never as a profile with an empty name."""
    table = create_table("sorry", {}, [{"name": "Ann"}, {"name": "Ben"}])
    options = APIClient().get(f"/api/tables/{table.code}/").json()["options"]
    assert options["deck_counts"] == table.options["deck_counts"]
    assert options["deck_counts"]["1"] == 5 and "name" not in options["deck_counts"]
    assert options["points_table"]["name"] and set(options["points_table"]) == {"name", "verified"}


def create(body: dict):
    return APIClient().post("/api/tables/", body, format="json")


def test_a_start_rule_the_lobby_does_not_offer_for_the_game_is_refused_by_the_api_too():
    """The start rules of a game are games/record/setup.py ``start_choices`` (the printed rule, the rulebook's
    alternatives, random, chosen) or ``printed``, wherever the table is made."""
    from games.engines import get_game_class
    from games.record.setup import start_choices

    assert "oldest" not in start_choices(get_game_class("sorry"))
    answer = create({"game": "sorry", "start": "oldest", "seats": [{"name": "Ann"}, {"name": "Ben"}]})
    assert answer.status_code == 400 and answer.json()["code"] == "bad_start", answer.json()
    for start in ("printed", *start_choices(get_game_class("sorry"))):
        body = {"game": "sorry", "start": start, "seats": [{"name": "Ann"}, {"name": "Ben"}]}
        assert create({**body, "start_seat": 0} if start == "chosen" else body).status_code == 201, start


def test_an_unknown_field_of_a_seat_is_refused_by_name():
    answer = create({"game": "sorry", "seats": [{"name": "Ann", "age": 5}, {"name": "Ben"}]})
    body = answer.json()
    assert answer.status_code == 400 and body["code"] == "unknown_field", body
    assert "age" in body["message"] and body["fields"]["seats"]["0"] == {"age": ["age"]} or "age" in str(body["fields"])


def test_the_schema_gives_the_seat_range_the_games_really_have():
    from games.engines import REGISTRY, get_game_class

    schema = APIClient().get("/api/schema/?format=json").json()
    create_body = schema["components"]["schemas"]["CreateTable"]
    seats = create_body["properties"]["seats"]
    classes = [get_game_class(slug) for slug in REGISTRY]
    low, high = min(c.min_seats for c in classes), max(c.max_seats for c in classes)
    assert (seats["minItems"], seats["maxItems"]) == (low, high)
    said = (create_body.get("description", "") + " " + seats.get("description", ""))
    assert f"{low}-{high} seats" in said or f"{low} to {high} seats" in said
    assert not any(f"{n}-5 seats" in said or f"{n}-{high} seats" in said for n in range(low) ), said
    answer = create({"game": "sorry", "seats": [{"name": "Ann"}]})
    assert answer.status_code == 400


def test_the_idempotency_key_of_an_action_is_optional_and_the_schema_says_so():
    schema = APIClient().get("/api/schema/?format=json").json()
    post = schema["components"]["schemas"]["PostAction"]
    assert "key" not in post.get("required", [])
    assert "optional" in post["properties"]["key"]["description"].lower()
