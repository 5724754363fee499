"""Every registered engine honours the contract in games/engines/base.py.

Runs the same checks over each game the way OpenSpiel's random-simulation
test runs over every game (shared/STYLE.md principles 4, 6, 7, 14): random
legal playouts reach a result, every listed legal action applies, states
survive a JSON round trip, the input state is never mutated, and views are
JSON-serialisable.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from games.engines import REGISTRY, available_slugs, get_game_class
from games.engines.base import IllegalAction, SeatInfo
from games.engines.chance import table_rng

SLUGS = available_slugs()


def make_game(slug: str, n: int, options: dict | None = None):
    cls = get_game_class(slug)
    seats = [SeatInfo(i, f"P{i}", cls.colours[i]) for i in range(n)]
    return cls(options or {}, seats)


def random_playout(game, seed: int, max_steps: int = 20000):
    """Play random legal actions (digital chance) until a result; return (state, steps)."""
    state = game.setup(table_rng(seed, 0))
    chooser = random.Random(seed)
    for step in range(1, max_steps + 1):
        if game.result(state) is not None:
            return state, step
        prompt = game.prompt(state)
        assert prompt.seats, "a running game must have someone to act"
        seat = chooser.choice(prompt.seats)
        actions = game.legal_actions(state, seat)
        assert actions, f"seat {seat} is prompted but has no legal action"
        action = chooser.choice(actions)
        action = game.fill_chance(state, seat, action, table_rng(seed, step))
        before = copy.deepcopy(game.encode(state))
        new_state = game.apply(state, seat, action)
        assert game.encode(state) == before, "apply mutated its input"
        state = new_state
    raise AssertionError("game did not end within max_steps")


def test_registry_is_written_out_by_hand():
    assert set(REGISTRY) == {"sorry", "yellow_yangtze", "amun_re", "catan_junior"}


@pytest.mark.parametrize("slug", SLUGS)
def test_random_playouts_end_with_a_result_and_round_trip(slug):
    cls = get_game_class(slug)
    for n in range(cls.min_seats, cls.max_seats + 1):
        game = make_game(slug, n)
        state, _ = random_playout(game, seed=1000 + n)
        result = game.result(state)
        assert result["ranking"], "a finished game ranks its players"
        assert game.decode(json.loads(json.dumps(game.encode(state)))) == state
        for viewer in [None, *range(n)]:
            json.dumps(game.view(state, viewer))


@pytest.mark.parametrize("slug", SLUGS)
def test_an_action_by_a_seat_not_prompted_is_refused(slug):
    game = make_game(slug, get_game_class(slug).min_seats)
    state = game.setup(table_rng(7, 0))
    prompt = game.prompt(state)
    idle = [s for s in range(len(game.seats)) if s not in prompt.seats]
    if not idle:
        pytest.fail("the opening prompt asks every seat; pick a game state with an idle seat")
    actions = game.legal_actions(state, prompt.seats[0])
    with pytest.raises(IllegalAction):
        game.apply(state, idle[0], game.fill_chance(state, prompt.seats[0], actions[0], table_rng(7, 1)))


@pytest.mark.parametrize("slug", SLUGS)
def test_an_action_without_a_kind_is_refused_with_a_code(slug):
    game = make_game(slug, get_game_class(slug).min_seats)
    state = game.setup(table_rng(3, 0))
    seat = game.prompt(state).seats[0]
    for bad in [{}, {"kind": "no_such_action"}, {"kind": 5}]:
        with pytest.raises(IllegalAction) as err:
            game.apply(state, seat, bad)
        assert err.value.code


@pytest.mark.parametrize("slug", SLUGS)
def test_in_digital_mode_listed_chance_actions_leave_the_outcome_to_the_server(slug):
    """DESIGN.md: in digital mode the server draws and rolls; a phone naming its own outcome is refused."""
    cls = get_game_class(slug)
    game = make_game(slug, cls.min_seats)
    state = game.setup(table_rng(5, 0))
    chooser = random.Random(5)
    seen_chance = 0
    for step in range(1, 400):
        if game.result(state) is not None:
            break
        seat = game.prompt(state).seats[0]
        actions = game.legal_actions(state, seat)
        for action in actions:
            fields = cls.chance_fields.get(action["kind"], ())
            assert not any(f in action for f in fields), f"{action} names its own outcome in digital mode"
            if fields:
                seen_chance += 1
                filled = game.fill_chance(state, seat, action, table_rng(5, step))
                with pytest.raises(IllegalAction) as err:
                    game.refuse_client_outcome(filled)
                assert err.value.code == "outcome_from_server"
        action = game.fill_chance(state, seat, chooser.choice(actions), table_rng(5, step))
        state = game.apply(state, seat, action)
    if cls.chance_fields:
        assert seen_chance, "the playout met at least one chance step"
