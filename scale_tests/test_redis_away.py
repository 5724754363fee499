"""Scale-out with Redis away: moves are still answered and saved.

Run by ``make test-scale`` with DATABASE_URL pointing at PostgreSQL. A real
daphne worker runs with REDIS_URL pointing at (a) a port where nothing
listens (Redis down) and (b) a tiny TCP server that accepts connections and
never answers (Redis frozen). Phones post moves through the API; every move
must be answered 200 within a bounded time and be in the log: 0 lost, 0 x 5xx.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter

import pytest

from scale_tests.test_two_workers import ROOT, call, free_port

MOVES = 12


def post(url: str, body: dict, token: str) -> tuple[int, dict]:
    """Like ``call``, but a 5xx (an HTML page) or a timeout is counted, not raised."""
    request = urllib.request.Request(url, json.dumps(body).encode(), {
        "Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=15) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as err:
        return err.code, {}
    except TimeoutError:
        return 599, {}


class FrozenRedis:
    """Accepts TCP connections on a loopback port and never sends a byte."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.held: list[socket.socket] = []
        self.accepted = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            self.accepted += 1
            self.held.append(conn)

    def close(self) -> None:
        self.server.close()
        for conn in self.held:
            conn.close()


def start_worker(redis_url: str, log_path) -> tuple[subprocess.Popen, str]:
    database = os.environ.get("DATABASE_URL", "")
    assert database.startswith("postgres"), "run with DATABASE_URL=postgres://... (make test-scale)"
    env = {**os.environ, "DEBUG": "false", "DJANGO_SETTINGS_MODULE": "companion.settings", "REDIS_URL": redis_url}
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, check=True,
                   capture_output=True)
    port = free_port()
    log = open(log_path, "w")  # noqa: SIM115 - closed with the worker
    proc = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                             "companion.asgi:application"], cwd=ROOT, env=env, stdout=log, stderr=log)
    url = f"127.0.0.1:{port}"
    deadline = time.time() + 30
    while True:
        try:
            urllib.request.urlopen(f"http://{url}/manifest.webmanifest", timeout=1)
            return proc, url
        except OSError:
            if time.time() > deadline:
                proc.terminate()
                raise
            time.sleep(0.2)


@pytest.fixture(params=["down", "frozen"])
def worker_without_redis(request, tmp_path):
    frozen = FrozenRedis() if request.param == "frozen" else None
    port = frozen.port if frozen else free_port()  # nothing listens on a fresh free port
    proc, url = start_worker(f"redis://127.0.0.1:{port}/0", tmp_path / "worker.log")
    yield request.param, url, frozen
    proc.terminate()
    proc.wait(10)
    if frozen:
        frozen.close()


def test_moves_are_answered_and_saved_while_redis_is_down_or_frozen(worker_without_redis):
    how, url, frozen = worker_without_redis
    status, table = call(f"http://{url}/api/tables/", {"game": "sorry", "seats": [{"name": "Ann"}, {"name": "Ben"}]})
    assert status == 201
    tokens = [seat["token"] for seat in table["seats"]]
    code = table["code"]
    counts: Counter = Counter()
    times: list[float] = []
    for n in range(MOVES):
        _, seen = call(f"http://{url}/api/tables/{code}/prompt/", token=tokens[0])
        seat = seen["prompt"]["seats"][0]
        _, mine = call(f"http://{url}/api/tables/{code}/prompt/", token=tokens[seat])
        started = time.monotonic()
        status, _ = post(f"http://{url}/api/tables/{code}/actions/",
                         {"action": mine["legal"][0]["action"], "version": mine["version"], "key": f"m{n}"},
                         tokens[seat])
        times.append(time.monotonic() - started)
        counts["posted"] += 1
        counts["answered 200" if status == 200 else f"answered {status}"] += 1
        counts["5xx"] += status >= 500
    _, log = call(f"http://{url}/api/tables/{code}/log/")
    counts["saved"] = len([line for line in log["log"] if line["kind"] == "game"])  # not the opening row #0
    counts["lost"] = counts["posted"] - counts["saved"]  # every posted move was legal and new
    slowest, median = max(times), sorted(times)[len(times) // 2]
    print(f"\nRedis {how}: {dict(counts)}, answers took median {median:.2f} s, slowest {slowest:.2f} s"
          + (f", connections the frozen Redis held: {frozen.accepted}" if frozen else ""))
    assert counts["answered 200"] == MOVES and counts["5xx"] == 0
    assert counts["saved"] == MOVES and counts["lost"] == 0
    assert slowest < 2.5, "a move waits at most about BROADCAST_TIMEOUT for Redis (5.4 s before the fix)"
    if frozen:
        assert frozen.accepted > 0, "the worker really tried the frozen Redis"
