"""Tap targets a thumb can hit (issue 9 item 2): the layout template filters."""

from __future__ import annotations

import math

from games.engines.sorry.board import CELL
from games.templatetags.layout import SORRY_HIT_RADIUS, sorry_destinations, yy_picks


def move(pawn: str, to: str, label: str = "") -> dict:
    return {"kind": "move", "payload": {"pawn": pawn, "to": to}, "json": "{}", "label": label or f"{pawn} to {to}"}


POINTS = {"T10": [100, 20], "T11": [100 + CELL, 20], "T20": [300, 200]}


def test_a_pawns_destinations_on_neighbouring_squares_merge_into_one_choice():
    targets = sorry_destinations([move("R0", "T10"), move("R0", "T11")], POINTS)
    assert len(targets) == 1 and [i["payload"]["to"] for i in targets[0]["items"]] == ["T10", "T11"]
    assert targets[0]["x"] == 100 + CELL / 2, "the merged target sits between the two squares"


def test_destinations_far_apart_stay_separate_targets():
    targets = sorry_destinations([move("R0", "T10"), move("R0", "T20")], POINTS)
    assert [len(t["items"]) for t in targets] == [1, 1]
    assert math.dist((targets[0]["x"], targets[0]["y"]), (targets[1]["x"], targets[1]["y"])) >= 2 * SORRY_HIT_RADIUS


def test_two_pawns_never_share_a_target_and_split_sevens_are_left_to_the_list():
    split = {"kind": "move", "payload": {"pawn": "R1", "to": "T11", "then": {"pawn": "R0", "to": "T12"}},
             "json": "{}", "label": "split"}
    targets = sorry_destinations([move("R0", "T10"), move("R1", "T11"), split, {"kind": "draw", "payload": {}}],
                                 POINTS)
    assert [(t["pawn"], len(t["items"])) for t in targets] == [("R0", 1), ("R1", 1)]


def test_yellow_yangtze_picks_are_named_as_the_board_names_them_and_only_with_a_legal_hex():
    legal = [{"kind": "tile", "payload": {"colour": "red", "hex": [1, 2]}},
             {"kind": "leader", "payload": {"colour": "black", "hex": [3, 2]}},
             {"kind": "peasants", "payload": {"leader": True, "hex": [1, 1]}},
             {"kind": "peasants", "payload": {"leader": False, "hex": [1, 1]}},
             {"kind": "withdraw", "payload": {"colour": "green"}},
             {"kind": "swap", "payload": {"tiles": ["blue"]}}]
    assert yy_picks(legal) == {"tile-red", "leader-black", "peasants-1", "peasants-0"}
    assert yy_picks([{"kind": "tile", "payload": {"colour": "blue"}}]) == set(), "a tile without a hex lights nothing"


def test_the_sorry_board_draws_close_destinations_as_one_target_that_opens_the_pawns_list():
    from django.template.loader import render_to_string

    legal = [move("R0", "T10", "R0 to 10"), move("R0", "T11", "R0 to 11"), move("R0", "T20", "R0 to 20")]
    view = {"layout": {"viewbox": "0 0 376 376", "points": POINTS},
            "pawns": [{"id": "R0", "colour": "red", "loc": "T5", "x": 50, "y": 20}], "draw_pile": 40}
    html = render_to_string("games/sorry/board.html", {"view": view, "legal": legal})
    merged = html.split('class="dest tap merged"')[1].split("</g>")[0]
    assert 'data-open="moves-R0"' in merged and "data-action" not in merged
    assert "R0 to 10 · R0 to 11" in merged, "the merged target names both moves"
    assert html.count('class="dest tap"') == 1, "the far destination keeps its own one-tap target"
    assert 'class="hit tap pawn-hit" r="25"' in html and 'data-hit="hit-R0"' in html
