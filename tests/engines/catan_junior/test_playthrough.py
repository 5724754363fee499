"""Golden playthroughs (STYLE principle 13): a fixed-seed game as a readable transcript.

Each line: action number, seat, the action's notation, then the public
state after it (every seat's view is the same in this game). Hands and supply list
wood, wool, molasses, cutlass, gold; ``L``/``S``/``C`` are lairs, ships and
Coco tiles. Regenerate on
purpose with ``UPDATE_GOLDEN=1 .venv/bin/pytest tests/engines/catan_junior/test_playthrough.py``.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from games.engines.chance import table_rng
from shelf.catan_junior.actions import notation

from .conftest import make_game

SHORT = {"wood": "wd", "wool": "wl", "molasses": "ml", "cutlass": "ct", "gold": "gd"}
HERE = Path(__file__).resolve().parent / "playthroughs"


def transcript(n: int, seed: int, options: dict) -> str:
    game = make_game(n, **options)
    state = game.setup(table_rng(seed, 0))
    chooser = random.Random(seed)
    lines = [f"catan_junior {n} players, seed {seed}, options {sorted(options.items())}"]
    step = 0
    while game.result(state) is None:
        step += 1
        prompt = game.prompt(state)
        seat = chooser.choice(prompt.seats)
        action = game.fill_chance(state, seat, chooser.choice(game.legal_actions(state, seat)), table_rng(seed, step))
        state = game.apply(state, seat, action)
        view = game.view(state, None)
        for viewer in range(n):
            other = game.view(state, viewer)
            other["viewer"] = None
            assert other == view
        hands = " ".join(
            f"{p['name']}:"
            + ",".join(str(v) for v in p["resources"].values())
            + f"/L{p['lairs']}S{p['ships']}C{p['coco_total']}"
            for p in view["players"]
        )
        supply = ",".join(str(v) for v in view["supply"].values())
        lines.append(
            f"{step:4d} s{seat} [{prompt.step}] {notation(action):28s} -> {view['phase']:10s} ghost={view['ghost']}"
            f" supply={supply} market={'/'.join(SHORT[r] for r in view['market'])} {hands}"
            + (f" castle={state.castle}" if state.castle is not None else "")
            + (f" short={','.join(view['last_shortage'])}" if view["last_shortage"] else "")
        )
    result = game.result(state)
    lines.append(
        f"result winners={result['winners']} places={[(r['seat'], r['place'], r['score']) for r in result['ranking']]}"
    )
    return "\n".join(lines) + "\n"


CASES = [
    ("two_players_seed_7.txt", 2, 7, {}),
    ("three_players_seed_11_balanced_die.txt", 3, 11, {"balanced_die": True}),
    ("four_players_seed_5_physical.txt", 4, 5, {"components": "physical"}),
]


@pytest.mark.parametrize(("name", "n", "seed", "options"), CASES)
def test_golden_playthrough_matches_the_transcript(name, n, seed, options):
    text = transcript(n, seed, options)
    path = HERE / name
    if os.environ.get("UPDATE_GOLDEN") or not path.exists():
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")
