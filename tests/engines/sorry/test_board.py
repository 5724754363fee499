"""Board geometry: step functions and landmarks (rules file sorry.md, sections 1.1-1.4)."""

from __future__ import annotations

import pytest

from shelf.sorry.board import (
    HOME,
    SAFE0,
    START,
    backward,
    distance_to_home,
    forward,
    junction,
    slide_at,
    start_exit,
)

R, B, Y, G = 0, 1, 2, 3


def S(k: int) -> int:
    return SAFE0 + k


@pytest.mark.parametrize(
    "colour, loc, steps, expected",
    [
        (R, 0, 3, S(1)), (R, 1, 2, S(1)), (R, 2, 1, S(1)), (R, 2, 6, HOME), (R, 2, 7, None),
        (R, 51, 12, S(1)), (R, 52, 12, S(2)), (R, 58, 5, S(1)), (R, 59, 4, S(1)),
        (B, 16, 2, S(1)), (R, 59, 1, 0), (B, 59, 1, 0), (R, 3, 12, 15), (R, S(4), 2, HOME), (R, S(4), 3, None),
    ],
)
def test_forward_steps_turn_into_safety_at_the_junction_and_need_exact_count(colour, loc, steps, expected):
    assert forward(loc, steps, colour) == expected


@pytest.mark.parametrize(
    "colour, loc, steps, expected",
    [(R, S(1), 1, 2), (R, S(1), 4, 59), (R, S(1), 5, 58), (R, S(2), 4, 0), (R, 3, 4, 59), (B, S(1), 2, 16),
     (G, 0, 1, 59), (R, S(5), 3, S(2))],
)
def test_backward_steps_leave_safety_but_never_enter_it(colour, loc, steps, expected):
    assert backward(loc, steps, colour) == expected


def test_pawns_in_start_or_home_do_not_move_by_count():
    for fn in (forward, backward):
        assert fn(START, 1, R) is None
        assert fn(HOME, 1, R) is None


@pytest.mark.parametrize(
    "colour, short, long, junction_sq, exit_sq",
    [(R, (1, 4), (9, 13), 2, 4), (B, (16, 19), (24, 28), 17, 19), (Y, (31, 34), (39, 43), 32, 34),
     (G, (46, 49), (54, 58), 47, 49)],
)
def test_landmark_table_of_section_1_3(colour, short, long, junction_sq, exit_sq):
    assert slide_at(short[0]) == (colour, *short)
    assert slide_at(long[0]) == (colour, *long)
    assert junction(colour) == junction_sq
    assert start_exit(colour) == exit_sq


def test_only_eight_triangles_exist():
    assert sum(slide_at(sq) is not None for sq in range(60)) == 8


def test_a_full_lap_from_the_start_exit_is_64_steps_and_65_from_the_diamond():
    assert distance_to_home(4, R) == 64
    assert distance_to_home(3, R) == 65
    assert distance_to_home(2, R) == 6
    assert distance_to_home(59, R) == 9
    assert distance_to_home(S(3), R) == 3
    assert distance_to_home(START, R) is None
