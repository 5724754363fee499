"""Die roll, production and the Ghost Captain (rules TU1, PR, GC; cases T01-T03)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from games.engines.base import IllegalAction

from .conftest import ALICE, BOB, CAROL, DAVE, assert_conserved, hand, make_game, opening


def gained(before, after, seat):
    """What ``seat`` gained (or lost, negative) between two states, zero entries left out."""
    old, new = hand(before, seat), hand(after, seat)
    return {r: new[r] - old[r] for r in new if new[r] != old[r]}


def roll(game, state, value, seat=None):
    return game.apply(state, state.active if seat is None else seat, {"kind": "roll", "value": value})


def test_t01_start_roll_1_pays_red_wool_purple_wood_yellow_and_blue_cutlass():
    game = make_game(4)
    start = opening(game)
    after = roll(game, start, 1)
    assert gained(start, after, ALICE) == {"wool": 1}
    assert gained(start, after, BOB) == {"wood": 1}
    assert gained(start, after, CAROL) == {"cutlass": 1}
    assert gained(start, after, DAVE) == {"cutlass": 1}
    assert after.phase == "main"
    assert_conserved(after)


def test_t02_ghost_captain_on_cutlass_1_blocks_yellow_and_blue_only():
    game = make_game(4)
    start = dataclasses.replace(opening(game), ghost="cutlass-1")
    after = roll(game, start, 1)
    assert gained(start, after, ALICE) == {"wool": 1}
    assert gained(start, after, BOB) == {"wood": 1}
    assert gained(start, after, CAROL) == {}
    assert gained(start, after, DAVE) == {}


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1, ["wool", "wood", "cutlass", "cutlass"]),
        (2, ["molasses", "molasses", "wood", "wool"]),
        (3, ["wood", None, None, "wood"]),
        (4, ["cutlass", "cutlass", "molasses", "molasses"]),
        (5, [None, "wool", "wool", None]),
    ],
)
def test_start_production_table_for_four_kosmos_players(value, expected):
    game = make_game(4)
    start = opening(game)
    after = roll(game, start, value)
    for seat, resource in enumerate(expected):
        assert gained(start, after, seat) == ({} if resource is None else {resource: 1})


@pytest.mark.parametrize(
    ("value", "red", "purple"),
    [(1, "cutlass", "wool"), (2, "wool", "cutlass"), (3, "wood", "molasses"), (4, "molasses", "wood"), (5, None, None)],
)
def test_start_production_on_the_two_player_side(value, red, purple):
    game = make_game(2)
    start = opening(game)
    after = roll(game, start, value)
    assert gained(start, after, ALICE) == ({} if red is None else {red: 1})
    assert gained(start, after, BOB) == ({} if purple is None else {purple: 1})


def test_several_lairs_at_one_island_earn_several_tokens_for_every_player():
    game = make_game(4)
    state = opening(game)
    board = game.rules.board
    lairs = list(state.lairs)
    lairs[board.sites.index("L07")] = ALICE  # also touches wool-1, like L03
    state = dataclasses.replace(state, lairs=tuple(lairs), active=BOB)
    after = roll(game, state, 1)
    assert gained(state, after, ALICE) == {"wool": 2}
    assert gained(state, after, BOB) == {"wood": 1}


def test_t03_a_six_pays_no_one_and_the_roller_moves_the_ghost_captain_for_two_tokens():
    game = make_game(4)
    start = opening(game)
    after_roll = roll(game, start, 6)
    assert after_roll.phase == "ghost"
    assert all(hand(after_roll, s) == hand(start, s) for s in range(4))
    assert game.prompt(after_roll).kinds == ("move_ghost",)
    after = game.apply(after_roll, ALICE, {"kind": "move_ghost", "island": "gold-5"})
    assert after.ghost == "gold-5"
    assert gained(after_roll, after, ALICE) == {"gold": 2}
    for seat in (BOB, CAROL, DAVE):
        assert gained(after_roll, after, seat) == {}
    assert after.phase == "main"
    assert_conserved(after)


def test_t03_the_ghost_captain_may_not_stay_on_the_castle_or_go_to_an_unknown_island():
    game = make_game(4)
    after_roll = roll(game, opening(game), 6)
    for island, code in [("castle", "ghost_must_move"), ("nowhere-9", "unknown_island")]:
        with pytest.raises(IllegalAction) as err:
            game.apply(after_roll, ALICE, {"kind": "move_ghost", "island": island})
        assert err.value.code == code
    assert {"kind": "move_ghost", "island": "castle"} not in game.legal_actions(after_roll, ALICE)
    assert len(game.legal_actions(after_roll, ALICE)) == 12


def test_gc3_the_ghost_captain_never_goes_back_to_the_castle_nor_stays_on_his_island():
    game = make_game(4)
    state = dataclasses.replace(roll(game, opening(game), 6), ghost="gold-5")
    with pytest.raises(IllegalAction) as err:
        game.apply(state, ALICE, {"kind": "move_ghost", "island": "castle"})
    assert err.value.code == "ghost_not_to_castle"
    with pytest.raises(IllegalAction) as err:
        game.apply(state, ALICE, {"kind": "move_ghost", "island": "gold-5"})
    assert err.value.code == "ghost_must_move"


def test_gc3_option_lets_the_ghost_captain_return_to_the_castle_without_reward():
    game = make_game(4, ghost_to_castle=True)
    state = dataclasses.replace(roll(game, opening(game), 6), ghost="gold-5")
    after = game.apply(state, ALICE, {"kind": "move_ghost", "island": "castle"})
    assert after.ghost == "castle"
    assert gained(state, after, ALICE) == {}


def test_gc2_the_ghost_captain_stays_and_blocks_later_rolls_until_moved():
    game = make_game(4)
    state = game.apply(roll(game, opening(game), 6), ALICE, {"kind": "move_ghost", "island": "wool-1"})
    state = game.apply(state, ALICE, {"kind": "end_turn"})
    before = state
    state = roll(game, state, 1)
    assert state.ghost == "wool-1"
    assert gained(before, state, ALICE) == {}
    assert gained(before, state, BOB) == {"wood": 1}


def test_tu1_nothing_but_the_roll_is_allowed_before_it():
    game = make_game(4)
    start = opening(game)
    assert game.legal_actions(start, ALICE) == [{"kind": "roll"}]
    with pytest.raises(IllegalAction) as err:
        game.apply(start, ALICE, {"kind": "end_turn"})
    assert err.value.code == "wrong_step"
    with pytest.raises(IllegalAction) as err:
        game.apply(start, BOB, {"kind": "roll", "value": 3})
    assert err.value.code == "not_your_turn"


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ({"kind": "roll"}, "bad_action"),
        ({"kind": "roll", "value": 7}, "bad_die_value"),
        ({"kind": "roll", "value": "3"}, "bad_action"),
        ({"kind": "roll", "value": True}, "bad_action"),
        ({"kind": "roll", "value": 0}, "bad_die_value"),
    ],
)
def test_a_bad_roll_payload_is_refused_and_a_face_outside_one_to_six_says_so(payload, code):
    game = make_game(4)
    with pytest.raises(IllegalAction) as err:
        game.apply(opening(game), ALICE, payload)
    assert err.value.code == code


def test_physical_mode_lists_the_six_faces_and_digital_fills_one():
    physical = make_game(4, components="physical")
    start = opening(physical)
    assert physical.legal_actions(start, ALICE) == [{"kind": "roll", "value": v} for v in range(1, 7)]
    digital = make_game(4)
    filled = digital.fill_chance(start, ALICE, {"kind": "roll"}, random.Random(3))
    assert filled["value"] in range(1, 7)


def test_the_roll_histogram_counts_every_roll_and_is_in_the_view():
    game = make_game(2)
    state = opening(game)
    for value in (3, 3, 5):
        state = roll(game, state, value)
        state = game.apply(state, state.active, {"kind": "end_turn"})
    view = game.view(state, None)
    assert view["dice"]["histogram"] == {"1": 0, "2": 0, "3": 2, "4": 0, "5": 1, "6": 0}


def test_balanced_die_deals_each_face_once_per_six_rolls_then_refills():
    game = make_game(2, balanced_die=True, components="physical")
    state = opening(game)
    for value in (6, 1, 2):
        state = roll(game, state, value)
        if state.phase == "ghost":
            state = game.apply(state, state.active, game.legal_actions(state, state.active)[0])
        state = game.apply(state, state.active, {"kind": "end_turn"})
    assert game.legal_actions(state, state.active) == [{"kind": "roll", "value": v} for v in (3, 4, 5)]
    with pytest.raises(IllegalAction) as err:
        roll(game, state, 1)
    assert err.value.code == "die_face_used"
    for value in (3, 4, 5):
        state = game.apply(roll(game, state, value), state.active, {"kind": "end_turn"})
    assert state.die_left == (1, 1, 1, 1, 1, 1)
    assert game.view(state, None)["dice"]["faces_left"] == [1, 2, 3, 4, 5, 6]


def test_balanced_die_digital_fill_picks_only_faces_left():
    game = make_game(2, balanced_die=True)
    state = dataclasses.replace(opening(game), die_left=(0, 0, 0, 1, 0, 0))
    for seed in range(20):
        assert game.fill_chance(state, ALICE, {"kind": "roll"}, random.Random(seed))["value"] == 4
