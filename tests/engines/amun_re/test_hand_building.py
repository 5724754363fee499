"""Hand building at the start of each Kingdom (rules file 2.3; case T6)."""

from __future__ import annotations

import random

import pytest

from games.engines.base import IllegalAction
from shelf.amun_re.rules.hand import hand_choices
from shelf.amun_re.state import AUCTION, GOLD_VALUES

from .conftest import ALICE, BOB, CAROL, make_game, play, with_player


def test_kingdom_one_budget_of_14_accepts_exact_sums_with_the_zero_card(game3):
    state = game3.setup(random.Random(0))
    state = play(game3, state, ALICE, kind="build_hand", cards=[0, 6, 8])
    state = play(game3, state, BOB, kind="build_hand", cards=[0, 1, 2, 3, 8])
    assert state.players[ALICE].hand == (0, 6, 8)
    assert state.players[BOB].hand == (0, 1, 2, 3, 8)


def test_a_hand_without_the_zero_card_is_refused(game3):
    state = game3.setup(random.Random(0))
    with pytest.raises(IllegalAction) as err:
        play(game3, state, ALICE, kind="build_hand", cards=[6, 8])
    assert err.value.code == "hand_needs_zero"


def test_a_hand_worth_13_is_refused_in_exact_mode_and_accepted_in_at_most_mode(game3):
    state = game3.setup(random.Random(0))
    with pytest.raises(IllegalAction) as err:
        play(game3, state, ALICE, kind="build_hand", cards=[0, 5, 8])
    assert err.value.code == "hand_not_exact"
    relaxed = make_game(3, hand_sum_mode="at_most")
    state = play(relaxed, relaxed.setup(random.Random(0)), ALICE, kind="build_hand", cards=[0, 5, 8])
    assert state.players[ALICE].hand == (0, 5, 8)


def test_a_hand_worth_15_is_refused_in_both_modes():
    for mode in ("exact", "at_most"):
        game = make_game(3, hand_sum_mode=mode)
        with pytest.raises(IllegalAction) as err:
            play(game, game.setup(random.Random(0)), ALICE, kind="build_hand", cards=[0, 7, 8])
        assert err.value.code in ("hand_not_exact", "hand_over_budget")


def test_duplicate_or_foreign_card_values_are_refused(game3):
    state = game3.setup(random.Random(0))
    for cards in ([0, 7, 7], [0, 9, 5], [0, -1, 7, 8]):
        with pytest.raises(IllegalAction) as err:
            play(game3, state, ALICE, kind="build_hand", cards=cards)
        assert err.value.code == "hand_bad_card"


def test_hands_are_built_one_seat_after_the_other_from_the_ankh_holder(game3):
    state = game3.setup(random.Random(0))
    assert game3.prompt(state).seats == (ALICE,)
    state = play(game3, state, ALICE, kind="build_hand", cards=[0, 6, 8])
    assert game3.prompt(state).seats == (BOB,)
    state = play(game3, state, BOB, kind="build_hand", cards=[0, 6, 8])
    state = play(game3, state, CAROL, kind="build_hand", cards=[0, 6, 8])
    assert state.phase == AUCTION
    assert game3.prompt(state).seats == (ALICE,)


def test_later_kingdoms_use_the_revenue_marker_as_budget_and_reset_it_to_zero(game3):
    state = game3.setup(random.Random(0))
    state = with_player(state, ALICE, marker=5)
    from dataclasses import replace

    state = replace(state, kingdom=2)
    with pytest.raises(IllegalAction):
        play(game3, state, ALICE, kind="build_hand", cards=[0, 6, 8])
    state = play(game3, state, ALICE, kind="build_hand", cards=[0, 5])
    assert state.players[ALICE].marker == 0
    assert state.players[ALICE].set_aside == (1, 2, 3, 4, 6, 7, 8)


def test_a_budget_above_36_takes_all_nine_cards_and_loses_the_surplus_by_default(game3):
    from dataclasses import replace

    state = replace(with_player(game3.setup(random.Random(0)), ALICE, marker=40), kingdom=2)
    assert game3.legal_actions(state, ALICE) == [{"kind": "build_hand", "cards": list(GOLD_VALUES)}]
    after = play(game3, state, ALICE, kind="build_hand", cards=list(GOLD_VALUES))
    assert after.players[ALICE].marker == 0
    keep = make_game(3, budget_over_36="take_all_keep_rest")
    assert play(keep, state, ALICE, kind="build_hand", cards=list(GOLD_VALUES)).players[ALICE].marker == 4


@pytest.mark.parametrize("mode", ["exact", "at_most"])
def test_every_budget_from_0_to_50_has_a_legal_hand(mode):
    for amount in range(51):
        choices = hand_choices(amount, mode)
        assert choices
        assert all(c[0] == 0 for c in choices)
        if mode == "exact":
            assert all(sum(c) == min(amount, 36) for c in choices)
