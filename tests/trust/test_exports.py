"""Exports that say what happened: text log lines, a CSV no spreadsheet runs, BG Stats' createPlay link, strict imports."""

from __future__ import annotations

import csv
import io
import json
from urllib.parse import unquote

import pytest
from django.utils import translation

from games.engines import get_adapter
from games.engines.base import IllegalAction, fill
from games.write import export
from tests.registry import GAMES as REGISTERED
from tests.web.test_export_import import GAMES, finished

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


@pytest.mark.parametrize(("slug", "options", "players"), GAMES)
def test_every_exported_log_line_is_a_sentence_never_an_object(slug, options, players):
    table = finished(slug, options, players)
    game = table.game()
    data = export.build_export(table)
    lines = [m for m in data["moves"] if m["kind"] == "game"]
    assert lines
    for move in lines:
        assert "LogLine(" not in move["line"] and "{" not in move["line"], move["line"]
    rows = {r.seq: r for r in table.actions.filter(kind="game")}
    for move in lines:  # the line of the log the table screen shows, in English
        row = rows[move["seq"]]
        line = game.describe(row.seat, row.payload, None)
        assert move["line"] == fill(line.text, line.details)


FORMULAS = ['=HYPERLINK("http://example.invalid","x")', "+1+1", "-2+3", "@SUM(A1)", "\tTab", "\rReturn"]


def test_no_csv_cell_starts_a_formula_and_numbers_stay_numbers():
    table = finished("catan_junior", {}, 2, seed=11)
    names = ['=HYPERLINK("http://example.invalid","x")', "@Bob"]
    for seat, name in zip(table.seats.order_by("index"), names, strict=True):
        seat.name = name
        seat.save(update_fields=["name"])
    rows = list(csv.reader(io.StringIO(export.build_csv(table))))
    cells = [cell for row in rows for cell in row]
    assert "'" + names[0] in cells and "'@Bob" in cells
    assert not any(cell[:1] in ("=", "+", "@", "\t", "\r") for cell in cells)
    for text in FORMULAS:
        assert export.csv_cell(text) == "'" + text
    assert export.csv_cell(-3) == -3 and export.csv_cell(2.5) == 2.5, "a negative score is a number"
    assert export.csv_cell("Alice") == "Alice" and export.csv_cell(None) == ""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow([export.csv_cell(-3)])
    assert buffer.getvalue() == "-3\n"


def _play(table) -> dict:
    link = export.bgstats_link(table)
    assert link.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    return json.loads(unquote(link.split("data=", 1)[1]))


#: BoardGameGeek ids checked by hand against boardgamegeek.com (a game not listed has none yet).
CHECKED_BGG_IDS = {"sorry": 2407, "catan_junior": 125921}


@pytest.mark.parametrize("slug", REGISTERED)
def test_the_bgstats_link_is_the_documented_create_play_with_its_fields(slug):
    table = finished(slug, {}, 3 if slug == "amun_re" else 2, seed=5)
    play = _play(table)
    assert set(play) == {"sourceName", "sourcePlayId", "playDate", "durationMin", "game", "players"}
    bgg = CHECKED_BGG_IDS.get(slug)
    assert play["game"].get("bggId") == bgg == get_adapter(slug).bgg_id, "a BoardGameGeek id only where it was checked"
    assert {"name", "sourceGameId", "highestWins", "noPoints"} <= set(play["game"])
    first = table.actions.filter(kind="game").order_by("seq").first().seat
    for i, p in enumerate(play["players"]):
        assert {"name", "sourcePlayerId", "score", "rank", "winner", "startPlayer"} <= set(p)
        assert p["startPlayer"] is (i == first)


def _import_refusal(data) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        export.import_export(data)
    return caught.value


def test_an_import_refuses_a_team_that_is_not_a_number_or_in_a_game_without_teams():
    data = export.build_export(finished("catan_junior", {}, 2, seed=11))
    flagged = json.loads(json.dumps(data))
    flagged["seats"][0]["team"] = True
    assert _import_refusal(flagged).code == "bad_import"
    numbered = json.loads(json.dumps(data))
    numbered["seats"][0]["team"] = 1
    exc = _import_refusal(numbered)
    assert exc.code == "bad_import" and "without teams" in exc.message
    assert export.import_export(json.loads(json.dumps(data))).imported, "the file as exported still imports"
