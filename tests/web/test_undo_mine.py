"""Undo my move: a player takes back their own last move while nothing else happened since.

On the Count-to-ten fixture game: a turn is a draw (a chance action, never
undoable by its player) and then a play (undoable until someone acts).
"""

from __future__ import annotations

import pytest
from django.utils import translation

from games.engines.base import IllegalAction
from games.models import Action
from games.read import regions
from games.read.presenters import log_lines, seat_context
from games.record.audit import effective_actions, replay
from games.write.host import end_game, undo_last
from games.write.moves import submit_action, undo_own
from games.write.pregame import create_table
from games.write.write_path import Forbidden, StaleVersion
from tests.conftest import phone_for

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    """Direct calls read the thread's active language, which an earlier request in the run may have left set."""
    with translation.override("en"):
        yield


def _version(table) -> int:
    table.refresh_from_db()
    return table.version


def alice_draws_and_plays(table) -> dict:
    """Alice draws (move #1) and plays the card she drew (move #2); returns the play."""
    submit_action(table.code, 0, {"kind": "draw"}, _version(table))
    card = table.actions.get(seq=1).payload["card"]
    play = {"kind": "play", "card": card}
    submit_action(table.code, 0, play, _version(table))
    return play


def refusal(table, seat: int) -> str:
    with pytest.raises(IllegalAction) as err:
        undo_own(table.code, seat, _version(table))
    return err.value.code


def test_a_player_takes_back_their_own_last_move_as_a_logged_undo_row(counting_table):
    alice_draws_and_plays(counting_table)
    before = counting_table.actions.count()
    outcome = undo_own(counting_table.code, 0, _version(counting_table), "undo-1")
    counting_table.refresh_from_db()
    row = counting_table.actions.get(seq=outcome.seq)
    assert (row.kind, row.seat, row.payload) == ("undo", 0, {"undone": 2, "by": 0})
    assert counting_table.actions.count() == before + 1, "nothing is deleted from the log"
    assert [r.seq for r in effective_actions(counting_table.actions.order_by("seq"))] == [1]
    state = counting_table.game().decode(counting_table.state)
    assert state.totals[0] == 0 and len(state.hands[0]) == 1 and state.phase == "play"
    assert counting_table.game().encode(replay(counting_table)) == counting_table.state


def test_a_retried_undo_with_the_same_key_writes_nothing_twice(counting_table):
    alice_draws_and_plays(counting_table)
    version = _version(counting_table)
    first = undo_own(counting_table.code, 0, version, "same")
    again = undo_own(counting_table.code, 0, version, "same")
    assert again.replayed and again.seq == first.seq
    assert counting_table.actions.filter(kind="undo").count() == 1


def test_a_draw_cannot_be_taken_back_by_its_player_since_they_would_draw_again(counting_table):
    submit_action(counting_table.code, 0, {"kind": "draw"}, 0)
    assert refusal(counting_table, 0) == "undo_after_chance"
    assert not counting_table.actions.filter(kind="undo").exists()


def test_after_taking_back_a_play_the_draw_before_it_stays(counting_table):
    alice_draws_and_plays(counting_table)
    undo_own(counting_table.code, 0, _version(counting_table))
    assert refusal(counting_table, 0) == "undo_after_chance"


def test_a_physical_draw_typed_in_is_not_undoable_either(db, fixture_game_registered):
    table = create_table("counting", {"components": "physical"}, [{"name": "A"}, {"name": "B"}])
    submit_action(table.code, 0, {"kind": "draw", "card": "2"}, 0)
    assert refusal(table, 0) == "undo_after_chance"


def test_once_another_seat_has_acted_the_move_is_no_longer_mine_to_take_back(counting_table):
    alice_draws_and_plays(counting_table)
    submit_action(counting_table.code, 1, {"kind": "draw"}, _version(counting_table))
    assert refusal(counting_table, 0) == "undo_not_yours"


def test_after_a_host_undo_the_player_cannot_take_back_the_move_before(counting_table):
    alice_draws_and_plays(counting_table)
    submit_action(counting_table.code, 1, {"kind": "draw"}, _version(counting_table))
    undo_last(counting_table.code, _version(counting_table))
    assert refusal(counting_table, 0) == "undo_not_last"


def test_with_no_move_yet_there_is_nothing_to_undo(counting_table):
    assert refusal(counting_table, 0) == "nothing_to_undo"


def test_an_undo_chosen_at_an_old_version_is_stale(counting_table):
    alice_draws_and_plays(counting_table)
    with pytest.raises(StaleVersion):
        undo_own(counting_table.code, 0, 1)
    assert not counting_table.actions.filter(kind="undo").exists()


def test_a_finished_or_ended_game_cannot_be_changed_by_a_player(counting_table):
    alice_draws_and_plays(counting_table)
    end_game(counting_table.code)
    with pytest.raises(Forbidden):
        undo_own(counting_table.code, 0, _version(counting_table))


def test_the_log_says_who_took_back_which_move_and_marks_it_undone(counting_table):
    alice_draws_and_plays(counting_table)
    undo_own(counting_table.code, 0, _version(counting_table))
    counting_table.refresh_from_db()
    lines = log_lines(counting_table, counting_table.game(), 1)
    assert lines[0]["text"] == "Alice took back move #2."
    assert next(x for x in lines if x["seq"] == 2)["counted"] is False
    snap_lines = seat_context(counting_table, 1)["log"]
    assert snap_lines[0]["text"] == "Alice took back move #2."


def test_only_the_seat_that_may_undo_sees_the_button_and_its_region_changes_with_it(counting_table):
    submit_action(counting_table.code, 0, {"kind": "draw"}, 0)
    counting_table.refresh_from_db()
    controls = next(r for r in regions.REGIONS if r.name == "controls")
    bob_before = seat_context(counting_table, 1)
    assert not bob_before["can_undo_own"] and not seat_context(counting_table, 0)["can_undo_own"]
    card = counting_table.actions.get(seq=1).payload["card"]
    submit_action(counting_table.code, 0, {"kind": "play", "card": card}, 1)
    counting_table.refresh_from_db()
    alice, bob = seat_context(counting_table, 0), seat_context(counting_table, 1)
    assert alice["can_undo_own"] and not alice["legal"], "Alice has nothing to play, yet may undo"
    assert not bob["can_undo_own"] and not seat_context(counting_table, None)["can_undo_own"]
    empty = {**alice, "can_undo_own": False}
    assert regions.region_digest(controls, alice) != regions.region_digest(controls, empty)
    assert "Undo my move" in regions.render_region(controls, alice)[1]
    assert "Undo my move" not in regions.render_region(controls, bob)[1]


def test_the_phone_takes_back_its_move_and_gets_the_table_fragment(counting_table):
    alice_draws_and_plays(counting_table)
    phone = phone_for(counting_table, 0)
    page = phone.get(f"/t/{counting_table.code}/")
    assert "Undo my move" in page.content.decode()
    response = phone.post(f"/t/{counting_table.code}/undo-mine/", {"version": _version(counting_table), "key": "u"},
                          HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="table"' in body and "Alice took back move #2." in body and "Undo my move" not in body
    assert counting_table.actions.filter(kind="undo", seat=0).count() == 1


def test_a_refused_undo_is_422_with_a_banner_naming_why(counting_table):
    submit_action(counting_table.code, 0, {"kind": "draw"}, 0)
    phone = phone_for(counting_table, 0)
    response = phone.post(f"/t/{counting_table.code}/undo-mine/", {"version": 1, "key": "u"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 422
    assert 'data-code="undo_after_chance"' in response.content.decode()
    stale = phone.post(f"/t/{counting_table.code}/undo-mine/", {"version": 0, "key": "v"}, HTTP_HX_REQUEST="true")
    assert stale.status_code == 409
    assert not counting_table.actions.filter(kind="undo").exists()


def test_a_phone_without_a_seat_cannot_undo(counting_table, client):
    alice_draws_and_plays(counting_table)
    response = client.post(f"/t/{counting_table.code}/undo-mine/", {"version": 2})
    assert response.status_code in (302, 403)
    assert not Action.objects.filter(kind="undo").exists()


def test_the_take_back_line_and_its_refusal_are_translated(counting_table):
    from games.read.presenters import error_message

    alice_draws_and_plays(counting_table)
    undo_own(counting_table.code, 0, _version(counting_table))
    with translation.override("fa"):
        line = log_lines(counting_table, counting_table.game(), 1)[0]["text"]
        with pytest.raises(IllegalAction) as err:
            undo_own(counting_table.code, 0, _version(counting_table))
        message = error_message(err.value)
    assert line == "\u2068Alice\u2069 حرکت #2 را پس گرفت.", "the Latin name isolated in the Persian line"
    assert message.startswith("حرکت #1 ")


@pytest.mark.parametrize(("slug", "revealing", "plain"), [
    ("sorry", {"kind": "draw", "card": "7"}, {"kind": "move", "pawn": 0}),
    ("yellow_yangtze", {"kind": "draw", "tiles": ["red"]}, {"kind": "pass"}),
    ("catan_junior", {"kind": "roll", "value": 3}, {"kind": "build_ship"}),
    ("catan_junior", {"kind": "buy_coco", "tile": "ghost"}, {"kind": "end_turn"}),
    ("amun_re", {"kind": "offer", "amount": 2}, {"kind": "bid", "column": 1}),
    ("amun_re", {"kind": "reveal", "field": "farms", "value": 2}, {"kind": "pass"}),
])
def test_each_game_names_its_draws_rolls_and_reveals_as_not_undoable(slug, revealing, plain):
    from games.engines import get_game_class
    from games.engines.base import SeatInfo

    cls = get_game_class(slug)
    game = cls({}, [SeatInfo(i, name, cls.colours[i], None) for i, name in enumerate("AB")])
    assert game.reveals(revealing)
    assert not game.reveals(plain)
