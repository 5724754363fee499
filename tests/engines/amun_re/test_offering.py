"""The secret offering and its rewards (rules file 2.5; cases T8, T10)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engines.base import IllegalAction
from shelf.amun_re.rules.offering import rewards
from shelf.amun_re.state import INCOME, OFFER, REWARD, Player, State

from .conftest import ALICE, BOB, CAROL, DAVE, card, make_game, play

ROOMY = ((card(spaces=6),), (card(spaces=6),), (card(spaces=6),))


def offering_state(n: int, hands: dict[int, tuple[int, ...]], ankh: int = 0, columns=ROOMY) -> State:
    players = tuple(Player(hand=hands.get(s, (0,)), set_aside=(), built=True, columns=columns) for s in range(n))
    return State(players=players, phase=OFFER, auction=3, ankh=ankh, kingdom_start=ankh, turn=ankh)


def test_every_seat_is_asked_to_offer_at_once():
    game = make_game(4)
    state = offering_state(4, {})
    assert game.prompt(state).seats == (ALICE, BOB, CAROL, DAVE)
    state = play(game, state, CAROL, kind="offer", gold=0)
    assert game.prompt(state).seats == (ALICE, BOB, DAVE)


def test_t8_only_one_player_offers_anything_and_gets_three_pyramids():
    game = make_game(3)
    state = offering_state(3, {CAROL: (0, 4)})
    state = play(game, state, ALICE, kind="offer", gold=0)
    state = play(game, state, BOB, kind="offer", gold=0)
    state = play(game, state, CAROL, kind="offer", gold=4)
    assert state.offerings.rewards == (0, 0, 3)
    assert state.offerings.total == 4
    assert state.phase == REWARD
    assert game.prompt(state).seats == (CAROL,)


def test_three_to_five_players_reward_3_2_then_1_for_every_other_nonzero_offering():
    assert rewards((5, 4, 3, 1, 0), 0) == (3, 2, 1, 1, 0)
    assert rewards((0, 0, 0, 0), 0) == (0, 0, 0, 0)


def test_two_players_reward_3_and_1_only_for_an_offering_of_at_least_1():
    assert rewards((2, 5), 0) == (1, 3)
    assert rewards((0, 5), 0) == (0, 3)


def test_offering_ties_go_to_the_seat_nearest_the_start_player():
    # Start player Carol (2) offers 1; Dave (3), Alice (0), Bob (1) tie on 4, in that order from Carol.
    assert rewards((4, 4, 1, 4), 2) == (2, 1, 1, 3)


def test_an_offering_must_be_a_sum_of_cards_in_hand_and_is_made_once():
    game = make_game(2)
    state = offering_state(2, {ALICE: (0, 2, 5)})
    with pytest.raises(IllegalAction) as err:
        play(game, state, ALICE, kind="offer", gold=4)
    assert err.value.code == "offer_not_possible"
    assert [a["gold"] for a in game.legal_actions(state, ALICE)] == [0, 2, 5, 7]
    state = play(game, state, ALICE, kind="offer", gold=7)
    with pytest.raises(IllegalAction) as err:
        play(game, state, ALICE, kind="offer", gold=0)
    assert err.value.code == "already_offered"
    assert err.value.template == "Rule 2.5: you already offered; waiting for the others."


def test_an_offer_posted_during_the_auction_is_told_it_is_the_wrong_step():
    from .conftest import auction_with_hands

    game = make_game(3)
    state = auction_with_hands(game, {ALICE: (0, 5)})
    for seat in (ALICE, BOB):  # the bidder and a seat waiting for its turn
        with pytest.raises(IllegalAction) as err:
            play(game, state, seat, kind="offer", gold=5)
        assert err.value.code == "wrong_step"
        assert "an auction is running (the offering comes after the three auctions)" in err.value.template


def test_t10_a_total_of_9_puts_the_temple_on_column_2():
    game = make_game(2)
    state = offering_state(2, {ALICE: (0, 4), BOB: (0, 5)})
    state = play(game, state, ALICE, kind="offer", gold=4)
    state = play(game, state, BOB, kind="offer", gold=5)
    assert state.offerings.total == 9
    assert state.offerings.column == 2


def test_reward_pyramids_beyond_the_free_spaces_are_lost():
    game = make_game(2)
    tight = ((card(spaces=1, pyramids=1),), (card(spaces=1, pyramids=1),), (card(spaces=2, pyramids=1),))
    state = offering_state(2, {ALICE: (0, 8)}, columns=tight)
    state = play(game, state, ALICE, kind="offer", gold=8)
    state = play(game, state, BOB, kind="offer", gold=0)
    assert state.offerings.rewards == (3, 0)
    assert state.players[ALICE].pending == 1
    assert game.legal_actions(state, ALICE) == [{"kind": "place_pyramids", "columns": [0, 0, 1]}]


def test_reward_pyramids_are_placed_then_income_begins():
    game = make_game(2)
    state = offering_state(2, {ALICE: (0, 8), BOB: (0, 1)})
    state = play(game, state, ALICE, kind="offer", gold=8)
    state = play(game, state, BOB, kind="offer", gold=1)
    with pytest.raises(IllegalAction) as err:
        play(game, state, ALICE, kind="place_pyramids", columns=[1, 1, 0])
    assert err.value.code == "place_all_pyramids"
    with pytest.raises(IllegalAction) as err:
        play(game, state, ALICE, kind="place_pyramids", columns=[7, -4, 0])
    state = play(game, state, ALICE, kind="place_pyramids", columns=[1, 1, 1])
    state = play(game, state, BOB, kind="place_pyramids", columns=[0, 0, 1])
    assert state.phase == INCOME
    assert state.players[ALICE].column_pyramids() == (1, 1, 1)


def test_nobody_offering_anything_skips_the_reward_step():
    game = make_game(3)
    state = offering_state(3, {})
    for seat in (ALICE, BOB, CAROL):
        state = play(game, state, seat, kind="offer", gold=0)
    assert state.phase == INCOME
    assert replace(state.offerings, total=0).column == 1
