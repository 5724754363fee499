"""The table screen's roll/draw tally: counted once, then each move adds its own draws, with no read of the log."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Table
from games.read import presenters, snapshots
from games.read.chance_stats import chance_stats
from games.write.host import undo_last
from games.write.moves import submit_action
from games.write.pregame import create_table

pytestmark = pytest.mark.django_db(transaction=True)  # the write path builds the next snapshot on commit


@pytest.mark.parametrize("slug", ["sorry", "catan_junior"])
def test_the_screens_tally_after_each_move_is_the_whole_logs_and_reads_no_log(slug):
    table = create_table(slug, {}, [{"name": n} for n in ("Ann", "Ben", "Cy")], seed=4)
    chooser = random.Random(4)
    extended = 0
    for step in range(80):
        row = Table.objects.get(code=table.code)
        game = row.game()
        state = game.decode(row.state)
        if game.result(state) is not None:
            break
        if step % 17 == 16:
            undo_last(table.code, row.version)  # not a move: the next tally counts the log again
        else:
            seat = chooser.choice(game.prompt(state).seats)
            submit_action(table.code, seat, chooser.choice(game.legal_actions(state, seat)), row.version)
        row = Table.objects.get(code=table.code)
        snap = snapshots.for_table(row)
        follows = snap.extended("tally", None) is not None
        assert presenters.needs_database(snap, None) is not follows, step
        with CaptureQueriesContext(connection) as queries:
            shown = presenters.draws_for(snap, True)["stats"]
        assert (len(queries) == 0) is follows, (step, [q["sql"] for q in queries])
        extended += follows
        assert shown == chance_stats(row, game), step  # the tally read from the whole log
    assert shown["total"] > 10 and extended >= 30, (shown["total"], extended)


def test_a_game_whose_draws_are_hidden_shows_nothing_while_played_and_reads_no_log():
    table = create_table("yellow_yangtze", {}, [{"name": n} for n in ("Ann", "Ben", "Cy")], seed=4)
    snap = snapshots.for_table(Table.objects.get(code=table.code))
    assert not presenters.needs_database(snap, None)
    with CaptureQueriesContext(connection) as queries:
        shown = presenters.draws_for(snap, True)["stats"]
    assert shown["hidden"] and shown["total"] == 0 and len(queries) == 0
