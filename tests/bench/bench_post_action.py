"""Bench: the move write path as a phone drives it (prints CPU ms and queries per move; asserts nothing).

Run: .venv/bin/python tests/bench/bench_post_action.py [tables] [moves per table] [runs]

Plays Sorry! tables (4 seats, digital) through ``POST /api/tables/<code>/actions/`` with a bearer token,
and through the phone page's tap (``POST /t/<code>/act/``, htmx, live socket open: answered 204), on
SQLite with the in-memory channel layer, as the embedded server runs them. Only the requests are timed,
with ``time.process_time()`` (CPU of this process), min over ``runs``; choosing the next move is not.
Queries per move are counted in a separate, untimed pass (the debug cursor costs CPU of its own).
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
DB = Path(tempfile.mkdtemp()) / "bench.sqlite3"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "companion.settings")
os.environ["DATABASE_URL"] = f"sqlite:///{DB}"
os.environ["REDIS_URL"] = ""

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from games.commands.pregame import create_table  # noqa: E402
from games.models import Table  # noqa: E402
from tests.conftest import phone_for  # noqa: E402


def _next_move(table: Table, chooser: random.Random) -> tuple[int, dict] | None:
    game = table.game()
    state = game.decode(table.state)
    if game.result(state) is not None:
        return None
    seat = chooser.choice(game.prompt(state).seats)
    return seat, chooser.choice(game.legal_actions(state, seat))


def _play(path: str, tables: int, moves: int, seed: int, count_queries: bool) -> tuple[float, int, int]:
    """Play ``moves`` moves at each of ``tables`` fresh tables; ``(CPU seconds, moves, queries)``."""
    made = [create_table("sorry", {}, [{"name": n} for n in "ABCD"]) for _ in range(tables)]
    tokens = {t.code: {s.index: s.token for s in t.seats.all()} for t in made}
    api = Client()
    phones = {t.code: {i: phone_for(t, i) for i in range(4)} for t in made} if path == "tap" else {}
    chooser = random.Random(seed)
    cpu, done, queries = 0.0, 0, 0
    for n in range(moves):
        for table in made:
            table.refresh_from_db()
            move = _next_move(table, chooser)
            if move is None:
                continue
            seat, action = move
            key = f"k{n}"
            if path == "api":
                client, url = api, f"/api/tables/{table.code}/actions/"
                data = json.dumps({"action": action, "version": table.version, "key": key})
                extra = {"content_type": "application/json", "HTTP_AUTHORIZATION": f"Bearer {tokens[table.code][seat]}"}
            else:
                client, url = phones[table.code][seat], f"/t/{table.code}/act/"
                data = {"action": json.dumps(action), "version": table.version, "key": key}
                extra = {"HTTP_HX_REQUEST": "true", "HTTP_X_LIVE_SOCKET": "open"}
            if count_queries:
                with CaptureQueriesContext(connection) as captured:
                    response = client.post(url, data, **extra)
                queries += len(captured)
            else:
                start = time.process_time()
                response = client.post(url, data, **extra)
                cpu += time.process_time() - start
            if response.status_code not in (200, 204):
                raise SystemExit(f"{path}: move answered {response.status_code}: {response.content[:300]!r}")
            done += 1
    return cpu, done, queries


def main() -> None:
    tables = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    moves = int(sys.argv[2]) if len(sys.argv) > 2 else 60
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    call_command("migrate", verbosity=0)
    settings.ALLOWED_HOSTS = ["*"]
    for path in ("api", "tap"):
        _, counted, queries = _play(path, tables, moves, 0, count_queries=True)
        per_move = []
        for run in range(runs):
            cpu, done, _ = _play(path, tables, moves, run, count_queries=False)
            per_move.append(1000 * cpu / done)
        print(f"{path}: {min(per_move):.3f} CPU ms/move (min of {runs} runs of {done} moves), "
              f"{queries / counted:.2f} queries/move")


if __name__ == "__main__":
    main()
