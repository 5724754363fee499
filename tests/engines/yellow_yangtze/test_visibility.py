"""Secrecy (principle 7): hands and points only in the owner's view["private"]; bag and box colours never."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from .helpers import ALICE, BOB, CAROL, make_game, position


def two_worlds(game):
    """Two states identical except for Alice's hand colours and points, the bag and the box colours."""
    base = position(game, tiles={(2, 3): "black"}, leaders=[(ALICE, "red", (1, 3))],
                    hands={ALICE: {"red": 3, "blue": 3}, BOB: {"green": 6}, CAROL: {"yellow": 6}})
    one = replace(base, points=((1, 2, 3, 4, 5), (0,) * 5, (0,) * 5, (0,) * 5), box=(1, 0, 0, 0, 0))
    two = replace(base, hands=((0, 0, 0, 6, 0), *base.hands[1:]), points=((9, 0, 0, 0, 7), (0,) * 5, (0,) * 5,
                                                                          (0,) * 5),
                  bag=(30, 0, 20, 20, 20), box=(0, 0, 0, 0, 1))
    assert sum(one.bag) == sum(two.bag) and sum(one.hands[ALICE]) == sum(two.hands[ALICE])
    return one, two


def test_carol_sees_nothing_of_alices_hand_points_or_the_bag():
    game = make_game()
    one, two = two_worlds(game)
    for viewer in (None, BOB, CAROL):
        assert json.dumps(game.view(one, viewer), sort_keys=True) == json.dumps(game.view(two, viewer), sort_keys=True)


def test_alice_sees_her_own_hand_and_points_under_private_only():
    game = make_game()
    one, _ = two_worlds(game)
    view = game.view(one, ALICE)
    assert view["private"]["hand"]["red"] == 3 and view["private"]["points"]["yellow"] == 5
    assert "private" not in game.view(one, None)
    assert game.view(one, CAROL)["private"]["hand"]["yellow"] == 6
    assert [p["hand_count"] for p in game.view(one, CAROL)["players"]] == [6, 6, 6, 0]


def test_the_log_hides_another_seats_drawn_and_swapped_colours():
    game = make_game()
    draw = {"kind": "draw", "tiles": ["red", "blue"]}
    assert "red" not in json.dumps(game.describe(ALICE, draw, CAROL).__dict__, default=str)
    assert "red" in game.describe(ALICE, draw, ALICE).details["tiles"]
    swap = {"kind": "swap", "tiles": ["yellow"]}
    assert "yellow" not in json.dumps(game.describe(ALICE, swap, CAROL).__dict__, default=str)


def test_a_real_game_view_never_carries_other_hands_in_any_seat_view():
    game = make_game(3)
    s = game.setup(random.Random(9))
    for viewer in range(3):
        view = game.view(s, viewer)
        others = [json.dumps(game.view(s, v)["private"]) for v in range(3) if v != viewer]
        blob = json.dumps({k: v for k, v in view.items() if k != "private"})
        assert all(o not in blob for o in others)
        assert "bag" not in view or isinstance(view.get("bag_left"), int)
        assert "final" not in view
