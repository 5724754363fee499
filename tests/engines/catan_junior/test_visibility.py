"""Views (STYLE principle 7): everything in Catan Junior is public, so every seat sees the same view.

Tokens lie open in front of each player and bought Coco tiles are face up;
the only thing nobody may see is the order of the Coco stack, which the
engine never has (it keeps counts).
"""

from __future__ import annotations

import json

from .conftest import ALICE, BOB, CAROL, in_main, make_game, opening, with_hand


def differing_state(game):
    state = with_hand(in_main(opening(game), ALICE), ALICE, gold=3, wool=2)
    return with_hand(state, BOB, molasses=4)


def test_every_seat_and_the_table_see_the_same_public_view():
    game = make_game(3)
    state = differing_state(game)
    public = game.view(state, None)
    for seat in range(3):
        view = game.view(state, seat)
        assert "private" not in view
        assert view["viewer"] == seat
        view["viewer"] = None
        assert view == public


def test_open_tokens_of_every_player_are_in_everyones_view():
    game = make_game(3)
    state = differing_state(game)
    carol_view = game.view(state, CAROL)
    assert carol_view["players"][ALICE]["resources"]["gold"] == 3
    assert carol_view["players"][BOB]["resources"]["molasses"] == 4


def test_the_coco_stack_shows_counts_only_never_an_order():
    game = make_game(4)
    view = game.view(opening(game), ALICE)
    assert view["coco"]["left"] == 16
    assert view["coco"]["by_kind"] == {"ghost": 7, "build": 5, "molasses_wood": 2, "wool_cutlass": 2}
    assert [(k["name"], k["left"]) for k in view["coco"]["kinds"]] == list(view["coco"]["by_kind"].items())
    text = json.dumps(view)
    assert "order" not in text and "deck" not in text


def test_the_view_names_the_edition_data_and_says_it_is_unverified():
    game = make_game(2)
    edition = game.view(opening(game), None)["edition"]
    assert edition["verified"] is False
    assert "Kosmos" in edition["name"]


def test_log_lines_read_the_same_for_everyone_and_name_the_player():
    """A name, not an English "You" left untranslated inside a Persian line (QA)."""
    game = make_game(3)
    action = {"kind": "buy_coco", "tile": "ghost"}
    assert game.describe(ALICE, action, BOB).details["name"] == "Alice"
    assert game.describe(ALICE, action, None).details["name"] == "Alice"
    assert game.describe(ALICE, action, ALICE).details["name"] == "Alice"
    assert game.describe(ALICE, action, BOB).text == game.describe(ALICE, action, None).text
