"""The one write path (shared/DESIGN.md "The write path"), on the Count-to-ten fixture game."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games.engines.base import IllegalAction
from games.models import Action, Table
from games.record.audit import replay
from games.write.corrections import confirm_correction, propose_correction, reject_correction
from games.write.host import end_game, set_components, undo_last
from games.write.moves import submit_action
from games.write.pregame import create_table
from games.write.write_path import Forbidden, KeyReused, StaleVersion

pytestmark = pytest.mark.django_db


def test_an_action_appends_one_log_row_and_bumps_the_version(counting_table):
    outcome = submit_action(counting_table.code, 0, {"kind": "draw"}, 0, "k1")
    counting_table.refresh_from_db()
    assert (outcome.version, outcome.seq, outcome.replayed) == (1, 1, False)
    assert counting_table.version == 1
    row = Action.objects.get(table=counting_table, seq__gt=0)  # seq 0 records the opening position
    assert row.kind == "game" and row.seat == 0 and row.version == 1
    assert row.payload["card"] in {"1", "2", "3"}, "the drawn card (the chance outcome) is in the log"
    assert counting_table.state["hands"][0] == [row.payload["card"]]


def test_a_retry_with_the_same_key_returns_the_first_answer_and_writes_nothing(counting_table):
    first = submit_action(counting_table.code, 0, {"kind": "draw"}, 0, "same-key")
    again = submit_action(counting_table.code, 0, {"kind": "draw"}, 0, "same-key")
    assert again.replayed and (again.version, again.seq) == (first.version, first.seq)
    assert Action.objects.filter(table=counting_table, seq__gt=0).count() == 1


def test_a_stale_version_is_refused_with_nothing_written(counting_table):
    submit_action(counting_table.code, 0, {"kind": "draw"}, 0, "a")
    with pytest.raises(StaleVersion) as err:
        submit_action(counting_table.code, 0, {"kind": "play", "card": "1"}, 0, "b")
    assert (err.value.seen, err.value.current) == (0, 1)
    assert Action.objects.filter(table=counting_table, seq__gt=0).count() == 1


def test_an_illegal_action_writes_nothing_and_names_the_rule(counting_table):
    with pytest.raises(IllegalAction) as err:
        submit_action(counting_table.code, 1, {"kind": "draw"}, 0, "x")
    assert err.value.code == "not_your_turn"
    counting_table.refresh_from_db()
    assert counting_table.version == 0 and not counting_table.actions.filter(seq__gt=0).exists()


def test_physical_mode_refuses_a_card_that_cannot_be_in_the_deck(db):
    table = create_table("counting", {"components": "physical"}, [{"name": "A"}, {"name": "B"}])
    with pytest.raises(IllegalAction) as err:
        submit_action(table.code, 0, {"kind": "draw", "card": "9"}, 0)
    assert err.value.code == "card_not_in_deck"
    submit_action(table.code, 0, {"kind": "draw", "card": "3"}, 0)
    table.refresh_from_db()
    assert table.state["hands"][0] == ["3"]


def test_replay_of_the_log_equals_the_snapshot(counting_table):
    game = counting_table.game()
    for _ in range(9):
        counting_table.refresh_from_db()
        state = game.decode(counting_table.state)
        seat = game.prompt(state).seats[0]
        action = game.legal_actions(state, seat)[0]
        submit_action(counting_table.code, seat, action, counting_table.version)
    counting_table.refresh_from_db()
    assert game.encode(replay(counting_table)) == counting_table.state


def test_undo_rewinds_the_last_move_and_keeps_both_rows_in_the_log(counting_table):
    submit_action(counting_table.code, 0, {"kind": "draw"}, 0)
    undo_last(counting_table.code, 1)
    counting_table.refresh_from_db()
    assert counting_table.state["hands"][0] == [] and counting_table.version == 2
    assert list(counting_table.actions.values_list("kind", flat=True)) == ["setup", "game", "undo"]
    with pytest.raises(IllegalAction) as err:
        undo_last(counting_table.code, 2)
    assert err.value.code == "nothing_to_undo"


def test_a_correction_applies_only_after_every_other_seat_confirms(db):
    table = create_table("counting", {"components": "physical"}, [{"name": "A"}, {"name": "B"},
                                                                            {"name": "C"}])
    submit_action(table.code, 0, {"kind": "draw", "card": "1"}, 0)
    correction = propose_correction(table.code, 1, 1, {"kind": "draw", "card": "3"}, "it was a 3")
    table.refresh_from_db()
    assert table.state["hands"][0] == ["1"], "nothing changes before the others confirm"
    confirm_correction(table.code, correction.id, 0)
    table.refresh_from_db()
    assert table.state["hands"][0] == ["1"]
    confirm_correction(table.code, correction.id, 2)
    table.refresh_from_db()
    assert table.state["hands"][0] == ["3"]
    kinds = list(table.actions.values_list("kind", flat=True))
    assert kinds == ["setup", "game", "correct"], "the original row stays; the correction is a row of its own"
    assert table.actions.get(seq=1).payload["card"] == "1"


def test_a_correction_the_rules_refuse_is_asked_and_dropped_when_the_others_confirm(db):
    """Whether it fits depends on hidden draws, so the proposal itself answers nothing."""
    table = create_table("counting", {"components": "physical"}, [{"name": "A"}, {"name": "B"}])
    submit_action(table.code, 0, {"kind": "draw", "card": "1"}, 0)
    correction = propose_correction(table.code, 1, 1, {"kind": "draw", "card": "7"})
    assert correction.status == "open"
    with pytest.raises(IllegalAction):
        confirm_correction(table.code, correction.id, 0)
    correction.refresh_from_db()
    assert correction.status == "void"
    assert replay(table) == table.game().decode(Table.objects.get(id=table.id).state)


def test_the_host_ends_the_game_and_no_action_is_taken_after(counting_table):
    end_game(counting_table.code)
    with pytest.raises(Forbidden):
        submit_action(counting_table.code, 0, {"kind": "draw"}, 1)
    counting_table.refresh_from_db()
    assert counting_table.status == Table.Status.ENDED


def test_switching_to_physical_mid_game_keeps_the_log_replayable(counting_table):
    submit_action(counting_table.code, 0, {"kind": "draw"}, 0)
    set_components(counting_table.code, "physical")
    counting_table.refresh_from_db()
    assert counting_table.options["components"] == "physical"
    with pytest.raises(IllegalAction):
        set_components(counting_table.code, "telepathic")
    game = counting_table.game()
    assert game.encode(replay(counting_table)) == counting_table.state


@pytest.mark.django_db(transaction=True)
def test_two_phones_posting_at_once_apply_one_and_refuse_the_other_as_stale():
    table = create_table("counting", {}, [{"name": "A"}, {"name": "B"}])
    results: list[str] = []
    barrier = threading.Barrier(2)

    def tap(key: str) -> None:
        barrier.wait()
        try:
            submit_action(table.code, 0, {"kind": "draw"}, 0, key)
            results.append("applied")
        except StaleVersion:
            results.append("stale")
        finally:
            connection.close()

    threads = [threading.Thread(target=tap, args=(k,)) for k in ("phone-1", "phone-2")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["applied", "stale"]
    assert Action.objects.filter(table=table, seq__gt=0).count() == 1


def test_in_digital_mode_a_phone_cannot_pick_its_own_card(db):
    table = create_table("sorry", {}, [{"name": "A"}, {"name": "B"}], seed=3)
    with pytest.raises(IllegalAction) as err:
        submit_action(table.code, 0, {"kind": "draw", "card": "sorry"}, 0)
    assert err.value.code == "outcome_from_server"
    assert not table.actions.filter(seq__gt=0).exists()


def test_a_key_reused_for_another_move_is_refused_and_another_seats_key_is_its_own(counting_table):
    submit_action(counting_table.code, 0, {"kind": "draw"}, 0, "k")
    # Keys are kept per seat: seat 1's "k" is a fresh key, answered as any other (stale here),
    # never key_reused, which would tell seat 1 that seat 0 wrote under "k".
    with pytest.raises(StaleVersion):
        submit_action(counting_table.code, 1, {"kind": "draw"}, 0, "k")
    with pytest.raises(KeyReused):
        submit_action(counting_table.code, 0, {"kind": "play", "card": "1"}, 0, "k")
    assert submit_action(counting_table.code, 0, {"kind": "draw"}, 0, "k").replayed


def test_after_the_host_ends_the_game_nothing_is_undone_or_switched(counting_table):
    submit_action(counting_table.code, 0, {"kind": "draw"}, 0)
    end_game(counting_table.code)
    with pytest.raises(Forbidden):
        undo_last(counting_table.code, 2)
    with pytest.raises(Forbidden):
        set_components(counting_table.code, "physical")
    counting_table.refresh_from_db()
    assert counting_table.state["hands"][0] and counting_table.options["components"] == "digital"


def _to_a_simultaneous_step(table):
    """Play Amun-Re through the write path until several phones are prompted at once (province entry/offering)."""
    game = table.game()
    for _ in range(400):
        table.refresh_from_db()
        state = game.decode(table.state)
        prompt = game.prompt(state)
        if len(prompt.seats) >= 3:
            return game, state, prompt
        seat = prompt.seats[0]
        submit_action(table.code, seat, game.legal_actions(state, seat)[0], table.version)
    raise AssertionError("no simultaneous step reached")


def test_in_a_simultaneous_step_another_phones_answer_does_not_make_my_tap_stale(db):
    table = create_table("amun_re", {}, [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cal"}], seed=4)
    game, state, prompt = _to_a_simultaneous_step(table)
    seen = table.version
    first, second, third = prompt.seats[:3]
    submit_action(table.code, first, game.legal_actions(state, first)[0], seen)
    submit_action(table.code, second, game.legal_actions(state, second)[0], seen)
    table.refresh_from_db()
    assert table.version == seen + 2, "both answers to one simultaneous step went in"
    with pytest.raises(StaleVersion):
        # the same seat answering again on an old version is stale: its own answer changed things
        submit_action(table.code, second, game.legal_actions(state, second)[0], seen)
    table.refresh_from_db()
    assert third in game.prompt(game.decode(table.state)).seats
    submit_action(table.code, third, game.legal_actions(state, third)[0], seen)  # the last phone, too
    table.refresh_from_db()
    assert table.version == seen + 3


def test_a_turned_down_correction_leaves_a_log_row_and_changes_nothing(db, fixture_game_registered):
    table = create_table("counting", {"components": "physical"}, [{"name": "A"}, {"name": "B"},
                                                                            {"name": "C"}])
    submit_action(table.code, 0, {"kind": "draw", "card": "1"}, 0)
    correction = propose_correction(table.code, 0, 1, {"kind": "draw", "card": "3"})
    reject_correction(table.code, correction.id, 2)
    table.refresh_from_db()
    assert table.state["hands"][0] == ["1"]
    last = table.actions.order_by("-seq").first()
    assert last.kind == "correct" and last.payload["rejected"] and last.payload["by"] == 2
    assert not table.corrections.filter(status="open").exists()
    rows = table.actions.count()
    late = confirm_correction(table.code, correction.id, 1)  # a late "yes" is told the outcome
    assert late.status == "rejected" and table.actions.count() == rows


def test_a_correction_the_later_moves_no_longer_fit_is_dropped_not_left_open(db, fixture_game_registered):
    table = create_table("counting", {"components": "physical"}, [{"name": "A"}, {"name": "B"}])
    submit_action(table.code, 0, {"kind": "draw", "card": "1"}, 0)
    correction = propose_correction(table.code, 0, 1, {"kind": "draw", "card": "3"})
    submit_action(table.code, 0, {"kind": "play", "card": "1"}, 1)  # the 1 is played meanwhile
    with pytest.raises(IllegalAction) as err:
        confirm_correction(table.code, correction.id, 1)
    assert err.value.code == "log_conflict"
    table.refresh_from_db()
    assert not table.corrections.filter(status="open").exists()
    last = table.actions.order_by("-seq").first()
    assert last.kind == "correct" and last.payload["void"]
    assert table.game().encode(replay(table)) == table.state


def test_too_many_players_is_refused_as_a_seat_count_not_as_colours(db):
    with pytest.raises(IllegalAction) as err:
        create_table("sorry", {}, [{"name": n} for n in "ABCDE"])
    assert err.value.code == "seat_count"


def test_the_row_the_write_locks_reads_every_field_as_the_orm_does(counting_table):
    from django.db import transaction

    from games.write import write_path

    submit_action(counting_table.code, 0, {"kind": "draw"}, 0, "k1")
    stored = Action.objects.get(table=counting_table, seq=1).idempotency_key  # the key in the seat's own scope
    with transaction.atomic():
        locked = write_path._lock_for_write(counting_table.code, stored)
        unused = write_path._lock_for_write(counting_table.code, "never-used")
    fresh = Table.objects.get(code=counting_table.code)
    for f in Table._meta.concrete_fields:  # JSON, dates with their time zone, booleans, as QuerySet.get reads them
        assert getattr(locked, f.attname) == getattr(fresh, f.attname), f.name
        assert type(getattr(locked, f.attname)) is type(getattr(fresh, f.attname)), f.name
    assert (locked.key_used, unused.key_used) == (True, False)
    assert not locked._state.adding and locked._state.db == fresh._state.db
    with pytest.raises(Table.DoesNotExist), transaction.atomic():
        write_path._lock_for_write("NOSUCH", "")
