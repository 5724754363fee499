"""Ties share a rank: §7 and E8, the lowest colour, then the next lowest, and so on."""

from __future__ import annotations

from shelf.yellow_yangtze.rules.scoring import final_result


def _said(tie) -> str:
    return tie["text"].format(**{k: ", ".join(map(str, v)) if isinstance(v, list) else v
                                 for k, v in tie["details"].items()})


def test_players_equal_on_every_total_share_a_rank_and_the_next_rank_skips():
    result = final_result(((4, 5, 6, 9, 0), (9, 6, 5, 4, 0), (1, 1, 1, 1, 0)), ["Ann", "Ben", "Cy"], "empty_bag")
    assert [(r["seat"], r["rank"]) for r in result["ranking"]] == [(0, 1), (1, 1), (2, 3)]
    assert [_said(t) for t in result["ties"]] == [
        "Ann and Ben tie on every total (4, 5, 6, 9) and share the place (§7)."]


def test_the_second_lowest_colour_separates_players_level_on_score():
    result = final_result(((4, 5, 6, 9, 0), (4, 6, 6, 6, 0)), ["Ann", "Ben"], "empty_bag")
    assert [(r["seat"], r["rank"]) for r in result["ranking"]] == [(1, 1), (0, 2)]
    (tie,) = result["ties"]
    assert (tie["details"]["a"], tie["details"]["k"]) == ("Ben", 2)
    assert tie in result["steps"], "the tally keeps every step; the page shows the ties beside the ranking"
