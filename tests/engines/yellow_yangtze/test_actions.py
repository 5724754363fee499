"""§4.4 Peasants' Revolt (E12), §4.5 build a pagoda with green, §4.7 swap, bad payloads."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction

from .helpers import ALICE, BOB, hand, make_game, play, position


def e12_position(game, **kw):
    # Alice's red leader touches only the black capital (2,3), which lies under a black pagoda.
    return position(game, tiles={(2, 3): "black", (3, 3): "black", (3, 2): "black"},
                    leaders=[(ALICE, "red", (1, 3)), (BOB, "blue", (4, 3))],
                    pagodas=[("black", ((2, 3), (3, 3), (3, 2)))], **kw)


def test_peasants_revolt_removing_the_last_black_tile_sends_the_leader_home_and_the_pagoda_to_supply():
    # E12
    game = make_game()
    s = e12_position(game, hands={BOB: {"blue": 2}}, active=BOB)
    s2 = play(game, s, BOB, "peasants", hex=(2, 3), leader=False)
    assert ((2, 3), "black") not in s2.tiles
    assert (ALICE, "red", (1, 3)) not in s2.leaders and (BOB, "blue", (4, 3)) in s2.leaders
    assert s2.pagodas == () and s2.pagoda_supply[0] == 2
    assert hand(s2, BOB)["blue"] == 0 and s2.box == (1, 0, 2, 0, 0)
    assert s2.pending is None and s2.actions_left == 1


def test_a_former_capital_hex_is_plain_land_after_a_peasants_revolt():
    # E12: the hex becomes ordinary and may take any legal piece.
    game = make_game()
    assert game.board.capital_at((2, 3)) == "Qin"
    s = e12_position(game, hands={BOB: {"blue": 2, "red": 1}}, active=BOB)
    s2 = play(game, s, BOB, "peasants", hex=(2, 3), leader=False)
    s3 = play(game, s2, BOB, "tile", colour="red", hex=(2, 3))
    assert ((2, 3), "red") in s3.tiles


def test_the_off_board_blue_leader_replaces_one_blue_tile_and_stays_in_hand():
    game = make_game()
    s = e12_position(game, hands={ALICE: {"blue": 1}})
    s2 = play(game, s, ALICE, "peasants", hex=(3, 3), leader=True)
    assert hand(s2, ALICE)["blue"] == 0 and s2.box[2] == 1
    with pytest.raises(IllegalAction) as err:
        play(game, s, ALICE, "peasants", hex=(3, 3), leader=False)
    assert err.value.code == "peasants_cost"


def test_build_pagoda_action_discards_two_green_and_needs_a_free_triangle_anywhere():
    game = make_game()
    s = position(game, tiles={(5, 3): "red", (6, 3): "red", (5, 4): "red"}, hands={ALICE: {"green": 2}})
    s2 = play(game, s, ALICE, "build_pagoda", triangle=((5, 3), (6, 3), (5, 4)), leader=False)
    assert s2.pagodas == (("red", ((5, 3), (5, 4), (6, 3))),) and hand(s2, ALICE)["green"] == 0
    with pytest.raises(IllegalAction) as err:
        play(game, s2, ALICE, "build_pagoda", triangle=((5, 3), (6, 3), (5, 4)), leader=True)
    assert err.value.code == "pagoda_cost"


def test_build_pagoda_with_one_green_and_the_off_board_green_leader():
    game = make_game()
    s = position(game, tiles={(5, 3): "red", (6, 3): "red", (5, 4): "red"}, hands={ALICE: {"green": 1}})
    s2 = play(game, s, ALICE, "build_pagoda", triangle=((5, 3), (6, 3), (5, 4)), leader=True)
    assert len(s2.pagodas) == 1 and hand(s2, ALICE)["green"] == 0 and s2.box[3] == 1


def test_build_pagoda_refuses_mixed_colours_or_hexes_that_do_not_touch():
    game = make_game()
    s = position(game, tiles={(5, 3): "red", (6, 3): "blue", (5, 4): "red", (2, 2): "red"},
                 hands={ALICE: {"green": 2}})
    for tri in (((5, 3), (6, 3), (5, 4)), ((5, 3), (2, 2), (5, 4))):
        with pytest.raises(IllegalAction) as err:
            play(game, s, ALICE, "build_pagoda", triangle=tri, leader=False)
        assert err.value.code == "no_triangle"


def test_swap_discards_face_down_then_draws_as_many():
    game = make_game()
    s = position(game, hands={ALICE: {"red": 2, "yellow": 1}})
    s2 = play(game, s, ALICE, "swap", tiles=["red", "yellow"])
    assert hand(s2, ALICE) == {"black": 0, "red": 1, "blue": 0, "green": 0, "yellow": 0}
    assert game.prompt(s2).kinds == ("draw",) and game.prompt(s2).seats == (ALICE,)
    s3 = play(game, s2, ALICE, "draw", tiles=["green", "green"])
    assert hand(s3, ALICE)["green"] == 2 and s3.actions_left == 1 and s3.pending is None
    with pytest.raises(IllegalAction) as err:
        play(game, s, ALICE, "swap", tiles=["blue"])
    assert err.value.code == "tile_not_in_hand"


def test_a_swap_that_empties_the_bag_part_way_ends_the_game():
    # §4.7, §7
    game = make_game()
    s = position(game, hands={ALICE: {"red": 3}}, bag={"yellow": 1})
    s2 = play(game, s, ALICE, "swap", tiles=["red", "red"])
    s3 = play(game, s2, ALICE, "draw", tiles=["yellow"])
    assert s3.phase == "over" and game.result(s3) is not None


@pytest.mark.parametrize("bad", [
    {"kind": "tile"}, {"kind": "tile", "colour": "purple", "hex": [1, 1]}, {"kind": "tile", "colour": "red", "hex": 3},
    {"kind": "tile", "colour": "red", "hex": [True, 1]}, {"kind": "leader", "colour": "red", "hex": [1]},
    {"kind": "peasants", "hex": [1, 1], "leader": "yes"}, {"kind": "swap", "tiles": "red"},
    {"kind": "build_pagoda", "triangle": [[1, 1]]}, {"kind": "tile", "colour": "red", "hex": [99, 99]},
    {"kind": "draw"}, {"kind": "commit", "tiles": 1}, {"kind": "pass"},
])
def test_a_malformed_or_out_of_step_payload_is_refused_with_illegal_action(bad):
    game = make_game()
    s = position(game, hands={ALICE: {"red": 1}})
    with pytest.raises(IllegalAction):
        game.apply(s, ALICE, bad)


def test_an_action_by_another_seat_is_refused_as_not_your_turn():
    game = make_game()
    s = position(game, hands={BOB: {"red": 1}})
    with pytest.raises(IllegalAction) as err:
        play(game, s, BOB, "tile", colour="red", hex=(3, 3))
    assert err.value.code == "not_your_turn"
