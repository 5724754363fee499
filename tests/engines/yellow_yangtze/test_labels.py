"""Button labels of Yellow & Yangtze actions read as short imperatives (the phone's buttons and lit hexes)."""

from __future__ import annotations

from dataclasses import replace

from games.engines.base import fill
from games.engines.chance import table_rng
from shelf.yellow_yangtze.state import DrawStep

from .helpers import ALICE, BOB, CAROL, make_game


def text(game, seat, action) -> str:
    line = game.label(seat, action)
    return fill(line.text, line.details)


def test_placements_name_the_colour_and_the_hex():
    game = make_game()
    # The fixture rhombus is pointy ("odd-r"): hex (3, 4) is column 3 + 2 = F (from A = 0), row 5.
    assert text(game, 0, {"kind": "tile", "colour": "red", "hex": [3, 4]}) == "Place red on F5"
    assert text(game, 0, {"kind": "leader", "colour": "black", "hex": [1, 2]}) == "Put the black leader on C3"
    assert text(game, 0, {"kind": "withdraw", "colour": "green"}) == "Withdraw the green leader"


def test_war_and_revolt_steps_say_what_is_committed_and_by_whom():
    game = make_game()
    assert text(game, 0, {"kind": "commit", "side": 1, "tiles": 2, "leader": False}) == "Red tiles: 2, to side 2"
    assert text(game, 0, {"kind": "commit", "side": 1, "tiles": 1, "leader": False, "owners": [BOB]}) == (
        "Red tiles: 1, to Bob's side")
    assert text(game, 0, {"kind": "commit", "tiles": 3}) == "Black tiles: 3"
    assert text(game, 0, {"kind": "abstain"}) == "Commit nothing"
    assert text(game, 0, {"kind": "burn", "seat": BOB}) == "Burn a red tile Bob committed"
    assert text(game, CAROL, {"kind": "choose_winner", "side": 0}) == "Make side 1 the winner"
    assert text(game, CAROL, {"kind": "choose_winner", "side": 0, "owners": [ALICE]}) == "Alice's side wins"


def test_every_legal_action_of_an_opening_has_a_label_without_placeholders():
    game = make_game()
    state = game.setup(table_rng(4, 0))
    seat = game.prompt(state).seats[0]
    for action in game.legal_actions(state, seat):
        label = text(game, seat, action)
        assert label and "{" not in label


def logged(game, seat, action, viewer) -> str:
    line = game.describe(seat, action, viewer)
    return fill(line.text, line.details)


def test_counts_in_log_lines_read_right_for_one_tile_and_for_many():
    game = make_game()
    assert logged(game, ALICE, {"kind": "draw", "tiles": ["red"]}, BOB) == "Alice drew tiles: 1."
    assert logged(game, ALICE, {"kind": "swap", "tiles": ["red", "blue"]}, BOB) == "Alice swapped tiles: 2."
    assert logged(game, ALICE, {"kind": "commit", "tiles": 1}, BOB) == "Alice commits black tiles: 1."
    assert logged(game, ALICE, {"kind": "commit", "side": 0, "tiles": 1, "leader": False, "owners": [BOB]},
                  CAROL) == "Alice commits red tiles: 1, to Bob's side."
    dealing = replace(game.setup(table_rng(4, 0)), pending=DrawStep(((BOB, "hand", 1),), "turn"))
    assert game.prompt(dealing).text == "{name} draws tiles for the hand: {n}."
    market = replace(dealing, pending=DrawStep(((BOB, "market", 2),), "turn"))
    assert game.prompt(market).text == "{name} draws tiles for the market: {n}."
