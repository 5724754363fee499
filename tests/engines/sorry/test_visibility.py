"""Secrecy: in points mode a seat sees its own hand only (rules file sorry.md, section 3.2; STYLE principle 7)."""

from __future__ import annotations

import json

from shelf.sorry.state import DRAW, SorryState

from .helpers import at, table


def hands_state(game):
    return at(game, "R: R0@T4 B0@T19", hands={0: ["sorry", "sorry", "sorry", "sorry", "11"], 1: ["3", "3", "3", "3", "5"]})


def test_a_seat_sees_its_own_hand_under_private():
    game = table("red blue", points_mode=True)
    view = game.view(hands_state(game), 0)
    assert view["private"]["hand"] == ["11", "sorry", "sorry", "sorry", "sorry"]
    assert view["hand_sizes"] == [5, 5]


def test_another_seats_view_never_shows_alices_cards():
    game = table("red blue", points_mode=True)
    state = hands_state(game)
    other = at(game, "R: R0@T4 B0@T19", hands={0: ["1", "2", "4", "7", "12"], 1: ["3", "3", "3", "3", "5"]})
    assert game.view(state, 0) != game.view(other, 0)
    for viewer in (1, None):
        assert json.dumps(game.view(state, viewer)) == json.dumps(game.view(other, viewer))
    assert "private" not in game.view(state, None)
    assert '"private": {"hand": ["3", "3", "3", "3", "5"]}' in json.dumps(game.view(state, 1))


def test_the_draw_pile_shows_only_its_size():
    game = table("red blue", points_mode=True)
    view = game.view(hands_state(game), 1)
    assert view["draw_pile"] == 35
    assert "deck" not in view


def test_physical_draw_choices_do_not_reveal_what_is_in_other_hands():
    game = table("red blue", points_mode=True, components="physical")
    state = hands_state(game)
    refill = SorryState(state.pawns, 1, DRAW, None, state.deck, state.discard, state.hands)
    cards = {p["card"] for p in game.legal_actions(refill, 1)}
    assert "sorry" in cards  # Bob cannot tell that Alice holds all four Sorry! cards


def test_others_read_a_points_mode_draw_as_a_card_without_its_value():
    game = table("red blue", points_mode=True)
    action = {"kind": "draw", "card": "sorry"}
    mine = game.describe(0, action, 0)
    theirs = game.describe(0, action, 1)
    assert mine.private and mine.details["card"] == "Sorry!"
    assert "sorry" not in json.dumps(theirs.details) and "sorry" not in theirs.text.lower().replace("sorry!", "")


def test_standard_game_draws_are_public():
    game = table("red blue")
    line = game.describe(0, {"kind": "draw", "card": "7"}, 1)
    assert line.details["card"] == "7" and not line.private
