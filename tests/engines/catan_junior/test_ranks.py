"""Ties share a rank: EN1 names only the winner; the others rank by lairs on the board."""

from __future__ import annotations

import dataclasses

from .conftest import ALICE, BOB, CAROL, DAVE, make_game, opening
from .test_end import six_lairs


def _over(lairs_for: dict[int, list[str]]):
    game = make_game(4)
    state = opening(game)
    for seat, sites in lairs_for.items():
        state = six_lairs(game, state, seat, sites)
    return game, dataclasses.replace(state, winner=BOB)


def test_players_with_as_many_lairs_share_a_rank():
    game, state = _over({BOB: ["L07", "L12", "L18", "L24", "L01"]})
    result = game.result(state)
    assert {r["seat"]: r["rank"] for r in result["ranking"]} == {BOB: 1, ALICE: 2, CAROL: 2, DAVE: 2}
    texts = [t["text"].format(**t["details"]) for t in result["ties"]]
    assert texts[0] == "Alice and Carol both have 2 lairs on the board; only the winner is named, so they share rank 2."
    assert len(texts) == 2


def test_more_lairs_rank_higher_and_there_is_no_other_tie_break():
    game, state = _over({BOB: ["L07", "L12", "L18", "L24", "L01"], CAROL: ["L02"]})
    result = game.result(state)
    assert [(r["seat"], r["rank"]) for r in result["ranking"]][:2] == [(BOB, 1), (CAROL, 2)]
    assert {r["seat"]: r["rank"] for r in result["ranking"][2:]} == {ALICE: 3, DAVE: 3}
