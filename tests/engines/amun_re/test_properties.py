"""Random legal play for 2-5 players: invariants, replay, legality (shared/STYLE.md principles 4, 6, 14)."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.base import IllegalAction
from shelf.amun_re.rules.auction import has_live_bid
from shelf.amun_re.state import AUCTION, BUILD, GOLD_VALUES, SETTLE

from .conftest import make_game, random_playout

OPTION_SETS = [
    {},
    {"hand_sum_mode": "at_most", "rebid_same_province": False, "ankh_after_each_auction": False},
    {
        "visible_ankhs_mid_kingdom": "current_kingdom",
        "allow_negative_vp": False,
        "budget_over_36": "take_all_keep_rest",
    },
]


def gold_conserved(state) -> None:
    """Every seat's nine cards are each in exactly one place (rules 1.2); bids are live only during the auction."""
    for seat, p in enumerate(state.players):
        live = state.slots if state.phase == AUCTION else ()
        bids = [slot[1] for slot in live if slot is not None and slot[0] == seat]
        assert Counter(p.hand) + Counter(p.set_aside) + Counter(p.discard) + Counter(bids) == Counter(GOLD_VALUES)


@settings(max_examples=12, deadline=None)
@given(n=st.integers(2, 5), seed=st.integers(0, 10_000), options=st.sampled_from(OPTION_SETS))
def test_random_games_conserve_gold_cards_and_end_with_a_ranking(n, seed, options):
    game = make_game(n, **options)
    final, log = random_playout(game, seed, check=gold_conserved)
    result = game.result(final)
    assert sorted(r["seat"] for r in result["ranking"]) == list(range(n))
    assert all(len(col) == 3 for p in final.players for col in p.columns)


@settings(max_examples=10, deadline=None)
@given(n=st.integers(2, 5), seed=st.integers(0, 10_000))
def test_every_auction_ends_with_one_card_under_each_province_and_one_live_bid_per_seat(n, seed):
    game = make_game(n)
    seen = []

    def check(state):
        if state.phase == SETTLE and (not seen or seen[-1] != (state.kingdom, state.auction)):
            seen.append((state.kingdom, state.auction))
            assert len(state.slots) == n and all(slot is not None for slot in state.slots)
            assert sorted(slot[0] for slot in state.slots) == list(range(n))
        if state.phase == AUCTION:
            assert not has_live_bid(state, state.turn)
            assert any(slot is None for slot in state.slots)

    random_playout(game, seed, check=check)
    assert seen == [(k, a) for k in (1, 2, 3) for a in (1, 2, 3)]


@settings(max_examples=10, deadline=None)
@given(n=st.integers(2, 5), seed=st.integers(0, 10_000))
def test_replaying_the_log_gives_the_snapshot(n, seed):
    game = make_game(n)
    final, log = random_playout(game, seed)
    state = game.setup(random.Random(seed))
    for seat, action in log:
        state = game.apply(state, seat, json.loads(json.dumps(action)))
    assert state == final
    assert game.decode(json.loads(json.dumps(game.encode(final)))) == final


@settings(max_examples=8, deadline=None)
@given(n=st.integers(2, 5), seed=st.integers(0, 10_000), options=st.sampled_from(OPTION_SETS))
def test_hand_building_always_offers_a_legal_hand_and_listed_actions_all_apply(n, seed, options):
    game = make_game(n, **options)
    probe = random.Random(seed + 1)

    def check(state):
        assert game.decode(game.encode(state)) == state
        prompt = game.prompt(state)
        for seat in range(n):
            legal = game.legal_actions(state, seat)
            if seat in prompt.seats:
                assert legal, "a prompted seat always has a legal action"
                for action in probe.sample(legal, min(4, len(legal))):
                    game.apply(state, seat, action)
            else:
                assert legal == []
        if state.phase == BUILD:
            assert game.legal_actions(state, state.turn)

    random_playout(game, seed, check=check)


@settings(max_examples=8, deadline=None)
@given(n=st.integers(2, 4), seed=st.integers(0, 10_000))
def test_refused_actions_were_not_listed(n, seed):
    game = make_game(n)
    fuzz = random.Random(seed)
    kinds = ["build_hand", "bid", "reveal", "place_province", "offer", "place_pyramids", "buy"]
    fields = ["farms", "caravans", "ankhs", "pyramid_spaces", "printed_pyramids", "gold"]

    def random_action():
        kind = fuzz.choice(kinds)
        return {
            "kind": kind,
            "cards": sorted(fuzz.sample(range(9), fuzz.randint(0, 5))),
            "province": fuzz.randint(-1, 5),
            "card": fuzz.randint(-1, 9),
            "field": fuzz.choice(fields),
            "value": fuzz.randint(-1, 7),
            "column": fuzz.randint(-1, 3),
            "gold": fuzz.randint(-1, 36),
            "columns": [fuzz.randint(-1, 3) for _ in range(3)],
            "count": fuzz.randint(-1, 8),
        }

    def check(state):
        for seat in range(n):
            legal = game.legal_actions(state, seat)
            for _ in range(3):
                action = random_action()
                payload = next((a for a in legal if all(action.get(k) == v for k, v in a.items())), None)
                try:
                    game.apply(state, seat, action)
                except IllegalAction:
                    assert payload is None, f"refused {action} although listed"
                else:
                    assert payload is not None, f"accepted {action} although not listed"

    random_playout(game, seed, check=check)


def test_malformed_payloads_raise_illegal_action_only():
    game = make_game(3)
    state = game.setup(random.Random(0))
    bad = [
        {"kind": "build_hand"},
        {"kind": "build_hand", "cards": "0,6,8"},
        {"kind": "build_hand", "cards": [0, True, 8]},
        {"kind": "build_hand", "cards": [0, 6.0, 8]},
        {"kind": "bid", "province": "0", "card": 1},
        {"kind": "place_pyramids", "columns": [1, 2]},
        {"kind": "buy", "count": None},
        {"kind": "offer", "gold": True},
        {"kind": None},
    ]
    for action in bad:
        try:
            game.apply(state, 0, action)
        except IllegalAction as err:
            assert err.code
        else:
            raise AssertionError(f"{action} was accepted")
