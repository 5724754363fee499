"""Ranks and tie-breaks of the final tally (rules 2.9, 2.10).

Honour, then pyramids, then the seat nearest the start player of Kingdom 3:
the seat distance differs for every seat, so two players never share a rank
in this game, and each pair level on honour is told what separated them.
"""

from __future__ import annotations

from .conftest import ALICE, BOB, CAROL
from .test_explanations import _scored


def _said(tie) -> str:
    return tie["text"].format(**tie["details"])


def test_pyramids_separate_players_level_on_honour():
    game, state = _scored((3, 2, 1), vps=(10, 10, 0), pyramids=(1, 2, 0))
    result = game.result(state)
    assert [(r["seat"], r["rank"]) for r in result["ranking"]] == [(BOB, 1), (ALICE, 2), (CAROL, 3)]
    (tie,) = result["ties"]
    assert _said(tie) == "Bob and Alice both scored 12 honour; Bob ranks higher on pyramids (6 to 3; rules 2.9)."


def test_seat_order_from_the_start_player_separates_players_level_on_honour_and_pyramids():
    game, state = _scored((2, 2, 2), vps=(5, 6, 7), pyramids=(1, 1, 1))
    result = game.result(state)
    scores = [r["score"] for r in result["ranking"]]
    assert len(set(scores)) == 1, "the constructed tally is level on honour"
    assert [(r["seat"], r["rank"]) for r in result["ranking"]] == [(ALICE, 1), (BOB, 2), (CAROL, 3)]
    assert [_said(t) for t in result["ties"]] == [
        f"Alice and Bob both scored {scores[0]} honour and have as many pyramids; Alice sits nearer Alice, "
        "who started Kingdom 3 (rules 2.9, 2.10).",
        f"Bob and Carol both scored {scores[0]} honour and have as many pyramids; Bob sits nearer Alice, "
        "who started Kingdom 3 (rules 2.9, 2.10).",
    ]
