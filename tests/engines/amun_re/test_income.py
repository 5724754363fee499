"""Income and building pyramids (rules file 2.6; cases T10, T11, T17)."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction
from shelf.amun_re.rules.income import income, start_income
from shelf.amun_re.state import INCOME, Offerings, Player, State

from .conftest import ALICE, BOB, auction_with_hands, card, make_game, play

ROOMY = ((card(spaces=6),), (card(spaces=6),), (card(spaces=6),))


def income_state(markers=(0, 0), columns=ROOMY, column=3) -> State:
    players = tuple(Player(hand=(), set_aside=(), built=True, marker=m, columns=columns, offering=0) for m in markers)
    return State(
        players=players,
        phase=INCOME,
        auction=3,
        offerings=Offerings((0,) * len(markers), (0,) * len(markers), 15, column),
    )


def test_t10_in_column_3_four_farms_earn_12_gold():
    game = make_game(2)
    cols = ((card(farms=2),), (card(farms=1),), (card(farms=1),))
    state = income_state(columns=cols, column=3)
    assert income(game.cfg, state, ALICE) == 12


def test_covered_cards_earn_nothing_in_later_kingdoms():
    game = make_game(2)
    old = card(farms=5, caravans=3)
    cols = ((old, card(farms=1, kingdom=2)), (old, card(kingdom=2)), (old, card(kingdom=2)))
    state = income_state(columns=cols, column=2)
    from dataclasses import replace

    state = replace(state, kingdom=2)
    assert income(game.cfg, state, ALICE) == 2  # one farm at column 2's rate


def test_unspent_cards_and_income_go_on_the_revenue_marker_and_all_cards_are_discarded():
    game = make_game(2)
    cols = ((card(farms=2, caravans=1),), (card(),), (card(),))
    players = (
        Player(hand=(0, 3, 5), set_aside=(1, 2, 4, 6, 7, 8), built=True, columns=cols, offering=5),
        Player(hand=(0,), set_aside=(1, 2, 3, 4, 5, 6, 7, 8), built=True, columns=cols, offering=0),
    )
    state = State(players=players, phase=INCOME, auction=3, offerings=Offerings((5, 0), (3, 0), 5, 1))
    state = start_income(game.cfg, state)
    # 3 unspent + column 1 (1 per farm, 3 per caravan): 2 + 3.
    assert state.players[ALICE].marker == 3 + 5
    assert state.players[ALICE].hand == ()
    assert sorted(state.players[ALICE].discard) == [0, 3, 5]


def test_t11_five_pyramids_cost_21_so_a_marker_at_20_cannot_buy_them():
    game = make_game(2)
    state = income_state(markers=(20, 21))
    with pytest.raises(IllegalAction) as err:
        play(game, state, ALICE, kind="buy", count=5)
    assert err.value.code == "cannot_afford"
    assert {"kind": "buy", "count": 5} not in game.legal_actions(state, ALICE)
    state = play(game, state, BOB, kind="buy", count=5)
    assert state.players[BOB].marker == 0
    assert state.players[BOB].pending == 5


def test_t17_five_pyramids_are_not_priced_at_the_board_games_15():
    game = make_game(2)
    assert game.edition.cost(5) == 21
    state = income_state(markers=(15, 0))
    assert {"kind": "buy", "count": 5} not in game.legal_actions(state, ALICE)


def test_t17_the_card_game_has_no_steal_offering_and_bids_are_gold_cards():
    game = make_game(2)
    with pytest.raises(IllegalAction) as err:
        play(game, income_state(), ALICE, kind="steal")
    assert err.value.code == "unknown_action"
    state = auction_with_hands(game, {ALICE: (0, 1, 3)})
    # The board game's bid track (0, 1, 3, 6, 10 ...) does not exist: a bid is one card from hand.
    with pytest.raises(IllegalAction) as err:
        play(game, state, ALICE, kind="bid", province=0, card=6)
    assert err.value.code == "card_not_in_hand"
    assert {a["card"] for a in game.legal_actions(state, ALICE)} == {0, 1, 3}


def test_pyramids_are_bought_once_per_kingdom_and_placed_before_anything_else():
    game = make_game(2)
    state = income_state(markers=(30, 0))
    state = play(game, state, ALICE, kind="buy", count=2)
    with pytest.raises(IllegalAction) as err:
        play(game, state, ALICE, kind="buy", count=1)
    assert err.value.code == "place_first"
    state = play(game, state, ALICE, kind="place_pyramids", columns=[0, 2, 0])
    assert game.legal_actions(state, ALICE) == []
    assert state.players[ALICE].marker == 30 - 5


def test_buying_more_pyramids_than_free_spaces_is_refused():
    game = make_game(2)
    cols = ((card(spaces=1),), (card(spaces=1),), (card(spaces=1),))
    state = income_state(markers=(30, 0), columns=cols)
    with pytest.raises(IllegalAction) as err:
        play(game, state, ALICE, kind="buy", count=4)
    assert err.value.code == "no_space_for_pyramids"


def test_pyramids_may_go_on_covered_cards_with_free_space():
    game = make_game(2)
    cols = ((card(spaces=2), card(spaces=1, kingdom=2)), (card(kingdom=2),), (card(kingdom=2),))
    state = income_state(markers=(30, 0), columns=cols)
    from dataclasses import replace

    state = replace(state, kingdom=2)
    state = play(game, state, ALICE, kind="buy", count=3)
    state = play(game, state, ALICE, kind="place_pyramids", columns=[3, 0, 0])
    bottom, top = state.players[ALICE].columns[0]
    assert (bottom.pyramids, top.pyramids) == (2, 1)
    with pytest.raises(IllegalAction):
        play(game, income_state(markers=(30, 0), columns=cols), ALICE, kind="place_pyramids", columns=[1, 0, 0])


def test_a_column_with_too_few_spaces_is_refused():
    game = make_game(2)
    cols = ((card(spaces=1),), (card(spaces=6),), (card(spaces=6),))
    state = play(game, income_state(markers=(30, 0), columns=cols), ALICE, kind="buy", count=2)
    with pytest.raises(IllegalAction) as err:
        play(game, state, ALICE, kind="place_pyramids", columns=[2, 0, 0])
    assert err.value.code == "column_full"
