"""Yellow & Yangtze benchmarks: placement legality and conflict detection on a full board, random games.

Run: .venv/bin/python tests/bench/bench_yellow_yangtze.py  (prints numbers, asserts nothing about time)
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.engines.base import SeatInfo  # noqa: E402
from games.engines.chance import table_rng  # noqa: E402
from shelf.yellow_yangtze import YellowYangtzeGame  # noqa: E402
from shelf.yellow_yangtze.rules.common import occupied  # noqa: E402
from shelf.yellow_yangtze.rules.conflicts import war_sides  # noqa: E402
from shelf.yellow_yangtze.rules.placement import LeaderEnv, tile_target_code  # noqa: E402


def full_board(game: YellowYangtzeGame, rng: random.Random, fill: float = 0.8):
    """The practice board about 80% covered with random tiles, plus leaders next to black tiles."""
    s = game.setup(rng)
    board = game.board
    tiles = dict(s.tiles)
    for h in sorted(board.hexes):
        if h not in tiles and rng.random() < fill:
            tiles[h] = "blue" if h in board.river else rng.choice(["black", "red", "green", "yellow", "black"])
    empty = [h for h in sorted(board.land) if h not in tiles]
    leaders = []
    for seat in range(len(game.seats)):
        for colour in ("black", "red", "blue", "green", "yellow"):
            spots = [h for h in empty if any(tiles.get(n) == "black" for n in board.neighbours[h])]
            if spots and rng.random() < 0.7:
                h = rng.choice(spots)
                empty.remove(h)
                leaders.append((seat, colour, h))
    return replace(s, tiles=tuple(sorted(tiles.items())), leaders=tuple(sorted(leaders)))


def per_call(fn, calls: int) -> float:
    t = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - t) / calls * 1e6


def main() -> None:
    seats = [SeatInfo(i, f"P{i}", "red") for i in range(4)]
    game = YellowYangtzeGame({}, seats)
    rng = random.Random(1)
    s = full_board(game, rng)
    occ = occupied(s)
    empty = sorted(game.board.hexes - occ)
    print(f"full board: {len(s.tiles)} tiles, {len(s.leaders)} leaders, {len(empty)} empty hexes")
    hexes = sorted(game.board.hexes)

    def tile_check():
        tile_target_code(game.ctx, s, "red", rng.choice(hexes), occ)

    env = LeaderEnv(game.ctx, s, 0, "red")

    def leader_check():
        env.check(rng.choice(hexes))

    def leader_check_fresh():
        LeaderEnv(game.ctx, s, 0, "red").check(rng.choice(hexes))

    def conflict():
        war_sides(game.ctx, s, rng.choice(empty))

    print(f"tile placement legality:            {per_call(tile_check, 20000):8.2f} us/call")
    print(f"leader placement legality (shared): {per_call(leader_check, 20000):8.2f} us/call")
    print(f"leader placement legality (fresh):  {per_call(leader_check_fresh, 2000):8.2f} us/call")
    print(f"war detection for a placed tile:    {per_call(conflict, 2000):8.2f} us/call")
    print(f"legal_actions, main step:           {per_call(lambda: game.legal_actions(s, s.active), 200):8.0f} us/call")

    for n in (2, 3, 4):
        g = YellowYangtzeGame({}, seats[:n])
        times, steps = [], []
        for seed in range(10):
            t = time.perf_counter()
            state = g.setup(table_rng(seed, 0))
            chooser = random.Random(seed)
            k = 0
            while g.result(state) is None:
                k += 1
                seat = g.prompt(state).seats[0]
                action = chooser.choice(g.legal_actions(state, seat))
                state = g.apply(state, seat, g.fill_chance(state, seat, action, table_rng(seed, k)))
            times.append(time.perf_counter() - t)
            steps.append(k)
        print(f"random full game, {n} players: {sum(times) / len(times) * 1000:7.1f} ms "
              f"({sum(steps) / len(steps):.0f} actions on average)")


if __name__ == "__main__":
    main()
