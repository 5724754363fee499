"""Button labels read as short imperatives for children; every phone sees what the last roll produced."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction, fill

from .conftest import ALICE, BOB, in_main, make_game, opening, with_hand


def label(game, seat, action):
    line = game.label(seat, action)
    return fill(line.text, line.details)


def test_labels_are_imperatives_that_name_islands_not_site_ids():
    game = make_game(4)
    assert label(game, ALICE, {"kind": "roll"}) == "Roll the die"
    assert label(game, ALICE, {"kind": "build_lair", "site": "L21"}).startswith("Build a lair at ")
    assert "L21" not in label(game, ALICE, {"kind": "build_lair", "site": "L21"})
    assert "R05" not in label(game, ALICE, {"kind": "build_ship", "route": "R05"})
    assert label(game, ALICE, {"kind": "move_ghost", "island": "gold-5"}) == "Send the Ghost Captain to gold 5"
    assert label(game, ALICE, {"kind": "market_swap", "space": 0, "give": "wood", "take": "gold"}) == (
        "Swap wood for gold"
    )
    assert label(game, ALICE, {"kind": "supply_trade", "give": "wool", "take": "gold"}) == "Trade 2 wool for 1 gold"
    assert label(game, ALICE, {"kind": "end_turn"}) == "End my turn"
    offer = {"kind": "offer_trade", "to": BOB, "give": {"wood": 1}, "get": {"gold": 1}}
    assert label(game, ALICE, offer) == "Offer Bob 1 wood for 1 gold"


def test_physical_outcomes_read_as_what_the_player_saw():
    game = make_game(2, components="physical")
    assert label(game, ALICE, {"kind": "roll", "value": 4}) == "The die shows 4"
    assert label(game, ALICE, {"kind": "buy_coco", "tile": "ghost"}) == "I drew a Coco tile: the Ghost Captain"
    assert (
        label(game, ALICE, {"kind": "buy_coco", "tile": "molasses_wood"}) == "I drew a Coco tile: 2 wood and 2 molasses"
    )


def test_every_legal_action_has_a_label_without_placeholders():
    game = make_game(4, player_trades=True)
    state = with_hand(in_main(opening(game), ALICE), ALICE, wood=3, wool=3, molasses=2, cutlass=2, gold=1)
    for action in game.legal_actions(state, ALICE):
        text = label(game, ALICE, action)
        assert text and "{" not in text, action


def test_the_last_roll_stays_in_every_view_until_the_next_roll():
    """PR1: the roll-1 example pays red wool, purple wood, yellow and blue cutlass (T01)."""
    game = make_game(4)
    state = game.apply(opening(game), ALICE, {"kind": "roll", "value": 1})
    state = game.apply(state, ALICE, {"kind": "end_turn"})
    news = game.view(state, BOB)["production"]
    assert news["roll"] == 1 and news["name"] == "Alice"
    assert {p["name"]: p["tokens"] for p in news["paid"]} == {
        "Alice": ["wool"],
        "Bob": ["wood"],
        "Carol": ["cutlass"],
        "Dave": ["cutlass"],
    }
    assert game.view(state, None)["production"] == news


def test_a_six_shows_where_the_ghost_captain_went_and_what_he_paid():
    game = make_game(4)
    state = game.apply(opening(game), ALICE, {"kind": "roll", "value": 6})
    assert game.view(state, None)["production"] == {
        "seat": ALICE,
        "name": "Alice",
        "colour": "red",
        "roll": 6,
        "ghost": None,
        "short": [],
        "paid": [],
    }
    state = game.apply(state, ALICE, {"kind": "move_ghost", "island": "gold-5"})
    news = game.view(state, None)["production"]
    assert news["ghost"] == "gold-5" and news["paid"][0]["tokens"] == ["gold", "gold"]
    bars = game.view(state, None)["dice"]["bars"]
    assert [(b["face"], b["count"], b["pct"]) for b in bars] == [(f, int(f == 6), 100 * (f == 6)) for f in range(1, 7)]
    assert bars[5]["h"] > 0 and bars[0]["h"] == 0


def test_a_swap_naming_a_token_no_longer_on_the_space_is_refused():
    game = make_game(4)
    state = with_hand(in_main(opening(game), ALICE), ALICE, gold=1)
    with pytest.raises(IllegalAction) as err:
        game.apply(state, ALICE, {"kind": "market_swap", "space": 0, "give": "gold", "take": "wool"})
    assert err.value.code == "market_changed"
    after = game.apply(state, ALICE, {"kind": "market_swap", "space": 0, "give": "gold", "take": "wood"})
    assert after.hands[ALICE][0] == 1
