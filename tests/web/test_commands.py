"""Management commands: replay_table compares the log with the snapshot; rules prints Sorry! moves."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.models import Table
from games.write.moves import submit_action

pytestmark = pytest.mark.django_db


def test_replay_table_reports_equal_and_catches_a_tampered_snapshot(counting_table):
    submit_action(counting_table.code, 0, {"kind": "draw"}, 0)
    out = StringIO()
    call_command("replay_table", counting_table.code, stdout=out)
    assert "replay == snapshot (1 log rows)" in out.getvalue()
    Table.objects.filter(id=counting_table.id).update(state={**counting_table.state, "totals": [9, 9, 9]})
    with pytest.raises(CommandError):
        call_command("replay_table", counting_table.code, stdout=StringIO())
    out = StringIO()
    call_command("replay_table", "--all", "--fix", stdout=out)
    assert "snapshot rebuilt from the log" in out.getvalue()
    counting_table.refresh_from_db()
    assert counting_table.state["totals"] == [0, 0, 0]


def test_rules_command_prints_the_split_seven_moves_of_a_position():
    out = StringIO()
    call_command("rules", "sorry", "moves", "R: R0@T6 R1@T9", "--card", "7", stdout=out)
    lines = out.getvalue().splitlines()
    assert "R0 T6+7>T13" in lines
    assert "R0 T6+1>T7, R1 T9+6>T15" in lines
    assert not any("T11" in line and "R1 T9+2" in line for line in lines), "two own pawns never share T11"


def test_rules_command_refuses_a_position_it_cannot_read():
    with pytest.raises(CommandError, match="bad_position"):
        call_command("rules", "sorry", "moves", "R: R0@X9", "--card", "7", stdout=StringIO())
