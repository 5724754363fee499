"""Sorry! engine benchmark: prints timings, asserts nothing about time.

Run: .venv/bin/python tests/bench/bench_sorry.py
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.engines.base import SeatInfo  # noqa: E402
from shelf.sorry import SorryGame  # noqa: E402
from shelf.sorry.positions import moves_for_position  # noqa: E402

COLOURS = ["red", "blue", "yellow", "green"]


def game_for(n: int, **options) -> SorryGame:
    return SorryGame(options, [SeatInfo(i, f"P{i}", COLOURS[i]) for i in range(n)])


def full_game(game: SorryGame, seed: int) -> int:
    rng = random.Random(seed)
    state = game.setup(rng)
    steps = 0
    while game.result(state) is None:
        seat = game.prompt(state).seats[0]
        action = game.fill_chance(state, seat, rng.choice(game.legal_actions(state, seat)), rng)
        state = game.apply(state, seat, action)
        steps += 1
    return steps


def bench(label: str, game: SorryGame, games: int = 20) -> None:
    start = time.perf_counter()
    steps = sum(full_game(game, seed) for seed in range(games))
    elapsed = time.perf_counter() - start
    print(f"{label:28s} {1000 * elapsed / games:8.1f} ms/game  {steps / games:7.0f} actions/game  "
          f"{1e6 * elapsed / steps:6.1f} us/action")


def main() -> None:
    for n in (2, 3, 4):
        bench(f"standard, {n} players", game_for(n))
    bench("team, 4 players", game_for(4, team_mode=True))
    bench("points, 4 players", game_for(4, points_mode=True))
    game = game_for(4)
    state = game.state_from_position("R: R0@T6 R1@T9 R2@T30 R3@T50 B0@T12 Y0@T40", card="7")
    start = time.perf_counter()
    for _ in range(500):
        game.legal_actions(state, 0)
    print(f"{'legal_actions, 4-pawn 7':28s} {1e6 * (time.perf_counter() - start) / 500:8.1f} us/call")
    start = time.perf_counter()
    for _ in range(200):
        moves_for_position("R: R0@T6 R1@T9 R2@T30 R3@T50 B0@T12", "7", {})
    print(f"{'moves_for_position, 7':28s} {1e6 * (time.perf_counter() - start) / 200:8.1f} us/call")


if __name__ == "__main__":
    main()
