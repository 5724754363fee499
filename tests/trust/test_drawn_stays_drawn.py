"""What the app drew stays drawn: no correction replaces or drops a digital draw, roll or shuffle, and
``check_draws`` fails on one in the effective log however it got there; what a player typed in for a
physical component can still be corrected."""

from __future__ import annotations

import json
import random

import pytest
from django.utils import translation

from games.engines.base import IllegalAction
from games.models import Action, Correction
from games.record.audit import check_draws
from games.write.corrections import confirm_correction, propose_correction
from games.write.pregame import create_table
from tests.conftest import phone_for, play_through_write_path

pytestmark = pytest.mark.django_db

PLAYERS = [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cy"}]


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def _yy_after_draws(components: str):
    table = create_table("yellow_yangtze", {"components": components}, PLAYERS, seed=3)
    if components == "physical":
        game, chooser = table.game(), random.Random(1)
        for _ in range(40):  # the hands and market entered by hand: legal entries the real bag can give
            table.refresh_from_db()
            state = game.decode(table.state)
            prompt = game.prompt(state)
            if "draw" not in prompt.kinds:
                break
            seat = prompt.seats[0]
            from games.write.moves import submit_action

            submit_action(table.code, seat, chooser.choice(game.legal_actions(state, seat)), table.version)
    else:
        play_through_write_path(table, 3, stop=40)
    table.refresh_from_db()
    return table


def _a_draw(table) -> Action:
    return table.actions.filter(kind="game", payload__kind="draw").order_by("-seq").first()


def test_proposing_to_change_a_tile_the_digital_bag_drew_is_refused_with_a_code():
    table = _yy_after_draws("digital")
    draw = _a_draw(table)
    assert draw is not None, "the game drew from the bag"
    other = "black" if draw.payload["tiles"][0] != "black" else "red"
    changed = {**draw.payload, "tiles": [other, *draw.payload["tiles"][1:]]}
    with pytest.raises(IllegalAction) as caught:
        propose_correction(table.code, draw.seat, draw.seq, changed)
    assert caught.value.code == "drawn_by_app" and caught.value.details["seq"] == draw.seq
    with pytest.raises(IllegalAction) as caught:
        propose_correction(table.code, (draw.seat + 1) % 3, draw.seq, None)  # dropping it neither
    assert caught.value.code == "drawn_by_app"
    assert not Correction.objects.filter(table=table).exists()
    phone = phone_for(table, draw.seat)  # the ✎ page says so before anything is chosen, and so does the form
    page = phone.get(f"/t/{table.code}/corrections/fix/{draw.seq}/", follow=True).content.decode()
    assert "what the app drew stays drawn" in page
    page = phone.post(f"/t/{table.code}/corrections/", {"target": draw.seq, "replacement": json.dumps(changed)},
                      follow=True).content.decode()
    assert "what the app drew stays drawn" in page
    assert not Correction.objects.filter(table=table).exists()


def test_a_tile_entered_by_hand_can_still_be_corrected():
    table = _yy_after_draws("physical")
    draw = _a_draw(table)
    assert draw is not None
    correction = propose_correction(table.code, draw.seat, draw.seq, dict(draw.payload))
    assert correction.status == "open"


def test_check_draws_fails_on_a_corrected_digital_draw_however_it_got_into_the_log():
    table = _yy_after_draws("digital")
    assert check_draws(table).ok
    draw = _a_draw(table)
    other = "black" if draw.payload["tiles"][0] != "black" else "red"
    seq = table.actions.order_by("-seq").first().seq + 1
    Action.objects.create(table=table, seq=seq, kind=Action.Kind.CORRECT, version=table.version + 1,
                          payload={"target": draw.seq, "correction": 0,
                                   "replacement": {**draw.payload, "tiles": [other, *draw.payload["tiles"][1:]]}})
    result = check_draws(table)
    assert not result.ok and result.mismatch == draw.seq and "correction" in result.reason


def test_the_counting_game_refuses_a_correction_of_its_digital_draw_but_confirms_a_hand_entered_one(
        fixture_game_registered):
    digital = create_table("counting", {}, [{"name": "A"}, {"name": "B"}], seed=4)
    play_through_write_path(digital, 4, stop=1)
    with pytest.raises(IllegalAction) as caught:
        propose_correction(digital.code, 1, 1, {"kind": "draw", "card": "3"})
    assert caught.value.code == "drawn_by_app"
    physical = create_table("counting", {"components": "physical"}, [{"name": "A"}, {"name": "B"}], seed=4)
    from games.write.moves import submit_action

    submit_action(physical.code, 0, {"kind": "draw", "card": "1"}, 0)
    correction = propose_correction(physical.code, 1, 1, {"kind": "draw", "card": "3"})
    assert confirm_correction(physical.code, correction.id, 0).status == "applied"
    physical.refresh_from_db()
    assert check_draws(physical).ok


def test_a_yellow_yangtze_table_made_without_a_start_rule_logs_the_start_its_set_up_drew():
    for seed in range(6):
        table = create_table("yellow_yangtze", {}, PLAYERS, seed=seed)
        game = table.game()
        drawn = game.decode(table.state).start
        row = table.actions.get(kind="start")
        assert row.seq == 1 and row.payload == {"rule": "random", "seat": drawn, "mode": "setup"}
        assert check_draws(table).ok and 1 in check_draws(table).checked
        Action.objects.filter(pk=row.pk).update(payload={**row.payload, "seat": (drawn + 1) % 3})
        assert not check_draws(table).ok, "a start the set-up did not draw is caught"
    lines = phone_for(table, 0).get(f"/t/{table.code}/").content.decode()
    assert "drawn at random" in lines


def test_each_confirmer_reads_which_move_changes_and_what_it_becomes_but_never_a_hidden_entry():
    table = _yy_after_draws("physical")
    draw = _a_draw(table)  # a hand or market entered behind the drawer's screen
    mover = draw.seat
    other_tiles = ["black"] * len(draw.payload["tiles"])
    propose_correction(table.code, mover, draw.seq, {**draw.payload, "tiles": other_tiles})
    name = table.seats.get(index=mover).name
    for seat in range(3):
        page = phone_for(table, seat).get(f"/t/{table.code}/").content.decode()
        banner = page[page.index('id="r-corrections"'):page.index("</section>", page.index('id="r-corrections"'))]
        assert f"#{draw.seq}" in banner
        if seat == mover:
            assert "black" in banner, "the mover reads what their entry would become"
        else:
            assert "behind their screen" in banner and name in banner and "black" not in banner, banner


def test_a_public_move_s_correction_names_the_move_as_it_was_and_as_it_would_be(fixture_game_registered):
    from games.write.moves import submit_action

    table = create_table("counting", {"components": "physical"}, [{"name": "A"}, {"name": "B"}, {"name": "C"}])
    submit_action(table.code, 0, {"kind": "draw", "card": "1"}, 0)
    submit_action(table.code, 0, {"kind": "play", "card": "1"}, 1)
    propose_correction(table.code, 1, 2, {"kind": "play", "card": "3"})
    page = phone_for(table, 2).get(f"/t/{table.code}/").content.decode()
    assert "move #2 (“Played a 1.”) should be “Played a 3.”" in page
