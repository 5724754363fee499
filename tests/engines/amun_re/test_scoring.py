"""Honour scoring, next Kingdom and end of game (rules file 2.7-2.10; cases T12-T14)."""

from __future__ import annotations

from dataclasses import replace

from shelf.amun_re.rules.scoring import final_order, score_kingdom
from shelf.amun_re.rules.ties import rank, seat_distance
from shelf.amun_re.state import BUILD, GOLD_VALUES, INCOME, OVER, Player, State

from .conftest import ALICE, BOB, CAROL, card, make_game


def scoring_state(columns_by_seat, kingdom=1, ankh=ALICE, vps=None) -> State:
    players = tuple(
        Player(hand=(), set_aside=(), built=True, bought=True, columns=cols, vp=(vps or [0] * len(columns_by_seat))[i])
        for i, cols in enumerate(columns_by_seat)
    )
    return State(players=players, kingdom=kingdom, phase=INCOME, auction=3, ankh=ankh, kingdom_start=ankh)


def plain(k=1):
    return ((card(kingdom=k),), (card(kingdom=k),), (card(kingdom=k),))


def steps_of(state, seat, reason):
    return [s.points for s in state.steps if s.seat == seat and s.reason == reason]


def test_t12_kingdom_one_scores_the_province_with_fewest_pyramids():
    game = make_game(2)
    alice = ((card(pyramids=2),), (card(pyramids=3),), (card(pyramids=2),))
    state = score_kingdom(game.cfg, scoring_state([alice, plain()]))
    assert steps_of(state, ALICE, "weakest_column") == [2]


def test_t12_later_kingdoms_score_the_column_with_fewest_pyramids():
    game = make_game(2)
    alice = (
        (card(pyramids=2), card(pyramids=1, kingdom=2)),
        (card(pyramids=3), card(pyramids=0, kingdom=2)),
        (card(pyramids=2), card(pyramids=2, kingdom=2)),
    )
    bob = tuple((card(), card(kingdom=2)) for _ in range(3))
    state = score_kingdom(game.cfg, scoring_state([alice, bob], kingdom=2))
    assert steps_of(state, ALICE, "weakest_column") == [3]


def test_t13_nine_farms_on_this_kingdoms_provinces_score_one():
    game = make_game(2)
    nine = ((card(farms=4),), (card(farms=3),), (card(farms=2),))
    eight = ((card(farms=4),), (card(farms=3),), (card(farms=1),))
    state = score_kingdom(game.cfg, scoring_state([nine, eight]))
    assert steps_of(state, ALICE, "farms") == [1]
    assert steps_of(state, BOB, "farms") == []


def test_t13_farms_on_covered_kingdom_one_cards_are_ignored_in_kingdom_two():
    game = make_game(2)
    covered = tuple((card(farms=6), card(farms=2, kingdom=2)) for _ in range(3))
    state = score_kingdom(game.cfg, scoring_state([covered, covered], kingdom=2))
    assert steps_of(state, ALICE, "farms") == []


def test_t14_most_ankhs_gains_one_and_starts_next_and_the_farther_tied_fewest_loses_one():
    # Start Purple (seat 0), then Blue (1), then Red (2): ankhs 3, 1, 1.
    game = make_game(3)
    purple = ((card(ankhs=3),), (card(),), (card(),))
    one = ((card(ankhs=1),), (card(),), (card(),))
    state = score_kingdom(game.cfg, scoring_state([purple, one, one]))
    assert steps_of(state, ALICE, "most_ankhs") == [1]
    assert steps_of(state, CAROL, "fewest_ankhs") == [-1]
    assert steps_of(state, BOB, "fewest_ankhs") == []
    assert state.ankh == ALICE
    assert state.phase == BUILD and state.kingdom == 2 and state.kingdom_start == ALICE
    assert state.players[CAROL].vp == -1


def test_two_players_always_share_one_plus_and_one_minus_for_ankhs():
    game = make_game(2)
    state = score_kingdom(game.cfg, scoring_state([plain(), plain()], ankh=BOB))
    assert steps_of(state, BOB, "most_ankhs") == [1]
    assert steps_of(state, ALICE, "fewest_ankhs") == [-1]
    assert state.ankh == BOB


def test_honour_stops_at_zero_when_negative_totals_are_off():
    game = make_game(2, allow_negative_vp=False)
    state = score_kingdom(game.cfg, scoring_state([plain(), plain()]))
    assert state.players[BOB].vp == 0
    assert steps_of(state, BOB, "fewest_ankhs") == [0]


def test_the_next_kingdom_gives_back_all_nine_cards_and_keeps_pyramids():
    game = make_game(2)
    alice = ((card(pyramids=1),), (card(pyramids=1),), (card(pyramids=1),))
    state = score_kingdom(game.cfg, scoring_state([alice, plain()]))
    assert state.players[ALICE].set_aside == GOLD_VALUES
    assert state.players[ALICE].column_pyramids() == (1, 1, 1)
    assert game.prompt(state).seats == (state.ankh,)


def test_the_third_kingdom_ends_the_game_with_a_result():
    game = make_game(2)
    covered = tuple((card(), card(kingdom=2), card(kingdom=3, ankhs=1)) for _ in range(3))
    state = score_kingdom(game.cfg, scoring_state([covered, plain(3)], kingdom=3))
    assert state.phase == OVER
    result = game.result(state)
    assert result["winners"] == [ALICE]
    assert [r["seat"] for r in result["ranking"]] == [ALICE, BOB]
    assert result["steps"]
    assert game.prompt(state).seats == ()


def test_end_of_game_ties_go_to_most_pyramids_then_nearest_the_last_start_player():
    pyr = ((card(pyramids=2),), (card(),), (card(),))
    state = replace(scoring_state([plain(), pyr, plain()], vps=[5, 5, 5], ankh=CAROL), phase=OVER)
    assert final_order(state) == [BOB, CAROL, ALICE]


def test_one_tie_break_primitive_counts_clockwise_from_the_start_player():
    assert [seat_distance(s, 2, 4) for s in range(4)] == [2, 3, 0, 1]
    assert rank([0, 1, 2, 3], 2, 4, key=lambda s: 0) == [2, 3, 0, 1]
