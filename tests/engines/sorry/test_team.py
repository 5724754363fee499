"""Team rules: Red+Yellow against Blue+Green (rules file sorry.md, section 3.1)."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction
from shelf.sorry.state import OVER

from .helpers import at, legal, lines, play, table, where


def test_a_one_may_start_either_partners_pawn():
    game = table(team_mode=True)
    state = at(game, "R: R0@START Y0@START B@START G@START", "1")
    assert lines(game, state) == ["R0 START>T4", "Y0 START>T34"]


def test_blue_moves_blue_and_green_pawns_but_not_red_ones():
    game = table(team_mode=True)
    state = at(game, "B: B0@T20 G0@T50 R0@T10 Y@START", "3")
    assert [p["pawn"] for p in legal(game, state)] == ["B0", "G0"]
    with pytest.raises(IllegalAction) as err:
        play(game, state, card="3", pawn="R0", steps=3)
    assert err.value.code == "not_your_pawn"


def test_a_seven_may_split_between_the_two_partners_pawns():
    game = table(team_mode=True)
    state = at(game, "R: R0@T10 Y0@T40 B@START G@START", "7")
    after = play(game, state, card="7", pawn="R0", steps=2, then={"pawn": "Y0", "steps": 5})
    assert (where(after, "R0"), where(after, "Y0")) == ("T12", "T45")


def test_the_eleven_swaps_only_with_opponents_by_default():
    game = table(team_mode=True)
    state = at(game, "R: R0@T58 Y0@T20 B0@T40 G@START", "11")
    targets = {p.get("target") for p in legal(game, state)}
    assert "Y0" not in targets and "B0" in targets
    with pytest.raises(IllegalAction) as err:
        play(game, state, card="11", pawn="R0", target="Y0")
    assert err.value.code == "target_is_partner"


def test_with_the_option_the_eleven_swaps_with_the_partner_when_no_opponent_is_on_the_track():
    game = table(team_mode=True, team_swap_with_partner=True)
    state = at(game, "R: R0@T58 Y0@T20 B@START G@START", "11")
    after = play(game, state, card="11", pawn="R0", target="Y0")
    assert (where(after, "R0"), where(after, "Y0")) == ("T20", "T58")
    crowded = at(game, "R: R0@T58 Y0@T20 B0@T40 G@START", "11")
    assert "Y0" not in {p.get("target") for p in legal(game, crowded)}


def test_the_team_wins_when_all_eight_pawns_are_home():
    game = table(team_mode=True)
    state = at(game, "Y: Y0@S5 R@HOME Y@HOME B@START G@START", "1")
    after = play(game, state, card="1", pawn="Y0", steps=1)
    assert after.step == OVER
    result = game.result(after)
    assert result["winners"] == [0, 2]
    assert {r["seat"]: r["place"] for r in result["ranking"]} == {0: 1, 2: 1, 1: 3, 3: 3}


def test_one_colour_home_alone_does_not_win_a_team_game():
    game = table(team_mode=True)
    state = at(game, "R: R0@S5 R@HOME Y0@T10 Y@HOME B@START G@START", "1")
    after = play(game, state, card="1", pawn="R0", steps=1)
    assert after.step != OVER
