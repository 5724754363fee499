"""§1.3 setup: capitals, bag, hands, market, the short game, physical deal steps."""

from __future__ import annotations

import random

import pytest

from games.engines.base import IllegalAction
from shelf.yellow_yangtze.state import DrawStep

from .helpers import hand, make_game


def test_setup_puts_black_on_the_seven_capitals_and_deals_six_tiles_each_and_six_to_the_market():
    game = make_game(3)
    s = game.setup(random.Random(4))
    assert sorted(s.tiles) == sorted((h, "black") for _, h in game.board.capitals)
    assert all(sum(h) == 6 for h in s.hands)
    assert sum(s.market) == 6
    assert sum(s.bag) == 131 - 3 * 6 - 6
    assert s.phase == "play" and s.active == s.start and s.actions_left == 2
    assert s.pagoda_supply == (2, 2, 2, 2, 1)


def test_capitals_outside_the_42_black_tiles_put_all_42_in_the_bag():
    game = make_game(2, capitals_from_black=False)
    s = game.setup(random.Random(4))
    assert sum(s.bag) + sum(map(sum, s.hands)) + sum(s.market) == 138


def test_short_game_sets_24_unseen_tiles_aside():
    game = make_game(2, short_game=True)
    s = game.setup(random.Random(4))
    assert s.bag_left == 131 - 24 - 18
    assert game.view(s, None)["bag_left"] == s.bag_left


def test_physical_deal_asks_each_seat_for_its_hand_then_the_market():
    game = make_game(2, components="physical")
    s = game.setup(random.Random(1))
    assert s.phase == "deal" and isinstance(s.pending, DrawStep)
    first = s.pending.queue[0][0]
    assert game.prompt(s).seats == (first,) and game.prompt(s).chance
    s = game.apply(s, first, {"kind": "draw", "tiles": ["yellow"] * 6})
    other = 1 - first
    assert game.prompt(s).seats == (other,)
    s = game.apply(s, other, {"kind": "draw", "tiles": ["yellow"] * 6})
    with pytest.raises(IllegalAction) as err:
        game.apply(s, first, {"kind": "draw", "tiles": ["yellow"] * 6})
    assert err.value.code == "tile_not_in_bag"
    s = game.apply(s, first, {"kind": "draw", "tiles": ["black", "red", "blue", "green", "green", "red"]})
    assert s.phase == "play" and s.active == s.start


def test_physical_draw_lists_one_payload_per_possible_outcome_and_refuses_a_wrong_count():
    game = make_game(2, components="physical")
    s = game.setup(random.Random(1))
    seat = game.prompt(s).seats[0]
    outcomes = game.legal_actions(s, seat)
    assert len(outcomes) == 210  # multisets of 6 from 5 colours
    with pytest.raises(IllegalAction) as err:
        game.apply(s, seat, {"kind": "draw", "tiles": ["red"]})
    assert err.value.code == "draw_count"


def test_digital_draw_is_listed_without_its_outcome():
    game = make_game(2)
    s = game.setup(random.Random(1))
    colour = next(c for c, n in hand(s, s.active).items() if n)
    s2 = game.apply(s, s.active, {"kind": "swap", "tiles": [colour]})
    assert game.legal_actions(s2, s.active) == [{"kind": "draw"}]
    filled = game.fill_chance(s2, s.active, {"kind": "draw"}, random.Random(2))
    assert len(filled["tiles"]) == 1
