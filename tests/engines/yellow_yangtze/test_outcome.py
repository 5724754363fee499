"""§5: a settled revolt or war says what happened, on every phone, the table screen and in the log."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalAction, fill

from .helpers import ALICE, BOB, CAROL, DAN, make_game, play
from .test_revolt import worked_example as revolt_example
from .test_war import worked_example as war_example


def line(game, seat, action, viewer=None) -> str:
    out = game.describe(seat, action, viewer)
    return fill(out.text, out.details)


def listed(game, s, seat, **fields):
    return next(a for a in game.legal_actions(s, seat) if all(a.get(k) == v for k, v in fields.items()))


def test_the_defender_s_commit_that_settles_a_revolt_logs_the_winner_the_leader_sent_home_and_the_point():
    game = make_game()
    s = play(game, revolt_example(game), BOB, "commit", tiles=2)
    settling = listed(game, s, ALICE, kind="commit", tiles=0)
    assert settling["outcome"]["winner"] == 1
    text = line(game, ALICE, settling)
    # Bob's red leader stood on (3, 3): column 3 + 1 = E, row 4.
    assert text == ("Alice commits black tiles: 0. Revolt over (3 : 3): Alice wins. "
                    "Leader home: Bob red (E4). Points: Alice +1 red.")
    after = game.apply(s, ALICE, settling)
    summary = game.view(after, CAROL)["last_conflict"]
    assert summary["winner_names"] == "Alice" and summary["tie"]
    assert summary["leaders"] == [{"name": "Bob", "colour": "red", "hex": "E4"}]
    assert summary["points"] == [{"name": "Alice", "colour": "red", "n": 1}]


def test_the_attacker_s_commit_settles_nothing_and_carries_no_outcome():
    game = make_game()
    s = revolt_example(game)
    assert all("outcome" not in a for a in game.legal_actions(s, BOB))


def test_the_unifier_s_tie_break_logs_the_war_s_outcome_with_tiles_leaders_and_points():
    game = make_game()
    _before, s = war_example(game)
    s = play(game, s, ALICE, "commit", side=0, tiles=1, leader=False)
    s = play(game, s, BOB, "abstain")
    s = play(game, s, CAROL, "commit", side=1, tiles=2, leader=False)
    s = play(game, s, DAN, "abstain")
    pick = listed(game, s, DAN, kind="choose_winner", side=0)
    assert pick["owners"] == [ALICE]
    text = line(game, DAN, pick)
    assert text.startswith("Dan breaks the tie. War over (3 : 3): Alice wins. Leaders home: Carol red (")
    assert "Tiles off the board: red " in text and "Points: Alice +1 red." in text
    after = game.apply(s, DAN, pick)
    summary = game.view(after, None)["last_conflict"]
    assert summary["kind"] == "war" and summary["winner_names"] == "Alice" and summary["tie"]
    assert len(summary["tiles"]) == 3 and {t["colour"] for t in summary["tiles"]} == {"red"}
    assert [(x["names"], x["strength"]) for x in summary["strengths"]] == [("Alice", 3), ("Carol", 3)]


def test_war_support_is_logged_with_the_side_named_like_its_button():
    game = make_game()
    _before, s = war_example(game)
    commit = listed(game, s, ALICE, kind="commit", side=1, tiles=1, leader=False)
    assert line(game, ALICE, commit) == "Alice commits red tiles: 1, to Carol's side."


def test_a_payload_claiming_a_false_outcome_or_the_wrong_side_owners_is_refused():
    game = make_game()
    s = play(game, revolt_example(game), BOB, "commit", tiles=2)
    settling = listed(game, s, ALICE, kind="commit", tiles=0)
    forged = {**settling, "outcome": {**settling["outcome"], "winner": 0}}
    with pytest.raises(IllegalAction) as err:
        game.apply(s, ALICE, forged)
    assert err.value.code == "outcome_mismatch"
    _before, w = war_example(game)
    with pytest.raises(IllegalAction) as err:
        game.apply(w, ALICE, {"kind": "commit", "side": 1, "tiles": 1, "leader": False, "owners": [BOB]})
    assert err.value.code == "owners_mismatch"


def test_the_last_conflict_stays_shown_through_the_next_turn_and_then_goes():
    game = make_game()
    s = play(game, revolt_example(game), BOB, "commit", tiles=2)
    s = play(game, s, ALICE, "commit", tiles=0)
    assert game.view(s, None)["last_conflict"] is not None
    from dataclasses import replace
    assert game.view(replace(s, turn=s.turn + 1), None)["last_conflict"] is not None
    assert game.view(replace(s, turn=s.turn + 2), None)["last_conflict"] is None
