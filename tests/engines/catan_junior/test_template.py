"""The phone templates render from the engine view and light up exactly the legal targets.

Rendered with Django's template loader (this test, not the engine, uses Django).
"""

from __future__ import annotations

import json
from xml.dom import minidom

from django.template.loader import get_template

from .conftest import ALICE, BOB, in_main, make_game, opening, with_hand


def render(game, state, seat):
    legal = [
        {"payload": a, "json": json.dumps(a), "label": game.describe(seat, a, seat).text, "kind": a["kind"]}
        for a in game.legal_actions(state, seat)
    ]
    context = {
        "view": game.view(state, seat),
        "seat": seat,
        "prompt": game.prompt(state).as_json(),
        "legal": legal,
        "result": game.result(state),
        "seats": [],
    }
    board = get_template("games/catan_junior/board.html").render(context)
    controls = get_template("games/catan_junior/controls.html").render(context)
    return board, controls, legal


def svgs(html):
    """Every top-level ``<svg>…</svg>`` block of ``html`` (the picture sprite, the board, icons, the histogram)."""
    out, start = [], html.find("<svg")
    while start != -1:
        end = html.index("</svg>", start) + 6
        nested = html.find("<svg", start + 4)
        while nested != -1 and nested < end:  # no nesting in these templates, but stay safe
            end = html.index("</svg>", end) + 6
            nested = html.find("<svg", nested + 4)
        out.append(html[start:end])
        start = html.find("<svg", end)
    return out


def test_board_lights_the_legal_lair_sites_and_routes_and_the_svg_is_well_formed():
    game = make_game(4)
    state = with_hand(in_main(opening(game), ALICE), ALICE, wood=3, wool=3, molasses=2, cutlass=2)
    board, controls, legal = render(game, state, ALICE)
    for svg in svgs(board):
        minidom.parseString(svg)
    assert board.count('class="tap legal cj-target"') == 4  # lairs L01, L21; ships R05, R33
    assert "&quot;site&quot;: &quot;L21&quot;" in board
    assert controls.count("data-action=") == len(legal)


def test_ghost_targets_are_lit_after_a_six_and_a_trade_offer_shows_answer_buttons():
    game = make_game(2, player_trades=True)
    state = game.apply(opening(game), ALICE, {"kind": "roll", "value": 6})
    board, _, legal = render(game, state, ALICE)
    assert board.count('class="tap legal cj-target"') == len(legal) == 9
    state = game.apply(state, ALICE, {"kind": "move_ghost", "island": "gold-5"})
    state = game.apply(state, ALICE, {"kind": "offer_trade", "to": BOB, "give": {"wood": 1}, "get": {"cutlass": 1}})
    _, controls, legal = render(game, state, BOB)
    assert controls.count("data-action=") == 2
    assert "accept_trade" in controls
