"""Bench: the move write path as a phone drives it over HTTP (prints CPU ms and queries per move; asserts nothing).

Run: .venv/bin/python tests/bench/bench_post_action.py [tables] [moves per table] [runs] [--app-dir DIR]

Plays Sorry! tables (4 seats, digital) through ``POST /api/tables/<code>/actions/`` with a bearer token,
and through the phone page's tap (``POST /t/<code>/act/``, htmx, live socket open: answered 204), on
SQLite with the in-memory channel layer, as the embedded server runs them. Only the requests are timed,
with ``time.process_time()`` (CPU of this process), min over ``runs``; choosing the next move is not.
Queries per move are counted in a separate, untimed pass (the debug cursor costs CPU of its own).

``--app-dir DIR`` measures the checkout DIR instead of this one (its own code, with this venv), so two
checkouts compare by running this file twice. Tables, seats and moves go only through the app's
public HTTP interfaces (``POST /api/tables/``, ``GET .../prompt/``, the join link), so any checkout
that serves them can be measured.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

_parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
_parser.add_argument("tables", nargs="?", type=int, default=8)
_parser.add_argument("moves", nargs="?", type=int, default=60, help="moves per table")
_parser.add_argument("runs", nargs="?", type=int, default=3, help="timed runs (the minimum is printed)")
_parser.add_argument("--app-dir", type=Path, default=Path(__file__).resolve().parents[2],
                     help="the checkout to measure (default: this one)")
ARGS = _parser.parse_args()
ROOT = ARGS.app_dir.resolve()
sys.path.insert(0, str(ROOT))
os.chdir(ROOT)
DB = Path(tempfile.mkdtemp()) / "bench.sqlite3"
os.environ["DJANGO_SETTINGS_MODULE"] = "companion.settings"
os.environ["DATABASE_URL"] = f"sqlite:///{DB}"
os.environ["REDIS_URL"] = ""

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402


class BenchTable:
    """A Sorry! table made through the API: its code, seat tokens, and (for taps) a phone client per seat."""

    def __init__(self, api: Client, with_phones: bool) -> None:
        r = api.post("/api/tables/", json.dumps({"game": "sorry", "options": {},
                                                  "seats": [{"name": n} for n in "ABCD"]}),
                     content_type="application/json")
        if r.status_code != 201:
            raise SystemExit(f"create table answered {r.status_code}: {r.content[:300]!r}")
        data = r.json()
        self.code = data["code"]
        self.tokens = {s["index"]: s["token"] for s in data["seats"]}
        self.phones = {i: self._phone(t) for i, t in self.tokens.items()} if with_phones else {}

    def _phone(self, token: str) -> Client:
        """A client holding the seat's cookie, as after opening the join link."""
        client = Client()
        client.get(f"/t/{self.code}/join/")
        r = client.post(f"/t/{self.code}/join/", {"token": token})
        if r.status_code != 302:
            raise SystemExit(f"join answered {r.status_code}")
        return client

    def next_move(self, api: Client, chooser: random.Random) -> tuple[int, int, dict] | None:
        """``(seat, version, action)``: a random legal action of a seat that must act; ``None`` once over."""
        def prompt(seat: int) -> dict:
            return api.get(f"/api/tables/{self.code}/prompt/", HTTP_AUTHORIZATION=f"Bearer {self.tokens[seat]}").json()

        p = prompt(0)
        if p["status"] != "playing" or not p["prompt"]["seats"]:
            return None
        seat = chooser.choice(p["prompt"]["seats"])
        p = p if seat == 0 else prompt(seat)
        if not p["legal"]:
            return None
        return seat, p["version"], chooser.choice(p["legal"])["action"]


def _play(path: str, tables: int, moves: int, seed: int, count_queries: bool) -> tuple[float, int, int]:
    """Play ``moves`` moves at each of ``tables`` fresh tables; ``(CPU seconds, moves, queries)``."""
    api = Client()
    made = [BenchTable(api, with_phones=path == "tap") for _ in range(tables)]
    chooser = random.Random(seed)
    cpu, done, queries = 0.0, 0, 0
    for n in range(moves):
        for table in made:
            move = table.next_move(api, chooser)
            if move is None:
                continue
            seat, version, action = move
            key = f"k{n}"
            if path == "api":
                client, url = api, f"/api/tables/{table.code}/actions/"
                data = json.dumps({"action": action, "version": version, "key": key})
                extra = {"content_type": "application/json", "HTTP_AUTHORIZATION": f"Bearer {table.tokens[seat]}"}
            else:
                client, url = table.phones[seat], f"/t/{table.code}/act/"
                data = {"action": json.dumps(action), "version": version, "key": key}
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
    tables, moves, runs = ARGS.tables, ARGS.moves, ARGS.runs
    call_command("migrate", verbosity=0)
    settings.ALLOWED_HOSTS = ["*"]
    print(f"checkout {ROOT}")
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
