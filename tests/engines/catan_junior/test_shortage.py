"""Supply shortage (rules SH1-SH4, PR3)."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction

from .conftest import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    assert_conserved,
    hand,
    in_main,
    make_game,
    opening,
    with_hand,
    with_supply,
)


def test_sh1_a_roll_needing_more_than_the_supply_sends_everyones_tokens_back():
    game = make_game(4)
    state = opening(game)
    state = with_hand(state, BOB, cutlass=3)
    state = with_supply(state, cutlass=1)  # roll 1 needs 2 cutlass (Carol and Dave)
    after = game.apply(state, ALICE, {"kind": "roll", "value": 1})
    assert [hand(after, s)["cutlass"] for s in range(4)] == [0, 0, 0, 0]
    assert hand(after, ALICE)["wool"] == 1  # other resources still pay
    assert hand(after, BOB)["wood"] == 1
    assert after.last_shortage == ("cutlass",)
    assert_conserved(after)


def test_sh3_an_exact_hit_to_zero_pays_by_default():
    game = make_game(4)
    state = with_supply(opening(game), cutlass=2)
    after = game.apply(state, ALICE, {"kind": "roll", "value": 1})
    assert hand(after, CAROL)["cutlass"] == hand(state, CAROL)["cutlass"] + 1
    assert hand(after, DAVE)["cutlass"] == hand(state, DAVE)["cutlass"] + 1
    assert after.supply[3] == 0
    assert after.last_shortage == ()


def test_sh3_option_none_left_triggers_when_the_last_token_would_go():
    game = make_game(4, shortage_trigger="none_left")
    state = with_supply(opening(game), cutlass=2)
    after = game.apply(state, ALICE, {"kind": "roll", "value": 1})
    assert [hand(after, s)["cutlass"] for s in range(4)] == [0, 0, 0, 0]
    assert after.last_shortage == ("cutlass",)
    assert_conserved(after)


def test_sh2_after_a_shortage_the_resource_cannot_be_taken_again_this_turn():
    game = make_game(4)
    state = with_supply(opening(game), cutlass=1)
    state = game.apply(state, ALICE, {"kind": "roll", "value": 1})
    state = with_hand(state, ALICE, wood=4, molasses=1, gold=1)
    assert "cutlass" in state.frozen
    assert {"kind": "supply_trade", "give": "wood", "take": "cutlass"} not in game.legal_actions(state, ALICE)
    with pytest.raises(IllegalAction) as err:
        game.apply(state, ALICE, {"kind": "supply_trade", "give": "wood", "take": "cutlass"})
    assert err.value.code == "supply_frozen"
    nxt = game.apply(state, ALICE, {"kind": "end_turn"})
    assert nxt.frozen == frozenset()


def test_sh2_a_frozen_resource_is_not_paid_by_a_coco_tile():
    game = make_game(4)
    state = with_supply(opening(game), cutlass=1)
    state = game.apply(state, ALICE, {"kind": "roll", "value": 1})
    assert "cutlass" in state.frozen
    state = with_hand(state, ALICE, molasses=1, cutlass=1, gold=1)  # the price goes back to the supply
    after = game.apply(state, ALICE, {"kind": "buy_coco", "tile": "wool_cutlass"})
    assert hand(after, ALICE)["wool"] == 2
    assert hand(after, ALICE)["cutlass"] == 0
    assert_conserved(after)


def test_sh2_option_off_lets_the_supply_pay_again():
    game = make_game(4, shortage_freeze=False)
    state = with_supply(opening(game), cutlass=1)
    state = game.apply(state, ALICE, {"kind": "roll", "value": 1})
    assert state.frozen == frozenset()
    state = with_hand(state, ALICE, wood=2)
    after = game.apply(state, ALICE, {"kind": "supply_trade", "give": "wood", "take": "cutlass"})
    assert hand(after, ALICE)["cutlass"] == 1


def test_sh1_a_two_to_one_trade_on_an_empty_supply_confiscates_and_keeps_the_payment():
    game = make_game(4)
    state = in_main(with_supply(opening(game), gold=0), ALICE)
    state = with_hand(state, ALICE, wood=2)
    after = game.apply(state, ALICE, {"kind": "supply_trade", "give": "wood", "take": "gold"})
    assert hand(after, ALICE)["wood"] == 0
    assert hand(after, ALICE)["gold"] == 0
    assert hand(after, DAVE)["gold"] == 0
    assert after.supply[4] > 0
    assert_conserved(after)


def test_sh1_the_ghost_captain_reward_can_trigger_a_shortage():
    game = make_game(4)
    state = game.apply(with_supply(opening(game), gold=1), ALICE, {"kind": "roll", "value": 6})
    after = game.apply(state, ALICE, {"kind": "move_ghost", "island": "gold-5"})
    assert hand(after, ALICE)["gold"] == 0
    assert after.last_shortage == ("gold",)
    assert_conserved(after)
