"""Golden playthrough of a fixed 2-player game (shared/STYLE.md principle 13).

The transcript lists each action's notation and log line, the prompt, a
public summary and each seat's private view. Rule changes show up as a
readable diff; regenerate on purpose with
``AMUN_RE_REGENERATE=1 .venv/bin/pytest tests/engines/amun_re/test_playthrough.py``.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

from shelf.amun_re.actions import notation, parse_action

from .conftest import make_game

GOLDEN = Path(__file__).with_name("playthroughs") / "two_players_seed_7.txt"


def fill(text: str, details: dict) -> str:
    try:
        return text.format(**details)
    except (KeyError, IndexError, ValueError):
        return text


def transcript(seed: int = 7) -> str:
    game = make_game(2)
    chooser = random.Random(seed)
    state = game.setup(random.Random(seed))
    lines = []
    step = 0
    while True:
        prompt = game.prompt(state)
        public = game.view(state, None)
        summary = {
            "k": public["kingdom"],
            "a": public["auction"],
            "phase": public["phase"],
            "ankh": public["ankh"],
            "provinces": [[p["owner"], p["card"]] for p in public["provinces"]],
            "markers": [p["marker"] for p in public["players"]],
            "vp": [p["vp"] for p in public["players"]],
            "pyramids": [p["column_pyramids"] for p in public["players"]],
            "offerings": public["offerings"],
        }
        lines.append(f"  prompt {prompt.step} seats={list(prompt.seats)} kinds={list(prompt.kinds)}")
        lines.append(f"  public {json.dumps(summary, sort_keys=True)}")
        for seat in range(2):
            lines.append(f"  seat{seat} {json.dumps(game.view(state, seat)['private'], sort_keys=True)}")
        result = game.result(state)
        if result is not None:
            lines.append(
                f"result {json.dumps({'winners': result['winners'], 'ranking': result['ranking']}, sort_keys=True)}"
            )
            return "\n".join(lines) + "\n"
        seat = chooser.choice(prompt.seats)
        action = chooser.choice(game.legal_actions(state, seat))
        step += 1
        line = game.describe(seat, action, None)
        lines.append(f"#{step} seat{seat} {notation(parse_action(action))} | {fill(line.text, {**line.details})}")
        state = game.apply(state, seat, action)


def test_the_two_player_golden_playthrough_is_unchanged():
    text = transcript()
    if os.environ.get("AMUN_RE_REGENERATE"):
        GOLDEN.write_text(text, encoding="utf-8")
    assert GOLDEN.read_text(encoding="utf-8") == text
