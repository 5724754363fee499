"""A correction tells each seat only what that seat may see.

A correction is re-checked against every later move. The rule a later move
would break can be another seat's secret ("Rule 2.5: no set of your cards
adds up to 1" is another seat's sealed offering), and even a bare yes/no at
proposal would answer a question about hidden hands. So a proposal is never
refused for what the proposer cannot see: it goes to the other phones, and the replay
happens when the last of them confirms. A change that no longer fits then
closes as void (a log row every phone reads), and the last confirmer is told
the move only when that seat may read it, never the engine's rule text, code
or values (shared/STYLE.md principle 7).
"""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from games.engines.base import IllegalAction
from games.write.corrections import confirm_correction, propose_correction, reject_correction
from games.write.moves import submit_action
from games.write.pregame import create_table
from tests.conftest import phone_for, post_action
from tests.web.test_amun_re_table import ALICE, BOB, CAROL, PLAYERS, offer, play_to_the_offering


def refusal(call) -> IllegalAction:
    with pytest.raises(IllegalAction) as err:
        call()
    return err.value


def voided(table, proposer: int, target: int, replacement, last: int | None = None) -> IllegalAction:
    """Propose (taken, whatever the hidden state), let every other seat confirm; the last "yes" finds it void.

    Returns the refusal the last confirmer (``last``, by default the highest other seat) is told.
    """
    correction = propose_correction(table.code, proposer, target, replacement)
    assert correction.status == "open", "a proposal is never refused for what the proposer cannot see"
    others = [seat for seat in range(table.seats.count()) if seat != proposer]
    if last is not None:
        others.remove(last)
        others.append(last)
    for seat in others[:-1]:
        confirm_correction(table.code, correction.id, seat)
    exc = refusal(lambda: confirm_correction(table.code, correction.id, others[-1]))
    correction.refresh_from_db()
    assert correction.status == "void"
    return exc


def assert_tells_nothing(exc: IllegalAction, secrets: list[str]) -> None:
    """The refusal is the generic one: no rule text, no engine code or details, none of ``secrets``."""
    told = json.dumps([exc.code, exc.message, exc.template, exc.as_json()])
    assert exc.code == "log_conflict"
    assert "no longer fits" in exc.message
    assert "rule" not in exc.details and "reason" not in exc.details
    for secret in secrets:
        assert secret not in told, f"{secret!r} leaked in {told}"


def assert_page_tells_nothing(page: str, secrets: list[str]) -> None:
    for secret in secrets:
        assert secret not in page, f"{secret!r} leaked on the page"


# -- Amun-Re: the sealed offering (rules 2.5) ---------------------------------------------------------


AMUN_SECRETS = ["Rule 2.5", "adds up to", "offer_not_possible", "You offer", "no longer be legal"]


def amun_re_with_alices_hand_changed(proposer: int):
    """Everyone kept 0, 1, 2, 3, 8 (public, rule 2.3); the change keeps 0, 2, 4, 8 for Alice (same total)."""
    table = play_to_the_offering()
    first = table.actions.get(seq=1)
    assert first.seat == ALICE and first.payload["cards"] == [0, 1, 2, 3, 8]
    return table, lambda: propose_correction(table.code, proposer, 1,
                                                      {"kind": "build_hand", "cards": [0, 2, 4, 8]})


def test_amun_re_a_correction_that_a_sealed_offering_breaks_is_taken_and_voided_naming_nothing(db):
    table, _ = amun_re_with_alices_hand_changed(CAROL)
    offer(table, ALICE, 1)  # sealed: with 0, 2, 4, 8 no set adds up to 1
    offer(table, BOB, 2)
    exc = voided(table, CAROL, 1, {"kind": "build_hand", "cards": [0, 2, 4, 8]}, last=BOB)
    assert_tells_nothing(exc, AMUN_SECRETS + [f"#{table.actions.count() - 1}"])
    assert exc.details == {}, "another seat's sealed offering is not even named"


def test_amun_re_the_refusal_page_of_the_proposer_shows_no_sealed_offering(db):
    table, _ = amun_re_with_alices_hand_changed(CAROL)
    offer(table, ALICE, 1)
    carol = phone_for(table, CAROL)
    response = carol.post(f"/t/{table.code}/corrections/", {"target": 1, "replacement": json.dumps(
        {"kind": "build_hand", "cards": [0, 2, 4, 8]})}, follow=True)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Correction proposed" in page, "taken like any proposal: its fate is decided by the others"
    assert_page_tells_nothing(page, AMUN_SECRETS)


def test_amun_re_a_correction_voided_by_a_later_offering_tells_the_last_confirmer_and_the_log_nothing(db):
    table, propose = amun_re_with_alices_hand_changed(CAROL)
    correction = propose()  # fits now: nobody has offered yet
    offer(table, ALICE, 1)
    confirm_correction(table.code, correction.id, ALICE)
    exc = refusal(lambda: confirm_correction(table.code, correction.id, BOB))
    assert_tells_nothing(exc, AMUN_SECRETS)
    correction.refresh_from_db()
    assert correction.status == "void"
    row = table.actions.order_by("-seq").first()
    assert row.kind == "correct" and row.payload["void"] and "reason" not in row.payload
    assert_page_tells_nothing(json.dumps(row.payload), AMUN_SECRETS)
    for viewer in (BOB, CAROL):
        page = phone_for(table, viewer).get(f"/t/{table.code}/").content.decode()
        assert "no longer fits the later moves" in page
        assert_page_tells_nothing(page, AMUN_SECRETS)
    api = APIClient().get(f"/api/tables/{table.code}/log/").content.decode()
    assert_page_tells_nothing(api, AMUN_SECRETS)


def test_amun_re_the_owner_of_the_offering_is_told_which_of_her_moves_no_longer_fits(db):
    table, _ = amun_re_with_alices_hand_changed(CAROL)
    offer(table, ALICE, 1)
    offering = table.actions.order_by("-seq").first().seq
    exc = voided(table, CAROL, 1, {"kind": "build_hand", "cards": [0, 2, 4, 8]}, last=ALICE)
    assert exc.details["seq"] == offering and "You offer 1 gold." in exc.message
    assert "Rule 2.5" not in exc.message


# -- Sorry! play for points: the hidden hands (section 3.2) ----------------------------------------


def sorry_points_deal(players: int = 3):
    """Physical points mode; the deal goes round: Alice 12, Bob 12, Carol 12, Alice 3, Bob 12 (the last 12)."""
    table = create_table("sorry", {"components": "physical", "points_mode": True},
                                  PLAYERS[:players], seed=4)
    for seat, card in [(0, "12"), (1, "12"), (2, "12"), (0, "3"), (1, "12")]:
        table.refresh_from_db()
        submit_action(table.code, seat, {"kind": "draw", "card": card}, table.version)
    return table


SORRY_SECRETS = ["Section 2.1", "draw pile", "card_not_in_deck", "12"]


def test_sorry_points_a_correction_that_a_hidden_draw_breaks_names_nothing(db):
    table = sorry_points_deal()
    # Alice says her 3 (move #4) was a 12: then Bob's hidden move #5 (the last 12) no longer fits.
    exc = voided(table, 0, 4, {"kind": "draw", "card": "12"}, last=2)
    assert_tells_nothing(exc, SORRY_SECRETS + ["#5"])
    assert exc.details == {}


def test_sorry_points_the_proposers_page_and_the_fix_page_show_no_hidden_draw(db):
    table = sorry_points_deal()
    alice = phone_for(table, 0)
    assert "Bob drew 12" not in alice.get(f"/t/{table.code}/corrections/fix/5/").content.decode()
    response = alice.post(f"/t/{table.code}/corrections/", {"target": 4, "replacement": json.dumps(
        {"kind": "draw", "card": "12"})}, follow=True)
    page = response.content.decode()
    assert response.status_code == 200 and "Correction proposed" in page
    assert "Section 2.1" not in page and "draw pile" not in page and "move #5" not in page


def test_sorry_points_a_voided_correction_tells_the_confirmer_nothing_of_the_hidden_draw(db):
    table = create_table("sorry", {"components": "physical", "points_mode": True}, PLAYERS, seed=4)
    for seat, card in [(0, "12"), (1, "12"), (2, "12"), (0, "3")]:
        table.refresh_from_db()
        submit_action(table.code, seat, {"kind": "draw", "card": card}, table.version)
    correction = propose_correction(table.code, 0, 4, {"kind": "draw", "card": "12"})  # fits now
    table.refresh_from_db()
    submit_action(table.code, 1, {"kind": "draw", "card": "12"}, table.version)  # Bob's hidden 12
    confirm_correction(table.code, correction.id, 1)
    exc = refusal(lambda: confirm_correction(table.code, correction.id, 2))  # Carol, the last "yes"
    assert_tells_nothing(exc, SORRY_SECRETS + ["#5"])
    carol_page = phone_for(table, 2).get(f"/t/{table.code}/").content.decode()
    assert "Section 2.1" not in carol_page and "draw pile" not in carol_page


# -- Yellow & Yangtze: the tiles behind the screen (section 1.3) --------------------------------------


def yy_deal(hands: dict[int, list[str]]):
    """A physical three-seat table where each seat types in the hand it drew (hidden from the others)."""
    table = create_table("yellow_yangtze", {"components": "physical"}, PLAYERS, seed=3)
    game = table.game()
    order = []
    for _ in range(3):
        table.refresh_from_db()
        seat = game.prompt(game.decode(table.state)).seats[0]
        order.append(seat)
        submit_action(table.code, seat, {"kind": "draw", "tiles": hands[len(order) - 1]}, table.version)
    return table, order


def test_yellow_yangtze_a_correction_that_hidden_tiles_break_names_nothing(db):
    # the bag holds 12 yellow tiles: the second and third seats drew all of them, behind their screens
    table, order = yy_deal({0: ["red"] * 6, 1: ["yellow"] * 6, 2: ["yellow"] * 6})
    first = order[0]
    hands = list(table.actions.filter(kind="game").order_by("seq").values_list("seq", flat=True))  # after row #1,
    # the start the set-up drew
    exc = voided(table, first, hands[0], {"kind": "draw", "tiles": ["yellow"] + ["red"] * 5}, last=order[1])
    assert_tells_nothing(exc, ["yellow", "bag", f"#{hands[2]}", "§"])
    assert exc.details == {}
    page = phone_for(table, first).get(f"/t/{table.code}/").content.decode()
    assert "6 yellow" not in page


# -- the platform rule, on the fixture game ------------------------------------------------------------


def test_a_later_public_move_that_no_longer_fits_is_named_but_its_rule_is_not(db, fixture_game_registered):
    table = create_table("counting", {"components": "physical"}, [{"name": "Alice"}, {"name": "Bob"}])
    alice = phone_for(table, 0)
    post_action(alice, table, {"kind": "draw", "card": "1"})
    post_action(alice, table, {"kind": "play", "card": "1"})  # public: "Played a 1."
    exc = voided(table, 1, 1, {"kind": "draw", "card": "2"}, last=0)
    assert exc.details == {"seq": 2, "move": "Played a 1."}
    assert "You hold no" not in exc.message and "card_not_in_hand" not in json.dumps(exc.as_json())


def test_a_hidden_later_move_is_named_to_its_owner_only(db, fixture_game_registered):
    table = create_table("counting", {"components": "physical"}, [{"name": "Alice"}, {"name": "Bob"}])
    for seat, action in [(0, {"kind": "draw", "card": "3"}), (0, {"kind": "play", "card": "3"}),
                         (1, {"kind": "draw", "card": "2"})]:  # Bob's draw is hidden from Alice
        table.refresh_from_db()
        submit_action(table.code, seat, action, table.version)
    # Without Alice's play it would still be her turn, so Bob's hidden draw (#3) no longer fits.
    to_alice = voided(table, 1, 2, None, last=0)
    assert to_alice.details == {} and "#3" not in to_alice.message and "2" not in to_alice.message
    to_bob = voided(table, 0, 2, None, last=1)
    assert to_bob.details == {"seq": 3, "move": "You drew a 2."}, "Bob may read his own move"
    assert "turn" not in to_bob.message, "even then the engine's rule text stays out"


def test_the_refusal_is_translated_with_the_move_filled_in(db, fixture_game_registered):
    table = create_table("counting", {"components": "physical"}, [{"name": "Alice"}, {"name": "Bob"}])
    alice = phone_for(table, 0)
    post_action(alice, table, {"kind": "draw", "card": "1"})
    post_action(alice, table, {"kind": "play", "card": "1"})
    correction = propose_correction(table.code, 1, 1, {"kind": "draw", "card": "2"})
    alice.cookies["django_language"] = "fa"
    response = alice.post(f"/t/{table.code}/corrections/{correction.id}/", {"answer": "yes"}, follow=True)
    page = response.content.decode()
    assert "این تغییر دیگر با حرکت #۲" in page and "no longer fits" not in page  # Persian digits on a fa page


def test_a_replacement_the_rules_refuse_is_described_as_proposed_without_the_rule(db, fixture_game_registered):
    table = create_table("counting", {"components": "physical"}, [{"name": "Alice"}, {"name": "Bob"}])
    submit_action(table.code, 0, {"kind": "draw", "card": "1"}, 0)
    own = voided(table, 1, 1, {"kind": "draw", "card": "7"}, last=0)  # Alice reads her own move as proposed
    assert own.details == {"seq": 1, "move": "You drew a 7."} and "No 7 is left" not in own.message
    # Bob, the last to confirm Alice's own guess at her hidden draw, learns nothing but "dropped"
    guess = voided(table, 0, 1, {"kind": "draw", "card": "7"}, last=1)
    assert guess.details == {} and "7" not in guess.message


# -- the proposal itself is no oracle (the attacker's probe) ---------------------------------


def test_a_proposal_is_answered_the_same_whether_or_not_another_seats_hidden_hand_allows_it(db):
    """Alice asks "was my 3 a 12?" at two tables that differ only in Bob's hidden draw: the same answer."""
    answers = []
    for bobs_card in ("12", "5"):  # the last 12 in Bob's hidden hand, or still in the pile
        table = create_table("sorry", {"components": "physical", "points_mode": True}, PLAYERS, seed=4)
        for seat, card in [(0, "12"), (1, "12"), (2, "12"), (0, "3"), (1, bobs_card)]:
            table.refresh_from_db()
            submit_action(table.code, seat, {"kind": "draw", "card": card}, table.version)
        alice = phone_for(table, 0)
        response = alice.post(f"/t/{table.code}/corrections/", {"target": 4, "replacement": json.dumps(
            {"kind": "draw", "card": "12"})}, follow=True)
        answers.append((response.status_code, table.corrections.get().status,
                        "Correction proposed" in response.content.decode()))
    assert answers[0] == answers[1] == (200, "open", True)


def test_a_seat_has_one_open_proposal_at_a_time(db, fixture_game_registered):
    table = create_table("counting", {"components": "physical"}, [{"name": "Alice"}, {"name": "Bob"}])
    submit_action(table.code, 0, {"kind": "draw", "card": "1"}, 0)
    first = propose_correction(table.code, 1, 1, {"kind": "draw", "card": "2"})
    assert refusal(lambda: propose_correction(table.code, 1, 1, {"kind": "draw", "card": "3"})).code == (
        "correction_open")
    reject_correction(table.code, first.id, 1)  # withdrawn: a new one may be asked
    assert propose_correction(table.code, 1, 1, {"kind": "draw", "card": "3"}).status == "open"


def test_amun_re_a_correction_of_a_sealed_offering_reads_as_corrected_only_to_its_owner(db):
    """Whether an agreed correction changed a sealed entry is that entry's secret: to every other seat the log line
    reads as before (no "corrected" mark), whether the correction guessed the offering right or wrong."""
    from games.models import Table
    from games.read import snapshots
    from games.read.presenters import log_lines

    table = play_to_the_offering()
    offer(table, BOB, 1)
    seq = table.actions.order_by("-seq").first().seq

    def line(seat: int) -> dict:
        snap = snapshots.for_table(Table.objects.get(code=table.code))
        return next(x for x in log_lines(snap, snap.game, seat) if x["seq"] == seq)

    for guess in (1, 2):  # the right guess (a change that changes nothing), then a wrong one
        correction = propose_correction(table.code, ALICE, seq, {"kind": "offer", "gold": guess})
        confirm_correction(table.code, correction.id, BOB)
        confirm_correction(table.code, correction.id, CAROL)
        correction.refresh_from_db()
        assert correction.status == "applied", correction.status
        for seat in (ALICE, CAROL):
            assert not line(seat)["corrected"] and "original" not in line(seat), (guess, seat)
        assert line(BOB)["corrected"] is (guess != 1), guess
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {table.seats.get(index=ALICE).token}")
    logged = next(x for x in api.get(f"/api/tables/{table.code}/log/").json()["log"] if x["seq"] == seq)
    assert not logged.get("corrected"), logged
