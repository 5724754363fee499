"""A finished game's record never drifts: its times are stored when they happen, and a copy keeps them.

The export, its ``file_seal``, the BG Stats link and the history pages of a finished table read the start and
finish stored when the game began and ended, so a hand-over or Play again later changes none of them; an
imported copy keeps the original's times and play id, and says it is a copy.
"""

from __future__ import annotations

import datetime
import json
import re
from urllib.parse import unquote

import pytest
from django.test import Client
from django.utils import timezone, translation

from games.models import Table
from games.write import export
from games.write.host import end_game, hand_over_seat
from games.write.pregame import create_table, play_again
from tests.web.test_export_import import finished

pytestmark = pytest.mark.django_db

CSRF = re.compile(r'(csrfmiddlewaretoken" value=|csrf_token" value=|"X-CSRFToken": )"[^"]*"')


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def _later(monkeypatch, hours: float) -> None:
    """Every clock the app reads (``timezone.now``: ``auto_now`` fields, stored times) runs ``hours`` ahead."""
    now = timezone.now() + datetime.timedelta(hours=hours)
    monkeypatch.setattr(timezone, "now", lambda: now)


def _record(table: Table, client: Client) -> dict[str, object]:
    table = Table.objects.get(pk=table.pk)
    history = client.get(f"/t/{table.code}/history/").content.decode()
    listed = client.get("/history/").content.decode()
    return {
        "export": json.dumps(export.build_export(table), sort_keys=True),
        "csv": export.build_csv(table),
        "bgstats": export.bgstats_link(table),
        "history": CSRF.sub("", history),
        "listed": CSRF.sub("", listed),
    }


def _play(link: str) -> dict:
    return json.loads(unquote(link.split("data=", 1)[1]))


def test_a_finished_tables_record_is_the_same_after_a_later_hand_over_and_play_again(monkeypatch):
    table = finished("sorry", {}, 2, seed=9)
    client = Client()
    before = _record(table, client)
    _later(monkeypatch, 3)
    hand_over_seat(table.code, 1)
    play_again(table.code)
    after = _record(table, client)
    for part in before:
        assert after[part] == before[part], part
    assert _play(after["bgstats"])["durationMin"] < 60


def test_the_finish_time_is_stored_when_the_last_move_is_played():
    start = timezone.now()
    table = finished("catan_junior", {}, 2, seed=3)
    assert start <= table.started_at <= table.finished_at <= timezone.now()
    data = export.build_export(table)
    assert data["finished_at"] == table.finished_at.isoformat()
    assert data["created_at"] == table.started_at.isoformat()


def test_a_game_the_host_ends_stores_its_end_once(monkeypatch):
    table = create_table("sorry", {}, [{"name": "A"}, {"name": "B"}], seed=1)
    assert table.finished_at is None
    end_game(table.code)
    table.refresh_from_db()
    ended = table.finished_at
    assert ended is not None
    _later(monkeypatch, 2)
    hand_over_seat(table.code, 0)
    table.refresh_from_db()
    assert table.finished_at == ended


def test_an_imported_copy_keeps_the_originals_times_and_play_id_and_says_it_is_a_copy(monkeypatch):
    table = finished("amun_re", {}, 3, seed=4)
    original = _play(export.bgstats_link(table))
    data = export.build_export(table)
    assert export.COPY_OF not in data
    _later(monkeypatch, 30)
    copy = export.import_export(json.loads(json.dumps(data)))
    assert copy.code != table.code and copy.copy_of == table.code
    assert (copy.started_at, copy.finished_at) == (table.started_at, table.finished_at)
    play = _play(export.bgstats_link(copy))
    assert play["sourcePlayId"] == table.code
    assert (play["playDate"], play["durationMin"]) == (original["playDate"], original["durationMin"])
    assert [p["sourcePlayerId"] for p in play["players"]] == [p["sourcePlayerId"] for p in original["players"]]
    again = export.build_export(copy)
    assert again[export.COPY_OF] == table.code
    assert (again["created_at"], again["finished_at"]) == (data["created_at"], data["finished_at"])
    copy_of_copy = export.import_export(json.loads(json.dumps(again)))
    assert copy_of_copy.play_id == table.code
    page = Client().get(f"/t/{copy.code}/history/").content.decode()
    assert table.code in page


def test_an_export_without_its_times_is_a_bad_import():
    table = finished("catan_junior", {}, 2, seed=3)
    data = export.build_export(table)
    for name, value in (("finished_at", None), ("created_at", "yesterday"), ("finished_at", 5)):
        edited = {**data, name: value}
        with pytest.raises(export.IllegalAction) as caught:
            export.import_export(edited)
        assert caught.value.code == "bad_import"

