"""Property tests (principle 14): random legal playouts on the practice board keep every invariant."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.base import IllegalAction, SeatInfo
from games.engines.chance import table_rng
from shelf.yellow_yangtze import YellowYangtzeGame
from shelf.yellow_yangtze.rules import turn
from shelf.yellow_yangtze.rules.common import duplicate_states, has_black_neighbour, tile_map
from shelf.yellow_yangtze.state import COLOURS, Revolt, War

from .helpers import total_tiles

OPTION_SETS = [
    {},
    {"short_game": True, "leader_join_own_colour": "revolt", "who_fights": "all", "attrition": "sum"},
    {"capitals_from_black": False, "war_surplus": "box", "red_leader_any_side": False,
     "red_under_pagoda": "stays", "attrition_counts_leader": False, "chain_after_declined_pagoda": "stop"},
    {"components": "physical"},
]


def check_invariants(game, s, total):
    assert total_tiles(s) == total, "tiles are neither created nor lost (bag + hands + board + box + market)"
    assert all(min(h) >= 0 for h in s.hands) and min(s.bag) >= 0 and min(s.market) >= 0
    assert all(sum(h) <= 6 for h in s.hands)
    if not isinstance(s.pending, (War, Revolt)):
        assert duplicate_states(game.ctx, s) == [], "no state holds two leaders of one colour"
    tmap = tile_map(s)
    for _seat, _c, h in s.leaders:
        assert has_black_neighbour(game.ctx, tmap, h), "every leader on the board touches a black tile"
        assert h in game.board.land and h not in tmap
    assert len({(seat, c) for seat, c, _ in s.leaders}) == len(s.leaders)
    for colour, tri in s.pagodas:
        assert all(tmap.get(h) == colour for h in tri)
    assert sum(s.pagoda_supply) + len(s.pagodas) == 9
    for h, c in s.tiles:
        assert (h in game.board.river) == (c == "blue")
    assert game.decode(json.loads(json.dumps(game.encode(s)))) == s


def random_candidates(rng: random.Random, game) -> list[dict]:
    hexes = sorted(game.board.hexes)
    out = []
    for _ in range(6):
        h = list(rng.choice(hexes))
        out.append({"kind": "tile", "colour": rng.choice(COLOURS), "hex": h})
        out.append({"kind": "leader", "colour": rng.choice(COLOURS), "hex": h})
        out.append({"kind": "peasants", "hex": h, "leader": rng.random() < 0.5})
    return out


def playout(n: int, seed: int, options: dict) -> None:
    seats = [SeatInfo(i, f"P{i}", "red") for i in range(n)]
    game = YellowYangtzeGame(options, seats)
    state = game.setup(table_rng(seed, 0))
    first = state
    total = total_tiles(state)
    assert total == (138 if game.options["capitals_from_black"] else 145)
    chooser = random.Random(seed)
    log = []
    for step in range(1, 5000):
        if game.result(state) is not None:
            break
        check_invariants(game, state, total)
        prompt = game.prompt(state)
        seat = prompt.seats[0]
        actions = game.legal_actions(state, seat)
        assert actions
        if game.physical and prompt.step == "draw":
            # Physical draws list what the drawer cannot rule out; the real bag gives a subset,
            # and a listed draw it cannot give is refused with nothing written (tiles stay conserved).
            real = [{"kind": "draw", "tiles": t} for t in turn.outcomes(state.bag, turn.draw_size(state))]
            assert all(a in actions for a in real)
            for extra in chooser.sample(actions, min(3, len(actions))):
                if extra not in real:
                    try:
                        game.apply(state, seat, extra)
                    except IllegalAction as err:
                        assert err.code == "tile_not_in_bag"
                    else:
                        raise AssertionError("a draw the bag cannot give was accepted")
            actions = real
        for other in range(n):
            if other != seat:
                assert game.legal_actions(state, other) == []
        # A few listed actions must apply; a few random payloads must apply only if listed.
        for extra in chooser.sample(actions, min(3, len(actions))):
            game.apply(state, seat, game.fill_chance(state, seat, extra, table_rng(seed, step)))
        if prompt.step == "action" and step % 5 == 0:
            listed = {json.dumps(a, sort_keys=True) for a in actions}
            for cand in random_candidates(chooser, game):
                try:
                    game.apply(state, seat, cand)
                except IllegalAction:
                    assert json.dumps(cand, sort_keys=True) not in listed
                else:
                    assert json.dumps(cand, sort_keys=True) in listed
        action = game.fill_chance(state, seat, chooser.choice(actions), table_rng(seed, step))
        log.append((seat, action))
        state = game.apply(state, seat, action)
    else:
        raise AssertionError("no end")
    result = game.result(state)
    assert result["ranking"] and len(result["ranking"]) == n
    assert any("yellow" in step["text"] for step in result["steps"])
    # Replay == snapshot: fold the log over the opening state.
    replay = first
    for seat, action in log:
        replay = game.apply(replay, seat, action)
    assert replay == state and game.encode(replay) == game.encode(state)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(2, 4))
def test_random_legal_playouts_keep_tiles_leaders_and_pagodas_consistent(seed, n):
    playout(n, seed, {})


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(2, 4), which=st.integers(1, len(OPTION_SETS) - 1))
def test_random_playouts_under_every_house_rule_and_physical_mode_end_with_a_result(seed, n, which):
    playout(n, seed, OPTION_SETS[which])


JUNK = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 300) | st.sampled_from(COLOURS) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["q", "r", "x"]), inner, max_size=2),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None)
@given(kind=st.sampled_from(["leader", "withdraw", "tile", "peasants", "build_pagoda", "swap", "pass", "draw",
                             "commit", "abstain", "take_market", "pagoda", "decline", "burn", "remove_red",
                             "choose_winner", "bogus"]),
       fields=st.dictionaries(st.sampled_from(["colour", "hex", "tiles", "leader", "triangle", "from", "side",
                                               "seat"]), JUNK, max_size=4))
def test_any_malformed_payload_is_refused_only_with_illegal_action(kind, fields):
    game = YellowYangtzeGame({}, [SeatInfo(0, "A", "red"), SeatInfo(1, "B", "blue")])
    state = game.setup(random.Random(5))
    try:
        game.apply(state, state.active, {"kind": kind, **fields})
    except IllegalAction as err:
        assert err.code
