"""§5.2 revolt: the worked example of §5.4 and E11."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction
from shelf.yellow_yangtze.state import Revolt

from .helpers import ALICE, BOB, hand, make_game, play, points, position


def worked_example(game):
    # P1 = Alice: red leader (1,3) next to black X=(2,3) and Y=(2,2); black leader off the board.
    # P2 = Bob places a red leader at (3,3), next to X only; Bob's black leader is on the board elsewhere.
    s = position(game, tiles={(2, 3): "black", (2, 2): "black", (6, 5): "black"},
                 leaders=[(ALICE, "red", (1, 3)), (BOB, "black", (6, 6))],
                 hands={BOB: {"black": 2}, ALICE: {"black": 1}}, active=BOB)
    return play(game, s, BOB, "leader", colour="red", hex=(3, 3))


def test_revolt_worked_example_defender_wins_the_tie():
    game = make_game()
    s = worked_example(game)
    assert isinstance(s.pending, Revolt)
    view = game.view(s, None)["conflict"]
    assert view["attacker_base"] == 1 and view["defender_base"] == 2
    s = play(game, s, BOB, "commit", tiles=2)
    assert game.prompt(s).seats == (ALICE,) and game.view(s, None)["conflict"]["attacker_tiles"] == 2
    s = play(game, s, ALICE, "commit", tiles=0)
    assert (BOB, "red", (3, 3)) not in s.leaders and (ALICE, "red", (1, 3)) in s.leaders
    assert points(s, ALICE)["red"] == 1 and points(s, BOB)["red"] == 0
    assert s.box[0] == 2 and hand(s, BOB)["black"] == 0
    assert all(not (seat == ALICE and c == "black") for seat, c, _ in s.leaders)  # still in hand
    assert s.pending is None and s.actions_left == 1


def test_revolt_defender_wins_ties_and_a_shared_black_tile_counts_for_both():
    # E11
    game = make_game()
    s = worked_example(game)
    s = play(game, s, BOB, "commit", tiles=2)
    s = play(game, s, ALICE, "commit", tiles=0)
    assert points(s, ALICE)["red"] == 1


def test_revolt_attacker_wins_with_more_support_and_the_defender_leader_goes_home():
    game = make_game()
    s = position(game, tiles={(2, 3): "black", (3, 2): "black", (6, 5): "black"},
                 leaders=[(ALICE, "red", (1, 3)), (ALICE, "black", (6, 6))], hands={BOB: {"black": 1}}, active=BOB)
    s = play(game, s, BOB, "leader", colour="red", hex=(3, 3))
    s = play(game, s, BOB, "commit", tiles=1)
    s = play(game, s, ALICE, "commit", tiles=0)
    # Bob: 2 adjacent + 1 committed + 1 for his off-board black leader = 4; Alice: 1 adjacent.
    assert (ALICE, "red", (1, 3)) not in s.leaders and (BOB, "red", (3, 3)) in s.leaders
    assert points(s, BOB)["red"] == 1


def test_revolt_support_is_black_tiles_from_hand_only():
    game = make_game()
    s = worked_example(game)
    with pytest.raises(IllegalAction) as err:
        play(game, s, BOB, "commit", tiles=3)
    assert err.value.code == "not_enough_black"
    assert game.legal_actions(s, BOB) == [{"kind": "commit", "tiles": t} for t in range(3)]
