"""Benchmark: random full games of Amun-Re in the engine (prints numbers, asserts nothing about time).

Run: .venv/bin/python tests/bench/bench_amun_re.py
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.engines.base import SeatInfo  # noqa: E402
from shelf.amun_re import AmunReGame  # noqa: E402


def one_game(n: int, seed: int, with_views: bool = False) -> int:
    """Play one random legal game; return the number of actions."""
    game = AmunReGame({}, [SeatInfo(i, f"P{i}", AmunReGame.colours[i]) for i in range(n)])
    chooser = random.Random(seed)
    state = game.setup(random.Random(seed))
    steps = 0
    while game.result(state) is None:
        seat = chooser.choice(game.prompt(state).seats)
        state = game.apply(state, seat, chooser.choice(game.legal_actions(state, seat)))
        steps += 1
        if with_views:
            for viewer in (None, *range(n)):
                json.dumps(game.view(state, viewer))
            json.dumps(game.encode(state))
    return steps


def main() -> None:
    games = 20
    for n in range(2, 6):
        for with_views in (False, True):
            start = time.perf_counter()
            steps = sum(one_game(n, seed, with_views) for seed in range(games))
            elapsed = time.perf_counter() - start
            label = "engine + every view and snapshot per step" if with_views else "engine only"
            print(
                f"{n} players, {label}: {1000 * elapsed / games:.1f} ms per random full game, "
                f"{steps / games:.0f} actions per game, {1e6 * elapsed / steps:.0f} us per action"
            )


if __name__ == "__main__":
    main()
