"""Tap targets a thumb can hit (issue 9 item 2): the layout template filters."""

from __future__ import annotations

import math

from games.engines.sorry.board import CELL
from games.templatetags.layout import SORRY_HIT_RADIUS, hit_shape, sorry_destinations


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


def test_the_yellow_yangtze_hit_hexagon_spans_44_px_across_its_narrow_side():
    board = {"size": 13.59, "hex_shape": "0.647,-0.323 0.323,0.323 -0.323,0.647 -0.647,0.323 -0.323,-0.323 0.323,-0.647"}
    grown = [tuple(map(float, p.split(","))) for p in hit_shape(board).split()]
    plain = [tuple(map(float, p.split(","))) for p in board["hex_shape"].split()]
    factor = grown[0][0] / plain[0][0]
    assert all(math.isclose(g[0], p[0] * factor, abs_tol=1e-3) and math.isclose(g[1], p[1] * factor, abs_tol=1e-3)
               for g, p in zip(grown, plain, strict=True))
    assert math.sqrt(3) * board["size"] * 0.97 * factor >= 44, "the narrow side, in px at the 360 px drawing width"
    big = {"size": 40, "hex_shape": board["hex_shape"]}
    assert [tuple(map(float, p.split(","))) for p in hit_shape(big).split()] == plain, "a large hex keeps its shape"


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
