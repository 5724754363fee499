"""Property tests: random legal playouts, conservation, legal == accepted (STYLE principles 4, 14)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.base import IllegalAction
from shelf.sorry.board import HOME, START, TRACK_LEN
from shelf.sorry.state import CARD_INDEX, MOVE

from .helpers import table

COLOURS4 = ["red", "blue", "yellow", "green"]


def check_invariants(game, state):
    """Pawns are neither created nor lost and never share squares; cards are conserved."""
    per = game.options["pawns_per_colour"]
    track = [loc for row in state.pawns for loc in row if 0 <= loc < TRACK_LEN]
    assert len(track) == len(set(track)), "two pawns on one track square"
    for c, row in enumerate(state.pawns):
        assert len(row) == (per if c in game.seat_colour else 0)
        board = [loc for loc in row if loc not in (START, HOME)]
        assert len(board) == len(set(board)), "two pawns of one colour on one square"
    held = sum(state.deck) + sum(state.discard) + sum(sum(h) for h in state.hands) + (state.card is not None)
    assert held == game.deck_total
    for i, n in enumerate(game.options["deck_counts"].values()):
        total = state.deck[i] + state.discard[i] + sum(h[i] for h in state.hands)
        total += state.card is not None and CARD_INDEX[state.card] == i
        assert total == n


def random_payloads(rng, state):
    """Random, mostly wrong move payloads to probe refusals."""
    cards = ["1", "2", "3", "4", "5", "7", "8", "10", "11", "12", "sorry", "6"]
    pawn = lambda: rng.choice("RBYG") + str(rng.randrange(5))  # noqa: E731
    out = []
    for _ in range(6):
        p = {"kind": "move", "card": state.card or rng.choice(cards), "pawn": pawn()}
        r = rng.random()
        if r < 0.4:
            p["steps"] = rng.randrange(-5, 13)
        elif r < 0.6:
            p["target"] = pawn()
        elif r < 0.8:
            a = rng.randrange(0, 8)
            p["steps"], p["then"] = a, {"pawn": pawn(), "steps": 7 - a}
        out.append(p)
    out.append({"kind": "pass"})
    out.append({"kind": "discard", "card": rng.choice(cards)})
    return out


def playout(game, seed, probe=False, max_steps=6000):
    rng = random.Random(seed)
    state = game.setup(rng)
    for _ in range(max_steps):
        if game.result(state) is not None:
            return state
        check_invariants(game, state)
        seat = game.prompt(state).seats[0]
        actions = game.legal_actions(state, seat)
        assert actions
        if probe and state.step == MOVE:
            for bad in random_payloads(rng, state):
                try:
                    game.apply(state, seat, bad)
                except IllegalAction:
                    assert bad not in actions, bad
            for action in actions:
                game.apply(state, seat, action)
        action = game.fill_chance(state, seat, rng.choice(actions), rng)
        if game.physical and action["kind"] == "draw" and not game.points:
            assert {"kind": "draw", "card": action["card"]} in actions
        state = game.apply(state, seat, action)
        assert game.decode(json.loads(json.dumps(game.encode(state)))) == state
    raise AssertionError("no result")


@settings(max_examples=12, deadline=None)
@given(n=st.integers(2, 4), seed=st.integers(0, 10**6), physical=st.booleans())
def test_random_standard_games_end_with_a_winner_for_every_player_count(n, seed, physical):
    game = table(" ".join(COLOURS4[:n]), components="physical" if physical else "digital")
    result = game.result(playout(game, seed))
    assert len(result["winners"]) == 1
    assert len(result["ranking"]) == n


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_random_team_games_end_with_a_winning_pair(seed):
    game = table(team_mode=True)
    result = game.result(playout(game, seed))
    assert sorted(result["winners"]) in ([0, 2], [1, 3])


@settings(max_examples=8, deadline=None)
@given(n=st.integers(2, 4), seed=st.integers(0, 10**6))
def test_random_points_games_end_with_scores(n, seed):
    game = table(" ".join(COLOURS4[:n]), points_mode=True)
    state = playout(game, seed)
    result = game.result(state)
    assert result["ranking"][0]["score"] >= 20
    assert state.winner in result["winners"]


@settings(max_examples=6, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    flags=st.fixed_dictionaries({
        "sorry_forward4_option": st.booleans(),
        "slide_on_own_colour": st.booleans(),
        "swapped_opponent_slides": st.booleans(),
        "eleven_swap_may_decline": st.booleans(),
        "two_draws_again": st.booleans(),
        "fast_start": st.booleans(),
        "pawns_per_colour": st.sampled_from([3, 4]),
    }),
)
def test_every_listed_action_applies_and_refused_ones_were_not_listed(seed, flags):
    game = table("red blue yellow", **flags)
    playout(game, seed, probe=True)


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_team_and_points_listed_actions_apply_and_refusals_are_unlisted(seed):
    playout(table(team_mode=True, team_swap_with_partner=True), seed, probe=True)
    playout(table("red green", points_mode=True), seed, probe=True)
