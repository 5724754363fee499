"""The stored payload of a conflict step is the engine's, not the phone's: ``canonical`` fills in the log fields
(rules §5: the settling move's ``outcome``, a war side's ``owners``) that a phone may leave out."""

from __future__ import annotations

from games.engines.base import fill
from shelf.yellow_yangtze import YellowYangtzeGame
from shelf.yellow_yangtze.state import State

from . import test_revolt, test_war
from .helpers import ALICE, BOB, CAROL, DAN, make_game

LOG_FIELDS = ("owners", "outcome")


def bare(action: dict) -> dict:
    """A listed payload as a phone may post it: without the fields carried only for the log line."""
    return {k: v for k, v in action.items() if k not in LOG_FIELDS}


def listed(game: YellowYangtzeGame, s: State, seat: int, posted: dict) -> dict:
    """The one legal payload of ``seat`` that is ``posted`` plus its log fields."""
    [found] = [a for a in game.legal_actions(s, seat) if bare(a) == posted]
    return found


def line(game: YellowYangtzeGame, seat: int, action: dict) -> str:
    text = game.describe(seat, action, None)
    return fill(text.text, text.details)


def answer(game: YellowYangtzeGame, s: State, seat: int, posted: dict) -> State:
    """Check that ``posted`` without log fields is stored as listed, and that a listed payload stays as it is."""
    full = listed(game, s, seat, posted)
    assert game.canonical(s, seat, posted) == full
    assert game.canonical(s, seat, full) == full
    assert line(game, seat, game.canonical(s, seat, posted)) == line(game, seat, full)
    after = game.apply(s, seat, game.canonical(s, seat, posted))
    assert game.encode(after) == game.encode(game.apply(s, seat, posted)) == game.encode(game.apply(s, seat, full))
    return after


def test_a_war_answered_without_log_fields_is_stored_with_the_engines_owners_and_outcome():
    game = make_game()
    _before, s = test_war.worked_example(game)
    s = answer(game, s, ALICE, {"kind": "commit", "side": 0, "tiles": 1, "leader": False})
    s = answer(game, s, BOB, {"kind": "abstain"})
    s = answer(game, s, CAROL, {"kind": "commit", "side": 1, "tiles": 2, "leader": False})
    s = answer(game, s, DAN, {"kind": "abstain"})
    stored = game.canonical(s, DAN, {"kind": "choose_winner", "side": 0})
    assert stored["owners"] == [ALICE] and stored["outcome"]["winner"] == 0
    assert "War over (" in line(game, DAN, stored) and "Points: Alice +1 red" in line(game, DAN, stored)
    answer(game, s, DAN, {"kind": "choose_winner", "side": 0})


def test_the_last_revolt_commit_without_an_outcome_is_stored_with_the_engines_outcome():
    game = make_game()
    s = test_revolt.worked_example(game)
    s = answer(game, s, BOB, {"kind": "commit", "tiles": 2})
    stored = game.canonical(s, ALICE, {"kind": "commit", "tiles": 0})
    assert "Revolt over (" in line(game, ALICE, stored)
    answer(game, s, ALICE, {"kind": "commit", "tiles": 0})


def test_canonical_keeps_what_the_phone_sent_for_apply_to_check_and_leaves_other_moves_alone():
    game = make_game()
    _before, s = test_war.worked_example(game)
    forged = {"kind": "commit", "side": 0, "tiles": 1, "leader": False, "owners": [BOB]}
    assert game.canonical(s, ALICE, forged) == forged  # apply refuses it: owners_mismatch
    assert game.canonical(s, BOB, {"kind": "abstain"}) == {"kind": "abstain"}  # not Bob's turn: apply refuses
    assert game.canonical(s, ALICE, {"kind": "abstain", "outcome": None}) == {"kind": "abstain"}  # settles nothing
    calm, _ = test_war.worked_example(game)
    tile = {"kind": "tile", "colour": "green", "hex": [3, 3]}
    assert game.canonical(calm, DAN, tile) == tile
