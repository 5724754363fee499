"""Browser tests: a real ASGI server (daphne) in a subprocess and Debian's Chromium through Playwright.

The server gets its own SQLite file, so these tests need no pytest-django
database. Chromium comes from Debian's package (``.ci/run`` installs it);
Playwright's own browser download cannot work on this machine.

A test gets its table and the phones at it from one fixture, ``table_at`` (the lobby's steps, or one API call,
then each seat's join link opened on a phone of its own); ``phone`` makes a bare phone for a page with no table.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
    """Start daphne on a free loopback port with a fresh SQLite file; yield its base URL.

    It serves the collected static files, as ``make run`` does: the phones run the minified scripts and style
    sheets that players get. The API schema viewers' bundles (no browser test opens them) are not collected.
    """
    db = tmp_path_factory.mktemp("e2e") / "e2e.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "DEBUG": "false", "REDIS_URL": "",
           "DJANGO_SETTINGS_MODULE": "companion.settings", "STATIC_FROM_FINDERS": "false",
           "STATIC_ROOT": str(tmp_path_factory.mktemp("e2e-static"))}
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, check=True,
                   capture_output=True)
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0",
                    "-i", "drf_spectacular_sidecar", "-i", "rest_framework"], cwd=ROOT, env=env, check=True,
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


#: The phone at the table (most table tests, ``phone_checks``); a shorter one is the ``phone`` fixture's own size.
PHONE = {"width": 360, "height": 740}
SHORT_PHONE = {"width": 360, "height": 640}


def api(live_url: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
    """One JSON call to the app's REST API (the same write path as a tap); a refusal comes back as ``{"error": status, ...}``."""
    request = urllib.request.Request(live_url + path, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json",
                                              **({"Authorization": f"Bearer {token}"} if token else {})})
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:  # a refusal (stale version after a push): the caller asks again
        return {"error": error.code, **json.loads(error.read() or b"{}")}


@pytest.fixture
def phone(browser, live_url):
    """Make a new phone: a browser context with touch (360 x 640 unless ``viewport`` says), in ``lang`` when given
    (the language cookie), closed after the test. ``mobile=False``: a screen with no touch, such as the tablet
    in the middle of the table."""
    contexts = []

    def make(viewport: dict = SHORT_PHONE, lang: str | None = None, mobile: bool = True):
        ctx = browser.new_context(viewport=viewport, has_touch=mobile, is_mobile=mobile, device_scale_factor=1)
        contexts.append(ctx)
        if lang:
            ctx.add_cookies([{"name": "django_language", "value": lang, "url": live_url}])
        page = ctx.new_page()
        page.set_default_timeout(15000)
        return page

    yield make
    for ctx in contexts:
        ctx.close()


def pick_game(page, slug: str) -> None:
    """Lobby: pick ``slug`` in the game picker and wait until htmx has swapped in its seats and options."""
    with page.expect_response(lambda r: f"game={slug}" in r.url):
        page.select_option("select[name=game]", slug)
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")


@dataclass
class Table:
    """A table made by :func:`table_at`, and the phones opened at its seats."""

    code: str
    seats: list[dict]  # per seat: its name, token and join link
    version: int | None  # the version the API gave the new table (None for one made in the lobby)
    host: Any  # the host's phone (a table made in the lobby): it holds the host cookie and seat 0
    phones: list  # per seat: its phone, None until opened
    make_phone: Callable
    lang: str | None
    viewport: dict

    @property
    def tokens(self) -> list[str]:
        return [s["token"] for s in self.seats]

    def open(self, seat: int, *, lang: str | None = None, viewport: dict | None = None, socket: bool = True,
             prepare: Callable | None = None):
        """A new phone (the table's language and size unless told) opens ``seat``'s join link; returned once it
        shows the table as that seat with its socket open (``socket=False``: a page whose socket never opens).
        ``prepare(page)`` runs before the link is opened (an init script, a request listener)."""
        page = self.make_phone(viewport or self.viewport, lang or self.lang)
        if prepare:
            prepare(page)
        page.goto(self.seats[seat]["join_url"])
        return self._arrived(seat, page, socket)

    def _arrived(self, seat: int, page, socket: bool = True):
        page.wait_for_url(re.compile(rf"/t/{self.code}/$"))
        if socket:
            page.wait_for_selector("body[data-ws=open]", state="attached")
        assert self.seats[seat]["name"] in page.locator("#table .status").inner_text(), "the phone holds its seat"
        self.phones[seat] = page
        return page


@pytest.fixture
def table_at(live_url, phone):
    """Make a table and open phones at it: ``table_at(slug, names, ...)`` returns a :class:`Table`.

    ``via="lobby"`` (the default): the host's phone makes it in the lobby as a person would (picks the game, the
    number of players, their names, who starts, the walkthrough, the rule options; Create the table), then opens
    its own seat from the host page ("Open my seat"), and each other seat opens its join link on a phone of its own.
    ``via="api"``: one ``POST /api/tables/``, for a test that plays moves through the API before a phone looks.

    ``start``: who starts, a start rule (``"printed"``, ``"youngest"``, ``"random"``...) or a seat number (the
    ``"chosen"`` rule with that seat); ``walkthrough``: the set-up walkthrough on or off; ``options``: rule options
    by name (a checkbox's is True or False). Left None, each is what the lobby or the API has by default.
    ``before_create(page)``: a test's own look at the filled lobby form, just before Create the table.
    ``phones``: the seats that get a phone at once (all unless told; ``()``: none, open them with ``Table.open``).
    ``lang`` and ``viewport``: every phone's language cookie and size.
    """

    def make(slug: str, names=("Alice", "Bob"), *, via: str = "lobby", start: str | int | None = None,
             walkthrough: bool | None = None, options: dict | None = None, before_create: Callable | None = None,
             phones=None, lang: str | None = None, viewport: dict = PHONE) -> Table:
        phones = range(len(names)) if phones is None else phones
        host = None
        if via == "api":
            body: dict[str, Any] = {"game": slug, "seats": [{"name": n} for n in names]}
            if options is not None:
                body["options"] = options
            if start is not None:
                body.update({"start": "chosen", "start_seat": start} if isinstance(start, int) else {"start": start})
            if walkthrough is not None:
                body["walkthrough"] = walkthrough
            created = api(live_url, "/api/tables/", body)
            assert "error" not in created, created
            code, version = created["code"], created["version"]
            seats = [{"name": n, "token": s["token"], "join_url": s["join_url"]}
                     for n, s in zip(names, created["seats"], strict=True)]
        else:
            host = phone(viewport, lang)
            host.goto(live_url + "/")
            pick_game(host, slug)
            host.select_option("select[name=players]", str(len(names)))
            for i, name in enumerate(names):
                host.fill(f"input[name=name_{i}]", name)
            if start is not None:
                host.select_option("select[name=start]", "chosen" if isinstance(start, int) else start)
                if isinstance(start, int):
                    host.select_option("select[name=start_seat]", str(start))
            if walkthrough is not None:
                host.set_checked("input[name=walkthrough]", walkthrough)
            for name, value in (options or {}).items():
                folded = host.locator(f"details.option-group:not([open]):has([name=opt-{name}]) > summary")
                if folded.count():  # the option's group is collapsed: open it, as a person would
                    folded.click()
                if isinstance(value, bool):
                    host.set_checked(f"input[name=opt-{name}]", value)
                else:
                    host.select_option(f"select[name=opt-{name}]", str(value))
            if before_create:
                before_create(host)
            host.click("button.big")  # Create the table
            host.wait_for_url(re.compile(r"/t/\w+/host/$"))
            code, version = re.search(r"/t/(\w+)/", host.url).group(1), None
            links = [host.locator("input.link").nth(i).input_value() for i in range(len(names))]
            seats = [{"name": n, "token": link.split("#", 1)[1], "join_url": link}
                     for n, link in zip(names, links, strict=True)]
        table = Table(code, seats, version, host, [None] * len(names), phone, lang, viewport)
        for seat in phones:
            if host is not None and seat == 0:  # the host's phone already holds seat 0
                host.locator("main a.button.big").first.click()  # Open my seat
                table._arrived(0, host)
            else:
                table.open(seat)
        return table

    return make
