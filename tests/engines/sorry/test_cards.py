"""Each card's effect (rules file sorry.md, sections 2.2-2.4)."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction, SeatInfo, fill
from shelf.sorry import SorryGame
from shelf.sorry.state import DRAW

from .helpers import at, legal, lines, play, table, where


def refused(game, state, code, **payload):
    with pytest.raises(IllegalAction) as err:
        play(game, state, **payload)
    assert err.value.code == code, err.value.message
    return err.value


# -- 1 and 2 ------------------------------------------------------------------

def test_one_starts_a_pawn_on_the_start_exit_or_moves_one_forward():
    game = table("red blue")
    state = at(game, "R: R0@START R1@START R2@T10", "1")
    assert lines(game, state) == ["R0 START>T4", "R2 T10+1>T11"]
    assert where(play(game, state, card="1", pawn="R1"), "R1") == "T4"


def test_two_starts_a_pawn_without_moving_it_further_and_draws_again():
    game = table("red blue")
    state = at(game, "R: R0@START", "2")
    assert legal(game, state) == [{"kind": "move", "card": "2", "pawn": "R0", "to": "T4"}]
    after = play(game, state, card="2", pawn="R0")
    assert where(after, "R0") == "T4"
    assert (after.turn, after.step) == (0, DRAW)


def test_two_moves_a_pawn_two_forward():
    game = table("red blue")
    after = play(game, at(game, "R: R0@T58", "2"), card="2", pawn="R0", steps=2)
    assert where(after, "R0") == "T0"


@pytest.mark.parametrize("card", ["3", "4", "5", "7", "8", "10", "11", "12"])
def test_only_one_two_or_sorry_takes_a_pawn_out_of_start(card):
    game = table("red blue")
    state = at(game, "R: R0@START B0@T20", card)
    assert legal(game, state) == [{"kind": "pass"}]
    refused(game, state, "card_cannot_start", card=card, pawn="R0")


# -- plain forward cards ----------------------------------------------------------

@pytest.mark.parametrize("card, expected", [("3", "T23"), ("5", "T25"), ("8", "T28"), ("12", "T32")])
def test_forward_cards_move_one_pawn_exactly_that_many_squares(card, expected):
    game = table("red blue")
    state = at(game, "R: R0@T20", card)
    assert legal(game, state)[0]["to"] == expected
    refused(game, state, "wrong_count", card=card, pawn="R0", steps=int(card) + 1)


def test_a_pawn_jumps_over_pawns_and_bumps_an_opponent_where_it_stops():
    game = table("red blue")
    after = play(game, at(game, "R: R0@T20 R1@T21 B0@T22 B1@T25", "5"), card="5", pawn="R0", steps=5)
    assert (where(after, "R0"), where(after, "R1"), where(after, "B0"), where(after, "B1")) == ("T25", "T21", "T22", "START")


def test_twelve_turns_into_safety_and_overshooting_home_is_illegal():
    game = table("red blue")
    assert where(play(game, at(game, "R: R0@T52", "12"), card="12", pawn="R0", steps=12), "R0") == "S2"
    state = at(game, "R: R0@S3", "5")
    assert legal(game, state) == [{"kind": "pass"}]
    refused(game, state, "overshoots_home", card="5", pawn="R0", steps=5)


def test_a_pawn_in_home_never_moves_again():
    game = table("red blue")
    state = at(game, "R: R0@HOME R1@T10", "1")
    refused(game, state, "pawn_at_home", card="1", pawn="R0", steps=1)


def test_a_pawn_may_not_land_on_its_own_pawn_in_the_safety_zone():
    game = table("red blue")
    state = at(game, "R: R0@S1 R1@S3", "2")
    assert lines(game, state) == ["R1 S3+2>S5"]
    refused(game, state, "own_pawn_on_target", card="2", pawn="R0", steps=2)


# -- 4 -------------------------------------------------------------------------

def test_four_moves_one_pawn_four_backward_wrapping_past_zero():
    game = table("red blue")
    state = at(game, "R: R0@T2 R1@T30", "4")
    assert lines(game, state) == ["R0 T2-4>T58", "R1 T30-4>T26"]
    refused(game, state, "wrong_count", card="4", pawn="R0", steps=4)


def test_four_is_forced_even_when_it_hurts():
    game = table("red blue")
    state = at(game, "R: R0@S5", "4")
    assert lines(game, state) == ["R0 S5-4>S1"]
    refused(game, state, "move_available", kind="pass")


# -- 7 ---------------------------------------------------------------------------

def test_seven_moves_one_pawn_seven_or_splits_between_two_pawns():
    game = table("red blue")
    state = at(game, "R: R0@T5 R1@T35", "7")
    found = lines(game, state)
    assert "R0 T5+7>T12" in found and "R1 T35+7>T42" in found
    splits = [p for p in legal(game, state) if "then" in p]
    assert sorted((p["steps"], p["then"]["steps"]) for p in splits if p["pawn"] == "R0") == [(a, 7 - a) for a in range(1, 7)]
    after = play(game, state, card="7", pawn="R0", steps=4, then={"pawn": "R1", "steps": 3})
    assert (where(after, "R0"), where(after, "R1")) == ("T9", "T38")


def test_seven_split_cannot_take_a_pawn_out_of_start_or_use_less_than_seven():
    game = table("red blue")
    state = at(game, "R: R0@T20 R1@START", "7")
    assert lines(game, state) == ["R0 T20+7>T27"]
    refused(game, state, "pawn_in_start", card="7", pawn="R0", steps=4, then={"pawn": "R1", "steps": 3})
    refused(game, state, "wrong_count", card="7", pawn="R0", steps=4)
    refused(game, state, "wrong_count", card="7", pawn="R0", steps=-7)


def test_seven_split_cannot_move_the_same_pawn_twice():
    game = table("red blue")
    state = at(game, "R: R0@T20 R1@T40", "7")
    refused(game, state, "same_pawn_twice", card="7", pawn="R0", steps=4, then={"pawn": "R0", "steps": 3})


def test_seven_split_lists_both_orders_when_they_give_different_results():
    game = table("red blue")
    # Both pawns land on Blue's triangle T16 and slide to T19: whoever goes second bumps the first.
    state = at(game, "R: R0@T13 R1@T12", "7")
    found = lines(game, state)
    assert "R0 T13+3>T16, R1 T12+4>T16 => R0@START R1@T19" in found
    assert "R1 T12+4>T16, R0 T13+3>T16 => R0@T19 R1@START" in found


def test_seven_split_with_the_same_result_in_both_orders_is_listed_once():
    game = table("red blue")
    state = at(game, "R: R0@T5 R1@T35", "7")
    firsts = [(p["pawn"], p["steps"]) for p in legal(game, state) if "then" in p]
    assert len(firsts) == 6


# -- 10 ---------------------------------------------------------------------------

def test_ten_moves_ten_forward_or_one_backward_at_the_players_choice():
    game = table("red blue")
    state = at(game, "R: R0@T20", "10")
    assert lines(game, state) == ["R0 T20+10>T30", "R0 T20-1>T19"]
    assert where(play(game, state, card="10", pawn="R0", steps=-1), "R0") == "T19"
    refused(game, state, "wrong_count", card="10", pawn="R0", steps=-2)


def test_ten_backs_a_pawn_off_its_start_exit_onto_the_diamond():
    game = table("red blue")
    after = play(game, at(game, "R: R0@T4 R1@S2", "10"), card="10", pawn="R0", steps=-1)
    assert where(after, "R0") == "T3"


# -- 11 ---------------------------------------------------------------------------

def test_eleven_moves_eleven_forward_or_swaps_with_an_opponent_on_the_track():
    game = table("red blue")
    state = at(game, "R: R0@T30 B0@T5 B1@S1 B2@START B3@HOME", "11")
    assert lines(game, state) == ["R0 T30+11>T41", "R0 T30<>B0 T5"]
    after = play(game, state, card="11", pawn="R0", target="B0")
    assert (where(after, "R0"), where(after, "B0")) == ("T5", "T30")


@pytest.mark.parametrize("target", ["B1", "B2", "B3"])
def test_eleven_cannot_swap_with_a_pawn_in_safety_start_or_home(target):
    game = table("red blue")
    state = at(game, "R: R0@T30 B0@T5 B1@S1 B2@START B3@HOME", "11")
    refused(game, state, "target_not_on_track", card="11", pawn="R0", target=target)


def test_eleven_cannot_swap_a_pawn_in_safety_or_its_own_colour():
    game = table("red blue")
    state = at(game, "R: R0@S1 R1@T30 B0@T5", "11")
    refused(game, state, "pawn_not_on_track", card="11", pawn="R0", target="B0")
    refused(game, state, "target_is_own", card="11", pawn="R1", target="R1")


def test_swapping_onto_a_foreign_triangle_slides_and_bumps():
    game = table("red blue yellow")
    state = at(game, "R: R0@T50 B0@T31 Y0@T33", "11")
    after = play(game, state, card="11", pawn="R0", target="B0")
    assert (where(after, "R0"), where(after, "B0"), where(after, "Y0")) == ("T34", "T50", "START")


def test_eleven_that_can_only_swap_may_be_declined():
    game = table("red blue")
    state = at(game, "R: R0@T58 B0@T20", "11")
    assert lines(game, state) == ["R0 T58<>B0 T20", "pass"]
    after = play(game, state, kind="pass")
    assert (after.turn, where(after, "R0")) == (1, "T58")


def test_eleven_swap_may_not_be_declined_when_eleven_forward_exists():
    game = table("red blue")
    state = at(game, "R: R0@T20 B0@T30", "11")
    assert {"kind": "pass"} not in legal(game, state)
    refused(game, state, "move_available", kind="pass")


def test_without_the_decline_option_the_swap_is_forced():
    game = table("red blue", eleven_swap_may_decline=False)
    state = at(game, "R: R0@T58 B0@T20", "11")
    assert {"kind": "pass"} not in legal(game, state)


def test_a_swap_alone_sends_nobody_to_start():
    game = table("red blue")
    after = play(game, at(game, "R: R0@T20 B0@T40", "11"), card="11", pawn="R0", target="B0")
    assert (where(after, "R0"), where(after, "B0")) == ("T40", "T20")


# -- Sorry! ----------------------------------------------------------------------

def test_sorry_puts_a_start_pawn_on_an_opponent_and_sends_it_to_start():
    game = table("red blue")
    state = at(game, "R: R0@START R1@START B0@T20 B1@T40", "sorry")
    assert lines(game, state) == ["R0 START>B0@T20", "R0 START>B1@T40"]
    after = play(game, state, card="sorry", pawn="R1", target="B1")
    assert (where(after, "R1"), where(after, "B1")) == ("T40", "START")


def test_sorry_onto_a_foreign_triangle_slides_and_bumps():
    game = table("red blue")
    after = play(game, at(game, "R: R0@START R1@T18 B0@T16 B1@T19", "sorry"), card="sorry", pawn="R0", target="B0")
    assert [where(after, p) for p in ("R0", "R1", "B0", "B1")] == ["T19", "START", "START", "START"]


def test_sorry_needs_the_moving_pawn_in_start():
    game = table("red blue")
    state = at(game, "R: R0@T5 R1@START B0@T20", "sorry")
    refused(game, state, "pawn_not_in_start", card="sorry", pawn="R0", target="B0")
    refused(game, state, "target_is_own", card="sorry", pawn="R1", target="R0")
    refused(game, state, "card_cannot_start", card="sorry", pawn="R1")


def test_a_move_that_slides_and_bumps_says_so_on_its_button_and_in_the_log():
    """Sections 2.3-2.4: the referee tells the table where pawns really end, not just the landing square."""
    game = SorryGame({}, [SeatInfo(0, "Ann", "red"), SeatInfo(1, "Ben", "blue")])
    state = game.state_from_position("R: R0@T14 B0@T18", card="2")
    (move,) = [a for a in game.legal_actions(state, 0) if a.get("pawn") == "R0"]
    assert move["effects"] == [{"pawn": "R0", "to": "T19"}, {"pawn": "B0", "to": "START"}]
    label = game.label(0, move)
    # In words, counted as players count them (pawns and squares from 1): R0 -> red pawn 1, T14 -> square 15.
    assert fill(label.text, label.details) == (
        "2: red pawn 1: 2 forward to square 17, slides to square 20, blue pawn 1 back to START")
    line = game.describe(0, move, None)
    assert fill(line.text, line.details) == (
        "Ann plays 2: red pawn 1: 2 forward to square 17, slides to square 20, blue pawn 1 back to START.")
    with pytest.raises(IllegalAction) as err:
        game.apply(state, 0, {**move, "effects": [{"pawn": "R0", "to": "T16"}]})
    assert err.value.code == "wrong_effects"
