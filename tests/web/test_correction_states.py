"""Corrections are a small state machine with one lock order.

open (proposed) -> applied (agreed) | rejected (turned down by another seat)
| withdrawn (by its proposer) | void (the later moves no longer fit). Each
transition happens once; a repeat answers the current outcome, never an
error and never a 500; racing answers end in exactly one outcome with one
closing log row. Every service takes the table row lock first, so
PostgreSQL never deadlocks (``make test-scale`` runs this file on
PostgreSQL with 25 trials per race; the normal suite on SQLite with fewer).
"""

from __future__ import annotations

import itertools
import threading
from collections import Counter

import pytest
from django.db import connection

from games.engines.base import IllegalAction
from games.models import Action, Correction
from games.record.audit import replay
from games.write.corrections import confirm_correction, propose_correction, reject_correction
from games.write.host import undo_last
from games.write.moves import submit_action, undo_own
from games.write.pregame import create_table
from games.write.write_path import Forbidden
from tests.conftest import phone_for

PROPOSER, BOB, CAROL = 0, 1, 2
OPS = ["confirm_bob", "confirm_carol", "reject_bob", "reject_carol", "withdraw"]


def three_seat_table():
    """Alice drew a 1 (move #1) and proposes that it was a 3; Bob and Carol must confirm."""
    table = create_table("counting", {"components": "physical"},
                                  [{"name": "Alice"}, {"name": "Bob"}, {"name": "Carol"}])
    submit_action(table.code, 0, {"kind": "draw", "card": "1"}, 0)
    correction = propose_correction(table.code, PROPOSER, 1, {"kind": "draw", "card": "3"})
    return table, correction


def run(op: str, code: str, correction_id: int) -> Correction:
    if op == "withdraw":
        return reject_correction(code, correction_id, PROPOSER)
    action, who = op.split("_")
    seat = {"bob": BOB, "carol": CAROL}[who]
    if action == "confirm":
        return confirm_correction(code, correction_id, seat)
    return reject_correction(code, correction_id, seat)


def expected(ops: list[str]) -> str:
    """The outcome the first deciding answer sets: both others confirmed, or the first no."""
    confirmed: set[str] = set()
    for op in ops:
        if op == "withdraw":
            return "withdrawn"
        if op.startswith("reject"):
            return "rejected"
        confirmed.add(op)
        if confirmed == {"confirm_bob", "confirm_carol"}:
            return "applied"
    return "open"


def assert_consistent(table, correction_id: int) -> str:
    """One closing row that agrees with the status, and the snapshot equals the replayed log."""
    correction = Correction.objects.get(id=correction_id)
    rows = list(Action.objects.filter(table=table, kind="correct", payload__correction=correction_id))
    if correction.status == "open":
        assert rows == []
    else:
        assert len(rows) == 1, f"{correction.status}: {[r.payload for r in rows]}"
        payload = rows[0].payload
        assert bool(payload.get("rejected")) == (correction.status in ("rejected", "withdrawn"))
        assert bool(payload.get("withdrawn")) == (correction.status == "withdrawn")
        assert ("replacement" in payload) == (correction.status == "applied")
    table.refresh_from_db()
    assert table.game().encode(replay(table)) == table.state
    hand = table.state["hands"][0]
    assert hand == (["3"] if correction.status == "applied" else ["1"])
    return correction.status


# -- sequential repeats, every ordered pair of answers ----------------------------------------------


@pytest.mark.parametrize(("first", "second"), list(itertools.product(OPS, OPS)))
def test_every_pair_of_answers_in_a_row_decides_once_and_repeats_answer_the_outcome(db, fixture_game_registered,
                                                                                     first, second):
    table, correction = three_seat_table()
    run(first, table.code, correction.id)
    answered = run(second, table.code, correction.id)  # never raises: a repeat is told the outcome
    status = assert_consistent(table, correction.id)
    assert status == expected([first, second])
    assert answered.status == status


def test_the_proposers_no_is_a_withdrawal_and_the_log_says_so(db, fixture_game_registered):
    table, correction = three_seat_table()
    reject_correction(table.code, correction.id, PROPOSER)
    page = phone_for(table, BOB).get(f"/t/{table.code}/").content.decode()
    assert "Alice withdrew the correction of move #1" in page
    assert "turned down" not in page


def test_a_third_answer_after_the_correction_applied_changes_nothing(db, fixture_game_registered):
    table, correction = three_seat_table()
    for op in ("confirm_bob", "confirm_carol", "confirm_carol", "reject_bob", "withdraw"):
        run(op, table.code, correction.id)
    assert assert_consistent(table, correction.id) == "applied"


def test_a_seat_that_is_not_at_the_table_is_refused(db, fixture_game_registered):
    table, correction = three_seat_table()
    with pytest.raises(Forbidden):
        confirm_correction(table.code, correction.id, 7)
    with pytest.raises(Forbidden):
        reject_correction(table.code, correction.id, 7)
    assert assert_consistent(table, correction.id) == "open"


def test_a_replacement_that_is_not_an_object_is_refused_not_a_crash(db, fixture_game_registered):
    table, _ = three_seat_table()
    with pytest.raises(IllegalAction) as err:
        propose_correction(table.code, PROPOSER, 1, ["draw", "3"])  # type: ignore[arg-type]
    assert err.value.code == "bad_action"


# -- the pages: every answer is a redirect with a message, never a 500 ---------------------------


def test_a_second_no_from_another_phone_is_told_the_outcome_not_a_500(db, fixture_game_registered):
    table, correction = three_seat_table()
    bob, carol = phone_for(table, BOB), phone_for(table, CAROL)
    assert bob.post(f"/t/{table.code}/corrections/{correction.id}/", {"answer": "no"}).status_code == 302
    response = carol.post(f"/t/{table.code}/corrections/{correction.id}/", {"answer": "no"}, follow=True)
    assert response.status_code == 200
    assert "The correction was turned down; the move stands." in response.content.decode()
    assert assert_consistent(table, correction.id) == "rejected"


@pytest.mark.parametrize("answers", [
    [("bob", "yes"), ("bob", "yes")],
    [("bob", "no"), ("bob", "no")],
    [("alice", "no"), ("bob", "yes")],
    [("bob", "yes"), ("carol", "yes"), ("carol", "yes"), ("alice", "no")],
    [("alice", "yes"), ("alice", "no"), ("alice", "no")],
])
def test_repeated_answers_on_the_phones_always_redirect_with_a_message(db, fixture_game_registered, answers):
    table, correction = three_seat_table()
    phones = {"alice": phone_for(table, 0), "bob": phone_for(table, BOB), "carol": phone_for(table, CAROL)}
    for who, answer in answers:
        response = phones[who].post(f"/t/{table.code}/corrections/{correction.id}/", {"answer": answer},
                                    follow=True)
        assert response.status_code == 200
        assert '<ul class="messages">' in response.content.decode()
    assert_consistent(table, correction.id)


def test_answering_another_tables_correction_is_a_404(db, fixture_game_registered):
    table, correction = three_seat_table()
    other, _ = three_seat_table()
    response = phone_for(other, BOB).post(f"/t/{other.code}/corrections/{correction.id}/", {"answer": "yes"})
    assert response.status_code == 404
    assert assert_consistent(table, correction.id) == "open"


@pytest.mark.parametrize("data", [
    {"target": "1", "replacement": "[1, 2]"},
    {"target": "1", "replacement": "7"},
    {"target": "1", "replacement": "{"},
    {"target": "x"},
    {"target": "99999999999999999999999"},
    {"target": "-1"},
])
def test_a_malformed_proposal_is_a_message_not_a_500(db, fixture_game_registered, data):
    table, _ = three_seat_table()
    response = phone_for(table, BOB).post(f"/t/{table.code}/corrections/", data, follow=True)
    assert response.status_code == 200 and '<ul class="messages">' in response.content.decode()
    assert table.corrections.count() == 1


# -- races: threads answering at once end in exactly one outcome -------------------------------------


# race: (seats at the table, seats that confirmed before, the two answers sent at once, outcomes allowed)
RACES = {
    "confirm-vs-withdraw": (3, [CAROL], [(BOB, "yes"), (PROPOSER, "no")], {"applied", "withdrawn"}),
    "double-confirm": (2, [], [(BOB, "yes"), (BOB, "yes")], {"applied"}),
    "double-reject": (3, [], [(BOB, "no"), (CAROL, "no")], {"rejected"}),
    "last-confirm-vs-reject": (3, [BOB], [(CAROL, "yes"), (BOB, "no")], {"applied", "rejected"}),
}


def trials() -> int:
    """25 races of each kind on PostgreSQL (make test-scale), 6 on SQLite (which serialises writers anyway)."""
    return 25 if connection.vendor == "postgresql" else 6


def race_once(race: str) -> tuple[str, Counter]:
    seats, before, answers, _ = RACES[race]
    table = create_table("counting", {"components": "physical"},
                                  [{"name": "Alice"}, {"name": "Bob"}, {"name": "Carol"}][:seats])
    submit_action(table.code, 0, {"kind": "draw", "card": "1"}, 0)
    correction = propose_correction(table.code, PROPOSER, 1, {"kind": "draw", "card": "3"})
    for seat in before:
        confirm_correction(table.code, correction.id, seat)
    statuses: Counter = Counter()
    barrier = threading.Barrier(len(answers))

    def answer(seat: int, value: str) -> None:
        try:
            phone = phone_for(table, seat)
            phone.raise_request_exception = False  # count a 500 instead of raising it in the thread
            barrier.wait()
            response = phone.post(f"/t/{table.code}/corrections/{correction.id}/", {"answer": value})
            statuses[response.status_code] += 1
        finally:
            connection.close()

    threads = [threading.Thread(target=answer, args=pair) for pair in answers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return assert_consistent(table, correction.id), statuses


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("race", list(RACES))
def test_racing_answers_end_in_exactly_one_outcome_and_never_a_500(fixture_game_registered, race):
    outcomes: Counter = Counter()
    statuses: Counter = Counter()
    for _ in range(trials()):
        outcome, answered = race_once(race)
        outcomes[outcome] += 1
        statuses.update(answered)
    print(f"\n{race} on {connection.vendor}: {trials()} trials, outcomes {dict(outcomes)}, answers {dict(statuses)}")
    assert statuses == Counter({302: 2 * trials()}), "every answer is a redirect with a message"
    assert set(outcomes) <= RACES[race][3] and sum(outcomes.values()) == trials()


def test_a_correction_of_a_move_the_host_undid_meanwhile_closes_as_void(db, fixture_game_registered):
    """The undo itself closes it (see the next test); a confirm that comes after is told the outcome."""
    table, correction = three_seat_table()
    undo_last(table.code, None)
    correction.refresh_from_db()
    assert correction.status == "void"
    assert confirm_correction(table.code, correction.id, BOB).status == "void", "a late confirm is told"
    assert confirm_correction(table.code, correction.id, CAROL).status == "void", "a repeat is told"
    table.refresh_from_db()
    assert table.state["hands"][0] == [] and table.game().encode(replay(table)) == table.state


@pytest.mark.parametrize("undo", ["host", "own"])
def test_undoing_the_corrected_move_closes_its_correction_at_once(db, fixture_game_registered, undo):
    """The host undid move #9 while a proposal to drop it was open: the proposal stayed on every phone,
    one player's "Confirm" was taken ("waiting for the others") and only the last one was told the move
    was gone. Undoing the target (the host's undo or the mover's own) is public, so the correction turns
    void then, with its closing log row, and no phone is asked about a move that no longer counts."""
    table = create_table("counting", {"components": "physical"},
                                  [{"name": "Alice"}, {"name": "Bob"}, {"name": "Carol"}])
    submit_action(table.code, 0, {"kind": "draw", "card": "1"}, 0)
    if undo == "own":  # a move that reveals nothing, so its mover may take it back
        submit_action(table.code, 0, {"kind": "play", "card": "1"}, 1)
    target = 2 if undo == "own" else 1
    correction = propose_correction(table.code, BOB, target, None)
    table.refresh_from_db()
    if undo == "host":
        outcome = undo_last(table.code, table.version)
    else:
        outcome = undo_own(table.code, 0, table.version)
    correction.refresh_from_db()
    table.refresh_from_db()
    assert outcome.version == table.version, "the answer names the table's newest version"
    assert correction.status == Correction.Status.VOID
    rows = list(Action.objects.filter(table=table, kind=Action.Kind.CORRECT))
    assert [r.payload.get("void") for r in rows] == [True] and rows[0].payload["target"] == target
    page = phone_for(table, CAROL).get(f"/t/{table.code}/").content.decode()
    assert f'/corrections/{correction.id}/' not in page, "no phone is asked to confirm it"
