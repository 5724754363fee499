"""§5.3 war: the worked example of §5.4, E1, E2, E3, three-state wars, attrition choices."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction
from shelf.yellow_yangtze.rules.common import duplicate_states, group_of, occupied
from shelf.yellow_yangtze.state import War

from .helpers import ALICE, BOB, CAROL, DAN, hand, make_game, play, points, position, total_tiles

STATE_A = {(0, 3): "red", (1, 3): "red", (2, 3): "black"}
STATE_B = {(4, 3): "black", (5, 3): "red"}


def worked_example(game, **kw):
    """§5.4: A = Alice red, Bob blue, 2 red tiles; B = Carol red, Alice green, 1 red tile; Dan joins with green."""
    s = position(game, tiles={**STATE_A, **STATE_B},
                 leaders=[(ALICE, "red", (2, 2)), (BOB, "blue", (1, 4)), (CAROL, "red", (5, 2)),
                          (ALICE, "green", (4, 4))],
                 hands={ALICE: {"red": 1}, CAROL: {"red": 2}, DAN: {"green": 1}}, market={"red": 1}, active=DAN, **kw)
    return s, play(game, s, DAN, "tile", colour="green", hex=(3, 3))


def test_war_worked_example_of_section_5_4():
    game = make_game()
    before, s = worked_example(game)
    w = s.pending
    assert isinstance(w, War) and w.unifier == DAN and w.hex == (3, 3)
    assert w.sides[0][0] == (0, 3)
    assert [t["token"] for t in game.view(s, None)["tiles"] if (t["q"], t["r"]) == (3, 3)] == [True]
    assert w.order == (ALICE, BOB, CAROL, DAN)
    assert all(sum(p) == 0 for p in s.points)  # the unifying tile scores nothing
    s = play(game, s, ALICE, "commit", side=0, tiles=1, leader=False)
    s = play(game, s, BOB, "abstain")
    s = play(game, s, CAROL, "commit", side=1, tiles=2, leader=False)
    assert total_tiles(s) == total_tiles(before)
    s = play(game, s, DAN, "abstain")
    assert game.prompt(s).step == "war_winner" and game.prompt(s).seats == (DAN,)
    s = play(game, s, DAN, "choose_winner", side=0)
    assert (CAROL, "red", (5, 2)) not in s.leaders
    assert (ALICE, "green", (4, 4)) in s.leaders and (ALICE, "red", (2, 2)) in s.leaders
    assert points(s, ALICE) == {"black": 0, "red": 1, "blue": 0, "green": 0, "yellow": 0}
    tiles = dict(s.tiles)
    assert (5, 3) not in tiles and (0, 3) not in tiles and (1, 3) not in tiles  # B's red and A's attrition
    assert s.box[1] == 1 + 2 + 1 + 2  # B's board red, Carol's 2, Alice's 1 burned, A's 2 board reds
    assert hand(s, DAN)["red"] == 0 and sum(s.market) == 1  # no market tile for a unifier
    assert s.pending is None and s.actions_left == 1 and total_tiles(s) == total_tiles(before)
    group = group_of(game.ctx, occupied(s), (3, 3))
    assert {(2, 3), (4, 3), (2, 2), (4, 4), (1, 4)} <= group and duplicate_states(game.ctx, s) == []


def e1_position(game, colour):
    # A: reds (2,3),(2,4) + black (1,3); Alice blue (1,4) and red (0,3). B: black (4,3), Bob blue (5,3).
    # A tile at (3,3) joins them (blue duplicated) and would complete the red triangle {(2,3),(2,4),(3,3)}.
    return position(game, tiles={(2, 3): "red", (2, 4): "red", (1, 3): "black", (4, 3): "black"},
                    leaders=[(ALICE, "blue", (1, 4)), (ALICE, "red", (0, 3)), (BOB, "blue", (5, 3))],
                    hands={CAROL: {colour: 1}}, market={"yellow": 2}, active=CAROL)


def test_a_red_unifier_scores_nothing_adds_no_strength_and_builds_no_pagoda():
    # E1
    game = make_game(3)
    s = play(game, e1_position(game, "red"), CAROL, "tile", colour="red", hex=(3, 3))
    assert isinstance(s.pending, War)
    assert [side["strength"] for side in game.view(s, None)["conflict"]["sides"]] == [2, 0]
    assert points(s, ALICE)["red"] == 0
    for seat in (ALICE, BOB, CAROL):
        s = play(game, s, seat, "abstain")
    assert (BOB, "blue", (5, 3)) not in s.leaders and points(s, ALICE)["blue"] == 1
    # Attrition: 0 (the loser had no strength); no pagoda offered, the action is over.
    assert s.pending is None and s.pagodas == () and s.actions_left == 1
    assert dict(s.tiles)[(2, 3)] == "red"


def test_a_green_unifier_takes_no_market_tile():
    # E1
    game = make_game(3)
    s = play(game, e1_position(game, "green"), CAROL, "tile", colour="green", hex=(3, 3))
    for seat in (ALICE, BOB, CAROL):
        s = play(game, s, seat, "abstain")
    assert s.pending is None and sum(s.market) == 2 and hand(s, CAROL)["yellow"] == 0


def test_war_support_is_always_red_whatever_the_leaders_colour():
    # E2: a war over green leaders; green tiles cannot be committed.
    game = make_game(3)
    s = position(game, tiles={(2, 3): "black", (4, 3): "black"},
                 leaders=[(ALICE, "green", (1, 3)), (BOB, "green", (5, 3)), (ALICE, "red", (2, 4)),
                          (BOB, "red", (5, 2)), (CAROL, "red", (1, 2))],
                 hands={ALICE: {"green": 3}, CAROL: {"yellow": 1}}, active=CAROL)
    s = play(game, s, CAROL, "tile", colour="yellow", hex=(3, 3))
    assert isinstance(s.pending, War) and game.prompt(s).seats == (ALICE,)
    with pytest.raises(IllegalAction) as err:
        play(game, s, ALICE, "commit", side=0, tiles=1, leader=False)
    assert err.value.code == "not_enough_red"
    assert all(a.get("tiles", 0) == 0 for a in game.legal_actions(s, ALICE))


def test_the_unifier_without_leaders_commits_last_may_back_either_side_and_breaks_the_tie():
    # E3: Dan joins states holding only Alice's and Bob's leaders.
    game = make_game()
    s = position(game, tiles={(2, 3): "black", (4, 3): "black"},
                 leaders=[(ALICE, "blue", (1, 3)), (BOB, "blue", (5, 3)), (DAN, "black", (6, 5))],
                 hands={DAN: {"yellow": 1, "red": 1}}, active=DAN)
    s = play(game, s, DAN, "tile", colour="yellow", hex=(3, 3))
    assert s.pending.order == (ALICE, BOB, CAROL, DAN)
    for seat in (ALICE, BOB, CAROL):
        assert game.prompt(s).seats == (seat,)
        s = play(game, s, seat, "abstain")
    sides = {a.get("side") for a in game.legal_actions(s, DAN) if a["kind"] == "commit"}
    assert sides == {0, 1}
    s = play(game, s, DAN, "abstain")
    assert [(a["kind"], a["side"]) for a in game.legal_actions(s, DAN)] == [("choose_winner", 0), ("choose_winner", 1)]
    s = play(game, s, DAN, "choose_winner", side=1)
    assert (ALICE, "blue", (1, 3)) not in s.leaders and points(s, BOB)["blue"] == 1


def test_an_off_board_red_leader_adds_one_and_stays_in_hand():
    # §1.1: red leader support; the winner's surplus committed tiles go back to hand.
    game = make_game(2)
    s = position(game, tiles={(2, 3): "black", (4, 3): "black", (5, 4): "red"},
                 leaders=[(ALICE, "blue", (1, 3)), (BOB, "blue", (5, 3))],
                 hands={ALICE: {"yellow": 1, "red": 2}}, active=ALICE)
    s = play(game, s, ALICE, "tile", colour="yellow", hex=(3, 3))
    s = play(game, s, BOB, "abstain")
    s = play(game, s, ALICE, "commit", side=0, tiles=2, leader=True)
    # A: 0 + 2 + 1 = 3 ; B: 1 red tile. Attrition 1 burns one committed tile; one goes back.
    assert (BOB, "blue", (5, 3)) not in s.leaders and hand(s, ALICE)["red"] == 1
    assert all(not (seat == ALICE and c == "red") for seat, c, _ in s.leaders)


def test_option_box_surplus_discards_all_committed_tiles_of_the_winner():
    game = make_game(2, war_surplus="box")
    s = position(game, tiles={(2, 3): "black", (4, 3): "black"},
                 leaders=[(ALICE, "blue", (1, 3)), (BOB, "blue", (5, 3))],
                 hands={ALICE: {"yellow": 1, "red": 2}}, active=ALICE)
    s = play(game, s, ALICE, "tile", colour="yellow", hex=(3, 3))
    s = play(game, s, BOB, "abstain")
    s = play(game, s, ALICE, "commit", side=0, tiles=2, leader=False)
    assert hand(s, ALICE)["red"] == 0 and s.box[1] == 2


def three_states(game, **kw):
    """Three separate states touch (3,3) from NW, SW and E; each holds a red leader.

    NW: black (3,2), Alice red (2,2), red tile (1,2)           -> strength 1
    SW: black (2,4), Carol red (1,5), red tiles (2,5), (1,6)   -> strength 2
    E:  black (4,3), Bob red (5,3), red tiles (6,3), (6,2), (5,2) -> strength 3
    """
    tiles = {(3, 2): "black", (1, 2): "red", (2, 4): "black", (2, 5): "red", (1, 6): "red",
             (4, 3): "black", (6, 3): "red", (6, 2): "red", (5, 2): "red"}
    leaders = [(ALICE, "red", (2, 2)), (CAROL, "red", (1, 5)), (BOB, "red", (5, 3))]
    return position(game, tiles=tiles, leaders=leaders, hands={DAN: {"yellow": 1}}, active=DAN, **kw)


def test_three_separate_states_fight_together_and_attrition_is_the_highest_losing_strength():
    game = make_game()
    s0 = three_states(game)
    s = play(game, s0, DAN, "tile", colour="yellow", hex=(3, 3))
    w = s.pending
    assert isinstance(w, War) and len(w.sides) == 3
    assert [side["strength"] for side in game.view(s, None)["conflict"]["sides"]] == [1, 2, 3]
    for seat in w.order:
        s = play(game, s, seat, "abstain")
    # Bob's east state wins; Alice and Carol lose their red leaders; Bob scores 2 red.
    assert [x for x in s.leaders if x[1] == "red"] == [(BOB, "red", (5, 3))]
    assert points(s, BOB)["red"] == 2
    assert not {(1, 2), (2, 5), (1, 6)} & set(dict(s.tiles))
    # The highest losing strength is 2: the unifier chooses which 2 of Bob's 3 red tiles go.
    assert game.prompt(s).step == "war_attrition" and s.pending.remove_left == 2
    s = play(game, s, DAN, "remove_red", hex=(6, 3))
    with pytest.raises(IllegalAction) as err:
        play(game, s, DAN, "remove_red", hex=(3, 2))
    assert err.value.code == "not_winner_red"
    s = play(game, s, DAN, "remove_red", hex=(6, 2))
    assert dict(s.tiles).get((5, 2)) == "red" and s.pending is None
    assert duplicate_states(game.ctx, s) == [] and total_tiles(s) == total_tiles(s0)


def test_every_legal_action_of_a_three_state_war_passes_the_edge_check_of_a_tap():
    """The actions that settle a three-state war carry its outcome, three sides and three strengths, for their log
    line. The payload shape checked before a tap is stored (``check_payload``) must take them: it allowed two sides
    only, so every phone's tap was refused (``bad_payload``) and the table could not go on."""
    game = make_game()
    s = play(game, three_states(game), DAN, "tile", colour="yellow", hex=(3, 3))
    settled_three = 0
    for _ in range(20):
        if s.pending is None:
            break
        seat = game.prompt(s).seats[0]
        actions = game.legal_actions(s, seat)
        for action in actions:
            game.check_payload(action)
            settled_three += len((action.get("outcome") or {}).get("sides", ())) == 3
        s = game.apply(s, seat, next((a for a in actions if a["kind"] == "abstain"), actions[0]))
    assert s.pending is None and settled_three >= 2, "the last support and the attrition each carry the outcome"


def test_option_sum_attrition_adds_the_losing_strengths():
    game = make_game(attrition="sum")
    s = play(game, three_states(game), DAN, "tile", colour="yellow", hex=(3, 3))
    for seat in s.pending.order:
        s = play(game, s, seat, "abstain")
    assert s.pending is None and not {(6, 3), (6, 2), (5, 2)} & set(dict(s.tiles))


def test_option_all_joined_states_fight_puts_a_state_without_shared_colours_in_the_war():
    game = make_game(who_fights="all")
    tiles = {(3, 2): "black", (2, 4): "black", (4, 3): "black"}
    leaders = [(ALICE, "red", (2, 2)), (CAROL, "green", (1, 5)), (BOB, "red", (5, 3))]
    s = play(game, position(game, tiles=tiles, leaders=leaders, hands={DAN: {"yellow": 1}}, active=DAN),
             DAN, "tile", colour="yellow", hex=(3, 3))
    assert len(s.pending.sides) == 3
    game = make_game()
    s = play(game, position(game, tiles=tiles, leaders=leaders, hands={DAN: {"yellow": 1}}, active=DAN),
             DAN, "tile", colour="yellow", hex=(3, 3))
    assert len(s.pending.sides) == 2


def test_the_unifier_picks_whose_committed_tiles_burn_when_several_supporters_backed_the_winner():
    game = make_game()
    s = position(game, tiles={(2, 3): "black", (4, 3): "black", (5, 4): "red"},
                 leaders=[(ALICE, "blue", (1, 3)), (BOB, "blue", (5, 3))],
                 hands={ALICE: {"red": 2}, CAROL: {"red": 2}, DAN: {"yellow": 1}}, active=DAN)
    s = play(game, s, DAN, "tile", colour="yellow", hex=(3, 3))
    s = play(game, s, ALICE, "commit", side=0, tiles=2, leader=False)
    s = play(game, s, BOB, "abstain")
    s = play(game, s, CAROL, "commit", side=0, tiles=2, leader=False)
    s = play(game, s, DAN, "abstain")
    # A = 4, B = 1 red tile: 1 tile burns and Dan picks whose.
    assert game.prompt(s).step == "war_burn"
    assert [(a["kind"], a["seat"]) for a in game.legal_actions(s, DAN)] == [("burn", ALICE), ("burn", CAROL)]
    s = play(game, s, DAN, "burn", seat=CAROL)
    assert hand(s, CAROL)["red"] == 1 and hand(s, ALICE)["red"] == 2 and s.pending is None


def test_red_tiles_under_a_pagoda_in_a_losing_state_are_removed_and_the_pagoda_returns_by_default():
    # §4.6 [U]
    for option, kept in (("removed", False), ("stays", True)):
        game = make_game(2, red_under_pagoda=option)
        s = position(game, tiles={(2, 3): "black", (4, 3): "black", (5, 4): "red", (6, 4): "red", (6, 3): "red"},
                     leaders=[(ALICE, "blue", (1, 3)), (BOB, "blue", (5, 3))],
                     pagodas=[("red", ((5, 4), (6, 4), (6, 3)))],
                     hands={ALICE: {"yellow": 1, "red": 5}}, active=ALICE)
        s = play(game, s, ALICE, "tile", colour="yellow", hex=(3, 3))
        s = play(game, s, BOB, "abstain")
        s = play(game, s, ALICE, "commit", side=0, tiles=5, leader=False)
        assert ((5, 4) in dict(s.tiles)) is kept
        assert (len(s.pagodas) == 1) is kept
