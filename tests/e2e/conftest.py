"""Browser tests: a real ASGI server (daphne) in a subprocess and Debian's Chromium through Playwright.

The server gets its own SQLite file, so these tests need no pytest-django
database. Chromium comes from Debian's package (``.ci/run`` installs it);
Playwright's own browser download cannot work on this machine.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-quic",
                 "--no-first-run", "--disable-component-update", "--disable-sync"]


def chromium_path() -> str:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    raise RuntimeError("Debian's chromium is not installed (apt-get install chromium); .ci/run installs it")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def live_url(tmp_path_factory):
    """Start daphne on a free loopback port with a fresh SQLite file; yield its base URL."""
    db = tmp_path_factory.mktemp("e2e") / "e2e.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "DEBUG": "false", "REDIS_URL": "",
           "DJANGO_SETTINGS_MODULE": "companion.settings"}
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, check=True,
                   capture_output=True)
    port = int(os.environ.get("E2E_PORT") or 0) or free_port()  # a fixed port when the machine's ports are shared out
    log = open(tmp_path_factory.mktemp("e2e-log") / "daphne.log", "w")
    server = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                               "companion.asgi:application"], cwd=ROOT, env=env, stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            urllib.request.urlopen(url + "/manifest.webmanifest", timeout=1)
            break
        except OSError:
            time.sleep(0.2)
    else:
        server.terminate()
        raise RuntimeError("the test server did not start")
    yield url
    server.terminate()
    server.wait(10)
    log.close()


@pytest.fixture(scope="package")
def browser():
    """Headless Debian Chromium driven by Playwright, stopped when the browser tests are done.

    Playwright's sync API runs its event loop in this thread and marks it running between its calls, so
    while it is open every later test in the process would seem to run inside an event loop: asgiref's
    ``async_to_sync`` refuses to run there (the sync test client needs it for ServeStatic's async-only
    middleware), and so does pytest-asyncio. Stopped with this package, it leaves the thread as it found it.
    """
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def phone(browser):
    """Make a new phone: a browser context at 360x640 with touch, closed after the test."""
    contexts = []

    def make():
        ctx = browser.new_context(viewport={"width": 360, "height": 640}, has_touch=True, is_mobile=True)
        contexts.append(ctx)
        page = ctx.new_page()
        page.set_default_timeout(15000)
        return page

    yield make
    for ctx in contexts:
        ctx.close()


def choose_first_seat_without_walkthrough(page) -> None:
    """Lobby: the host picks seat 0 to start and skips the set-up walkthrough, so a
    test plays from the first tap as tables did before the lobby asked who starts."""
    page.select_option("select[name=start]", "chosen")
    page.select_option("select[name=start_seat]", "0")
    page.uncheck("input[name=walkthrough]")


def two_phones_at_a_new_table(phone, live_url: str, slug: str, options: dict[str, str] | None = None):
    """Alice creates a two-seat ``slug`` table in the lobby (as a person would), Bob opens his join link.

    ``options``: lobby option fields to select, e.g. ``{"components": "physical"}``.
    Returns ``(alice, bob, code)`` once both phones show the table with their websocket open.
    """
    import re

    alice = phone()
    alice.goto(live_url + "/")
    with alice.expect_response(lambda r: f"game={slug}" in r.url):
        alice.select_option("select[name=game]", slug)  # htmx swaps in the game's seats and options
    alice.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
    alice.select_option("select[name=players]", "2")
    alice.fill("input[name=name_0]", "Alice")
    alice.fill("input[name=name_1]", "Bob")
    choose_first_seat_without_walkthrough(alice)
    for name, value in (options or {}).items():
        alice.select_option(f"select[name=opt-{name}]", value)
    alice.click("button.big")
    alice.wait_for_url(re.compile(r"/t/\w+/host/$"))
    bob_link = alice.locator("input.link").nth(1).input_value()
    code = re.search(r"/t/(\w+)/", alice.url).group(1)
    alice.click("text=Open my seat")
    alice.wait_for_selector("#table")
    bob = phone()
    bob.goto(bob_link)
    bob.wait_for_url(re.compile(rf"/t/{code}/$"))
    assert "Bob" in bob.locator("#table .status").inner_text()
    # Both sockets open before the first tap.
    alice.wait_for_selector("body[data-ws=open]", state="attached")
    bob.wait_for_selector("body[data-ws=open]", state="attached")
    return alice, bob, code
