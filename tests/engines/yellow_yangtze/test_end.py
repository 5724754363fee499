"""§6 end of turn (pagoda income, refills) and §7 game end and final scoring; E7, E8, E13."""

from __future__ import annotations

from shelf.yellow_yangtze.rules.scoring import allocate_yellow, final_result
from shelf.yellow_yangtze.state import DrawStep

from .helpers import ALICE, BOB, CAROL, make_game, play, points, position


def end_turn_by_placing_yellow(game, s):
    """Alice's last action: an isolated yellow tile that scores nothing."""
    return play(game, s, ALICE, "tile", colour="yellow", hex=(7, 6))


def test_black_leader_gets_no_income_from_a_red_pagoda():
    # E13
    game = make_game(2)
    s = position(game, tiles={(2, 3): "red", (3, 3): "red", (3, 2): "red", (2, 2): "black"},
                 leaders=[(ALICE, "black", (1, 2))], pagodas=[("red", ((2, 3), (3, 3), (3, 2)))],
                 hands={ALICE: {"yellow": 1}}, actions_left=1, full_hands=True)
    s = end_turn_by_placing_yellow(game, s)
    assert points(s, ALICE)["red"] == 0 and isinstance(s.pending, DrawStep)


def test_a_leader_of_the_pagoda_colour_earns_one_point_per_pagoda_for_the_active_player_only():
    # §6 step 1 [P]: two red pagodas in one state give 2 red.
    game = make_game(2)
    tiles = {(2, 3): "red", (3, 3): "red", (3, 2): "red", (2, 2): "black", (4, 3): "red", (5, 3): "red",
             (5, 2): "red"}
    s = position(game, tiles=tiles, leaders=[(ALICE, "red", (1, 3)), (BOB, "black", (1, 2))],
                 pagodas=[("red", ((2, 3), (3, 3), (3, 2))), ("red", ((4, 3), (5, 3), (5, 2)))],
                 hands={ALICE: {"yellow": 1}}, actions_left=1)
    s = end_turn_by_placing_yellow(game, s)
    assert points(s, ALICE)["red"] == 2 and points(s, BOB) == dict.fromkeys(points(s, BOB), 0)


def test_end_of_turn_refills_the_active_player_then_the_others_clockwise_then_the_market():
    game = make_game(3)
    s = position(game, hands={ALICE: {"yellow": 2}, BOB: {"red": 6}, CAROL: {"red": 3}}, market={"red": 4},
                 actions_left=1)
    s = end_turn_by_placing_yellow(game, s)
    assert s.pending.queue == ((ALICE, "hand", 5), (CAROL, "hand", 3), (ALICE, "market", 2))
    s = play(game, s, ALICE, "draw", tiles=["red"] * 5)
    s = play(game, s, CAROL, "draw", tiles=["red"] * 3)
    s = play(game, s, ALICE, "draw", tiles=["blue", "blue"])
    assert s.active == BOB and s.actions_left == 2 and s.pending is None and sum(s.market) == 6


def test_drawing_the_last_tiles_does_not_end_the_game_but_the_next_draw_attempt_does():
    # E7: the bag has exactly 2 and the active player must draw 2; the market refill right after ends it.
    game = make_game(2)
    s = position(game, hands={ALICE: {"yellow": 5}, BOB: {"red": 6}}, market={"red": 5}, bag={"green": 2},
                 actions_left=1)
    s = end_turn_by_placing_yellow(game, s)
    assert s.phase == "play"
    s = play(game, s, ALICE, "draw", tiles=["green", "green"])
    assert s.phase == "over" and s.ended_by == "empty_bag" and game.result(s) is not None


def test_drawing_the_last_tiles_when_no_other_draw_is_needed_does_not_end_the_game():
    # E7
    game = make_game(2)
    s = position(game, hands={ALICE: {"yellow": 5}, BOB: {"red": 6}}, market={"red": 6}, bag={"green": 2},
                 actions_left=1)
    s = end_turn_by_placing_yellow(game, s)
    s = play(game, s, ALICE, "draw", tiles=["green", "green"])
    assert s.phase == "play" and s.active == BOB and game.result(s) is None


def test_a_draw_from_an_empty_bag_ends_the_game_at_once_after_pagoda_income():
    # §7 [P]: step 1 of §6 has been scored.
    game = make_game(2)
    tiles = {(2, 3): "red", (3, 3): "red", (3, 2): "red", (2, 2): "black"}
    s = position(game, tiles=tiles, leaders=[(ALICE, "red", (1, 3))], pagodas=[("red", ((2, 3), (3, 3), (3, 2)))],
                 hands={ALICE: {"yellow": 2}}, bag={}, actions_left=1)
    s = end_turn_by_placing_yellow(game, s)
    assert s.phase == "over" and points(s, ALICE)["red"] == 1


def test_yellow_points_fill_the_lowest_colours_first():
    # §7 water filling: black 3, red 5, blue 2, green 4 with 4 yellow: blue to 3, black and blue to 4,
    # and the last point to one of the three fours (totals differ by at most one).
    added, totals = allocate_yellow((3, 5, 2, 4, 4))
    assert sorted(totals.values()) == [4, 4, 5, 5] and sum(added.values()) == 4 and added["red"] == 0


def test_final_scoring_shows_every_step_including_the_yellow_allocation():
    result = final_result(((3, 5, 2, 4, 4), (1, 9, 9, 9, 0)), ["Alice", "Bob"], "empty_bag")
    assert result["winners"] == [0]
    texts = [step["text"] for step in result["steps"]]
    assert any("yellow" in t for t in texts)
    alloc = [st for st in result["steps"] if "added" in st["details"]]
    assert alloc[0]["details"]["added"] == {"black": 2, "red": 0, "blue": 2, "green": 0}


def shown(step) -> str:
    return step["text"].format(**{k: ", ".join(map(str, v)) if isinstance(v, list) else v
                                  for k, v in step["details"].items()})


def test_every_tally_step_reads_as_colour_and_points_never_as_a_raw_dict():
    result = final_result(((3, 5, 2, 4, 4), (1, 9, 9, 9, 0)), ["Alice", "Bob"], "empty_bag")
    lines = [shown(step) for step in result["steps"]]
    assert "Alice lifts the screen: black 3, red 5, blue 2, green 4, yellow 4." in lines
    assert ("Alice adds the yellow points (4): black +2, red +0, blue +2, green +0; "
            "totals: black 5, red 5, blue 4, green 4.") in lines
    assert "Alice scores 4, the lowest colour (totals from low to high: 4, 4, 5, 5)." in lines
    assert not any("{" in line or "'" in line for line in lines)


def test_a_tie_break_step_gives_the_totals_that_decided_it():
    result = final_result(((4, 5, 6, 9, 0), (4, 6, 6, 6, 0)), ["Ann", "Ben"], "empty_bag")
    lines = [shown(step) for step in result["steps"]]
    assert ("Ben and Ann both score 4; compared from low to high (Ben: 4, 6, 6, 6; Ann: 4, 5, 6, 9), "
            "their second-lowest colour decides: Ben 6, Ann 5 (§7).") in lines
    full = final_result(((4, 5, 6, 9, 0), (9, 6, 5, 4, 0)), ["Ann", "Ben"], "empty_bag")
    assert "Ann and Ben tie on every total (4, 5, 6, 9) and share the place (§7)." in [
        shown(step) for step in full["steps"]]


def test_tied_lowest_colours_compare_the_second_lowest_then_further():
    # E8
    result = final_result(((4, 5, 6, 9, 0), (4, 6, 6, 6, 0), (4, 5, 6, 8, 0)), ["A", "B", "C"], "empty_bag")
    assert [r["seat"] for r in result["ranking"]] == [1, 0, 2]
    assert [r["place"] for r in result["ranking"]] == [1, 2, 3]


def test_full_equality_is_a_shared_win():
    # E8
    result = final_result(((4, 5, 6, 9, 0), (9, 6, 5, 4, 0)), ["A", "B"], "empty_bag")
    assert result["winners"] == [0, 1] and {r["place"] for r in result["ranking"]} == {1}


def test_game_over_view_opens_every_screen():
    game = make_game(2)
    s = position(game, hands={ALICE: {"yellow": 2}, BOB: {"red": 3}}, bag={}, actions_left=1)
    s = end_turn_by_placing_yellow(game, s)
    view = game.view(s, None)
    assert view["final"][BOB]["hand"]["red"] == 3


def test_a_game_the_host_ended_lifts_the_screens_but_keeps_every_hand_held():
    """The host's end opens what §7 opens (the screens), not the hands: the seed stays sealed to keep them."""
    game = make_game(2)
    s = position(game, hands={ALICE: {"yellow": 2}, BOB: {"red": 3}}, bag={"blue": 4}, actions_left=2)
    for viewer in (None, ALICE):
        view = game.ended_view(s, viewer)
        assert [f["seat"] for f in view["final"]] == [ALICE, BOB]
        assert all(set(f) == {"seat", "points"} for f in view["final"]), view["final"]
    assert game.ended_view(s, ALICE)["private"]["hand"]["red"] == 0, "Alice sees her own hand, not Bob's"


def test_a_tie_decided_further_up_names_the_colour_by_its_place_from_the_lowest():
    """§7: equal lowest and second-lowest colours: the third-lowest decides; then the highest."""
    third = final_result(((4, 5, 6, 9, 0), (4, 5, 7, 7, 0)), ["Ann", "Ben"], "empty_bag")
    assert any("their third-lowest colour decides: Ben 7, Ann 6 (§7)." in shown(s) for s in third["steps"])
    highest = final_result(((4, 5, 6, 9, 0), (4, 5, 6, 8, 0)), ["Ann", "Ben"], "empty_bag")
    assert any("their highest colour decides: Ann 9, Ben 8 (§7)." in shown(s) for s in highest["steps"])
