"""The immediate seven-lair win (rule EN1; case T14) and the result."""

from __future__ import annotations

import dataclasses

import pytest

from games.engines.base import IllegalAction

from .conftest import ALICE, BOB, in_main, make_game, opening, with_hand


def six_lairs(game, state, seat, sites):
    board = game.rules.board
    lairs = list(state.lairs)
    for site in sites:
        lairs[board.sites.index(site)] = seat
    return dataclasses.replace(state, lairs=tuple(lairs))


def test_t14_the_seventh_lair_by_building_ends_the_game_at_once():
    game = make_game(4)
    state = six_lairs(game, opening(game), ALICE, ["L07", "L12", "L18", "L24"])
    assert state.lair_count(ALICE) == 6
    state = with_hand(in_main(state, ALICE), ALICE, wood=2, wool=1, molasses=2, cutlass=2, gold=1)
    after = game.apply(state, ALICE, {"kind": "build_lair", "site": "L01"})
    assert after.winner == ALICE and after.phase == "over"
    assert game.prompt(after).seats == ()
    assert game.legal_actions(after, ALICE) == []
    with pytest.raises(IllegalAction) as err:
        game.apply(after, ALICE, {"kind": "buy_coco", "tile": "ghost"})
    assert err.value.code == "game_over"
    result = game.result(after)
    assert result["winners"] == [ALICE]
    assert result["ranking"][0] == {"seat": ALICE, "place": 1, "rank": 1, "score": 7, "lairs": 7, "ships": 2, "coco": 0}
    assert [r["place"] for r in result["ranking"]] == [1, 2, 2, 2]


def test_t14_the_seventh_lair_on_the_castle_ends_the_game_before_the_tile_is_resolved():
    game = make_game(4)
    state = six_lairs(game, opening(game), ALICE, ["L07", "L12", "L18", "L24"])
    state = with_hand(in_main(state, ALICE), ALICE, molasses=1, cutlass=1, gold=1)
    after = game.apply(state, ALICE, {"kind": "buy_coco", "tile": "build"})
    assert after.castle == ALICE
    assert after.winner == ALICE and after.phase == "over"


def test_t14_the_seventh_lair_by_a_free_build_ends_the_game():
    game = make_game(4)
    state = six_lairs(game, opening(game), ALICE, ["L07", "L12", "L18"])
    state = dataclasses.replace(state, castle=ALICE, coco_taken=((1, 0, 0, 0),) + state.coco_taken[1:])
    state = with_hand(in_main(state, ALICE), ALICE, molasses=1, cutlass=1, gold=1)
    state = game.apply(state, ALICE, {"kind": "buy_coco", "tile": "build"})
    assert state.phase == "coco_build"
    after = game.apply(state, ALICE, {"kind": "build_lair", "site": "L01"})
    assert after.winner == ALICE
    assert game.result(after)["winners"] == [ALICE]


def test_result_is_none_while_the_game_runs():
    game = make_game(2)
    assert game.result(opening(game)) is None


def test_end_turn_passes_play_to_the_left_and_wraps():
    game = make_game(2)
    state = in_main(opening(game), BOB)
    after = game.apply(state, BOB, {"kind": "end_turn"})
    assert after.active == ALICE and after.phase == "roll" and after.turn == 2


def test_the_result_says_who_won_in_words_without_a_rule_number():
    game = make_game(4)
    state = dataclasses.replace(six_lairs(game, opening(game), BOB, ["L07", "L12", "L18", "L24", "L01"]), winner=BOB)
    steps = [step["text"].format(**step["details"]) for step in game.result(state)["steps"]]
    assert steps[0] == "Bob wins with 7 lairs!"
    assert steps[1] == "Alice has 2 lairs on the board."
    assert not any("rule" in step for step in steps)
