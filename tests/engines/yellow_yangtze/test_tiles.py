"""§4.2 place a tile, §4.3 the farmer chain, §4.6 pagodas from placements; E15, E17, E18, E20."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction
from shelf.yellow_yangtze.state import FollowUp

from .helpers import ALICE, BOB, hand, make_game, play, points, position


def test_blue_tiles_go_only_on_river_and_other_colours_only_on_land():
    game = make_game()
    s = position(game, hands={ALICE: {"blue": 1, "red": 1}})
    with pytest.raises(IllegalAction) as err:
        play(game, s, ALICE, "tile", colour="blue", hex=(3, 3))
    assert err.value.code == "blue_tile_not_on_river"
    with pytest.raises(IllegalAction) as err:
        play(game, s, ALICE, "tile", colour="red", hex=(3, 0))
    assert err.value.code == "tile_not_on_land"
    with pytest.raises(IllegalAction) as err:
        play(game, s, ALICE, "tile", colour="green", hex=(3, 3))
    assert err.value.code == "tile_not_in_hand"


def test_a_tile_needs_no_neighbour_and_may_start_a_new_group():
    game = make_game()
    s = position(game, hands={ALICE: {"red": 1}})
    s2 = play(game, s, ALICE, "tile", colour="red", hex=(3, 3))
    assert ((3, 3), "red") in s2.tiles and s2.actions_left == 1 and hand(s2, ALICE)["red"] == 0


def test_a_non_active_players_leader_scores_the_tile_of_its_colour():
    # E17
    game = make_game()
    s = position(game, tiles={(2, 3): "black"}, leaders=[(BOB, "red", (1, 3))], hands={ALICE: {"red": 1}})
    s2 = play(game, s, ALICE, "tile", colour="red", hex=(3, 3))
    assert points(s2, BOB)["red"] == 1 and points(s2, ALICE)["red"] == 0


def test_the_black_leader_stands_in_for_a_missing_colour():
    # §4.2 step 3, second bullet
    game = make_game()
    s = position(game, tiles={(2, 3): "black"}, leaders=[(BOB, "black", (1, 3))], hands={ALICE: {"green": 1}})
    s2 = play(game, s, ALICE, "tile", colour="green", hex=(3, 3))
    assert points(s2, BOB)["green"] == 1


def test_a_tile_in_a_state_without_its_colour_or_black_leader_or_in_a_leaderless_group_scores_nothing():
    # E18
    game = make_game()
    s = position(game, tiles={(2, 3): "black", (5, 5): "red"}, leaders=[(BOB, "blue", (1, 3))],
                 hands={ALICE: {"green": 2}})
    s2 = play(game, s, ALICE, "tile", colour="green", hex=(3, 3))
    s3 = play(game, s2, ALICE, "tile", colour="green", hex=(6, 5))
    assert all(sum(p) == 0 for p in s3.points)


def test_a_green_tile_lets_the_placer_take_a_market_tile_and_the_gap_waits_for_the_end_of_turn():
    game = make_game()
    s = position(game, hands={ALICE: {"green": 1}}, market={"red": 2, "yellow": 4})
    s2 = play(game, s, ALICE, "tile", colour="green", hex=(3, 3))
    assert isinstance(s2.pending, FollowUp) and game.prompt(s2).kinds == ("take_market", "decline")
    s3 = play(game, s2, ALICE, "take_market", colour="red")
    assert hand(s3, ALICE)["red"] == 1 and sum(s3.market) == 5 and s3.pending is None and s3.actions_left == 1


def test_a_blue_chain_goes_on_next_to_the_previous_blue_tile_and_scores_each():
    game = make_game()
    s = position(game, tiles={(3, 2): "black"}, leaders=[(BOB, "blue", (4, 2))], hands={ALICE: {"blue": 3}})
    s2 = play(game, s, ALICE, "tile", colour="blue", hex=(3, 1))
    assert game.prompt(s2).step == "chain"
    with pytest.raises(IllegalAction) as err:
        play(game, s2, ALICE, "tile", colour="blue", hex=(6, 0))
    assert err.value.code == "chain_not_adjacent"
    s3 = play(game, s2, ALICE, "tile", colour="blue", hex=(3, 0))
    s4 = play(game, s3, ALICE, "decline")
    assert points(s4, BOB)["blue"] == 2 and s4.actions_left == 1 and s4.pending is None


def blue_triangle_position(game):
    # Blue (2,0) and (2,1) on the Yellow River; placing blue at (3,0) completes {(2,0),(3,0),(2,1)}.
    return position(game, tiles={(2, 0): "blue", (2, 1): "blue"}, hands={ALICE: {"blue": 3}})


def test_building_a_pagoda_ends_the_blue_chain():
    # E15
    game = make_game()
    s = play(game, blue_triangle_position(game), ALICE, "tile", colour="blue", hex=(3, 0))
    assert game.prompt(s).step == "pagoda"
    s2 = play(game, s, ALICE, "pagoda", triangle=((2, 0), (3, 0), (2, 1)))
    assert s2.pending is None and s2.actions_left == 1
    assert s2.pagodas == (("blue", ((2, 0), (2, 1), (3, 0))),) and s2.pagoda_supply[2] == 1


def test_declining_the_pagoda_lets_the_blue_chain_go_on_by_default():
    # E15 [U] default
    game = make_game()
    s = play(game, blue_triangle_position(game), ALICE, "tile", colour="blue", hex=(3, 0))
    s2 = play(game, s, ALICE, "decline")
    assert game.prompt(s2).step == "chain"


def test_option_stops_the_chain_after_a_declined_pagoda():
    game = make_game(chain_after_declined_pagoda="stop")
    s = play(game, blue_triangle_position(game), ALICE, "tile", colour="blue", hex=(3, 0))
    s2 = play(game, s, ALICE, "decline")
    assert s2.pending is None and s2.actions_left == 1


def test_no_pagoda_on_a_triangle_with_a_tile_already_under_a_pagoda():
    # E20
    game = make_game()
    s = position(game, tiles={(2, 3): "red", (3, 3): "red", (3, 2): "red", (4, 3): "red"},
                 pagodas=[("red", ((2, 3), (3, 3), (3, 2)))], hands={ALICE: {"red": 1}})
    s2 = play(game, s, ALICE, "tile", colour="red", hex=(4, 2))
    assert s2.pending is None and len(s2.pagodas) == 1


def test_an_empty_supply_moves_a_pagoda_from_the_board():
    # §4.6: pagodas get "stolen"
    game = make_game()
    s = position(game, tiles={(2, 5): "yellow", (3, 5): "yellow", (2, 6): "yellow", (5, 3): "yellow",
                              (6, 3): "yellow"},
                 pagodas=[("yellow", ((2, 5), (3, 5), (2, 6)))], hands={ALICE: {"yellow": 1}})
    s2 = play(game, s, ALICE, "tile", colour="yellow", hex=(5, 4))
    acts = game.legal_actions(s2, ALICE)
    assert {"kind": "pagoda", "triangle": [[5, 3], [5, 4], [6, 3]],
            "from": [[2, 5], [2, 6], [3, 5]]} in acts
    with pytest.raises(IllegalAction) as err:
        play(game, s2, ALICE, "pagoda", triangle=((5, 3), (5, 4), (6, 3)))
    assert err.value.code == "pagoda_source"
    s3 = play(game, s2, ALICE, "pagoda", triangle=((5, 3), (5, 4), (6, 3)), **{"from": ((2, 5), (3, 5), (2, 6))})
    assert s3.pagodas == (("yellow", ((5, 3), (5, 4), (6, 3))),)
