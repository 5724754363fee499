"""Ties share a rank: Sorry! section 2.3 names only the winner; 3.2 points name no tie-break."""

from __future__ import annotations

from shelf.sorry.state import OVER

from .helpers import at, play, table


def _finish(game, position: str, **hands):
    start = at(game, position, **hands) if hands else at(game, position, "1")
    after = play(game, start, card="1", pawn="R0", steps=1)
    assert after.step == OVER
    return game.result(after)


def _said(tie) -> str:
    return tie["text"].format(**tie["details"])


def test_players_level_on_home_and_progress_share_a_rank():
    game = table("red blue yellow")
    result = _finish(game, "R: R0@S5 R@HOME B@START Y@START")
    assert [(r["seat"], r["rank"]) for r in result["ranking"]] == [(0, 1), (1, 2), (2, 2)]
    assert [_said(t) for t in result["ties"]] == [
        "Bob and Carol both have 0 pawns HOME and have come equally far along the track; they share rank 2 "
        "(section 2.3 names only the winner)."]


def test_progress_along_the_track_separates_players_level_on_home():
    game = table("red blue yellow")
    result = _finish(game, "R: R0@S5 R@HOME B0@T30 B@START Y@START")
    assert [(r["seat"], r["rank"]) for r in result["ranking"]] == [(0, 1), (1, 2), (2, 3)]
    (tie,) = result["ties"]
    assert tie["details"]["a"] == "Bob" and tie["details"]["b"] == "Carol" and tie["details"]["va"] > tie["details"]["vb"]
    assert "ranks higher on progress along the track" in _said(tie)


def test_in_the_points_game_an_equal_score_shares_the_rank():
    game = table("red blue yellow", points_mode=True)
    result = _finish(game, "R: R0@S5 R@HOME B@START Y@START", hands={0: ["1", "3", "5", "8", "12"], 1: [], 2: []})
    assert [r["score"] for r in result["ranking"]][1:] == [0, 0]
    assert [r["rank"] for r in result["ranking"]] == [1, 2, 2]
    assert "the points game names no tie-break (section 3.2)" in _said(result["ties"][0])


def test_teammates_share_their_rank():
    game = table(team_mode=True)
    result = _finish(game, "R: R0@S5 R@HOME Y@HOME B0@T30 B@START G@START")
    assert {r["seat"]: r["rank"] for r in result["ranking"]} == {0: 1, 2: 1, 1: 3, 3: 3}
