"""Marketplace, 2:1 supply trades and player trades (rules TR1-TR4; cases T10, T12)."""

from __future__ import annotations

import dataclasses

import pytest

from games.engines.base import IllegalAction, fill

from .conftest import ALICE, BOB, CAROL, assert_conserved, hand, in_main, make_game, opening, with_hand


def with_market(state, market):
    """Set the marketplace, moving the difference through the supply (INV holds)."""
    from shelf.catan_junior.board import RESOURCES

    supply = list(state.supply)
    for r in state.market:
        supply[RESOURCES.index(r)] += 1
    for r in market:
        supply[RESOURCES.index(r)] -= 1
    return dataclasses.replace(state, market=tuple(market), supply=tuple(supply))


def test_t10_a_swap_changes_only_the_chosen_space_and_a_second_swap_is_refused():
    game = make_game(4)
    state = with_market(opening(game), ["wood", "wood", "gold", "wool", "cutlass"])
    state = with_hand(in_main(state, ALICE), ALICE, molasses=2)
    after = game.apply(state, ALICE, {"kind": "market_swap", "space": 0, "give": "molasses"})
    assert after.market == ("molasses", "wood", "gold", "wool", "cutlass")
    assert hand(after, ALICE) == {"wood": 1, "wool": 0, "molasses": 1, "cutlass": 0, "gold": 0}
    assert_conserved(after)
    assert not [a for a in game.legal_actions(after, ALICE) if a["kind"] == "market_swap"]
    with pytest.raises(IllegalAction) as err:
        game.apply(after, ALICE, {"kind": "market_swap", "space": 2, "give": "molasses"})
    assert err.value.code == "market_swap_used"


def test_tr1_the_swap_must_be_for_a_different_resource_and_from_your_own_tokens():
    game = make_game(4)
    state = with_market(opening(game), ["wood", "wool", "molasses", "cutlass", "gold"])
    state = in_main(state, ALICE)  # wood + cutlass
    with pytest.raises(IllegalAction) as err:
        game.apply(state, ALICE, {"kind": "market_swap", "space": 0, "give": "wood"})
    assert err.value.code == "swap_same_resource"
    with pytest.raises(IllegalAction) as err:
        game.apply(state, ALICE, {"kind": "market_swap", "space": 0, "give": "gold"})
    assert err.value.code == "not_enough_resources"
    with pytest.raises(IllegalAction) as err:
        game.apply(state, ALICE, {"kind": "market_swap", "space": 5, "give": "wood"})
    assert err.value.code == "bad_space"


def test_the_swap_resets_on_the_next_turn():
    game = make_game(2)
    state = with_hand(in_main(opening(game), ALICE), ALICE, gold=1)
    state = game.apply(state, ALICE, {"kind": "market_swap", "space": 0, "give": "gold"})
    state = game.apply(state, ALICE, {"kind": "end_turn"})
    assert state.swapped is False
    assert state.active == BOB


def test_tr2_five_matching_spaces_go_back_to_the_supply_and_one_of_each_comes_out():
    game = make_game(4)
    state = with_market(opening(game), ["gold", "gold", "gold", "gold", "wood"])
    state = with_hand(in_main(state, ALICE), ALICE, gold=1)
    supply_before = state.supply
    after = game.apply(state, ALICE, {"kind": "market_swap", "space": 4, "give": "gold"})
    assert sorted(after.market) == ["cutlass", "gold", "molasses", "wood", "wool"]
    assert hand(after, ALICE)["wood"] == 1
    assert after.supply[4] == supply_before[4] + 4  # 5 gold back, 1 gold out
    assert after.swapped
    assert_conserved(after)


def test_sh4_a_refill_needing_a_missing_type_confiscates_that_type_first():
    game = make_game(3)
    state = with_market(opening(game), ["gold", "gold", "gold", "gold", "wood"])
    state = with_hand(in_main(state, ALICE), ALICE, gold=1, wool=2)
    # Park every wool of the supply with Bob.
    from shelf.catan_junior.board import RESOURCES

    i = RESOURCES.index("wool")
    hands = list(state.hands)
    hands[BOB] = tuple(n + state.supply[i] if j == i else n for j, n in enumerate(hands[BOB]))
    state = dataclasses.replace(
        state, hands=tuple(hands), supply=tuple(0 if j == i else n for j, n in enumerate(state.supply))
    )
    after = game.apply(state, ALICE, {"kind": "market_swap", "space": 4, "give": "gold"})
    assert hand(after, ALICE)["wool"] == 0 and hand(after, BOB)["wool"] == 0
    assert "wool" in after.market
    assert "wool" in after.frozen
    assert_conserved(after)


def test_t12_two_to_one_needs_two_of_one_type_for_a_different_type_and_repeats():
    game = make_game(4)
    state = with_hand(in_main(opening(game), ALICE), ALICE, wood=6, wool=1)
    with pytest.raises(IllegalAction) as err:
        game.apply(state, ALICE, {"kind": "supply_trade", "give": "wood", "take": "wood"})
    assert err.value.code == "trade_same_resource"
    with pytest.raises(IllegalAction) as err:
        game.apply(state, ALICE, {"kind": "supply_trade", "give": "wool", "take": "gold"})
    assert err.value.code == "not_enough_resources"
    for take in ("gold", "molasses", "cutlass"):
        state = game.apply(state, ALICE, {"kind": "supply_trade", "give": "wood", "take": take})
    assert hand(state, ALICE) == {"wood": 0, "wool": 1, "molasses": 1, "cutlass": 1, "gold": 1}
    assert_conserved(state)


def test_a_mixed_pair_is_not_a_two_to_one_trade():
    game = make_game(4)
    state = with_hand(in_main(opening(game), ALICE), ALICE, wood=1, wool=1)
    listed = [a for a in game.legal_actions(state, ALICE) if a["kind"] == "supply_trade"]
    assert listed == []
    for payload in (
        {"kind": "supply_trade", "give": ["wood", "wool"], "take": "gold"},
        {"kind": "supply_trade", "give": "iron", "take": "gold"},
        {"kind": "supply_trade", "give": "wood"},
    ):
        with pytest.raises(IllegalAction) as err:
            game.apply(state, ALICE, payload)
        assert err.value.code == "bad_action"


def test_tr4_player_trades_are_off_by_default():
    game = make_game(3)
    state = in_main(opening(game), ALICE)
    assert not [a for a in game.legal_actions(state, ALICE) if a["kind"] == "offer_trade"]
    with pytest.raises(IllegalAction) as err:
        game.apply(state, ALICE, {"kind": "offer_trade", "to": BOB, "give": {"wood": 1}, "get": {"cutlass": 1}})
    assert err.value.code == "wrong_step"


def test_tr4_an_offer_waits_for_the_other_phone_which_accepts():
    game = make_game(3, player_trades=True)
    state = with_hand(in_main(opening(game), ALICE), ALICE, wood=2)
    state = with_hand(state, BOB, gold=1, wool=1)
    offer = {"kind": "offer_trade", "to": BOB, "give": {"wood": 2}, "get": {"gold": 1, "wool": 1}}
    pending = game.apply(state, ALICE, offer)
    assert pending.phase == "trade"
    assert game.prompt(pending).seats == (BOB,)
    assert game.legal_actions(pending, ALICE) == [{"kind": "withdraw_trade"}]
    assert game.legal_actions(pending, BOB) == [{"kind": "accept_trade"}, {"kind": "decline_trade"}]
    assert game.legal_actions(pending, CAROL) == []
    assert game.view(pending, CAROL)["offer"]["give"]["wood"] == 2
    with pytest.raises(IllegalAction) as err:
        game.apply(pending, CAROL, {"kind": "accept_trade"})
    assert err.value.code == "not_your_turn"
    done = game.apply(pending, BOB, {"kind": "accept_trade"})
    assert hand(done, ALICE) == {"wood": 0, "wool": 1, "molasses": 0, "cutlass": 0, "gold": 1}
    assert hand(done, BOB) == {"wood": 2, "wool": 0, "molasses": 0, "cutlass": 0, "gold": 0}
    assert done.phase == "main" and done.active == ALICE
    assert_conserved(done)


def test_tr4_a_declined_offer_changes_nothing():
    game = make_game(3, player_trades=True)
    state = in_main(opening(game), ALICE)
    pending = game.apply(state, ALICE, {"kind": "offer_trade", "to": CAROL, "give": {"wood": 1}, "get": {"cutlass": 1}})
    done = game.apply(pending, CAROL, {"kind": "decline_trade"})
    assert done.hands == state.hands
    assert done.phase == "main" and done.offer is None


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ({"kind": "offer_trade", "to": ALICE, "give": {"wood": 1}, "get": {"cutlass": 1}}, "bad_target"),
        ({"kind": "offer_trade", "to": 7, "give": {"wood": 1}, "get": {"cutlass": 1}}, "bad_target"),
        ({"kind": "offer_trade", "to": BOB, "give": {}, "get": {"cutlass": 1}}, "empty_trade"),
        ({"kind": "offer_trade", "to": BOB, "give": {"gold": 1}, "get": {"cutlass": 1}}, "not_enough_resources"),
        ({"kind": "offer_trade", "to": BOB, "give": {"wood": 1}, "get": {"gold": 1}}, "not_enough_resources"),
        ({"kind": "offer_trade", "to": BOB, "give": {"wood": -1}, "get": {"gold": 1}}, "bad_action"),
        ({"kind": "offer_trade", "to": BOB, "give": {"iron": 1}, "get": {"gold": 1}}, "bad_action"),
        ({"kind": "offer_trade", "to": BOB, "give": "wood", "get": {"gold": 1}}, "bad_action"),
    ],
)
def test_tr4_bad_offers_are_refused(payload, code):
    game = make_game(3, player_trades=True)
    state = in_main(opening(game), ALICE)
    with pytest.raises(IllegalAction) as err:
        game.apply(state, ALICE, payload)
    assert err.value.code == code


def test_tr4_non_active_players_cannot_offer_trades():
    game = make_game(3, player_trades=True)
    state = in_main(opening(game), ALICE)
    with pytest.raises(IllegalAction) as err:
        game.apply(state, BOB, {"kind": "offer_trade", "to": CAROL, "give": {"wood": 1}, "get": {"cutlass": 1}})
    assert err.value.code == "not_your_turn"


def test_tr4_the_offerer_can_withdraw_a_pending_offer_and_nobody_else_can():
    game = make_game(3, player_trades=True)
    state = with_hand(in_main(opening(game), ALICE), ALICE, wood=1)
    state = with_hand(state, BOB, gold=1)
    pending = game.apply(state, ALICE, {"kind": "offer_trade", "to": BOB, "give": {"wood": 1}, "get": {"gold": 1}})
    for seat in (BOB, CAROL):
        with pytest.raises(IllegalAction) as err:
            game.apply(pending, seat, {"kind": "withdraw_trade"})
        assert err.value.code == "no_offer"
    back = game.apply(pending, ALICE, {"kind": "withdraw_trade"})
    assert back.phase == "main" and back.offer is None and back.hands == pending.hands
    line = game.describe(ALICE, {"kind": "withdraw_trade"}, BOB)
    assert fill(line.text, line.details) == "Alice withdrew the trade offer."


def test_tr4_an_offer_with_the_same_resource_on_both_sides_is_refused():
    game = make_game(3, player_trades=True)
    state = with_hand(in_main(opening(game), ALICE), ALICE, wood=2)
    state = with_hand(state, BOB, wood=1, gold=1)
    with pytest.raises(IllegalAction) as err:
        game.apply(state, ALICE, {"kind": "offer_trade", "to": BOB, "give": {"wood": 2}, "get": {"wood": 1, "gold": 1}})
    assert err.value.code == "trade_same_resource"


def test_tr4_the_waiting_offer_is_prompted_in_words_with_its_tokens():
    game = make_game(3, player_trades=True)
    state = with_hand(in_main(opening(game), ALICE), ALICE, wool=1)
    state = with_hand(state, CAROL, gold=1)
    pending = game.apply(state, ALICE, {"kind": "offer_trade", "to": CAROL, "give": {"wool": 1}, "get": {"gold": 1}})
    prompt = game.prompt(pending)
    assert fill(prompt.text, prompt.details) == "Alice offers Carol 1 wool for 1 gold."
