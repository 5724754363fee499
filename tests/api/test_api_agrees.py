"""The API says what the lobby and the README say: the same table options, start rules, seat counts and fields."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.commands.pregame import create_table

pytestmark = pytest.mark.django_db


def test_a_tables_options_show_an_edition_by_name_and_a_plain_mapping_as_it_is():
    """Sorry! section 2.1: the table's deck (``deck_counts``) is a mapping of card values, not an edition profile:
    shown as its counts, never as a profile with an empty name."""
    table = create_table("sorry", {}, [{"name": "Ann"}, {"name": "Ben"}])
    options = APIClient().get(f"/api/tables/{table.code}/").json()["options"]
    assert options["deck_counts"] == table.options["deck_counts"]
    assert options["deck_counts"]["1"] == 5 and "name" not in options["deck_counts"]
    assert options["points_table"]["name"] and set(options["points_table"]) == {"name", "verified"}
