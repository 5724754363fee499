"""Secrecy of hands and sealed offerings (rules file 2.5; shared/STYLE.md principle 7)."""

from __future__ import annotations

import json
import random

from games.engines.amun_re.state import GOLD_VALUES, OFFER, Player, State

from .conftest import ALICE, BOB, CAROL, card, make_game, play, random_playout, with_player

COLS = ((card(),), (card(),), (card(),))


def offering_state() -> State:
    players = (
        Player(hand=(0, 3, 5), set_aside=(1, 2, 4, 6, 7, 8), built=True, columns=COLS),
        Player(hand=(0, 1, 2), set_aside=(3, 4, 5, 6, 7, 8), built=True, columns=COLS),
        Player(hand=(0, 4, 6), set_aside=(1, 2, 3, 5, 7, 8), built=True, columns=COLS),
    )
    return State(players=players, phase=OFFER, auction=3)


def test_a_sealed_offering_is_invisible_to_everyone_else_until_the_reveal():
    game = make_game(3)
    three = play(game, offering_state(), ALICE, kind="offer", gold=3)
    eight = play(game, offering_state(), ALICE, kind="offer", gold=8)
    for viewer in (BOB, CAROL, None):
        assert game.view(three, viewer) == game.view(eight, viewer)
    assert game.view(three, ALICE)["private"]["offering"] == 3
    assert game.view(three, CAROL)["players"][ALICE]["offered"] is True
    assert game.view(three, CAROL)["offerings"] is None


def test_the_offering_log_line_shows_the_gold_only_to_the_offering_seat():
    game = make_game(3)
    action = {"kind": "offer", "gold": 8}
    mine = game.describe(ALICE, action, ALICE)
    assert mine.private and mine.details["gold"] == 8
    for viewer in (BOB, CAROL, None):
        line = game.describe(ALICE, action, viewer)
        assert "8" not in json.dumps([line.text, line.details])
        assert not line.private


def test_every_offering_is_shown_once_all_have_offered():
    game = make_game(3)
    state = play(game, offering_state(), ALICE, kind="offer", gold=8)
    state = play(game, state, BOB, kind="offer", gold=0)
    state = play(game, state, CAROL, kind="offer", gold=4)
    assert game.view(state, BOB)["offerings"]["amounts"] == [8, 0, 4]


def test_a_hand_is_private_and_others_see_only_its_size():
    game = make_game(3)
    first = play(game, game.setup(random.Random(0)), ALICE, kind="build_hand", cards=[0, 1, 5, 8])
    second = play(game, game.setup(random.Random(0)), ALICE, kind="build_hand", cards=[0, 2, 4, 8])
    for viewer in (BOB, CAROL, None):
        assert game.view(first, viewer) == game.view(second, viewer)
        assert game.view(first, viewer)["players"][ALICE]["hand_count"] == 4
    assert game.view(first, ALICE)["private"]["hand"] == [0, 1, 5, 8]
    assert game.view(first, ALICE)["private"]["set_aside"] == [2, 3, 4, 6, 7]
    assert "private" not in game.view(first, None)


def test_the_hand_building_log_line_hides_the_cards_from_others():
    game = make_game(3)
    action = {"kind": "build_hand", "cards": [0, 6, 8]}
    assert game.describe(ALICE, action, ALICE).details["cards"] == [0, 6, 8]
    other = game.describe(ALICE, action, CAROL)
    assert other.details == {"player": "Alice", "count": 3}


def test_no_view_in_a_random_game_carries_another_seats_hand_or_offering():
    game = make_game(4)

    def check(state):
        for viewer in (None, *range(4)):
            view = game.view(state, viewer)
            for entry in view["players"]:
                assert not {"hand", "set_aside", "offering"} & set(entry)
            if viewer is None:
                assert "private" not in view
            else:
                assert view["private"]["seat"] == viewer
                assert view["private"]["hand"] == list(state.players[viewer].hand)
            if state.phase == OFFER:
                assert view["offerings"] is None

    random_playout(game, seed=11, check=check)


def test_changing_another_seats_hidden_cards_or_sealed_offering_never_changes_my_view():
    game = make_game(3, hand_sum_mode="at_most")

    def check(state):
        for owner in range(3):
            p = state.players[owner]
            # Same number of cards, different values; a different sealed offering.
            other_hand = (
                tuple(sorted(GOLD_VALUES[-len(p.hand) :]))
                if p.hand != GOLD_VALUES[-len(p.hand) :]
                else tuple(range(len(p.hand)))
            )
            twin = with_player(
                state,
                owner,
                hand=other_hand if p.hand else (),
                set_aside=tuple(reversed(p.set_aside)),
                offering=None if p.offering is None else p.offering + 1,
            )
            for viewer in (None, *[v for v in range(3) if v != owner]):
                assert game.view(twin, viewer) == game.view(state, viewer)

    random_playout(game, seed=5, check=check)
