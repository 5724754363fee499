"""Entering won province cards and laying them on columns (rules file 1.4, 2.4, 6.1)."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction, fill
from shelf.amun_re.edition import default_edition_data
from shelf.amun_re.state import Province

from .conftest import ALICE, BOB, CAROL, auction_with_hands, card, make_game, play, with_player


def _won(game, kingdom=1):
    state = auction_with_hands(game, {ALICE: (0, 1), BOB: (0, 2), CAROL: (0, 3)}, kingdom=kingdom)
    if kingdom == 2:
        for seat in (ALICE, BOB, CAROL):
            state = with_player(state, seat, columns=((card(spaces=2, pyramids=2),), (card(),), (card(),)))
    state = play(game, state, ALICE, kind="bid", province=0, card=1)
    state = play(game, state, BOB, kind="bid", province=1, card=2)
    return play(game, state, CAROL, kind="bid", province=2, card=3)


def test_the_winner_enters_farms_caravans_ankhs_and_spaces_in_order(game3):
    state = _won(game3)
    legal = game3.legal_actions(state, ALICE)
    assert legal[:7] == [{"kind": "reveal", "field": "farms", "value": v} for v in range(7)]
    assert legal[7:] == [{"kind": "reveal", "field": "farms", "value": v, "confirm": True} for v in range(7, 21)]
    with pytest.raises(IllegalAction) as err:
        play(game3, state, ALICE, kind="reveal", field="ankhs", value=1)
    assert err.value.code == "reveal_wrong_field"
    for field, value in (("farms", 4), ("caravans", 1), ("ankhs", 2), ("pyramid_spaces", 3)):
        state = play(game3, state, ALICE, kind="reveal", field=field, value=value)
    # Kingdom 1: the card goes to the next empty column by itself.
    assert state.players[ALICE].columns[0] == (Province(1, 4, 1, 2, 3),)
    assert state.players[ALICE].draft is None
    assert ALICE not in game3.prompt(state).seats


def test_values_outside_the_edition_bounds_ask_for_confirmation_and_point_to_the_calibration_screen(game3):
    state = _won(game3)
    with pytest.raises(IllegalAction) as err:
        play(game3, state, ALICE, kind="reveal", field="farms", value=7)
    assert err.value.code == "province_out_of_bounds"
    assert "calibration screen" in err.value.template and "really shows it" in err.value.template
    state = play(game3, state, ALICE, kind="reveal", field="farms", value=7, confirm=True)
    state = play(game3, state, ALICE, kind="reveal", field="caravans", value=0)
    with pytest.raises(IllegalAction) as err:
        play(game3, state, ALICE, kind="reveal", field="ankhs", value=4)
    assert err.value.code == "province_out_of_bounds"
    state = play(game3, state, ALICE, kind="reveal", field="ankhs", value=4, confirm=True)
    with pytest.raises(IllegalAction) as err:
        play(game3, state, ALICE, kind="reveal", field="pyramid_spaces", value=0)
    assert err.value.code == "province_out_of_bounds"
    state = play(game3, state, ALICE, kind="reveal", field="pyramid_spaces", value=0, confirm=True)
    assert state.players[ALICE].columns[0] == (Province(1, 7, 0, 4, 0),)


def test_a_confirmed_value_is_offered_as_a_second_button_saying_the_card_really_shows_it(game3):
    state = play(game3, _won(game3), ALICE, kind="reveal", field="farms", value=2)
    assert {"kind": "reveal", "field": "caravans", "value": 4, "confirm": True} in game3.legal_actions(state, ALICE)
    assert {"kind": "reveal", "field": "caravans", "value": 4} not in game3.legal_actions(state, ALICE)
    label = game3.label(ALICE, {"kind": "reveal", "field": "caravans", "value": 4, "confirm": True})
    assert fill(label.text, label.details) == "Yes, the card really shows 4 caravans"


def test_even_a_confirmed_value_cannot_be_negative_or_absurd(game3):
    state = _won(game3)
    for value in (-1, 21):
        with pytest.raises(IllegalAction) as err:
            play(game3, state, ALICE, kind="reveal", field="farms", value=value, confirm=True)
        assert err.value.code == "province_impossible"


def test_a_wider_edition_profile_widens_the_bounds():
    data = default_edition_data()
    data["province_bounds"]["farms"] = [0, 9]
    game = make_game(3, edition=data)
    state = play(game, _won(game), ALICE, kind="reveal", field="farms", value=9)
    assert state.players[ALICE].draft == (9,)


def test_printed_pyramids_are_asked_only_when_the_edition_has_them_and_fill_spaces():
    data = default_edition_data()
    data["province_bounds"]["printed_pyramids"] = [0, 2]
    game = make_game(3, edition=data)
    state = _won(game)
    for field, value in (("farms", 1), ("caravans", 1), ("ankhs", 1), ("pyramid_spaces", 1)):
        state = play(game, state, ALICE, kind="reveal", field=field, value=value)
    assert game.legal_actions(state, ALICE) == [
        {"kind": "reveal", "field": "printed_pyramids", "value": v} for v in (0, 1)
    ]
    with pytest.raises(IllegalAction):
        play(game, state, ALICE, kind="reveal", field="printed_pyramids", value=2)
    state = play(game, state, ALICE, kind="reveal", field="printed_pyramids", value=1)
    placed = state.players[ALICE].columns[0][0]
    assert placed.printed == 1 and placed.free == 0 and placed.pyramid_count == 1


def test_in_later_kingdoms_the_winner_chooses_a_column_not_yet_covered(game3):
    state = _won(game3, kingdom=2)
    for field in ("farms", "caravans", "ankhs", "pyramid_spaces"):
        state = play(game3, state, ALICE, kind="reveal", field=field, value=1)
    assert game3.legal_actions(state, ALICE) == [{"kind": "place_province", "column": c} for c in range(3)]
    state = play(game3, state, ALICE, kind="place_province", column=0)
    column = state.players[ALICE].columns[0]
    assert len(column) == 2 and column[-1].kingdom == 2
    assert column[0].pyramids == 2  # the covered card keeps its pyramids


def test_a_column_already_covered_this_kingdom_is_refused():
    game = make_game(3)
    state = _won(game, kingdom=2)
    cols = state.players[ALICE].columns
    state = with_player(state, ALICE, columns=((*cols[0], card(kingdom=2)), cols[1], cols[2]))
    for field in ("farms", "caravans", "ankhs", "pyramid_spaces"):
        state = play(game, state, ALICE, kind="reveal", field=field, value=1)
    with pytest.raises(IllegalAction) as err:
        play(game, state, ALICE, kind="place_province", column=0)
    assert err.value.code == "column_taken"
    with pytest.raises(IllegalAction) as err:
        play(game, state, ALICE, kind="place_province", column=3)
    assert err.value.code == "no_such_column"


def test_laying_a_card_before_entering_it_is_refused(game3):
    state = _won(game3, kingdom=2)
    with pytest.raises(IllegalAction) as err:
        play(game3, state, ALICE, kind="place_province", column=0)
    assert err.value.code == "card_not_entered"


def test_winners_enter_their_cards_independently_of_each_other(game3):
    state = _won(game3)
    state = play(game3, state, CAROL, kind="reveal", field="farms", value=2)
    state = play(game3, state, ALICE, kind="reveal", field="farms", value=3)
    assert state.players[CAROL].draft == (2,)
    assert state.players[ALICE].draft == (3,)
