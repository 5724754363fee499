"""§4.1 position a leader: place, move, withdraw; E4, E5, E9."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction
from shelf.yellow_yangtze.rules.common import duplicate_states
from shelf.yellow_yangtze.state import Revolt

from .helpers import ALICE, BOB, CAROL, make_game, play, position


def test_a_leader_must_stand_next_to_a_black_tile():
    game = make_game()
    s = position(game, tiles={(2, 3): "black", (5, 5): "red"})
    with pytest.raises(IllegalAction) as err:
        play(game, s, ALICE, "leader", colour="red", hex=(6, 5))
    assert err.value.code == "leader_needs_black"
    s2 = play(game, s, ALICE, "leader", colour="red", hex=(1, 3))
    assert (ALICE, "red", (1, 3)) in s2.leaders and s2.actions_left == 1


def test_a_leader_may_not_stand_on_a_river_hex_or_an_occupied_hex():
    game = make_game()
    s = position(game, tiles={(2, 2): "black", (1, 3): "red"})
    with pytest.raises(IllegalAction) as err:
        play(game, s, ALICE, "leader", colour="red", hex=(2, 1))
    assert err.value.code == "leader_on_river"
    with pytest.raises(IllegalAction) as err:
        play(game, s, ALICE, "leader", colour="red", hex=(1, 3))
    assert err.value.code == "hex_occupied"


def test_withdraw_returns_the_leader_to_hand_and_is_refused_for_a_leader_in_hand():
    game = make_game()
    s = position(game, tiles={(2, 3): "black"}, leaders=[(ALICE, "red", (1, 3))])
    s2 = play(game, s, ALICE, "withdraw", colour="red")
    assert s2.leaders == ()
    with pytest.raises(IllegalAction) as err:
        play(game, s, ALICE, "withdraw", colour="blue")
    assert err.value.code == "leader_not_on_board"


def test_moving_a_leader_inside_its_own_state_starts_no_revolt():
    # E4
    game = make_game()
    s = position(game, tiles={(2, 3): "black"}, leaders=[(ALICE, "red", (1, 3))])
    s2 = play(game, s, ALICE, "leader", colour="red", hex=(2, 2))
    assert s2.pending is None and (ALICE, "red", (2, 2)) in s2.leaders and len(s2.leaders) == 1


def test_a_moving_leader_is_lifted_before_the_target_is_checked():
    # E5: the leader that links two states may move to a hex that then joins only one of them.
    game = make_game()
    s = position(game, tiles={(2, 3): "black", (4, 3): "black"},
                 leaders=[(ALICE, "green", (3, 3)), (BOB, "red", (1, 3)), (CAROL, "blue", (5, 3))])
    s2 = play(game, s, ALICE, "leader", colour="green", hex=(3, 4))
    assert (ALICE, "green", (3, 4)) in s2.leaders and s2.pending is None


def test_a_leader_may_join_two_states_when_no_colour_is_duplicated():
    # E9, first half
    game = make_game()
    s = position(game, tiles={(2, 3): "black", (4, 3): "black"},
                 leaders=[(ALICE, "red", (1, 3)), (BOB, "blue", (5, 3))], active=CAROL)
    s2 = play(game, s, CAROL, "leader", colour="green", hex=(3, 3))
    assert s2.pending is None and duplicate_states(game.ctx, s2) == []
    from shelf.yellow_yangtze.rules.common import group_of, occupied

    assert {(1, 3), (5, 3), (3, 3)} <= group_of(game.ctx, occupied(s2), (3, 3))


def test_a_leader_may_not_join_two_states_that_share_a_leader_colour_and_it_is_no_war():
    # E9, second half
    game = make_game()
    s = position(game, tiles={(2, 3): "black", (4, 3): "black"},
                 leaders=[(ALICE, "red", (1, 3)), (BOB, "red", (5, 3))], active=CAROL)
    with pytest.raises(IllegalAction) as err:
        play(game, s, CAROL, "leader", colour="green", hex=(3, 3))
    assert err.value.code == "leader_joins_conflict"
    assert {"kind": "leader", "colour": "green", "hex": [3, 3]} not in game.legal_actions(s, CAROL)


def test_a_leader_joining_states_where_its_own_colour_stands_is_forbidden_by_default():
    # §4.1 [U] default: forbidden
    game = make_game()
    s = position(game, tiles={(2, 3): "black", (4, 3): "black"},
                 leaders=[(ALICE, "red", (1, 3)), (BOB, "blue", (5, 3))], active=CAROL)
    with pytest.raises(IllegalAction) as err:
        play(game, s, CAROL, "leader", colour="red", hex=(3, 3))
    assert err.value.code == "leader_joins_conflict"


def test_option_lets_a_joining_leader_of_a_present_colour_start_a_revolt():
    game = make_game(leader_join_own_colour="revolt")
    s = position(game, tiles={(2, 3): "black", (4, 3): "black"},
                 leaders=[(ALICE, "red", (1, 3)), (BOB, "blue", (5, 3))], active=CAROL)
    s2 = play(game, s, CAROL, "leader", colour="red", hex=(3, 3))
    assert isinstance(s2.pending, Revolt) and s2.pending.defender == ALICE and s2.pending.attacker == CAROL


def test_a_leader_placed_into_a_state_with_its_colour_starts_a_revolt():
    game = make_game()
    s = position(game, tiles={(2, 3): "black"}, leaders=[(ALICE, "red", (1, 3))], active=BOB)
    s2 = play(game, s, BOB, "leader", colour="red", hex=(3, 3))
    assert isinstance(s2.pending, Revolt)
    assert game.prompt(s2).seats == (BOB,) and game.prompt(s2).step == "revolt_attacker"
