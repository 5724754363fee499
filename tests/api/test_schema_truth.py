"""The API schema says what is true: the export's own format number, the seed rule, booleans that are booleans."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import Table
from games.write import export
from games.write.host import end_game
from games.write.pregame import create_table

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        return APIClient().get("/api/schema/?format=json").json()


def test_the_schema_names_the_export_format_version_the_export_writes(schema):
    described = schema["paths"]["/api/tables/{code}/export.json"]["get"]["responses"]["200"]["description"]
    assert f"version {export.FORMAT_VERSION})" in described
    assert f"`{export.FORMAT}`" in described


def test_the_schema_says_the_seed_is_revealed_only_when_the_game_finishes_by_its_rules(schema):
    text = schema["paths"]["/api/tables/{code}/"]["get"]["description"]
    assert "finished or ended" not in text
    assert "finished by its rules" in text and "ended" in text and "sealed" in text
    table = create_table("sorry", {}, [{"name": "A"}, {"name": "B"}], seed=5)
    end_game(table.code)
    ended = APIClient().get(f"/api/tables/{table.code}/").json()
    assert ended["status"] == Table.Status.ENDED and ended["draws"]["seed"] is None


@pytest.mark.parametrize("value", [0, 1, "true", "false", "yes", "on", None, [], {}])
def test_walkthrough_takes_a_json_boolean_only(value):
    body = {"game": "sorry", "seats": [{"name": "A"}, {"name": "B"}], "walkthrough": value}
    answer = APIClient().post("/api/tables/", body, format="json")
    assert answer.status_code == 400, answer.content
    assert answer.json()["code"] == "invalid" and "walkthrough" in answer.json()["fields"]
    assert not Table.objects.exists()


@pytest.mark.parametrize("value", [True, False])
def test_walkthrough_true_or_false_is_taken(value):
    body = {"game": "sorry", "seats": [{"name": "A"}, {"name": "B"}], "walkthrough": value}
    assert APIClient().post("/api/tables/", body, format="json").status_code == 201


def test_the_start_answers_draw_takes_a_json_boolean_only():
    table = create_table("sorry", {}, [{"name": "A"}, {"name": "B"}], seed=5, start="highest_card")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {table.seats.get(index=0).token}")
    answer = client.post(f"/api/tables/{table.code}/start/", {"draw": 1}, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "invalid"
