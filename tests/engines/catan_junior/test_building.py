"""Building lairs and ships (rules BU1-BU6; cases T05, T15, T18 and the 2.4 first builds)."""

from __future__ import annotations

import dataclasses

import pytest

from games.engines.base import IllegalAction

from .conftest import ALICE, BOB, CAROL, DAVE, assert_conserved, hand, in_main, make_game, opening, with_hand

RICH = {"wood": 3, "wool": 3, "molasses": 2, "cutlass": 2}


def targets(game, state, seat, kind):
    field = "site" if kind == "build_lair" else "route"
    return sorted(a[field] for a in game.legal_actions(state, seat) if a["kind"] == kind)


@pytest.mark.parametrize(
    ("seat", "ships", "lairs"),
    [
        (ALICE, ["R05", "R33"], ["L01", "L21"]),
        (BOB, ["R08", "R36"], ["L12", "L32"]),
        (CAROL, ["R07", "R24"], ["L02", "L18"]),
        (DAVE, ["R17", "R34"], ["L15", "L31"]),
    ],
)
def test_legal_first_builds_at_the_kosmos_start(seat, ships, lairs):
    game = make_game(4)
    state = with_hand(in_main(opening(game), seat), seat, **RICH)
    assert targets(game, state, seat, "build_ship") == ships
    assert targets(game, state, seat, "build_lair") == lairs


def test_t05_a_lair_where_no_own_ship_ends_is_refused():
    game = make_game(4)
    state = with_hand(in_main(opening(game), ALICE), ALICE, **RICH)
    with pytest.raises(IllegalAction) as err:
        game.apply(state, ALICE, {"kind": "build_lair", "site": "L07"})
    assert err.value.code == "lair_needs_own_ship"
    after = game.apply(state, ALICE, {"kind": "build_lair", "site": "L21"})
    assert after.lairs[game.rules.board.sites.index("L21")] == ALICE


def test_t18_two_player_start_no_ship_is_possible_only_lairs_at_l03_or_l08():
    game = make_game(2)
    state = with_hand(in_main(opening(game), ALICE), ALICE, **RICH)
    assert targets(game, state, ALICE, "build_ship") == []
    assert targets(game, state, ALICE, "build_lair") == ["L03", "L08"]
    with pytest.raises(IllegalAction) as err:
        game.apply(state, ALICE, {"kind": "build_ship", "route": "R03"})
    assert err.value.code == "ship_needs_own_lair"
    bob = with_hand(in_main(opening(game), BOB), BOB, **RICH)
    assert targets(game, bob, BOB, "build_lair") == ["L09", "L14"]
    assert targets(game, bob, BOB, "build_ship") == []


def test_bu1_a_lair_costs_wood_wool_molasses_cutlass_paid_to_the_supply():
    game = make_game(4)
    state = with_hand(in_main(opening(game), ALICE), ALICE, wood=1, wool=1, molasses=1, cutlass=1, gold=1)
    after = game.apply(state, ALICE, {"kind": "build_lair", "site": "L01"})
    assert hand(after, ALICE) == {"wood": 0, "wool": 0, "molasses": 0, "cutlass": 0, "gold": 1}
    assert after.supply[0] == state.supply[0] + 1
    assert_conserved(after)


def test_bu1_a_ship_costs_wood_and_wool():
    game = make_game(4)
    state = with_hand(in_main(opening(game), ALICE), ALICE, wood=1, wool=1)
    after = game.apply(state, ALICE, {"kind": "build_ship", "route": "R05"})
    assert hand(after, ALICE)["wood"] == 0 and hand(after, ALICE)["wool"] == 0
    assert after.ship_count(ALICE) == 3
    assert_conserved(after)


def test_bu1_building_without_the_cost_is_refused_and_not_listed():
    game = make_game(4)
    state = in_main(opening(game), ALICE)  # 1 wood + 1 cutlass
    assert targets(game, state, ALICE, "build_lair") == []
    assert targets(game, state, ALICE, "build_ship") == []
    for action in ({"kind": "build_lair", "site": "L01"}, {"kind": "build_ship", "route": "R05"}):
        with pytest.raises(IllegalAction) as err:
            game.apply(state, ALICE, action)
        assert err.value.code == "cannot_afford"


def test_bu3_a_ship_next_to_only_your_own_ship_is_refused():
    game = make_game(4)
    state = with_hand(in_main(opening(game), ALICE), ALICE, **RICH)
    # R02 (L01-L04) touches L01, the far end of Alice's start ship R01, where she has no lair.
    with pytest.raises(IllegalAction) as err:
        game.apply(state, ALICE, {"kind": "build_ship", "route": "R02"})
    assert err.value.code == "ship_needs_own_lair"
    state = game.apply(state, ALICE, {"kind": "build_lair", "site": "L01"})
    state = game.apply(state, ALICE, {"kind": "build_ship", "route": "R02"})
    assert state.ships[game.rules.board.routes.index("R02")] == ALICE


def test_bu4_an_opponents_lair_at_a_route_end_gives_no_right_to_build_a_ship():
    game = make_game(4)
    state = opening(game)
    board = game.rules.board
    lairs = list(state.lairs)
    lairs[board.sites.index("L07")] = BOB  # R05 runs L03 (Alice) - L07 (Bob)
    state = with_hand(in_main(dataclasses.replace(state, lairs=tuple(lairs)), BOB), BOB, **RICH)
    assert "R11" in targets(game, state, BOB, "build_ship")
    assert "R05" in targets(game, state, BOB, "build_ship")  # his own lair at L07 is an end of R05
    with pytest.raises(IllegalAction) as err:
        game.apply(state, BOB, {"kind": "build_ship", "route": "R01"})
    assert err.value.code == "route_taken"
    with pytest.raises(IllegalAction) as err:
        game.apply(state, BOB, {"kind": "build_lair", "site": "L03"})
    assert err.value.code == "site_taken"


def test_bu4_no_distance_rule_lairs_may_sit_at_both_ends_of_a_route():
    game = make_game(4)
    state = with_hand(in_main(opening(game), ALICE), ALICE, **RICH)
    after = game.apply(state, ALICE, {"kind": "build_lair", "site": "L01"})  # R01 joins L01 and L03
    assert after.lair_count(ALICE) == 3


def test_bu6_the_castle_site_is_never_a_build_target():
    game = make_game(4)
    state = with_hand(in_main(opening(game), ALICE), ALICE, **RICH)
    with pytest.raises(IllegalAction) as err:
        game.apply(state, ALICE, {"kind": "build_lair", "site": "CASTLE"})
    assert err.value.code == "castle_not_buildable"


def give_ships(game, state, seat, routes):
    board = game.rules.board
    ships = list(state.ships)
    for route in routes:
        ships[board.routes.index(route)] = seat
    return dataclasses.replace(state, ships=tuple(ships))


def test_t15_kosmos_purple_with_seven_ships_on_the_board_cannot_build_an_eighth():
    game = make_game(4)
    state = give_ships(game, opening(game), BOB, ["R08", "R18", "R24", "R19", "R26"])
    assert state.ship_count(BOB) == 7
    state = with_hand(in_main(state, BOB), BOB, **RICH)
    assert targets(game, state, BOB, "build_ship") == []
    with pytest.raises(IllegalAction) as err:
        game.apply(state, BOB, {"kind": "build_ship", "route": "R36"})
    assert err.value.code == "no_ship_in_stock"


def test_t15_english_allows_an_eighth_ship():
    game = make_game(4, edition="english")
    state = give_ships(game, opening(game), BOB, ["R08", "R18", "R24", "R19", "R26"])
    assert state.ship_count(BOB) == 7
    state = with_hand(in_main(state, BOB), BOB, **RICH)
    # English blue (seat 1) starts on L06/L30; R08 joins L06-L11.
    routes = targets(game, state, BOB, "build_ship")
    assert routes
    after = game.apply(state, BOB, {"kind": "build_ship", "route": routes[0]})
    assert after.ship_count(BOB) == 8


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ({"kind": "build_lair"}, "bad_action"),
        ({"kind": "build_lair", "site": 3}, "bad_action"),
        ({"kind": "build_lair", "site": "L99"}, "unknown_site"),
        ({"kind": "build_ship", "route": "R99"}, "unknown_route"),
        ({"kind": "build_ship", "route": None}, "bad_action"),
    ],
)
def test_malformed_build_payloads_are_refused_with_a_code(payload, code):
    game = make_game(4)
    state = with_hand(in_main(opening(game), ALICE), ALICE, **RICH)
    with pytest.raises(IllegalAction) as err:
        game.apply(state, ALICE, payload)
    assert err.value.code == code
