"""Set-up (rules SU1-SU6, 0.3 editions)."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction, SeatInfo
from shelf.catan_junior import CatanJuniorGame

from .conftest import ALICE, BOB, assert_conserved, hand, make_game, opening


def test_four_kosmos_players_leave_13_wood_13_cutlass_and_17_of_the_rest_in_the_supply():
    state = opening(make_game(4))
    assert dict(zip(("wood", "wool", "molasses", "cutlass", "gold"), state.supply, strict=True)) == {
        "wood": 13,
        "wool": 17,
        "molasses": 17,
        "cutlass": 13,
        "gold": 17,
    }
    assert_conserved(state)


def test_the_marketplace_starts_with_one_token_of_each_resource():
    state = opening(make_game(3))
    assert sorted(state.market) == ["cutlass", "gold", "molasses", "wood", "wool"]
    assert_conserved(state)


def test_each_kosmos_player_starts_with_one_wood_and_one_cutlass():
    state = opening(make_game(4))
    for seat in range(4):
        assert hand(state, seat) == {"wood": 1, "wool": 0, "molasses": 0, "cutlass": 1, "gold": 0}


def test_each_english_player_starts_with_one_wood_and_one_molasses():
    game = make_game(4, edition="english")
    state = opening(game)
    assert hand(state, 0) == {"wood": 1, "wool": 0, "molasses": 1, "cutlass": 0, "gold": 0}
    assert game.rules.ships_per_colour == 8
    assert set(game.rules.colours) == {"red", "blue", "white", "orange"}


def test_start_lairs_and_ships_follow_the_colour_start_positions():
    game = make_game(4)
    state = opening(game)
    board = game.rules.board
    owned = {s: [site for site, o in zip(board.sites, state.lairs, strict=True) if o == s] for s in range(4)}
    ships = {s: [r for r, o in zip(board.routes, state.ships, strict=True) if o == s] for s in range(4)}
    assert owned == {0: ["L03", "L27"], 1: ["L06", "L30"], 2: ["L05", "L23"], 3: ["L10", "L28"]}
    assert ships == {0: ["R01", "R32"], 1: ["R09", "R40"], 2: ["R04", "R25"], 3: ["R16", "R37"]}
    assert [state.lair_count(s) for s in range(4)] == [2, 2, 2, 2]


def test_english_start_ships_differ_by_one_per_colour():
    game = make_game(4, edition="english")
    state = opening(game)
    board = game.rules.board
    red_ships = [r for r, o in zip(board.routes, state.ships, strict=True) if o == 0]
    assert red_ships == ["R07", "R25"]


def test_two_players_are_red_and_purple_on_the_two_player_side():
    game = make_game(2)
    state = opening(game)
    board = game.rules.board
    assert game.rules.colours == ("red", "purple")
    assert [s for s, o in zip(board.sites, state.lairs, strict=True) if o == ALICE] == ["L01", "L05"]
    assert [s for s, o in zip(board.sites, state.lairs, strict=True) if o == BOB] == ["L12", "L16"]


def test_seats_keep_their_chosen_colours_when_the_edition_has_them():
    seats = [SeatInfo(0, "A", "blue"), SeatInfo(1, "B", "yellow"), SeatInfo(2, "C", "red")]
    game = CatanJuniorGame({}, seats)
    assert game.rules.colours == ("blue", "yellow", "red")
    state = opening(game)
    board = game.rules.board
    assert state.lairs[board.sites.index("L10")] == 0


def test_two_players_keep_their_chosen_colours_on_the_red_and_purple_start_positions():
    game = CatanJuniorGame({}, [SeatInfo(0, "A", "yellow"), SeatInfo(1, "B", "blue")])
    assert game.rules.colours == ("yellow", "blue")
    assert game.seat_colours() == ["yellow", "blue"]
    state = opening(game)
    board = game.rules.board
    assert [s for s, o in zip(board.sites, state.lairs, strict=True) if o == 0] == ["L01", "L05"]
    assert [s for s, o in zip(board.sites, state.lairs, strict=True) if o == 1] == ["L12", "L16"]


def test_english_edition_keeps_the_chosen_colours_it_has_and_gives_the_others_its_spare_ones():
    game = make_game(4, edition="english")  # red, purple, yellow, blue chosen
    assert game.seat_colours() == ["red", "white", "orange", "blue"]
    state = opening(game)
    board = game.rules.board
    assert [s for s, o in zip(board.sites, state.lairs, strict=True) if o == 3] == ["L06", "L30"], "blue's start"


def test_english_three_players_who_chose_white_get_a_colour_of_the_three_player_game():
    seats = [SeatInfo(0, "A", "white"), SeatInfo(1, "B", "orange"), SeatInfo(2, "C", "blue")]
    game = CatanJuniorGame({"edition": "english"}, seats)
    assert game.seat_colours() == ["red", "orange", "blue"]


def test_ghost_captain_starts_on_the_castle_and_the_youngest_rolls_first():
    state = opening(make_game(4))
    assert state.ghost == "castle"
    assert state.active == 0
    assert state.phase == "roll"
    assert sum(state.coco_stack) == 16


def test_game_needs_two_to_four_players():
    with pytest.raises(IllegalAction) as err:
        make_game(1)
    assert err.value.code == "seat_count"


def test_unknown_options_and_bad_choices_are_refused():
    with pytest.raises(IllegalAction):
        make_game(4, edition="german")
    with pytest.raises(IllegalAction):
        make_game(4, nonsense=True)


def test_open_points_are_options_with_the_rules_file_defaults():
    defaults = CatanJuniorGame.default_options()
    assert defaults == {
        "components": "digital",
        "edition": "kosmos",
        "player_trades": False,
        "balanced_die": False,
        "shortage_trigger": "not_enough",
        "shortage_freeze": True,
        "ghost_to_castle": False,
        "coco_deck": None,
        "board": None,
    }
    for spec in CatanJuniorGame.option_specs[1:]:
        assert "Rule" in spec.help or "die" in spec.help


def test_english_two_players_are_red_and_blue_on_the_kosmos_start_positions():
    game = make_game(2, edition="english")
    state = opening(game)
    board = game.rules.board
    assert game.rules.colours == ("red", "blue")
    assert [s for s, o in zip(board.sites, state.lairs, strict=True) if o == BOB] == ["L12", "L16"]


def test_english_three_players_leave_white_out():
    game = make_game(3, edition="english")
    assert game.rules.colours == ("red", "blue", "orange")
    state = opening(game)
    board = game.rules.board
    assert [s for s, o in zip(board.sites, state.lairs, strict=True) if o == ALICE] == ["L05", "L23"]
