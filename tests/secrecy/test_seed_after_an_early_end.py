"""A game the host ended early keeps its seed sealed: the seed gives every digital draw, hidden hands included."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Table
from games.write.host import end_game
from tests.conftest import play_through_write_path

pytestmark = pytest.mark.django_db


def _draws(code: str) -> dict:
    return Client().get(f"/api/tables/{code}/").json()["draws"]


def test_a_digital_sorry_points_game_ended_by_the_host_does_not_publish_its_seed():
    from games.write.pregame import create_table

    table = create_table("sorry", {"points_mode": True}, [{"name": n} for n in ("Ann", "Ben", "Cy")], seed=918273645546372819)
    play_through_write_path(table, seed=5, stop=20)
    end_game(table.code)
    table.refresh_from_db()
    assert table.status == Table.Status.ENDED
    assert table.seed_revealed is None and _draws(table.code)["seed"] is None
    assert str(table.seed) not in Client().get(f"/t/{table.code}/screen/").content.decode()
    assert _draws(table.code)["commitment"] == table.seed_commitment


def test_a_finished_game_still_publishes_its_seed():
    from games.write.pregame import create_table

    table = create_table("sorry", {}, [{"name": "Ann"}, {"name": "Ben"}], seed=3)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    assert _draws(table.code)["seed"] == str(table.seed)
