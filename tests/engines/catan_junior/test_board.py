"""Board data of both sides: the derived check values of rules file 2.4, and validation (2.1)."""

from __future__ import annotations

import copy
import json

import pytest

from games.engines.base import IllegalAction
from shelf.catan_junior.board import shipped_board, shipped_board_json, side_for, validate_board

from .conftest import make_game, opening


@pytest.fixture
def big():
    return shipped_board("3-4")


@pytest.fixture
def small():
    return shipped_board("2")


def degrees(board):
    return sorted(len(board.site_routes[s]) for s in board.sites)


def test_player_count_picks_the_board_side():
    assert side_for(2) == "2"
    assert side_for(3) == "3-4"
    assert side_for(4) == "3-4"
    assert len(make_game(2).rules.board.sites) == 16
    assert len(make_game(3).rules.board.sites) == 32


def test_big_side_has_12_islands_32_sites_and_40_routes(big):
    assert len(big.islands) == 12
    assert len(big.sites) == 32
    assert len(big.routes) == 40
    assert "CASTLE" not in big.sites


def test_big_side_has_16_sites_with_two_routes_and_16_with_three(big):
    assert degrees(big) == [2] * 16 + [3] * 16


def test_big_side_island_to_sites_table(big):
    expected = {
        "molasses-2": "L03 L06 L07 L12",
        "wool-1": "L01 L03 L04 L07 L08 L13",
        "wood-2": "L02 L04 L05 L08 L09 L14",
        "cutlass-1": "L05 L09 L10 L15",
        "wool-5": "L06 L11 L12 L17 L18 L23",
        "gold-3": "L07 L12 L13 L18 L19 L24",
        "gold-5": "L09 L14 L15 L20 L21 L26",
        "wood-3": "L10 L15 L16 L21 L22 L27",
        "molasses-4": "L18 L23 L24 L28",
        "wool-2": "L19 L24 L25 L28 L29 L31",
        "wood-1": "L20 L25 L26 L29 L30 L32",
        "cutlass-4": "L21 L26 L27 L30",
    }
    assert {i: " ".join(big.island_sites(i)) for i in big.island_ids} == expected


def test_big_side_numbers(big):
    by_number = {n: sorted(i.id for i in big.islands_numbered(n)) for n in range(1, 6)}
    assert by_number == {
        1: ["cutlass-1", "wood-1", "wool-1"],
        2: ["molasses-2", "wood-2", "wool-2"],
        3: ["gold-3", "wood-3"],
        4: ["cutlass-4", "molasses-4"],
        5: ["gold-5", "wool-5"],
    }


def test_every_kosmos_colour_starts_on_wood_wool_molasses_cutlass_with_four_numbers(big):
    expected = {"red": [2, 1, 3, 4], "purple": [2, 5, 1, 4], "yellow": [2, 1, 5, 4], "blue": [1, 3, 4, 2]}
    for colour, (lairs, _ships) in big.starts["start_kosmos"].items():
        islands = [big.island(i) for site in lairs for i in big.site_islands[site]]
        by_resource = {i.resource: i.number for i in islands}
        assert sorted(by_resource) == ["cutlass", "molasses", "wood", "wool"]
        assert len(islands) == 4
        assert sorted(by_resource.values()) == sorted(expected[colour])
        assert len(set(by_resource.values())) == 4


def test_small_side_has_9_islands_16_sites_and_16_routes(small):
    assert len(small.islands) == 9
    assert len(small.sites) == 16
    assert len(small.routes) == 16
    assert degrees(small) == [1] * 8 + [3] * 8


def test_small_side_numbers(small):
    by_number = {n: sorted(i.id for i in small.islands_numbered(n)) for n in range(1, 6)}
    assert by_number == {
        1: ["cutlass-1", "wool-1"],
        2: ["cutlass-2", "wool-2"],
        3: ["molasses-3", "wood-3"],
        4: ["molasses-4", "wood-4"],
        5: ["gold-5"],
    }


def test_no_site_touches_two_islands_with_the_same_number_or_resource(big, small):
    for board in (big, small):
        for site in board.sites:
            islands = [board.island(i) for i in board.site_islands[site]]
            assert len({i.number for i in islands}) == len(islands)
            assert len({i.resource for i in islands}) == len(islands)


def test_the_shipped_boards_are_the_json_of_the_rules_file():
    data = json.loads(shipped_board_json("3-4"))
    assert data["routes"]["R32"] == ["L21", "L27"]
    assert data["start_kosmos"]["red"] == {"lairs": ["L03", "L27"], "ships": ["R01", "R32"]}
    assert data["start_english_mayfair"]["white"]["ships"] == ["R16", "R34"]
    small = json.loads(shipped_board_json("2"))
    assert small["start_kosmos"]["purple"] == {"lairs": ["L12", "L16"], "ships": ["R10", "R16"]}


def broken(mutate):
    data = json.loads(shipped_board_json("3-4"))
    mutate(data)
    return data


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d["islands"][0].update(number=6),
        lambda d: d["islands"][0].update(id="molasses-9"),
        lambda d: d["islands"][1].update(resource="molasses", number=2, id="molasses-2"),
        lambda d: d["sites"]["L07"].update(islands=["gold-3", "gold-5"]),
        lambda d: d["sites"]["L07"].update(islands=["nowhere-1"]),
        lambda d: d["routes"].update(R41=["L01", "L01"]),
        lambda d: d["routes"].update(R41=["L03", "L01"]),
        lambda d: d["routes"].update(R41=["L01", "L99"]),
        lambda d: d["start_kosmos"]["red"].update(ships=["R02", "R32"]),
        lambda d: d["start_kosmos"]["purple"].update(lairs=["L03", "L30"]),
        lambda d: d.pop("castle"),
        lambda d: d.update(ghost_captain_start="wood-1"),
    ],
)
def test_a_malformed_board_is_refused_as_bad_edition(mutate):
    with pytest.raises(IllegalAction) as err:
        validate_board(broken(mutate))
    assert err.value.code == "bad_edition"


def test_a_board_passed_as_option_is_validated_and_used():
    data = json.loads(shipped_board_json("3-4"))
    game = make_game(4, board=copy.deepcopy(data))
    assert game.rules.board.sites == shipped_board("3-4").sites
    data["routes"]["R01"] = ["L01"]
    with pytest.raises(IllegalAction) as err:
        make_game(4, board=data)
    assert err.value.code == "bad_edition"


def test_castle_site_touches_nothing_and_is_not_on_any_route(big, small):
    for board in (big, small):
        assert all("CASTLE" not in ends for ends in board.route_ends.values())
    state = opening(make_game(4))
    assert state.castle is None
