"""Golden playthroughs (shared/STYLE.md principle 13): a fixed random playout written as plain text.

Each step shows the prompt, the action as the public log reads it, and what
changed in the public view and in each seat's view, so a rule change shows
up as a readable diff. Pure Python: used by ``manage.py write_playthrough``
and by the tests that compare against the stored transcripts.
"""

from __future__ import annotations

import json
import random
from typing import Any

from games.engines import get_game_class
from games.engines.base import SeatInfo, fill
from games.engines.chance import table_rng


def _flatten(value: Any, path: str = "") -> dict[str, Any]:
    """Leaves of a JSON value by dotted path (``pawns.3.loc``), so a transcript shows only what changed."""
    if isinstance(value, dict) and value:
        out: dict[str, Any] = {}
        for key, item in value.items():
            out.update(_flatten(item, f"{path}.{key}" if path else str(key)))
        return out
    if isinstance(value, list) and value:
        out = {}
        for i, item in enumerate(value):
            out.update(_flatten(item, f"{path}.{i}" if path else str(i)))
        return out
    return {path: value}


def _changes(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    lines = []
    for key in sorted(set(before) | set(after)):
        if key not in after:
            lines.append(f"    {key} (gone)")
        elif before.get(key, object()) != after[key]:
            lines.append(f"    {key} = {json.dumps(after[key], sort_keys=True, ensure_ascii=False)}")
    return lines


def transcript(slug: str, players: int, seed: int, steps: int = 40, options: dict[str, Any] | None = None) -> str:
    """Play ``steps`` random legal actions (choices and chance from ``seed``) and return the transcript.

    Shapes: one block per step: ``#N seat S: <prompt step> | <public log line>``,
    then ``public:`` and ``seat K:`` lines with only the view values (dotted
    paths) that changed. Raises ``IllegalAction`` if options or seat count are invalid.
    """
    cls = get_game_class(slug)
    game = cls(options or {}, [SeatInfo(i, f"P{i}", cls.colours[i]) for i in range(players)])
    state = game.setup(table_rng(seed, 0))
    chooser = random.Random(seed)
    viewers: list[int | None] = [None, *range(players)]
    views = {v: _flatten(game.view(state, v)) for v in viewers}
    out = [f"# {cls.title}: {players} players, seed {seed}"]
    out.append(f"opening public view: {len(views[None])} values (only changes are shown below)")
    for step in range(1, steps + 1):
        if game.result(state) is not None:
            break
        prompt = game.prompt(state)
        seat = chooser.choice(prompt.seats)
        action = game.fill_chance(state, seat, chooser.choice(game.legal_actions(state, seat)),
                                  table_rng(seed, step))
        line = game.describe(seat, action, None)
        out.append(f"#{step} seat {seat}: {prompt.step} | {fill(line.text, line.details)}")
        state = game.apply(state, seat, action)
        public: list[str] = []
        for viewer in viewers:
            new = _flatten(game.view(state, viewer))
            changed = _changes(views[viewer], new)
            if viewer is None:
                public = changed
            else:  # a seat's lines beyond what everyone saw change
                changed = [c for c in changed if c not in public]
            if changed:
                out.append("  public:" if viewer is None else f"  seat {viewer} also:")
                out += changed
            views[viewer] = new
    result = game.result(state)
    out.append(f"result: {json.dumps(result, sort_keys=True, ensure_ascii=False)}")
    return "\n".join(out) + "\n"
