"""Position notation and the moves_for_position helper (rules file sorry.md, section 5)."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction
from shelf.sorry.board import HOME, SAFE0, START
from shelf.sorry.notation import format_position, parse_position
from shelf.sorry.positions import moves_for_position

from .helpers import at, table


def test_position_tokens_read_pawn_track_safety_start_and_home():
    pos = parse_position("R0@T17 R1@S2 R2@START B0@home")
    assert pos.mover == 0
    assert pos.pawns[0] == (17, SAFE0 + 2, START, HOME)
    assert pos.pawns[1] == (HOME, HOME, HOME, HOME)
    assert pos.pawns[2] == pos.pawns[3] == ()


def test_a_mover_prefix_and_colour_tokens_fill_unlisted_pawns():
    pos = parse_position("yellow: R0@T10, B@START, Y1@T40")
    assert pos.mover == 2
    assert pos.pawns[1] == (START,) * 4
    assert pos.pawns[2] == (HOME, 40, HOME, HOME)
    assert pos.colours == (0, 1, 2)


def test_format_position_reads_back():
    pos = parse_position("G: R0@T17 R1@S2 G3@START")
    assert parse_position(format_position(pos.pawns, pos.mover)) == pos


@pytest.mark.parametrize(
    "text",
    ["R0@T17 R1@T17", "R0@T17 B0@T17", "R0@S2 R1@S2", "R4@T1", "R0@T60", "R0@S6", "R0T17", "X: R0@T1", "R0@T1 R0@T2", ""],
)
def test_impossible_or_unreadable_positions_are_refused(text):
    with pytest.raises(IllegalAction) as err:
        parse_position(text)
    assert err.value.code == "bad_position"


def test_different_colours_may_share_safety_numbers():
    pos = parse_position("R0@S2 B0@S2")
    assert pos.pawns[0][0] == pos.pawns[1][0] == SAFE0 + 2


def test_moves_for_position_prints_each_legal_move_with_slides_and_bumps():
    assert moves_for_position("Y: Y0@T58 R1@T2 R2@T4", "3", {}) == ["Y0 T58+3>T1 => R1@START R2@START Y0@T4"]
    assert moves_for_position("R0@S5", "2", {}) == ["pass"]
    assert moves_for_position("R: R0@T1 B0@T20", "11", {"swapped_opponent_slides": False}) == ["R0 T1<>B0 T20", "pass"]


def test_moves_for_position_seats_all_four_colours_in_team_mode():
    assert moves_for_position("R0@T10 Y0@T15 R1@START", "sorry", {"team_mode": True}) == ["R1 START>Y0@T15"]


def test_moves_for_position_refuses_a_bad_card():
    with pytest.raises(IllegalAction) as err:
        moves_for_position("R0@T10", "6", {})
    assert err.value.code == "bad_card"


def test_state_from_position_refuses_a_colour_nobody_plays():
    with pytest.raises(IllegalAction) as err:
        at(table("red blue"), "R0@T10 G0@T20", "5")
    assert err.value.code == "bad_position"


def test_state_from_position_puts_seated_colours_missing_from_the_text_in_home():
    state = at(table("red blue"), "R0@T10", "5")
    assert state.pawns[1] == (HOME,) * 4
