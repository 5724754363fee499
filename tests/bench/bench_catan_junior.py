"""Benchmark: random full games of Catan Junior in the engine (prints numbers, asserts nothing about time).

Run: .venv/bin/python tests/bench/bench_catan_junior.py
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.engines.base import SeatInfo  # noqa: E402
from games.engines.chance import table_rng  # noqa: E402
from shelf.catan_junior import CatanJuniorGame  # noqa: E402


def one_game(n: int, seed: int, with_views: bool = False) -> tuple[float, int]:
    """Play one random legal game; return (milliseconds, actions)."""
    game = CatanJuniorGame({}, [SeatInfo(i, f"P{i}", CatanJuniorGame.colours[i]) for i in range(n)])
    chooser = random.Random(seed)
    start = time.perf_counter()
    state = game.setup(table_rng(seed, 0))
    steps = 0
    while game.result(state) is None:
        seat = chooser.choice(game.prompt(state).seats)
        action = chooser.choice(game.legal_actions(state, seat))
        steps += 1
        action = game.fill_chance(state, seat, action, table_rng(seed, steps))
        state = game.apply(state, seat, action)
        if with_views:
            game.view(state, seat)
            game.encode(state)
    return (time.perf_counter() - start) * 1000, steps


def main() -> None:
    games = 20
    for n in (2, 3, 4):
        runs = [one_game(n, seed) for seed in range(games)]
        ms = [r[0] for r in runs]
        steps = [r[1] for r in runs]
        print(
            f"{n} players: {statistics.mean(ms):7.1f} ms per random full game "
            f"(median {statistics.median(ms):.1f}, max {max(ms):.1f}), "
            f"{statistics.mean(steps):.0f} actions, {1000 * sum(ms) / sum(steps):.0f} µs per action"
        )
    runs = [one_game(4, seed, with_views=True) for seed in range(5)]
    print(f"4 players with view + encode after every action: {statistics.mean(r[0] for r in runs):.1f} ms per game")


if __name__ == "__main__":
    main()
