"""Scale-out: two ASGI workers on PostgreSQL + Redis behave as one server (shared/DESIGN.md "Running").

Run by ``make test-scale`` (and ``.ci/run``) with DATABASE_URL pointing at
PostgreSQL and REDIS_URL at Redis. Each worker is a real daphne process;
a phone connected to worker B sees a move posted through worker A, and
two phones posting the same version at once through different workers
get one success and one 409.
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
from pathlib import Path

import pytest
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(url: str, body: dict | None = None, token: str = "") -> tuple[int, dict]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, json.dumps(body).encode() if body is not None else None, headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as err:
        return err.code, json.load(err)


@pytest.fixture(scope="module")
def workers(tmp_path_factory):
    database, redis = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    assert database.startswith("postgres") and redis.startswith("redis"), \
        "run with DATABASE_URL=postgres://... and REDIS_URL=redis://... (make test-scale)"
    env = {**os.environ, "DEBUG": "false", "DJANGO_SETTINGS_MODULE": "companion.settings"}
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, check=True,
                   capture_output=True)
    logs = tmp_path_factory.mktemp("workers")
    procs, urls = [], []
    for name in ("a", "b"):
        port = free_port()
        log = open(logs / f"{name}.log", "w")
        procs.append((subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                                        "companion.asgi:application"], cwd=ROOT, env=env, stdout=log,
                                       stderr=log), log))
        urls.append(f"127.0.0.1:{port}")
    deadline = time.time() + 30
    for url in urls:
        while True:
            try:
                urllib.request.urlopen(f"http://{url}/manifest.webmanifest", timeout=1)
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.2)
    yield urls
    for proc, log in procs:
        proc.terminate()
        proc.wait(10)
        log.close()


def test_a_move_posted_through_one_worker_reaches_a_phone_on_the_other(workers):
    a, b = workers
    status, table = call(f"http://{a}/api/tables/", {"game": "sorry", "seats": [{"name": "Ann"}, {"name": "Ben"}]})
    assert status == 201
    ann, ben = table["seats"][0]["token"], table["seats"][1]["token"]
    with connect(f"ws://{b}/ws/tables/{table['code']}/", origin=f"http://{b}",
                 additional_headers={"Authorization": f"Bearer {ben}"}) as ben_phone:
        assert 'data-version="0"' in ben_phone.recv(timeout=10)
        status, done = call(f"http://{a}/api/tables/{table['code']}/actions/", {"action": {"kind": "draw"},
                                                                              "version": 0}, ann)
        assert status == 200 and done["version"] == 1
        frame = ben_phone.recv(timeout=10)
        while 'data-version="1"' not in frame:  # first, maybe, the push of Ben's seat claimed by his bearer socket
            frame = ben_phone.recv(timeout=10)
        assert "Ann" in frame


def test_two_phones_on_two_workers_posting_at_once_get_one_success_and_one_409(workers):
    a, b = workers
    _, table = call(f"http://{a}/api/tables/", {"game": "sorry", "seats": [{"name": "Ann"}, {"name": "Ben"}]})
    ann = table["seats"][0]["token"]
    results: list[int] = []
    barrier = threading.Barrier(2)

    def tap(worker: str, key: str) -> None:
        barrier.wait()
        status, _ = call(f"http://{worker}/api/tables/{table['code']}/actions/",
                         {"action": {"kind": "draw"}, "version": 0, "key": key}, ann)
        results.append(status)

    threads = [threading.Thread(target=tap, args=(w, k)) for w, k in ((a, "phone-1"), (b, "phone-2"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [200, 409]
    _, log = call(f"http://{b}/api/tables/{table['code']}/log/")
    assert len([line for line in log["log"] if line["kind"] == "game"]) == 1  # the opening row #0 aside
