"""The seed is secret while the game is played, and a game over stays over (docs/fair-draws.md).

The seed is published with the final tally so anyone can re-derive every
digital draw. A finished game that the host's undo or an agreed correction
made playable again would go on with that seed known to everyone: seat A
could compute the others' hands and every draw to come. Such a reopening is
refused (``seed_revealed``) for a table whose seed drew anything; a table
played physically from its creation keeps no secret in its seed and may be
reopened. A planted control proves the probe catches a reopening.
"""

from __future__ import annotations

import pytest
from django.test import Client

from games.engines.base import IllegalAction
from games.models import Action, Table
from games.record.audit import effective_actions
from games.write import corrections, host
from games.write.corrections import confirm_correction, propose_correction
from games.write.pregame import create_table
from tests.conftest import play_through_write_path

from .probes import Figures, reopened_seed_probe

pytestmark = pytest.mark.django_db

TWO = [{"name": "Alice"}, {"name": "Bob"}]
ALICE = 0


def finished(options: dict, seed: int = 3) -> Table:
    """A two-seat Sorry! table played to its end at random through the write path."""
    table = create_table("sorry", options, TWO, seed=seed)
    play_through_write_path(table, seed)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    return table


def test_a_finished_digital_game_is_not_reopened_with_its_seed_public():
    table = finished({"points_mode": True, "components": "digital"})
    figures = Figures()
    reopened_seed_probe(table, ALICE, figures, "sorry points digital")
    print(f"\nreopened seed: probes and leaks: {figures.probes} probes, {len(figures.leaks)} leaks")
    assert figures.probes == 3
    assert figures.leaks == []


def test_the_refusals_name_the_rule_and_the_log_says_why_the_correction_was_dropped():
    table = finished({"points_mode": True, "components": "digital"})
    answer = Client(HTTP_X_HOST_TOKEN=table.host_token).post(
        f"/api/tables/{table.code}/undo/", {"version": table.version}, content_type="application/json")
    assert answer.status_code == 400 and answer.json()["code"] == "seed_revealed"
    last = effective_actions(list(table.actions.order_by("seq")))[-1]
    correction = propose_correction(table.code, ALICE, last.seq, None)
    with pytest.raises(IllegalAction) as refused:
        confirm_correction(table.code, correction.id, 1)
    assert refused.value.code == "seed_revealed"
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    row = table.actions.filter(kind=Action.Kind.CORRECT).order_by("-seq").first()
    assert row.payload["void"] and row.payload["reason"] == "seed_revealed"
    log = Client().get(f"/api/tables/{table.code}/log/").json()["log"]
    assert "would reopen a finished game" in log[0]["text"]


def test_a_game_played_physically_from_its_creation_may_still_be_reopened():
    """Physical components from the start: the seed drew nothing but the start player, so the host may undo."""
    table = finished({"components": "physical"}, seed=4)
    answer = Client(HTTP_X_HOST_TOKEN=table.host_token).post(
        f"/api/tables/{table.code}/undo/", {"version": table.version}, content_type="application/json")
    assert answer.status_code == 200, answer.json()
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING


def test_control_a_reopening_is_caught(monkeypatch):
    """Plant a finished game that reopens: the probe must flag both doors."""
    monkeypatch.setattr(host, "refuse_reopening", lambda *args: None)
    monkeypatch.setattr(corrections, "refuse_reopening", lambda *args: None)
    table = finished({"points_mode": True, "components": "digital"})
    figures = Figures()
    reopened_seed_probe(table, ALICE, figures, "planted reopening")
    print(f"\ncontrol (reopening): probes and leaks: {figures.probes} probes, {len(figures.leaks)} leaks")
    assert any("the host's undo reopened" in leak for leak in figures.leaks), figures.leaks
    assert any("an agreed correction reopened" in leak for leak in figures.leaks), figures.leaks
