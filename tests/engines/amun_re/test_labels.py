"""Button labels read as imperatives (engines README: ``label``)."""

from __future__ import annotations

from .conftest import ALICE, make_game


def label(game, action):
    line = game.label(ALICE, action)
    return line.text.format(**line.details)


def test_every_action_kind_has_an_imperative_button_label():
    game = make_game(3)
    assert label(game, {"kind": "bid", "province": 1, "card": 5}) == "Bid 5 on province 2"
    assert label(game, {"kind": "offer", "gold": 7}) == "Offer 7 gold"
    assert label(game, {"kind": "reveal", "field": "farms", "value": 3}) == "Enter 3 farms"
    assert label(game, {"kind": "reveal", "field": "pyramid_spaces", "value": 2}) == "Enter 2 pyramid spaces"
    keep = game.label(ALICE, {"kind": "build_hand", "cards": [0, 6, 8]})
    assert keep.text == "Keep {cards} (worth {total})" and keep.details == {"cards": [0, 6, 8], "total": 14}
    assert label(game, {"kind": "place_province", "column": 0}) == "Lay it on column 1"
    assert (
        label(game, {"kind": "place_pyramids", "columns": [1, 0, 2]}) == "Place pyramids 1 / 0 / 2 on columns 1 / 2 / 3"
    )
    assert label(game, {"kind": "buy", "count": 5}) == "Buy 5 pyramids for 21 gold"
    assert label(game, {"kind": "buy", "count": 0}) == "Buy no pyramids"


def test_a_label_never_reads_like_a_log_line():
    game = make_game(3)
    for action in ({"kind": "bid", "province": 0, "card": 1}, {"kind": "offer", "gold": 0}):
        assert "Alice" not in label(game, action)
