"""Play for points: hands, discard-and-draw, scoring (rules file sorry.md, section 3.2)."""

from __future__ import annotations

import random

import pytest

from games.engines.base import IllegalAction
from shelf.sorry.scoring import load_points_table, validate_points_table
from shelf.sorry.state import CARD_INDEX, DEAL, DRAW, MOVE, OVER

from .helpers import at, legal, play, table, where


def deal_all(game, seed=3):
    state = game.setup(random.Random(seed))
    rng = random.Random(seed)
    while state.step == DEAL:
        state = game.apply(state, state.turn, game.fill_chance(state, state.turn, {"kind": "draw"}, rng))
    return state


def test_points_mode_starts_with_one_pawn_out_and_deals_five_cards_each():
    game = table("red blue yellow", points_mode=True)
    state = game.setup(random.Random(1))
    assert state.step == DEAL
    assert state.pawns[0] == (4, -1, -1, -1)
    state = deal_all(game)
    assert [sum(h) for h in state.hands] == [5, 5, 5]
    assert sum(state.deck) == 30
    assert (state.turn, state.step) == (0, MOVE)


def test_the_player_may_use_any_card_in_hand_and_then_draws_back_to_five():
    game = table("red blue", points_mode=True)
    state = at(game, "R: R0@T4 R1@START B0@T30", hands={0: ["3", "5", "8", "10", "12"], 1: ["1", "1", "2", "2", "4"]})
    assert {p["card"] for p in legal(game, state)} == {"3", "5", "8", "10", "12"}
    after = play(game, state, card="5", pawn="R0", steps=5)
    assert where(after, "R0") == "T9"
    assert (after.turn, after.step) == (0, DRAW)
    assert sum(after.hands[0]) == 4 and after.discard[CARD_INDEX["5"]] == 1
    refilled = game.apply(after, 0, {"kind": "draw", "card": "7"})
    assert sum(refilled.hands[0]) == 5
    assert (refilled.turn, refilled.step) == (1, MOVE)


def test_a_card_not_in_hand_is_refused():
    game = table("red blue", points_mode=True)
    state = at(game, "R: R0@T4 B0@T30", hands={0: ["3", "5", "8", "10", "12"], 1: []})
    with pytest.raises(IllegalAction) as err:
        play(game, state, card="7", pawn="R0", steps=7)
    assert err.value.code == "card_not_in_hand"


def test_with_no_playable_card_the_player_discards_one_and_draws():
    game = table("red blue", points_mode=True)
    state = at(game, "R: R0@START R1@START B0@T30", hands={0: ["3", "5", "8", "12", "7"], 1: []})
    assert legal(game, state) == [{"kind": "discard", "card": c} for c in ("3", "5", "7", "8", "12")]
    after = game.apply(state, 0, {"kind": "discard", "card": "8"})
    assert (after.step, after.again, sum(after.hands[0])) == (DRAW, False, 4)
    assert game.apply(after, 0, {"kind": "draw", "card": "1"}).turn == 1


def test_discarding_while_a_card_could_move_is_refused():
    game = table("red blue", points_mode=True)
    state = at(game, "R: R0@START B0@T30", hands={0: ["1", "5", "8", "12", "7"], 1: []})
    with pytest.raises(IllegalAction) as err:
        game.apply(state, 0, {"kind": "discard", "card": "8"})
    assert err.value.code == "move_available"


def test_an_eleven_that_can_only_swap_may_be_declined_from_the_hand():
    game = table("red blue", points_mode=True)
    state = at(game, "R: R0@T58 R1@START B0@T20", hands={0: ["11", "3", "4", "5", "8"], 1: []})
    assert {"kind": "pass", "card": "11"} in legal(game, state)
    after = game.apply(state, 0, {"kind": "pass", "card": "11"})
    assert after.step == DRAW and after.hands[0][CARD_INDEX["11"]] == 0
    with pytest.raises(IllegalAction):
        game.apply(state, 0, {"kind": "pass", "card": "3"})


@pytest.mark.parametrize("again, turn", [(True, 0), (False, 1)])
def test_a_two_played_from_the_hand_gives_another_play_by_default(again, turn):
    game = table("red blue", points_mode=True, points_two_plays_again=again)
    state = at(game, "R: R0@T10 B0@T30", hands={0: ["2", "3", "5", "8", "12"], 1: []})
    after = game.apply(play(game, state, card="2", pawn="R0", steps=2), 0, {"kind": "draw", "card": "7"})
    assert (after.turn, after.step) == (turn, MOVE)


def test_finishing_scores_five_per_home_pawn_plus_the_unverified_winner_bonus():
    game = table("red blue yellow", points_mode=True)
    state = at(game, "R: R0@S5 R@HOME B0@HOME B1@HOME B2@T10 B3@START Y0@HOME Y1@T30 Y2@START Y3@START",
               hands={0: ["1", "3", "5", "8", "12"], 1: [], 2: []})
    after = play(game, state, card="1", pawn="R0", steps=1)
    assert after.step == OVER
    result = game.result(after)
    # Red: 4 x 5 = 20, + 5 opponent pawns not home x 3 = 15, best opponent has 2 HOME -> +25 (not cumulative).
    assert {r["seat"]: r["score"] for r in result["ranking"]} == {0: 60, 1: 10, 2: 5}
    assert result["winners"] == [0]
    assert [r["seat"] for r in result["ranking"]] == [0, 1, 2]
    assert len(result["steps"]) == 5


def test_a_cumulative_bonus_table_adds_every_tier_met():
    table_data = dict(load_points_table(), cumulative=True, verified=True, name="house table")
    game = table("red blue", points_mode=True, points_table=table_data)
    state = at(game, "R: R0@S5 R@HOME B@START", hands={0: ["1", "3", "5", "8", "12"], 1: []})
    result = game.result(play(game, state, card="1", pawn="R0", steps=1))
    assert result["ranking"][0]["score"] == 20 + 4 * 3 + 25 + 50 + 100
    assert game.view(state, None)["edition"] == {"name": "house table", "verified": True}


def test_the_shipped_bonus_table_is_marked_unverified_and_shown_so():
    assert load_points_table()["verified"] is False
    game = table("red blue", points_mode=True)
    assert game.view(game.setup(random.Random(1)), 0)["edition"]["verified"] is False


@pytest.mark.parametrize(
    "change",
    [
        {"per_home_pawn": -1},
        {"cumulative": "no"},
        {"shutout_tiers": [{"max_opponent_home": 4, "bonus": 10}]},
        {"shutout_tiers": [{"max_opponent_home": 1, "bonus": 10}, {"max_opponent_home": 1, "bonus": 20}]},
        {"verified": None},
    ],
)
def test_a_malformed_bonus_table_is_refused_on_load(change):
    with pytest.raises(IllegalAction) as err:
        validate_points_table(dict(load_points_table(), **change))
    assert err.value.code == "bad_edition"
