"""Bench: random full Sorry! games through the one write path on SQLite (prints actions/s).

Run: .venv/bin/python tests/bench/bench_write_path.py [games]
Each action goes through submit_action: row lock, version check,
apply, log row, snapshot save, broadcast (in-memory channel layer). Prints
numbers only; asserts nothing about time.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from embedded_django import setup  # noqa: E402

DB = setup()

from django.core.management import call_command  # noqa: E402

from games.models import Table  # noqa: E402
from games.write.moves import submit_action  # noqa: E402
from games.write.pregame import create_table  # noqa: E402


def play_one(seed: int) -> int:
    """Play one random 4-player digital Sorry! game to the end; return the number of actions."""
    table = create_table("sorry", {}, [{"name": n} for n in ("A", "B", "C", "D")])
    chooser = random.Random(seed)
    game = table.game()
    actions = 0
    while True:
        table = Table.objects.get(id=table.id)
        state = game.decode(table.state)
        if game.result(state) is not None:
            return actions
        seat = chooser.choice(game.prompt(state).seats)
        action = chooser.choice(game.legal_actions(state, seat))
        submit_action(table.code, seat, action, table.version, f"{seed}-{actions}")
        actions += 1


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    call_command("migrate", verbosity=0)
    total_actions = 0
    start = time.perf_counter()
    for seed in range(games):
        total_actions += play_one(seed)
    elapsed = time.perf_counter() - start
    print(f"write path (SQLite, in-memory layer): {games} Sorry! games, {total_actions} actions, "
          f"{elapsed:.2f} s, {total_actions / elapsed:.0f} actions/s, "
          f"{1000 * elapsed / total_actions:.2f} ms/action")


if __name__ == "__main__":
    main()
