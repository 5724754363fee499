"""The doors: throttles count the socket's address (or the trusted proxy's), the import body limit is the
documented one, and an API refusal writes its numbers in one digit system."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.conf import settings as django_settings
from django.core.cache import caches
from django.test import override_settings
from rest_framework.test import APIClient

from games.write import export
from games.write.pregame import create_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(fixture_game_registered):
    return create_table("counting", {}, [{"name": "Alice"}, {"name": "Bob"}])


def _rates(**rates):
    return override_settings(REST_FRAMEWORK={**django_settings.REST_FRAMEWORK,
                                             "DEFAULT_THROTTLE_RATES": {"create_table": "5/min", "claim": "5/min",
                                                                        "table": "5/min", **rates}})


def _forwarded() -> str:
    return ", ".join(".".join(str(random.randrange(1, 255)) for _ in range(4)) for _ in range(random.randrange(1, 3)))


def test_random_forwarded_for_headers_do_not_escape_the_limit_by_default(table):
    caches["throttle"].clear()
    with _rates():
        answers = [APIClient().get(f"/api/tables/{table.code}/", HTTP_X_FORWARDED_FOR=_forwarded(),
                                   REMOTE_ADDR="198.51.100.7").status_code for _ in range(12)]
        assert answers[:5] == [200] * 5 and set(answers[5:]) == {429}
        # the victim's own address is not pushed to 429 by requests claiming to come from it
        caches["throttle"].clear()
        for _ in range(8):
            APIClient().get(f"/api/tables/{table.code}/", HTTP_X_FORWARDED_FOR="203.0.113.9",
                            REMOTE_ADDR="198.51.100.7")
        assert APIClient().get(f"/api/tables/{table.code}/", REMOTE_ADDR="203.0.113.9").status_code == 200
    caches["throttle"].clear()


def test_behind_one_trusted_proxy_the_last_forwarded_address_counts(table):
    caches["throttle"].clear()
    with _rates(), override_settings(REST_FRAMEWORK={**django_settings.REST_FRAMEWORK, "NUM_PROXIES": 1,
                                                     "DEFAULT_THROTTLE_RATES": {"table": "5/min"}}):
        proxy = "10.0.0.2"
        client_a = [APIClient().get(f"/api/tables/{table.code}/", REMOTE_ADDR=proxy,
                                    HTTP_X_FORWARDED_FOR=f"{_forwarded()}, 192.0.2.10").status_code
                    for _ in range(7)]
        assert client_a[:5] == [200] * 5 and set(client_a[5:]) == {429}, "a made-up left part changes nothing"
        other = APIClient().get(f"/api/tables/{table.code}/", REMOTE_ADDR=proxy,
                                HTTP_X_FORWARDED_FOR="192.0.2.11")
        assert other.status_code == 200, "another client behind the same proxy has its own count"
    caches["throttle"].clear()


def test_the_throttle_setting_is_zero_trusted_proxies_by_default():
    assert django_settings.TRUSTED_PROXIES == 0 and django_settings.REST_FRAMEWORK["NUM_PROXIES"] == 0


def test_the_api_takes_an_import_as_large_as_the_import_page_and_no_larger():
    assert export.MAX_IMPORT_BYTES == 2 * 1024 * 1024 > django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    filler = "x" * (int(1.5 * 1024 * 1024))
    body = json.dumps({"format": "companion-export", "version": 2, "padding": filler})
    answer = APIClient().post("/api/imports/", body, content_type="application/json")
    assert answer.status_code == 400 and answer.json()["code"] == "bad_import", "read and judged, not 413"
    too_big = json.dumps({"padding": "x" * (export.MAX_IMPORT_BYTES + 1)})
    answer = APIClient().post("/api/imports/", too_big, content_type="application/json")
    assert answer.status_code == 413 and answer.json()["code"] == "too_large"


ASCII = re.compile("[0-9]")
PERSIAN = re.compile("[۰-۹]")


@pytest.mark.parametrize("language", ["fa", "ps"])
def test_an_api_refusal_writes_its_numbers_in_one_digit_system(language):
    client = APIClient(HTTP_ACCEPT_LANGUAGE=language)
    answer = client.post("/api/tables/", {"game": "sorry", "seats": [{"name": f"n{i}"} for i in range(5)]},
                         format="json")
    assert answer.status_code == 400
    message = answer.json()["message"]
    assert PERSIAN.search(message) and not ASCII.search(message), message
    invalid = client.post("/api/tables/", {"game": "sorry", "seats": [{"name": "a"}] * 7}, format="json").json()
    assert not ASCII.search(json.dumps(invalid["fields"], ensure_ascii=False)), invalid
    latin = APIClient(HTTP_ACCEPT_LANGUAGE=language)
    latin.cookies["digits"] = "latin"
    message = latin.post("/api/tables/", {"game": "sorry", "seats": [{"name": f"n{i}"} for i in range(5)]},
                         format="json").json()["message"]
    assert ASCII.search(message) and not PERSIAN.search(message), "the phone's own choice of digits"


def test_with_redis_the_throttle_counters_are_shared_by_every_worker():
    import subprocess
    import sys

    code = ("import django; django.setup(); from django.conf import settings; "
            "print(settings.CACHES['throttle']['BACKEND'], settings.CACHES['throttle']['LOCATION'])")
    env = {**__import__("os").environ, "DJANGO_SETTINGS_MODULE": "companion.settings",
           "REDIS_URL": "redis://127.0.0.1:6399/0"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["django.core.cache.backends.redis.RedisCache", "redis://127.0.0.1:6399/0"], out


def test_a_shared_throttle_cache_that_fails_counts_locally_and_never_fails_a_request(table):
    from games.api import throttles

    dead = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2}}
    caches["throttle-local"].clear()
    try:
        with override_settings(CACHES={**django_settings.CACHES, "throttle": dead}), _rates():
            answers = [APIClient().get(f"/api/tables/{table.code}/", REMOTE_ADDR="198.51.100.8").status_code
                       for _ in range(7)]
    finally:
        throttles._DOWN_UNTIL[0] = 0.0
        caches["throttle-local"].clear()
    assert answers[:5] == [200] * 5 and set(answers[5:]) == {429}


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.django_db(False)
def test_a_spoofed_forwarded_for_from_loopback_does_not_change_the_throttles_client_under_make_run(tmp_path):
    """The server ``make run`` starts, with the default TRUSTED_PROXIES: requests from 127.0.0.1 that each claim
    another address in ``X-Forwarded-For`` share one throttle count (uvicorn must not believe the header either)."""
    import os
    import shlex
    import subprocess
    import sys
    import time
    import urllib.error
    import urllib.request
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    port = _free_port()
    plan = subprocess.run(["make", "--no-print-directory", "-n", "run", f"PORT={port}",
                           f"STATIC_STAMP={tmp_path / 'never'}"], cwd=root, capture_output=True, text=True,
                          timeout=60).stdout
    words = shlex.split(next(line for line in plan.splitlines() if "uvicorn " in line))
    start = next(i for i, word in enumerate(words) if "=" not in word)
    env = {k: v for k, v in os.environ.items()
           if k not in ("TRUSTED_PROXIES", "FORWARDED_ALLOW_IPS", "REDIS_URL", "DATABASE_URL")}
    env.update(dict(word.split("=", 1) for word in words[:start]))
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", API_THROTTLE_TABLE="3/min",
               STATIC_FROM_FINDERS="true", SECRET_KEY=django_settings.SECRET_KEY, DATA_DIR=str(tmp_path))
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=root, env=env, check=True, timeout=120)
    command = [str(root / words[start]) if not Path(words[start]).is_absolute() else words[start], *words[start + 1:]]
    server = subprocess.Popen(command, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def status(forwarded: str) -> int:
            request = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables/NOSUCH/",
                                             headers={"X-Forwarded-For": forwarded})
            try:
                with urllib.request.urlopen(request, timeout=10) as answer:
                    return answer.status
            except urllib.error.HTTPError as refused:
                return refused.code

        for _ in range(100):
            try:
                status("192.0.2.1")  # the server is up: this first request counts too
                break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.1)
        answers = [status(f"198.51.100.{i}") for i in range(2, 8)]
        assert answers[:2] == [404, 404] and set(answers[2:]) == {429}, answers
    finally:
        server.terminate()
        server.wait(timeout=20)
