"""Turn flow, the deck, physical entry and winning (rules file sorry.md, sections 2.1, 2.3)."""

from __future__ import annotations

import random

import pytest

from games.engines.base import IllegalAction
from shelf.sorry.state import CARD_INDEX, DRAW, MOVE, OVER, SorryState, counts_of

from .helpers import at, legal, play, table, where


def test_the_deck_has_45_cards_without_sixes_or_nines():
    game = table("red blue")
    state = game.setup(random.Random(1))
    assert sum(state.deck) == 45
    assert state.deck[CARD_INDEX["1"]] == 5
    assert all(state.deck[CARD_INDEX[c]] == 4 for c in ("2", "3", "4", "5", "7", "8", "10", "11", "12", "sorry"))


def test_the_game_opens_with_every_pawn_in_start_and_the_first_seat_drawing():
    game = table("red blue yellow")
    state = game.setup(random.Random(1))
    assert state.pawns == ((-1,) * 4, (-1,) * 4, (-1,) * 4, ())
    assert (state.turn, state.step) == (0, DRAW)
    assert legal(game, state) == [{"kind": "draw"}]
    assert game.legal_actions(state, 1) == []


def test_fast_start_puts_one_pawn_on_each_start_exit():
    game = table("red blue", fast_start=True)
    state = game.setup(random.Random(1))
    assert state.pawns[0] == (4, -1, -1, -1)
    assert state.pawns[1] == (19, -1, -1, -1)


def test_digital_draw_picks_a_card_still_in_the_pile():
    game = table("red blue")
    state = game.setup(random.Random(1))
    drawn = game.fill_chance(state, 0, {"kind": "draw"}, random.Random(5))
    assert drawn["card"] in CARD_INDEX
    after = game.apply(state, 0, drawn)
    assert after.step == MOVE and after.card == drawn["card"]
    assert sum(after.deck) == 44


def test_a_draw_without_its_card_is_refused():
    game = table("red blue")
    with pytest.raises(IllegalAction) as err:
        game.apply(game.setup(random.Random(1)), 0, {"kind": "draw"})
    assert err.value.code == "card_missing"


def test_physical_mode_lists_one_draw_per_card_left_and_refuses_a_card_not_in_the_pile():
    game = table("red blue", components="physical")
    state = game.setup(random.Random(1))
    deck = counts_of({"1": 1})
    state = SorryState(state.pawns, 0, DRAW, None, deck, tuple(4 - n for n in deck), ())
    assert legal(game, state) == [{"kind": "draw", "card": "1"}]
    with pytest.raises(IllegalAction) as err:
        game.apply(state, 0, {"kind": "draw", "card": "7"})
    assert err.value.code == "card_not_in_deck"
    with pytest.raises(IllegalAction) as err:
        game.apply(state, 0, {"kind": "draw", "card": "6"})
    assert err.value.code == "bad_card"


def test_an_empty_draw_pile_is_rebuilt_from_the_discard_pile():
    game = table("red blue")
    base = game.setup(random.Random(1))
    empty = (0,) * len(base.deck)
    state = SorryState(base.pawns, 0, DRAW, None, empty, counts_of({"3": 2, "sorry": 1}), ())
    assert game.fill_chance(state, 0, {"kind": "draw"}, random.Random(2))["card"] in ("3", "sorry")
    after = game.apply(state, 0, {"kind": "draw", "card": "3"})
    assert after.deck == counts_of({"3": 1, "sorry": 1})
    assert after.discard == empty


def test_the_used_card_goes_to_the_discard_and_play_passes_to_the_left():
    game = table("red blue yellow")
    after = play(game, at(game, "R: R0@T10 B@START Y@START", "5"), card="5", pawn="R0", steps=5)
    assert after.discard[CARD_INDEX["5"]] == 1
    assert (after.turn, after.step, after.card) == (1, DRAW, None)
    last = play(game, at(game, "Y: Y0@T10 R@START B@START", "5"), card="5", pawn="Y0", steps=5)
    assert last.turn == 0


def test_a_move_with_a_card_other_than_the_one_drawn_is_refused():
    game = table("red blue")
    state = at(game, "R: R0@T10", "5")
    with pytest.raises(IllegalAction) as err:
        play(game, state, card="8", pawn="R0", steps=8)
    assert err.value.code == "not_drawn_card"


def test_a_first_turn_without_a_starting_card_is_forfeited():
    game = table("red blue")
    state = game.apply(game.setup(random.Random(1)), 0, {"kind": "draw", "card": "8"})
    assert legal(game, state) == [{"kind": "pass"}]
    assert game.apply(state, 0, {"kind": "pass"}).turn == 1


def test_moving_an_opponents_pawn_is_refused():
    game = table("red blue")
    with pytest.raises(IllegalAction) as err:
        play(game, at(game, "R: R0@T10 B0@T30", "5"), card="5", pawn="B0", steps=5)
    assert err.value.code == "not_your_pawn"


def test_a_wrong_destination_in_the_payload_is_refused():
    game = table("red blue")
    with pytest.raises(IllegalAction) as err:
        play(game, at(game, "R: R0@T10", "5"), card="5", pawn="R0", steps=5, to="T16")
    assert err.value.code == "wrong_destination"


@pytest.mark.parametrize(
    "payload",
    [
        {"kind": "move"},
        {"kind": "move", "card": "5", "pawn": 0, "steps": 5},
        {"kind": "move", "card": "5", "pawn": "R9", "steps": 5},
        {"kind": "move", "card": "5", "pawn": "X0", "steps": 5},
        {"kind": "move", "card": "5", "pawn": "R0", "steps": True},
        {"kind": "move", "card": "5", "pawn": "R0", "steps": "5"},
        {"kind": "move", "card": "7", "pawn": "R0", "steps": 3, "then": "R1"},
        {"kind": "move", "card": "7", "pawn": "R0", "steps": 3, "then": {"pawn": "R1"}},
        {"kind": "move", "card": "5", "pawn": "R0", "target": 3},
        {"kind": "move", "card": "5", "pawn": "R0", "target": "B0"},
        {"kind": "move", "card": "5", "pawn": "R0", "steps": 5, "to": 7},
        {"kind": "draw", "card": "5"},
        {"kind": "discard", "card": "5"},
        "not a dict",
    ],
)
def test_malformed_payloads_raise_illegal_action_only(payload):
    game = table("red blue")
    with pytest.raises(IllegalAction):
        game.apply(at(game, "R: R0@T10 R1@T20 B0@T40", "5"), 0, payload)


def test_bringing_the_last_pawn_home_wins_and_ends_the_game():
    game = table("red blue")
    state = at(game, "R: R0@S4 B0@T10", "2")
    after = play(game, state, card="2", pawn="R0", steps=2)
    assert after.step == OVER
    assert game.prompt(after).seats == ()
    result = game.result(after)
    assert result["winners"] == [0]
    assert [r["seat"] for r in result["ranking"]] == [0, 1]
    with pytest.raises(IllegalAction) as err:
        game.apply(after, 0, {"kind": "draw", "card": "1"})
    assert err.value.code == "game_over"
    assert game.legal_actions(after, 0) == []


def test_the_state_round_trips_through_json():
    import json

    game = table("red blue")
    state = at(game, "R: R0@S4 R1@T3 R2@START B0@T10 B1@S5", "7")
    assert game.decode(json.loads(json.dumps(game.encode(state)))) == state


def test_seats_need_distinct_known_colours():
    from games.engines.base import SeatInfo
    from shelf.sorry import SorryGame

    with pytest.raises(IllegalAction):
        SorryGame({}, [SeatInfo(0, "A", "red"), SeatInfo(1, "B", "red")])
    with pytest.raises(IllegalAction):
        SorryGame({}, [SeatInfo(0, "A", "red"), SeatInfo(1, "B", "purple")])


def test_bad_options_are_refused():
    for options in (
        {"team_mode": True, "points_mode": True},
        {"deck_counts": {"6": 4}},
        {"deck_counts": {"1": 0, "2": 0, "3": 40}},
        {"points_table": {"name": "x"}},
        {"pawns_per_colour": 5},
    ):
        with pytest.raises(IllegalAction):
            table(**options)
    with pytest.raises(IllegalAction):
        table("red blue", team_mode=True)


def test_the_1934_deck_of_44_cards_is_an_option():
    game = table("red blue", deck_counts={c: 4 for c in ("1", "2", "3", "4", "5", "7", "8", "10", "11", "12", "sorry")})
    assert sum(game.setup(random.Random(1)).deck) == 44


def test_three_pawn_sets_of_the_2013_print_are_an_option():
    game = table("red blue", pawns_per_colour=3)
    state = game.setup(random.Random(1))
    assert state.pawns[0] == (-1, -1, -1)
    assert where(play(game, at(game, "R: R0@S5 R1@HOME R2@HOME", "1"), card="1", pawn="R0", steps=1), "R0") == "HOME"
