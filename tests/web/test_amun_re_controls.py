"""The Amun-Re phone controls: compact pickers, never a wall of buttons (rules 2.3, 1.4)."""

from __future__ import annotations

import json
import random
import re

from games.read.presenters import legal_for
from games.web.jinja2env import draw
from tests.engines.amun_re.conftest import ALICE, auction_with_hands, make_game, play


def controls(game, state, seat) -> str:
    seats = [{"index": s.index, "name": s.name, "colour": s.colour, "team": None} for s in game.seats]
    return draw(
        "amun_re/controls.jinja",
        {
            "view": game.view(state, seat),
            "seat": seat,
            "prompt": game.prompt(state).as_json(),
            "legal": legal_for(game, state, seat),
            "result": None,
            "seats": seats,
        },
    )


def test_hand_building_in_at_most_mode_is_one_picker_not_82_buttons():
    game = make_game(3, hand_sum_mode="at_most")
    state = game.setup(random.Random(1))
    assert len(game.legal_actions(state, ALICE)) > 80
    html = controls(game, state, ALICE)
    assert len(re.findall(r"data-action=", html)) == 1, "one Keep button"
    assert len(re.findall(r'class="gold-toggle[ "]', html)) == 9
    legal = json.loads(re.search(r'data-legal="([^"]*)"', html).group(1))
    assert [0, 6, 8] in legal and [0] in legal
    assert "disabled>Keep these cards" not in html, "at most 14: the 0 card alone may be kept"


def test_in_exact_mode_the_keep_button_starts_disabled_and_only_legal_hands_are_listed():
    game = make_game(3)
    state = game.setup(random.Random(1))
    html = controls(game, state, ALICE)
    legal = json.loads(re.search(r'data-legal="([^"]*)"', html).group(1))
    assert all(sum(hand) == 14 and hand[0] == 0 for hand in legal)
    assert re.search(r'class="tap legal act big keep-hand"[^>]*disabled', html)


def test_out_of_bounds_province_values_sit_behind_a_second_explicit_step():
    game = make_game(3)
    state = auction_with_hands(game, {ALICE: (0, 1)})
    state = play(game, state, ALICE, kind="bid", province=0, card=1)
    state = play(game, state, 1, kind="bid", province=1, card=0)
    state = play(game, state, 2, kind="bid", province=2, card=0)
    html = controls(game, state, ALICE)
    usual, _, unusual = html.partition('class="unusual-values"')
    assert "Enter 6 farms" in usual and "Enter 7 farms" not in usual
    assert "Yes, the card really shows 7 farms" in unusual
    assert "calibration screen" in unusual
