"""Every registered engine honours the contract in games/engines/base.py.

Runs the same checks over each game the way OpenSpiel's random-simulation
test runs over every game (shared/STYLE.md principles 4, 6, 7, 14): random
legal playouts reach a result, every listed legal action applies, states
survive a JSON round trip, the input state is never mutated, and views are
JSON-serialisable. Every game of the registry runs them, and the contract game of the tests
(tests/contract_game/) beside them; each also declares a web adapter the platform can read.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import json
import random
from pathlib import Path

import pytest

import games.engines
from games.engines import REGISTRY, get_adapter, get_game_class
from games.engines.adapter import WebAdapter
from games.engines.base import IllegalAction, SeatInfo
from games.engines.chance import table_rng
from tests.registry import CONTRACT, GAMES

SLUGS = GAMES


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
        game.check_payload(action)  # a listed payload passes the shape a tap is checked against at the edge
        assert game.canonical(state, seat, action) == action, "a listed payload is stored as listed"
        before = copy.deepcopy(game.encode(state))
        new_state = game.apply(state, seat, action)
        assert game.encode(state) == before, "apply mutated its input"
        state = new_state
    raise AssertionError("game did not end within max_steps")


def test_registry_is_written_out_by_hand():
    """The registry is one literal dictionary in games/engines/__init__.py; importing a game adds nothing."""
    tree = ast.parse(Path(games.engines.__file__).read_text(encoding="utf-8"))
    literal = next(node.value for node in tree.body if isinstance(node, ast.AnnAssign)
                   and getattr(node.target, "id", "") == "REGISTRY")
    written = ast.literal_eval(literal)
    for slug in written:
        get_game_class(slug)
    assert REGISTRY == written
    assert CONTRACT not in REGISTRY, "the contract game is registered only inside the tests that run it"


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


# -- the web adapter beside each engine (games/engines/adapter.py) -----------------------------------------

BASE_REFUSALS = ("not_your_turn", "wrong_step", "game_over", "seat_count")


def adapter_problems(slug: str, adapter: WebAdapter) -> list[str]:
    """What the platform could not do with ``adapter``, one sentence per gap, each naming its field."""
    cls = get_game_class(slug)
    keys = [s.key for s in adapter.sections]
    problems = []
    if not keys or len(set(keys)) != len(keys):
        problems.append(f"sections: the rules at hand need sections with distinct keys, not {keys}")
    for code in BASE_REFUSALS:
        if code not in adapter.refusals:
            problems.append(f"refusals: no section explains the base refusal {code!r}")
    for name, target in {**adapter.refusals, **adapter.step_sections}.items():
        if target.partition("#")[0] not in keys:
            problems.append(f"refusals/step_sections: {name!r} points at {target!r}, which is not a section")
    for spec in cls.option_specs:  # the components option's words are the platform's (games/text/option_words.py)
        if spec.name != "components" and spec.name not in adapter.option_words:
            problems.append(f"option_words: the lobby has no words for the option {spec.name!r}")
    if "title" not in adapter.glossary:
        problems.append("glossary: no 'title' term names the box")
    for players in range(cls.min_seats, cls.max_seats + 1):
        steps = adapter.walkthrough(make_game(slug, players), players)
        if not steps:
            problems.append(f"walkthrough: no set-up steps for {players} players")
        elif len({s.id for s in steps}) != len(steps):
            problems.append(f"walkthrough: two steps share an id for {players} players")
    device = adapter.chance(make_game(slug, cls.min_seats))
    if cls.chance_fields and device is None:
        problems.append(f"chance: the game draws or rolls ({sorted(cls.chance_fields)}) but declares no chance device")
    if device is not None:
        if device.field not in cls.chance_fields.get(device.kind, ()):
            problems.append(f"chance: {device.kind}.{device.field} is not a chance field of the engine")
        if abs(sum(device.shares.values()) - 1) > 1e-9:
            problems.append("chance: the shares of one draw do not sum to 1")
    return problems


@pytest.mark.parametrize("slug", SLUGS)
def test_every_game_declares_a_web_adapter_the_platform_can_read(slug):
    adapter = get_adapter(slug)
    assert isinstance(adapter, WebAdapter)
    assert adapter_problems(slug, adapter) == []


def _required(field: dataclasses.Field) -> bool:
    return field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING


#: The adapter's fields a game cannot do without (no default), and those the contract check asks of
#: a game like the contract game (it draws, so it declares its chance device; it has a set-up).
CHECKED_FIELDS = [*(f.name for f in dataclasses.fields(WebAdapter) if _required(f)), "walkthrough", "chance"]


@pytest.mark.parametrize("name", CHECKED_FIELDS)
def test_an_adapter_missing_a_field_fails_clearly_naming_the_field(name, contract_game_registered):
    """Take one field out of the contract game's adapter: it no longer builds, or the contract check names it."""
    adapter = get_adapter(CONTRACT)
    field = next(f for f in dataclasses.fields(WebAdapter) if f.name == name)
    kept = {f.name: getattr(adapter, f.name) for f in dataclasses.fields(WebAdapter) if f.name != name}
    if _required(field):
        with pytest.raises(TypeError, match=f"'{name}'"):
            WebAdapter(**kept)
    else:
        problems = adapter_problems(CONTRACT, WebAdapter(**kept))
        assert [p for p in problems if p.startswith(f"{name}:")], problems
