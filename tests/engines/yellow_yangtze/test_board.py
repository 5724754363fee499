"""§3: board profiles, validate_board and the shipped practice board."""

from __future__ import annotations

import copy
import json

import pytest

from games.engines.base import IllegalAction
from shelf.yellow_yangtze import validate_board
from shelf.yellow_yangtze.board import (
    BOARDS_DIR,
    STATES,
    column_letters,
    layout,
    load_board,
    neighbours_of,
    triangles_of,
)

from .helpers import fixture_board, make_game


def practice() -> dict:
    return json.loads((BOARDS_DIR / "practice.json").read_text())


def test_practice_board_is_valid_and_says_it_is_invented():
    data = practice()
    board = validate_board(data)
    assert data["practice"] is True and data["verified"] is False
    assert {name for name, _ in board.capitals} == set(STATES)
    assert all(h in board.land for _, h in board.capitals)


def test_fixture_board_says_it_is_a_fixture():
    board = validate_board(fixture_board())
    assert board.fixture and not board.verified


def test_absent_board_option_means_the_practice_board():
    from games.engines.base import SeatInfo
    from shelf.yellow_yangtze import YellowYangtzeGame

    game = YellowYangtzeGame({}, [SeatInfo(0, "A", "red"), SeatInfo(1, "B", "blue")])
    assert game.board.practice
    assert game.view(game.setup(__import__("random").Random(1)), None)["edition"]["verified"] is False


def test_every_triangle_is_three_mutually_touching_hexes_and_each_hex_has_six():
    tris = triangles_of((3, 3))
    assert len(set(tris)) == 6
    for tri in tris:
        a, b, c = tri
        assert b in neighbours_of(a) and c in neighbours_of(a) and c in neighbours_of(b)


def broken(mutate) -> dict:
    data = copy.deepcopy(fixture_board())
    mutate(data)
    return data


def _drop_capital(d):
    for h in d["hexes"]:
        if h.get("capital") == "Qin":
            del h["capital"]


def _dup_capital(d):
    for h in d["hexes"]:
        if h.get("capital") == "Qin":
            h["capital"] = "Chu"


def _capital_on_river(d):
    _drop_capital(d)
    d["hexes"][0]["capital"] = "Qin"


def _unknown_state(d):
    for h in d["hexes"]:
        if h.get("capital") == "Qin":
            h["capital"] = "Shu"


def _duplicate_hex(d):
    d["hexes"].append(dict(d["hexes"][20]))


def _split_river(d):
    # Turn a whole column of the Yellow River into land: the river falls apart.
    for h in d["hexes"]:
        if h["q"] == 3 and h["r"] <= 1:
            h["terrain"] = "land"
            del h["river"]


def _no_yangtze(d):
    for h in d["hexes"]:
        if h.get("river") == "yangtze":
            h["terrain"] = "land"
            del h["river"]


def _river_without_name(d):
    del d["hexes"][0]["river"]


def _outside_grid(d):
    d["hexes"].append({"q": 40, "r": 0, "terrain": "land"})


@pytest.mark.parametrize(
    "mutate",
    [
        _drop_capital, _dup_capital, _capital_on_river, _unknown_state, _duplicate_hex, _split_river,
        _no_yangtze, _river_without_name, _outside_grid,
        lambda d: d.update(game="tigris"),
        lambda d: d.update(coord_system="offset"),
        lambda d: d.update(orientation="square"),
        lambda d: d.update(grid={"cols": 0, "rows": 9}),
        lambda d: d.update(verified="no"),
        lambda d: d.update(hexes=[]),
        lambda d: d.update(market_slots=5),
        lambda d: d["hexes"].append({"q": "1", "r": 0, "terrain": "land"}),
        lambda d: d["hexes"].append({"q": 11, "r": 2, "terrain": "mountain"}),
        lambda d: d.pop("name"),
    ],
)
def test_a_board_breaking_a_check_of_section_3_4_is_refused_as_bad_board(mutate):
    with pytest.raises(IllegalAction) as err:
        validate_board(broken(mutate))
    assert err.value.code == "bad_board"


@pytest.mark.parametrize("junk", [None, [], "board", 5, {"hexes": "x"}])
def test_junk_instead_of_a_board_is_refused_as_bad_board(junk):
    with pytest.raises(IllegalAction) as err:
        validate_board(junk)
    assert err.value.code == "bad_board"


def test_the_game_refuses_a_bad_board_option():
    with pytest.raises(IllegalAction) as err:
        make_game(2, board=broken(_drop_capital))
    assert err.value.code == "bad_board"


def test_flat_boards_are_accepted_with_their_own_grid_bounds():
    data = fixture_board()
    data["orientation"] = "flat"
    data["grid"] = {"cols": 8, "rows": 9 + 4}
    assert validate_board(data).orientation == "flat"
    game = make_game(2, board=data)
    view = game.view(game.setup(__import__("random").Random(2)), 0)
    assert view["board"]["matrix"].startswith("matrix(") and len(view["board"]["hexes"]) == 72


def test_hexes_are_named_by_column_letter_and_row_number_as_drawn_along_the_board_edges():
    board = load_board(None)  # the practice board: pointy, "odd-r" offset columns
    assert board.label((-2, 4)) == "A5" and board.label((8, 2)) == "J3" and board.label((0, 0)) == "A1"
    geo = layout(board)
    edge = {t["text"] for t in geo["edge_labels"]}
    assert {"A", "N", "1", "11"} <= edge and len(edge) == board.cols + board.rows
    names = {h["label"] for h in geo["hexes"]}
    assert all(name[0] in edge and name[1:] in edge for name in names)
    # The letters sit above the map and the numbers left of it, clear of every hex.
    top = min(h["y"] for h in geo["hexes"])
    left = min(h["x"] for h in geo["hexes"])
    assert all(t["y"] < top for t in geo["edge_labels"] if t["text"].isalpha())
    assert all(t["x"] < left for t in geo["edge_labels"] if t["text"].isdigit())


def test_column_names_go_on_after_z():
    assert [column_letters(i) for i in (0, 25, 26, 27)] == ["A", "Z", "AA", "AB"]
