"""Every dispute case of the rules file's section 5 (D01-D18), with the official outcome."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction
from shelf.sorry.state import DRAW

from .helpers import at, legal, lines, play, table, where


def test_d01_split_seven_never_puts_two_own_pawns_on_one_square():
    game = table("red blue")
    state = at(game, "R: R0@T6 R1@T9", "7")
    assert not [p for p in legal(game, state) if p.get("then") and {p["to"], p["then"]["to"]} == {"T11"}]
    for first, then in [("R0", "R1"), ("R1", "R0")]:
        steps = 5 if first == "R0" else 2
        with pytest.raises(IllegalAction) as err:
            play(game, state, card="7", pawn=first, steps=steps, then={"pawn": then, "steps": 7 - steps})
        assert err.value.code == "own_pawn_on_target"


def test_d01_split_onto_the_square_the_other_pawn_leaves_is_legal_when_it_moves_first():
    game = table("red blue")
    state = at(game, "R: R0@T6 R1@T9", "7")
    assert "R1 T9+4>T13, R0 T6+3>T9" in lines(game, state)
    after = play(game, state, card="7", pawn="R1", steps=4, then={"pawn": "R0", "steps": 3})
    assert (where(after, "R0"), where(after, "R1")) == ("T9", "T13")


def test_d01_split_posted_in_the_illegal_order_is_applied_in_the_legal_one():
    game = table("red blue")
    state = at(game, "R: R0@T6 R1@T9", "7")
    after = play(game, state, card="7", pawn="R0", steps=3, then={"pawn": "R1", "steps": 4})
    assert (where(after, "R0"), where(after, "R1")) == ("T9", "T13")


def test_d03_backward_onto_a_foreign_triangle_slides_and_never_bumps_the_mover():
    game = table("red blue")
    state = at(game, "R: R0@T17 B0@T18", "10")
    after = play(game, state, card="10", pawn="R0", steps=-1)
    assert where(after, "R0") == "T19"
    assert where(after, "B0") == "START"


@pytest.mark.parametrize("slides, blue, red1", [(True, "T4", "START"), (False, "T1", "T4")])
def test_d05_opponent_swapped_onto_a_triangle_slides_by_default_and_not_with_the_flag_off(slides, blue, red1):
    game = table("red blue", swapped_opponent_slides=slides)
    state = at(game, "R: R0@T1 R1@T4 R2@HOME R3@HOME B0@T20", "11")
    after = play(game, state, card="11", pawn="R0", target="B0")
    assert where(after, "R0") == "T20"
    assert where(after, "B0") == blue
    assert where(after, "R1") == red1


def test_d07_a_two_that_cannot_be_used_still_draws_again():
    game = table("red blue")
    state = at(game, "R: R0@S5", "2")
    assert legal(game, state) == [{"kind": "pass"}]
    after = play(game, state, kind="pass")
    assert (after.turn, after.step) == (0, DRAW)


def test_d07_without_two_draws_again_the_unusable_two_ends_the_turn():
    game = table("red blue", two_draws_again=False)
    after = play(game, at(game, "R: R0@S5", "2"), kind="pass")
    assert (after.turn, after.step) == (1, DRAW)


def test_d08a_a_pawn_on_its_own_triangle_does_not_slide():
    game = table("red blue")
    after = play(game, at(game, "R: R0@T58 B0@T3", "3"), card="3", pawn="R0", steps=3)
    assert where(after, "R0") == "T1"
    assert where(after, "B0") == "T3"


def test_d08a_with_the_house_rule_a_pawn_slides_on_its_own_colour():
    game = table("red blue", slide_on_own_colour=True)
    after = play(game, at(game, "R: R0@T58 B0@T3", "3"), card="3", pawn="R0", steps=3)
    assert where(after, "R0") == "T4"
    assert where(after, "B0") == "START"


def test_d08b_a_pawn_on_a_foreign_triangle_slides_and_bumps_everyone_on_the_slide():
    game = table("red yellow")
    after = play(game, at(game, "Y: Y0@T58 R1@T2 R2@T4", "3"), card="3", pawn="Y0", steps=3)
    assert where(after, "Y0") == "T4"
    assert where(after, "R1") == where(after, "R2") == "START"


def test_d09_no_entry_to_safety_by_a_backward_move():
    game = table("red blue")
    after = play(game, at(game, "R: R0@T3", "4"), card="4", pawn="R0", steps=-4)
    assert where(after, "R0") == "T59"


def test_d09_backward_shortcut_from_the_start_exit_then_a_three_enters_safety():
    game = table("red blue")
    after = play(game, at(game, "R: R0@T4", "4"), card="4", pawn="R0", steps=-4)
    assert where(after, "R0") == "T0"
    later = play(game, at(game, "R: R0@T0", "3"), card="3", pawn="R0", steps=3)
    assert where(later, "R0") == "S1"


def test_d09_ten_back_one_from_the_diamond_then_a_one_enters_safety():
    game = table("red blue")
    after = play(game, at(game, "R: R0@T3", "10"), card="10", pawn="R0", steps=-1)
    assert where(after, "R0") == "T2"
    later = play(game, at(game, "R: R0@T2", "1"), card="1", pawn="R0", steps=1)
    assert where(later, "R0") == "S1"


def test_d10_a_four_backs_a_pawn_out_of_the_safety_zone():
    game = table("red blue")
    after = play(game, at(game, "R: R0@S2", "4"), card="4", pawn="R0", steps=-4)
    assert where(after, "R0") == "T0"


def test_d10_a_ten_that_cannot_go_forward_forces_back_one_out_of_safety():
    game = table("red blue")
    state = at(game, "R: R0@S1", "10")
    assert lines(game, state) == ["R0 S1-1>T2"]
    with pytest.raises(IllegalAction) as err:
        play(game, state, kind="pass")
    assert err.value.code == "move_available"


def test_d10_a_pawn_backed_out_onto_its_own_triangle_does_not_slide():
    game = table("red blue")
    after = play(game, at(game, "R: R0@S2 B0@T3", "4"), card="4", pawn="R0", steps=-4)
    assert where(after, "R0") == "T0"
    after = play(game, at(game, "R: R0@S1 B0@T3", "4"), card="4", pawn="R0", steps=-4)
    assert where(after, "R0") == "T59"
    after = play(game, at(game, "R: R0@S3 B0@T3", "4"), card="4", pawn="R0", steps=-4)
    assert where(after, "R0") == "T1"
    assert where(after, "B0") == "T3"


def test_d11_seven_into_home_needs_the_remainder_used_by_another_pawn():
    game = table("red blue")
    state = at(game, "R: R0@S4 R1@T20 R2@T25", "7")
    found = lines(game, state)
    assert "R0 S4+2>HOME, R2 T25+5>T30" in found
    assert "R0 S4+1>S5, R1 T20+6>T26" in found
    assert not any(line.startswith("R0 S4+2>HOME, R1") for line in found)
    with pytest.raises(IllegalAction) as err:
        play(game, state, card="7", pawn="R0", steps=2, then={"pawn": "R1", "steps": 5})
    assert err.value.code == "own_pawn_on_target"


def test_d11_a_lone_pawn_two_from_home_cannot_use_a_seven():
    game = table("red blue")
    state = at(game, "R: R0@S4", "7")
    assert legal(game, state) == [{"kind": "pass"}]
    assert play(game, state, kind="pass").turn == 1


def test_d12_sorry_with_no_pawn_in_start_loses_the_turn():
    game = table("red blue")
    state = at(game, "R: R0@T10 R1@T22 R2@T36 R3@T44 B0@T20", "sorry")
    assert legal(game, state) == [{"kind": "pass"}]


def test_d12_with_the_2013_option_sorry_must_move_a_pawn_four_forward():
    game = table("red blue", sorry_forward4_option=True)
    state = at(game, "R: R0@T10 R1@T22 R2@T36 R3@T44 B0@T20", "sorry")
    assert "R0 T10+4>T14" in lines(game, state)
    assert {"kind": "pass"} not in legal(game, state)
    assert where(play(game, state, card="sorry", pawn="R0", steps=4), "R0") == "T14"


def test_d15_sorry_cannot_target_safety_home_or_start():
    game = table("red blue green")
    state = at(game, "R: R0@START B0@S2 B1@HOME G0@START", "sorry")
    assert legal(game, state) == [{"kind": "pass"}]
    for target in ("B0", "B1", "G0"):
        with pytest.raises(IllegalAction) as err:
            play(game, state, card="sorry", pawn="R0", target=target)
        assert err.value.code == "target_not_on_track"


def test_d16_team_play_bumps_a_partner_and_may_move_the_partner():
    game = table(team_mode=True)
    state = at(game, "R: R0@T10 Y0@T15 R1@START B@START G@START", "5")
    assert lines(game, state) == ["R0 T10+5>T15 => R0@T15 Y0@START", "Y0 T15+5>T20"]
    after = play(game, state, card="5", pawn="R0", steps=5)
    assert where(after, "Y0") == "START"


def test_d16_team_sorry_on_your_own_partner_is_compulsory():
    game = table(team_mode=True)
    state = at(game, "R: R0@T10 Y0@T15 R1@START B@START G@START", "sorry")
    assert legal(game, state) == [{"kind": "move", "card": "sorry", "pawn": "R1", "target": "Y0", "to": "T15"}]
    with pytest.raises(IllegalAction) as err:
        play(game, state, kind="pass")
    assert err.value.code == "move_available"
    after = play(game, state, card="sorry", pawn="R1", target="Y0")
    assert (where(after, "R1"), where(after, "Y0")) == ("T15", "START")


def test_d18_a_pawn_cannot_start_onto_its_own_pawn_on_the_start_exit():
    game = table("red blue")
    state = at(game, "R: R0@START R1@T4", "1")
    assert lines(game, state) == ["R1 T4+1>T5"]
    with pytest.raises(IllegalAction) as err:
        play(game, state, card="1", pawn="R0")
    assert err.value.code == "own_pawn_on_target"


def test_d18_starting_onto_an_opponent_on_the_start_exit_bumps_it():
    game = table("red green")
    after = play(game, at(game, "R: R0@START G0@T4", "1"), card="1", pawn="R0")
    assert (where(after, "R0"), where(after, "G0")) == ("T4", "START")
