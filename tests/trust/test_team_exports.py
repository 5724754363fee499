"""Teams and player colours reach the CSV and BG Stats for every game that has them (Sorry! section 3.1:
Red with Yellow against Blue with Green; BG Stats' ``role`` is the player's colour)."""

from __future__ import annotations

import csv
import io
import json
from urllib.parse import unquote

import pytest
from django.utils import translation

from games.write import export
from tests.web.test_export_import import finished

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


@pytest.fixture(scope="module")
def team_game(django_db_setup, django_db_blocker):
    """One Sorry! team game played to its end, shared by the tests here and deleted after them (it is made
    outside any test's transaction, so no other test may find it)."""
    with django_db_blocker.unblock(), translation.override("en"):
        table = finished("sorry", {"team_mode": True}, 4, seed=11)
    yield table
    with django_db_blocker.unblock():
        table.delete()


def test_a_sorry_team_games_csv_names_each_players_team(team_game):
    rows = list(csv.DictReader(io.StringIO(export.build_csv(team_game))))
    assert "team" in rows[0]
    by_colour = {r["colour"]: r["team"] for r in rows}
    assert by_colour["red"] == by_colour["yellow"] != by_colour["blue"] == by_colour["green"]
    assert {r["team"] for r in rows} == {"1", "2"}
    winners = {r["team"] for r in rows if r["winner"] == "yes"}
    assert len(winners) == 1, "one team wins together"


def test_a_sorry_team_games_bgstats_play_carries_teams_and_colours(team_game):
    play = json.loads(unquote(export.bgstats_link(team_game).split("data=", 1)[1]))
    colours = {s.index: s.colour for s in team_game.seats.all()}
    assert [p["role"] for p in play["players"]] == [colours[i] for i in range(4)]
    team = {p["role"]: p["team"] for p in play["players"]}
    assert team["red"] == team["yellow"] != team["blue"] == team["green"]
    assert {p["winner"] for p in play["players"] if p["team"] == team["red"]} in ({True}, {False})


def test_a_game_without_teams_has_no_team_column_and_its_colours_as_roles():
    table = finished("sorry", {}, 2, seed=9)
    header = export.build_csv(table).splitlines()[0].split(",")
    assert "team" not in header
    play = json.loads(unquote(export.bgstats_link(table).split("data=", 1)[1]))
    assert all("team" not in p for p in play["players"])
    assert [p["role"] for p in play["players"]] == [s.colour for s in table.seats.order_by("index")]
