"""Property tests: random legal playouts (STYLE principle 14).

For 2, 3 and 4 players on the right board side, with the options varied:
every game ends with a seven-lair winner; INV (supply + marketplace +
players = 18 of each resource) holds after every action; every listed action
applies; a pool of candidate payloads is refused exactly when not listed
(physical mode, where the legal list names every outcome); replaying the
log from set-up gives the snapshot, and encode/decode round-trips.
"""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.base import IllegalAction
from shelf.catan_junior.actions import KINDS
from shelf.catan_junior.board import RESOURCES
from shelf.catan_junior.rules.building import LAIRS_PER_COLOUR

from .conftest import assert_conserved, make_game, opening

OPTIONS = st.fixed_dictionaries(
    {
        "balanced_die": st.booleans(),
        "player_trades": st.booleans(),
        "shortage_trigger": st.sampled_from(["not_enough", "none_left"]),
        "shortage_freeze": st.booleans(),
        "ghost_to_castle": st.booleans(),
        "edition": st.sampled_from(["kosmos", "english"]),
    }
)


def playout(game, seed, check_each_step=None, max_steps=20000):
    """Play random legal actions (chance filled from a seeded RNG); return (final state, log)."""
    chooser = random.Random(seed)
    state = opening(game)
    log = []
    for _ in range(max_steps):
        if game.result(state) is not None:
            return state, log
        seat = chooser.choice(game.prompt(state).seats)
        legal = game.legal_actions(state, seat)
        assert legal
        if check_each_step:
            check_each_step(state, seat, legal)
        action = game.fill_chance(state, seat, chooser.choice(legal), chooser)
        state = game.apply(state, seat, action)
        assert_conserved(state)
        log.append((seat, action))
    raise AssertionError("no winner")


def check_end(game, state, n):
    result = game.result(state)
    winner = result["winners"][0]
    assert state.lair_count(winner) == LAIRS_PER_COLOUR
    assert all(state.lair_count(s) < LAIRS_PER_COLOUR for s in range(n) if s != winner)
    assert len(game.rules.board.sites) == (16 if n == 2 else 32)


@settings(max_examples=12, deadline=None)
@given(n=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10**6), options=OPTIONS)
def test_random_games_end_with_a_seven_lair_winner_and_replay_to_the_snapshot(n, seed, options):
    game = make_game(n, **options)
    state, log = playout(game, seed)
    check_end(game, state, n)
    replayed = opening(game)
    for seat, action in log:
        replayed = game.apply(replayed, seat, json.loads(json.dumps(action)))
    assert replayed == state
    assert game.decode(json.loads(json.dumps(game.encode(state)))) == state


def candidate_pool(game, state):
    """Plausible payloads of every kind, legal or not."""
    board = game.rules.board
    pool = [{"kind": "roll", "value": v} for v in range(1, 7)]
    pool += [{"kind": "move_ghost", "island": i} for i in (*board.island_ids, "castle")]
    pool += [{"kind": "build_lair", "site": s} for s in (*board.sites, "CASTLE")]
    pool += [{"kind": "build_ship", "route": r} for r in board.routes]
    pool += [{"kind": "buy_coco", "tile": t} for t in game.rules.deck.names]
    # Phones name the token they saw on the space (``take``); a stale one is refused.
    pool += [
        {"kind": "market_swap", "space": sp, "give": r, "take": t}
        for sp in range(5)
        for r in RESOURCES
        for t in RESOURCES
    ]
    pool += [{"kind": "supply_trade", "give": a, "take": b} for a in RESOURCES for b in RESOURCES]
    pool += [{"kind": k} for k in ("end_turn", "accept_trade", "decline_trade")]
    return pool


@settings(max_examples=6, deadline=None)
@given(n=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10**6), balanced=st.booleans())
def test_every_listed_action_applies_and_refused_ones_were_not_listed(n, seed, balanced):
    game = make_game(n, components="physical", balanced_die=balanced)

    def check(state, seat, legal):
        encoded = [json.dumps(a, sort_keys=True) for a in legal]
        for action in legal:
            game.apply(state, seat, action)
        for action in candidate_pool(game, state):
            try:
                game.apply(state, seat, action)
            except IllegalAction as err:
                assert json.dumps(action, sort_keys=True) not in encoded, (action, err.code)
            else:
                assert json.dumps(action, sort_keys=True) in encoded, action

    state, _ = playout(game, seed, check)
    check_end(game, state, n)


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_views_are_json_and_identical_for_every_seat_throughout_a_game(seed):
    game = make_game(3, player_trades=True)
    calls = [0]

    def check(state, seat, legal):
        calls[0] += 1
        if calls[0] % 3:
            return  # every third step keeps the test quick
        public = json.dumps(game.view(state, None), sort_keys=True)
        for viewer in range(3):
            view = game.view(state, viewer)
            assert "private" not in view
            view["viewer"] = None
            assert json.dumps(view, sort_keys=True) == public

    playout(game, seed, check)


JSONISH = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 40)
    | st.sampled_from(["wood", "gold", "L01", "R05", "gold-5", "ghost", "x"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["wood", "gold", "iron"]), inner, max_size=3)
    ),
    max_leaves=6,
)
FIELDS = ["value", "island", "site", "route", "tile", "space", "give", "take", "to", "get"]


@settings(max_examples=150, deadline=None)
@given(
    kind=st.sampled_from([*KINDS, "nope"]),
    fields=st.dictionaries(st.sampled_from(FIELDS), JSONISH, max_size=4),
    phase_seed=st.integers(0, 200),
)
def test_any_malformed_payload_is_refused_with_illegal_action_only(kind, fields, phase_seed):
    game = make_game(3, player_trades=True)
    state = playout_steps(game, phase_seed)
    seat = game.prompt(state).seats[0] if game.prompt(state).seats else 0
    try:
        game.apply(state, seat, {"kind": kind, **fields})
    except IllegalAction as err:
        assert err.code


def playout_steps(game, steps):
    """The state after ``steps`` random legal actions (or the end), for fuzzing from varied phases."""
    chooser = random.Random(steps)
    state = opening(game)
    for _ in range(steps):
        if game.result(state) is not None:
            break
        seat = chooser.choice(game.prompt(state).seats)
        action = game.fill_chance(state, seat, chooser.choice(game.legal_actions(state, seat)), chooser)
        state = game.apply(state, seat, action)
    return state
