"""Coco tiles and the castle lair (rules CO1-CO4, CA1-CA5; cases T06, T09, T16)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from games.engines.base import IllegalAction, fill

from .conftest import ALICE, BOB, CAROL, assert_conserved, hand, in_main, make_game, opening, with_hand

PRICE = {"molasses": 1, "cutlass": 1, "gold": 1}


def buy(game, state, seat, tile, **extra):
    """``seat`` buys a Coco tile of kind ``tile`` on their own turn (paying from a fresh hand)."""
    state = with_hand(in_main(state, seat), seat, **{**PRICE, **extra})
    return game.apply(state, seat, {"kind": "buy_coco", "tile": tile})


def test_co1_a_coco_tile_costs_molasses_cutlass_and_gold():
    game = make_game(4)
    state = in_main(opening(game), ALICE)  # wood + cutlass only
    assert not [a for a in game.legal_actions(state, ALICE) if a["kind"] == "buy_coco"]
    with pytest.raises(IllegalAction) as err:
        game.apply(state, ALICE, {"kind": "buy_coco", "tile": "build"})
    assert err.value.code == "cannot_afford"
    after = buy(game, opening(game), ALICE, "molasses_wood")
    assert hand(after, ALICE) == {"wood": 2, "wool": 0, "molasses": 2, "cutlass": 0, "gold": 0}
    assert_conserved(after)


def test_t06_castle_lair_follows_the_sole_leader_and_leaves_on_every_tie():
    game = make_game(4)
    state = opening(game)
    state = buy(game, state, ALICE, "molasses_wood")  # 1:0
    assert state.castle == ALICE and state.lair_count(ALICE) == 3
    state = buy(game, state, BOB, "molasses_wood")  # 1:1
    assert state.castle is None and state.lair_count(ALICE) == 2
    state = buy(game, state, BOB, "wool_cutlass")  # 1:2
    assert state.castle == BOB and state.lair_count(BOB) == 3
    state = buy(game, state, ALICE, "wool_cutlass")  # 2:2
    assert state.castle is None
    assert [state.lair_count(s) for s in range(4)] == [2, 2, 2, 2]
    assert_conserved(state)


def test_t09_the_first_purchase_puts_a_lair_on_the_castle_even_with_the_ghost_captain_there():
    game = make_game(4)
    state = opening(game)
    assert state.ghost == "castle"
    after = buy(game, state, CAROL, "molasses_wood")
    assert after.castle == CAROL
    assert game.view(after, None)["board"]["castle"]["owner"] == CAROL


def test_ca4_a_purchase_can_strip_a_non_active_players_castle_lair():
    game = make_game(3)
    state = buy(game, opening(game), ALICE, "molasses_wood")
    assert state.castle == ALICE
    state = buy(game, state, CAROL, "wool_cutlass")
    assert state.active == CAROL
    assert state.castle is None
    assert state.lair_count(ALICE) == 2


def test_t16_after_sixteen_purchases_the_stack_is_empty_and_a_seventeenth_is_refused():
    game = make_game(4)
    state = opening(game)
    deck = [k.name for k in game.rules.deck.kinds for _ in range(k.count)]
    assert len(deck) == 16
    seat = 0
    for tile in deck:
        state = dataclasses.replace(state, castle=None, phase="main")  # keep lairs off the castle: no win
        state = buy(game, state, seat, tile)
        if state.phase != "main":
            state = game.apply(state, seat, game.legal_actions(state, seat)[0])
        seat = (seat + 1) % 4
    state = dataclasses.replace(in_main(state, seat), castle=None)
    state = with_hand(state, seat, **PRICE)
    assert game.view(state, None)["coco"]["left"] == 0
    assert not [a for a in game.legal_actions(state, seat) if a["kind"] == "buy_coco"]
    with pytest.raises(IllegalAction) as err:
        game.apply(state, seat, {"kind": "buy_coco", "tile": "ghost"})
    assert err.value.code == "coco_stack_empty"
    assert game.fill_chance(state, seat, {"kind": "buy_coco"}, random.Random(1)) == {"kind": "buy_coco"}


def test_co4_a_kind_whose_tiles_are_all_face_up_is_refused():
    game = make_game(4, components="physical")
    state = buy(game, opening(game), ALICE, "molasses_wood")
    state = buy(game, state, BOB, "molasses_wood")
    state = with_hand(in_main(state, CAROL), CAROL, **PRICE)
    listed = sorted(a["tile"] for a in game.legal_actions(state, CAROL) if a["kind"] == "buy_coco")
    assert listed == ["build", "ghost", "wool_cutlass"]
    with pytest.raises(IllegalAction) as err:
        game.apply(state, CAROL, {"kind": "buy_coco", "tile": "molasses_wood"})
    assert err.value.code == "coco_not_in_stack"
    with pytest.raises(IllegalAction) as err:
        game.apply(state, CAROL, {"kind": "buy_coco", "tile": "dragon"})
    assert err.value.code == "unknown_coco"


def test_digital_coco_draw_is_filled_from_the_stack_counts():
    game = make_game(4)
    state = opening(game)
    stack = tuple(0 if name != "build" else 1 for name in game.rules.deck.names)
    state = dataclasses.replace(state, coco_stack=stack)
    for seed in range(10):
        assert game.fill_chance(state, ALICE, {"kind": "buy_coco"}, random.Random(seed))["tile"] == "build"


def test_co2_resource_tile_gives_two_wool_and_two_cutlass_at_once():
    game = make_game(4)
    after = buy(game, opening(game), ALICE, "wool_cutlass")
    assert hand(after, ALICE) == {"wood": 0, "wool": 2, "molasses": 0, "cutlass": 2, "gold": 0}
    assert after.phase == "main"


def test_gc4_ghost_tile_moves_the_captain_for_two_tokens_even_after_a_rolled_six():
    game = make_game(4)
    state = game.apply(opening(game), ALICE, {"kind": "roll", "value": 6})
    state = game.apply(state, ALICE, {"kind": "move_ghost", "island": "wool-1"})
    state = buy(game, state, ALICE, "ghost")
    assert state.phase == "coco_ghost"
    assert game.prompt(state).kinds == ("move_ghost",)
    assert {"kind": "move_ghost", "island": "wool-1"} not in game.legal_actions(state, ALICE)
    after = game.apply(state, ALICE, {"kind": "move_ghost", "island": "gold-3"})
    assert after.ghost == "gold-3"
    assert hand(after, ALICE)["gold"] == 2
    assert after.phase == "main"


def test_co2_build_tile_places_one_free_lair_or_ship_now():
    game = make_game(4)
    state = buy(game, opening(game), ALICE, "build")
    assert state.phase == "coco_build"
    kinds = {a["kind"] for a in game.legal_actions(state, ALICE)}
    assert kinds == {"build_lair", "build_ship"}
    before = hand(state, ALICE)
    after = game.apply(state, ALICE, {"kind": "build_lair", "site": "L01"})
    assert hand(after, ALICE) == before
    assert after.lair_count(ALICE) == 4  # two start lairs + castle + L01
    assert after.phase == "main"
    assert_conserved(after)


def test_co2_free_build_follows_placement_rules():
    game = make_game(4)
    state = buy(game, opening(game), ALICE, "build")
    with pytest.raises(IllegalAction) as err:
        game.apply(state, ALICE, {"kind": "build_lair", "site": "L07"})
    assert err.value.code == "lair_needs_own_ship"
    with pytest.raises(IllegalAction) as err:
        game.apply(state, ALICE, {"kind": "end_turn"})
    assert err.value.code == "wrong_step"


def test_co2_build_tile_is_lost_when_no_piece_can_be_placed():
    game = make_game(2)
    state = opening(game)
    board = game.rules.board
    # Fill every site and route Alice could use: L03 and L08 taken by Bob, no free route at her lairs.
    lairs = list(state.lairs)
    for site in ("L03", "L08"):
        lairs[board.sites.index(site)] = BOB
    state = dataclasses.replace(state, lairs=tuple(lairs))
    after = buy(game, state, ALICE, "build")
    assert after.phase == "main"
    assert after.lair_count(ALICE) == 3  # only the castle lair was added


def test_coco_tiles_stay_face_up_with_their_owner_in_the_view():
    game = make_game(4)
    state = buy(game, opening(game), ALICE, "wool_cutlass")
    view = game.view(state, BOB)
    assert view["players"][ALICE]["coco"]["wool_cutlass"] == 1
    assert view["players"][ALICE]["coco_total"] == 1
    assert view["coco"]["left"] == 15
    assert view["edition"]["verified"] is False


def test_a_bad_coco_deck_option_is_refused_and_a_good_one_used():
    deck = {"name": "small", "verified": True, "tiles": {"ghost": {"count": 1, "effect": "ghost"}}}
    game = make_game(4, coco_deck=deck)
    assert game.rules.deck.counts == (1,)
    assert game.view(opening(game), None)["edition"] == {
        "name": "small",
        "verified": True,
        "colours": list(game.rules.colours),
    }
    for bad in (
        {"tiles": {}},
        {"tiles": {"x": {"count": -1, "effect": "ghost"}}},
        {"tiles": {"x": {"count": 1, "effect": "fly"}}},
        {"tiles": {"x": {"count": 1, "effect": "resources", "resources": {"iron": 2}}}},
        {"tiles": {"x": {"count": 0, "effect": "ghost"}}},
        "deck",
    ):
        with pytest.raises(IllegalAction) as err:
            make_game(4, coco_deck=bad)
        assert err.value.code == "bad_edition"


def test_a_resources_tile_is_announced_with_what_it_paid_and_the_castle_lair_gained():
    game = make_game(4)
    state = buy(game, opening(game), ALICE, "molasses_wood")
    news = game.view(state, BOB)["coco_news"]
    assert news["name"] == "Alice" and news["effect"] == "resources"
    assert sorted(news["tokens"]) == ["molasses", "molasses", "wood", "wood"]
    assert news["castle_gained"]["name"] == "Alice" and news["castle_lost"] is None


def test_a_ghost_captain_tile_is_announced_with_his_new_island_and_the_two_tokens():
    game = make_game(4)
    state = buy(game, opening(game), ALICE, "ghost")
    assert game.view(state, None)["coco_news"]["ghost_moved"] is False
    state = game.apply(state, ALICE, {"kind": "move_ghost", "island": "gold-5"})
    news = game.view(state, None)["coco_news"]
    assert news["ghost"] == {"resource": "gold", "number": 5} and news["tokens"] == ["gold", "gold"]


def test_a_free_build_is_announced_with_where_it_went_and_a_tie_announces_the_castle_lair_lost():
    game = make_game(4)
    state = buy(game, opening(game), ALICE, "molasses_wood")
    state = buy(game, state, BOB, "build")
    news = game.view(state, None)["coco_news"]
    assert news["castle_lost"]["name"] == "Alice" and news["castle_gained"] is None
    route = next(a["route"] for a in game.legal_actions(state, BOB) if a["kind"] == "build_ship")
    state = game.apply(state, BOB, {"kind": "build_ship", "route": route})
    assert game.view(state, None)["coco_news"]["built"]["piece"] == "ship"
    assert game.decode(game.encode(state)) == state


def test_the_coco_news_is_cleared_by_the_next_roll():
    game = make_game(4)
    state = buy(game, opening(game), ALICE, "wool_cutlass")
    state = game.apply(state, ALICE, {"kind": "end_turn"})
    state = game.apply(state, BOB, {"kind": "roll", "value": 3})
    assert game.view(state, None)["coco_news"] is None


def test_the_coco_log_line_names_the_tile_in_words():
    game = make_game(4)
    line = game.describe(ALICE, {"kind": "buy_coco", "tile": "molasses_wood"}, BOB)
    assert fill(line.text, line.details) == "Alice drew a Coco tile: 2 wood and 2 molasses."
    line = game.describe(ALICE, {"kind": "buy_coco", "tile": "build"}, None)
    assert fill(line.text, line.details) == "Alice drew a Coco tile: a free lair or ship."
