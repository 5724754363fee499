"""Auctions: turn order, displacement, end, settlement, the Ankh token (rules file 2.4; cases T1-T3, T15)."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction
from shelf.amun_re.state import OFFER, SETTLE

from .conftest import ALICE, BOB, CAROL, auction_with_hands, card, enter_province, make_game, play, with_player


def test_t1_a_higher_card_displaces_and_the_auction_ends_when_every_province_is_covered(game3):
    state = auction_with_hands(game3, {ALICE: (0, 3, 4), BOB: (0, 5), CAROL: (0, 2)})
    state = play(game3, state, ALICE, kind="bid", province=0, card=3)
    state = play(game3, state, BOB, kind="bid", province=0, card=5)
    assert state.players[ALICE].hand == (0, 3, 4)  # A's 3 came back
    assert game3.prompt(state).seats == (CAROL,)
    state = play(game3, state, CAROL, kind="bid", province=1, card=0)
    state = play(game3, state, ALICE, kind="bid", province=2, card=4)
    assert state.phase == SETTLE  # over at once: B and C never act again
    assert state.slots == ((BOB, 5), (CAROL, 0), (ALICE, 4))
    assert state.players[BOB].discard == (5,)
    assert state.players[CAROL].hand == (0, 2)  # the 0 card came back
    assert state.players[ALICE].hand == (0, 3)
    assert state.players[ALICE].discard == (4,)
    assert set(game3.prompt(state).seats) == {ALICE, BOB, CAROL}
    assert game3.prompt(state).kinds == ("reveal", "place_province")


def test_t2_an_equal_card_does_not_displace(game3):
    state = auction_with_hands(game3, {ALICE: (0, 4), BOB: (0, 4, 5)})
    state = play(game3, state, ALICE, kind="bid", province=0, card=4)
    with pytest.raises(IllegalAction) as err:
        play(game3, state, BOB, kind="bid", province=0, card=4)
    assert err.value.code == "bid_not_higher"
    assert {"kind": "bid", "province": 0, "card": 4} not in game3.legal_actions(state, BOB)
    state = play(game3, state, BOB, kind="bid", province=0, card=5)
    assert state.slots[0] == (BOB, 5)


def test_t3_the_zero_card_cannot_displace_and_only_goes_under_an_empty_province(game3):
    state = auction_with_hands(game3, {ALICE: (0, 1), BOB: (0,)})
    state = play(game3, state, ALICE, kind="bid", province=0, card=1)
    with pytest.raises(IllegalAction) as err:
        play(game3, state, BOB, kind="bid", province=0, card=0)
    assert err.value.code == "zero_only_on_empty"
    state = play(game3, state, BOB, kind="bid", province=1, card=0)
    assert state.slots[1] == (BOB, 0)


def test_a_player_with_a_live_bid_is_skipped(game3):
    state = auction_with_hands(game3, {ALICE: (0, 3), BOB: (0, 5), CAROL: (0, 6)})
    state = play(game3, state, ALICE, kind="bid", province=0, card=3)
    state = play(game3, state, BOB, kind="bid", province=1, card=5)
    state = play(game3, state, CAROL, kind="bid", province=1, card=6)  # Bob displaced
    # Alice holds a live bid, so the turn passes over her to Bob.
    assert game3.prompt(state).seats == (BOB,)
    assert game3.legal_actions(state, ALICE) == []


def test_bidding_out_of_turn_or_with_a_card_not_held_is_refused(game3):
    state = auction_with_hands(game3, {ALICE: (0, 3), BOB: (0, 5)})
    with pytest.raises(IllegalAction) as err:
        play(game3, state, BOB, kind="bid", province=0, card=5)
    assert err.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as err:
        play(game3, state, ALICE, kind="bid", province=0, card=7)
    assert err.value.code == "card_not_in_hand"
    with pytest.raises(IllegalAction) as err:
        play(game3, state, ALICE, kind="bid", province=3, card=3)
    assert err.value.code == "no_such_province"


def test_rebidding_on_the_province_one_was_outbid_on_is_allowed_by_default_and_refused_by_setting():
    for rebid, allowed in ((True, True), (False, False)):
        game = make_game(3, rebid_same_province=rebid)
        state = auction_with_hands(game, {ALICE: (0, 3, 7), BOB: (0, 5), CAROL: (0, 2)})
        state = play(game, state, ALICE, kind="bid", province=0, card=3)
        state = play(game, state, BOB, kind="bid", province=0, card=5)
        state = play(game, state, CAROL, kind="bid", province=1, card=2)
        listed = {"kind": "bid", "province": 0, "card": 7} in game.legal_actions(state, ALICE)
        assert listed is allowed
        if allowed:
            play(game, state, ALICE, kind="bid", province=0, card=7)
        else:
            with pytest.raises(IllegalAction) as err:
                play(game, state, ALICE, kind="bid", province=0, card=7)
            assert err.value.code == "no_rebid_same_province"
            play(game, state, ALICE, kind="bid", province=2, card=0)


def _auction_one_won(game, ankhs: dict[int, int]):
    """Kingdom 1, auction 1 ends with A on P1, B on P2, C on P3; each enters ``ankhs``."""
    state = auction_with_hands(game, {ALICE: (0, 1), BOB: (0, 2), CAROL: (0, 3)})
    state = play(game, state, ALICE, kind="bid", province=0, card=1)
    state = play(game, state, BOB, kind="bid", province=1, card=2)
    state = play(game, state, CAROL, kind="bid", province=2, card=3)
    for seat in (ALICE, BOB, CAROL):
        state = enter_province(game, state, seat, ankhs=ankhs[seat])
    return state


def test_t15_the_ankh_token_goes_to_the_most_ankhs_ties_nearest_the_holder(game3):
    state = _auction_one_won(game3, {ALICE: 1, BOB: 2, CAROL: 2})
    assert state.ankh == BOB
    assert state.auction == 2
    assert game3.prompt(state).seats == (BOB,)  # the new holder bids first


def test_t15_the_holder_keeps_the_ankh_token_in_a_tie_that_includes_them(game3):
    state = _auction_one_won(game3, {ALICE: 2, BOB: 2, CAROL: 2})
    assert state.ankh == ALICE


def test_the_ankh_token_stays_put_between_auctions_when_the_setting_is_off():
    game = make_game(3, ankh_after_each_auction=False)
    state = _auction_one_won(game, {ALICE: 0, BOB: 3, CAROL: 0})
    assert state.ankh == ALICE


def test_mid_kingdom_ankhs_count_top_cards_or_this_kingdoms_cards_by_setting():
    for mode, expected in (("top_cards", ALICE), ("current_kingdom", BOB)):
        game = make_game(3, visible_ankhs_mid_kingdom=mode)
        state = auction_with_hands(game, {ALICE: (0, 1), BOB: (0, 2), CAROL: (0, 3)}, kingdom=2, ankh=CAROL)
        # Alice's uncovered Kingdom-1 cards show 3 ankhs each.
        old = tuple((card(ankhs=3),) for _ in range(3))
        plain = tuple((card(),) for _ in range(3))
        state = with_player(state, ALICE, columns=old)
        state = with_player(state, BOB, columns=plain)
        state = with_player(state, CAROL, columns=plain)
        state = play(game, state, CAROL, kind="bid", province=0, card=3)
        state = play(game, state, ALICE, kind="bid", province=1, card=1)
        state = play(game, state, BOB, kind="bid", province=2, card=2)
        state = enter_province(game, state, ALICE, ankhs=0, column=0)
        state = enter_province(game, state, BOB, ankhs=1, column=0)
        state = enter_province(game, state, CAROL, ankhs=0, column=0)
        assert state.ankh == expected


def test_after_the_third_auction_the_offering_begins():
    game = make_game(2)
    state = auction_with_hands(game, {ALICE: (0, 1), BOB: (0, 2)})
    from dataclasses import replace

    state = replace(state, auction=3)
    state = with_player(state, ALICE, columns=((card(),), (card(),), ()))
    state = with_player(state, BOB, columns=((card(),), (card(),), ()))
    state = play(game, state, ALICE, kind="bid", province=0, card=1)
    state = play(game, state, BOB, kind="bid", province=1, card=0)
    state = enter_province(game, state, ALICE)
    state = enter_province(game, state, BOB)
    assert state.phase == OFFER
    assert set(game.prompt(state).seats) == {ALICE, BOB}
