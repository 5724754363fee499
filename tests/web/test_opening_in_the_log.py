"""Every random outcome is in the log, the opening deal included (DESIGN.md "The engine contract").

A table records its opening position as log row 0 (kind ``setup``); every
replay starts from it, so undo, corrections and ``manage.py replay_table``
keep working after the host switches the components between digital and
physical mid-game (Yellow & Yangtze deals the opening hands in digital mode
only, so re-running the set-up with today's options deals something else).
"""

from __future__ import annotations

import random
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.models import Action, Table
from games.record.audit import OPENING_SEQ, IncompleteLog, replay
from games.write.corrections import correction_choices
from games.write.host import set_components, undo_last
from games.write.moves import submit_action
from games.write.pregame import create_table
from tests.registry import SHIPPED, examples

pytestmark = pytest.mark.django_db

TWO = [{"name": "Alice"}, {"name": "Bob"}]
THREE = [*TWO, {"name": "Carol"}]

#: (slug, options, seats): every game, and Sorry!'s points variant (hands behind the deal): each game's
#: ``OPENINGS`` in its ``examples.py``.
GAMES = [(slug, options, TWO if seats == 2 else THREE)
         for slug in SHIPPED for options, seats in getattr(examples(slug), "OPENINGS", ())]


def play(table: Table, rng: random.Random, moves: int) -> None:
    """Play up to ``moves`` random legal actions through the write path, with the table's current components."""
    for _ in range(moves):
        table.refresh_from_db()
        game = table.game()  # re-read: the components may have been switched
        state = game.decode(table.state)
        if game.result(state) is not None:
            return
        seat = game.prompt(state).seats[0]
        submit_action(table.code, seat, rng.choice(game.legal_actions(state, seat)), table.version)


def replayed(table: Table) -> dict:
    table.refresh_from_db()
    return table.game().encode(replay(table, strict=True))


@pytest.mark.parametrize(("slug", "options", "seats"), GAMES, ids=lambda v: v if isinstance(v, str) else None)
def test_a_table_replays_exactly_after_switching_components_both_ways_then_undo(slug, options, seats):
    """Digital -> physical -> digital mid-game, keep playing, undo: replay == snapshot all along."""
    table = create_table(slug, options, seats, seed=11)
    rng = random.Random(5)
    play(table, rng, 12)
    set_components(table.code, "physical")
    play(table, rng, 12)
    assert replayed(table) == table.state, "replay after the switch to physical"
    set_components(table.code, "digital")
    play(table, rng, 12)
    before_last = [row for row in table.actions.order_by("seq") if row.kind == Action.Kind.GAME][-1]
    undo_last(table.code, None)
    table.refresh_from_db()
    assert replayed(table) == table.state, "replay after the undo"
    undone = table.actions.order_by("-seq").first()
    assert undone.kind == Action.Kind.UNDO and undone.payload["undone"] == before_last.seq
    out = StringIO()
    call_command("replay_table", table.code, stdout=out)
    assert "replay == snapshot" in out.getvalue() and "from the recorded opening" in out.getvalue()


@pytest.mark.parametrize(("slug", "options", "seats"), GAMES, ids=lambda v: v if isinstance(v, str) else None)
def test_the_fix_move_choices_start_from_the_recorded_opening(slug, options, seats):
    """correction_choices replays in physical mode from the logged opening, even for a digital deal."""
    table = create_table(slug, options, seats, seed=12)
    play(table, random.Random(6), 6)
    target = [row for row in table.actions.order_by("seq") if row.kind == Action.Kind.GAME][-1]
    seat, original, alternatives = correction_choices(table, target.seq)
    assert seat == target.seat and original == target.payload
    assert original not in alternatives


def test_the_opening_row_is_seq_zero_and_moves_still_count_from_one():
    table = create_table("yellow_yangtze", {}, THREE, seed=3)
    opening = table.actions.get(seq=OPENING_SEQ)
    assert opening.kind == Action.Kind.SETUP and opening.version == 0 and opening.payload["state"] == table.state
    game = table.game()
    state = game.decode(table.state)
    seat = game.prompt(state).seats[0]
    start = table.actions.get(kind=Action.Kind.START)  # the start player the set-up drew, logged as row #1
    assert start.seq == OPENING_SEQ + 1 and start.version == 0
    outcome = submit_action(table.code, seat, game.legal_actions(state, seat)[0], 0)
    assert outcome.seq == 2 and outcome.version == 1


def test_the_log_names_the_deal_in_words_and_never_shows_the_dealt_state():
    table = create_table("yellow_yangtze", {}, THREE, seed=3)
    from django.test import Client

    client = Client()
    token = table.seats.get(index=1).token
    answer = client.get(f"/api/tables/{table.code}/log/", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert answer.status_code == 200
    lines = answer.json()["log"]
    starter = table.seats.get(index=table.actions.get(kind=Action.Kind.START).payload["seat"]).name
    assert [line["text"] for line in lines] == [f"{starter} starts (drawn at random).", "The opening position was dealt."]
    assert "hands" not in answer.content.decode() and "bag" not in answer.content.decode()


def test_a_table_from_before_the_opening_was_logged_still_replays_by_re_running_the_set_up():
    table = create_table("yellow_yangtze", {}, THREE, seed=4)
    play(table, random.Random(1), 5)
    table.actions.filter(kind=Action.Kind.SETUP).delete()  # as every table created before this change
    table.refresh_from_db()
    assert table.game().encode(replay(table)) == table.state
    with pytest.raises(IncompleteLog):
        replay(table, strict=True)


def test_replay_table_fix_refuses_to_write_a_snapshot_without_the_recorded_opening():
    """An old table switched to physical re-deals differently: --fix must not write that replay over the snapshot."""
    table = create_table("yellow_yangtze", {}, THREE, seed=4)
    play(table, random.Random(1), 5)
    table.actions.filter(kind=Action.Kind.SETUP).delete()
    set_components(table.code, "physical")
    table.refresh_from_db()
    snapshot = table.state
    Table.objects.filter(id=table.id).update(state={**snapshot, "turn": 99})  # a snapshot that differs
    out = StringIO()
    with pytest.raises(CommandError, match="not fixed"):
        call_command("replay_table", table.code, "--fix", stdout=out)
    table.refresh_from_db()
    assert table.state["turn"] == 99, "nothing written"
    assert "not fixed" in out.getvalue()


def test_replay_table_fix_refuses_a_replay_that_raised():
    table = create_table("sorry", {}, TWO, seed=4)
    play(table, random.Random(2), 4)
    row = table.actions.filter(kind=Action.Kind.GAME).order_by("seq").first()
    Action.objects.filter(id=row.id).update(payload={"kind": "draw", "card": "no-such-card"})
    table.refresh_from_db()
    before = table.state
    with pytest.raises(CommandError, match="not fixed"):
        call_command("replay_table", table.code, "--fix", stdout=StringIO())
    table.refresh_from_db()
    assert table.state == before


def test_replay_table_fix_still_rebuilds_a_stale_snapshot_from_a_complete_replay():
    table = create_table("yellow_yangtze", {}, THREE, seed=4)
    play(table, random.Random(1), 5)
    table.refresh_from_db()
    good = table.state
    Table.objects.filter(id=table.id).update(state={**good, "turn": 99})
    out = StringIO()
    call_command("replay_table", table.code, "--fix", stdout=out)
    table.refresh_from_db()
    assert table.state == good and "snapshot rebuilt from the log" in out.getvalue()


def test_the_deal_line_is_translated():
    from django.utils import translation

    from games.read.presenters import log_lines

    table = create_table("yellow_yangtze", {}, THREE, seed=3)
    with translation.override("fa"):
        lines = log_lines(table, table.game(), 0)
    assert lines[-1]["text"] == "چینش آغازین بازی پخش شد."


@pytest.mark.parametrize("slug", SHIPPED)
def test_every_shipped_game_has_a_case_here(slug):
    """Every shipped game is in ``GAMES``: a new game fails here rather than pass unchecked."""
    assert slug in {case[0] for case in GAMES}, f"{slug} has no case in {__name__}.GAMES (OPENINGS in its examples.py)"
