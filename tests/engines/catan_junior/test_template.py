"""The phone templates render from the engine view and light up exactly the legal targets.

The board and controls are Jinja2 templates, drawn as the app draws them (games.web.jinja2env.draw), their parts in
place; the picture sprite is the Django template static.html (this test, not the engine, uses Django).
"""

from __future__ import annotations

import dataclasses
import json
import re
from html import unescape
from xml.dom import minidom

from games.web.jinja2env import draw

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
    # The picture sprite is drawn once with the page (static.jinja), the board uses it.
    board = draw("catan_junior/static.jinja", context) + draw("catan_junior/board.jinja", context)
    controls = draw("catan_junior/controls.jinja", context)
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
    assert '"site": "L21"' in unescape(board)  # the tap's action, written with escaped quotes
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


def numbered(html, badge):
    """``{action json: number}`` of the numbered build targets (board) or build buttons (controls)."""
    pairs = re.findall(r"data-action='([^']+)'.*?class=\"" + badge + r"\"[^>]*>(\d+)<", html, re.S)
    return {action: int(n) for action, n in pairs}


def test_each_lit_spot_on_the_board_carries_the_number_of_its_button():
    game = make_game(4)
    state = with_hand(in_main(opening(game), ALICE), ALICE, wood=3, wool=3, molasses=2, cutlass=2)
    board, controls, legal = render(game, state, ALICE)
    on_board, on_buttons = numbered(board, "cj-badge"), numbered(controls, "cj-badge-btn")
    builds = [a for a in legal if a["kind"] in ("build_lair", "build_ship")]
    assert len(on_board) == len(builds) == 4
    assert on_board == on_buttons
    assert sorted(on_board.values()) == [1, 2, 3, 4]


def test_equal_marketplace_swaps_show_one_button_and_the_pictures_are_svg_not_emoji():
    game = make_game(4)
    state = with_hand(in_main(opening(game), ALICE), ALICE, gold=1)
    state = dataclasses.replace(state, market=("wood", "wood", "wool", "wool", "cutlass"))
    board, controls, legal = render(game, state, ALICE)
    swaps = [a for a in legal if a["kind"] == "market_swap"]
    assert len(swaps) == 5, "gold can go on any of the five spaces"
    assert controls.count('data-kind="market_swap"') == 3, "one button each for taking wood, wool and cutlass"
    assert not re.search("[\U0001f300-\U0001faff\u2600-\u27bf]", board + controls), "no emoji: phones may lack the font"


def test_the_news_panel_says_which_coco_tile_was_drawn_and_what_it_did():
    game = make_game(4)
    state = with_hand(in_main(opening(game), ALICE), ALICE, molasses=1, cutlass=1, gold=1)
    state = game.apply(state, ALICE, {"kind": "buy_coco", "tile": "ghost"})
    state = game.apply(state, ALICE, {"kind": "move_ghost", "island": "gold-5"})
    board, _controls, _legal = render(game, state, BOB)
    news = re.sub(r"</?bdi[^>]*>", "", board[board.index('class="cj-coco-news"') : board.index("cj-map")])  # names are isolated
    assert "Alice drew a Coco tile: the Ghost Captain." in news
    assert "The Ghost Captain moved to" in news and "<b>5</b>" in news
    assert "Alice has the most Coco tiles and puts a lair on the castle." in news


def test_trading_with_a_player_is_a_picker_of_counts_within_what_each_holds_not_a_wall_of_buttons():
    game = make_game(3, player_trades=True)
    state = with_hand(in_main(opening(game), ALICE), ALICE, wool=3)
    state = with_hand(state, BOB, gold=2)
    _board, controls, legal = render(game, state, ALICE)
    assert any(item["kind"] == "offer_trade" for item in legal)
    assert "data-cj-offer" in controls and 'data-kind="offer_trade" data-action' not in controls
    assert re.search(r'data-side="give" data-res="wool" min="0" max="3"', controls)
    assert "gold=2" in controls, "Bob's holdings bound what Alice can ask for"


def test_the_physical_die_six_button_shows_the_ghost_captain_face_not_six_pips():
    game = make_game(2, components="physical")
    board, controls, _legal = render(game, opening(game), ALICE)
    buttons = re.findall(r'<button[^>]*data-kind="roll".*?</button>', controls, re.S)
    six = next(b for b in buttons if "#cj-die-6" in b)
    assert "<span>6</span>" not in six and len(buttons) == 6
    face = re.search(r'<symbol id="cj-die-6".*?</symbol>', board, re.S).group(0)
    assert 'href="#cj-ghost"' in face and "<circle" not in face
    label = game.label(ALICE, {"kind": "roll", "value": 6})
    assert label.text == "The die shows the Ghost Captain"
