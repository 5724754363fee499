"""Shared personas and table helpers (shared/STYLE.md principle 15).

Alice, Bob and Carol sit at the table; Carol is the seat that must never see
Alice's hand. ``counting`` is a tiny fixture game registered only in tests,
so the platform is tested apart from any real game's rules.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

from games.engines import REGISTRY
from games.entry.access import seat_cookie
from games.socket import socket_db
from games.write.moves import submit_action
from games.write.pregame import create_table
from tests import fixture_game_web
from tests.registry import CONTRACT, register_contract_game

PLAYERS = [{"name": "Alice"}, {"name": "Bob"}, {"name": "Carol"}]


def fresh_channel_layers() -> None:
    """Drop the process's channel layers; the next ``get_channel_layer()`` builds a new one.

    pytest-asyncio gives every test its own event loop, and channels_redis keeps per-process receive
    state on its layer object (a receive lock, per-channel cleanup locks and the tasks that release
    them) bound to the loop that made it. When a test's loop closes with that state held (a receive or
    its cleanup still in flight), the next test's sockets fail with "Lock ... is bound to a different
    event loop" (seen once in CI, in six tests in a row). A server has one loop per worker and never
    meets this.
    """
    from channels.layers import channel_layers

    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def _the_default_language_after_each_test():
    """Each test ends with no language active in its thread: Django's locale middleware activates the request's
    language and leaves it, so a test that renders directly (no request) after another test's last request in
    Persian or Pashto would otherwise read that language, depending on which tests a worker ran before it."""
    from django.utils import translation

    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _a_channel_layer_per_test():
    """Each test starts with its own channel layer (:func:`fresh_channel_layers`) and ends with the sockets'
    database thread holding no connection (games/socket/socket_db.py keeps one across taps; the test database is
    flushed and dropped only without it)."""
    fresh_channel_layers()
    yield
    fresh_channel_layers()
    socket_db.close()


@pytest.fixture
def fixture_game_registered(monkeypatch):
    """Register the Count-to-ten fixture game (web, api and realtime tests use it automatically)."""
    monkeypatch.setitem(REGISTRY, "counting", "tests.fixture_game:CountingGame")
    monkeypatch.setitem(sys.modules, "tests.fixture_game.web", fixture_game_web)



@pytest.fixture
def contract_game_registered(monkeypatch):
    """Register the contract game (tests/contract_game/) in the registry for one test."""
    register_contract_game(monkeypatch)


@pytest.fixture(autouse=True)
def _contract_game_when_parametrized(request, monkeypatch):
    """A test parametrized with the contract game's slug (``tests.registry.GAMES``) finds it registered."""
    callspec = getattr(request.node, "callspec", None)
    if callspec is not None and CONTRACT in callspec.params.values():
        register_contract_game(monkeypatch)


@pytest.fixture
def counting_table(db, fixture_game_registered):
    """A digital three-seat Count-to-ten table."""
    return create_table("counting", {}, PLAYERS)


def phone_for(table, index: int) -> Client:
    """A test client holding seat ``index``'s cookie, as if it had opened the join link."""
    client = Client()
    seat = table.seats.get(index=index)
    page = client.get(f"/t/{table.code}/join/")  # the link is /t/<code>/join/#<token>; the page POSTs the token
    assert page.status_code == 200
    response = client.post(f"/t/{table.code}/join/", {"token": seat.token})
    assert response.status_code == 302
    assert client.cookies[seat_cookie(table.code)]
    return client


def post_action(client: Client, table, action: dict, version: int | None = None, key: str = "", htmx: bool = True):
    """Tap one action on a phone (htmx request)."""
    table.refresh_from_db()
    data = {"action": json.dumps(action), "version": table.version if version is None else version, "key": key}
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(f"/t/{table.code}/act/", data, **headers)


def play_through_write_path(table, seed: int, limit: int = 5000, *, stop: int | None = None,
                            choose: Callable[[random.Random, list[dict]], dict] | None = None,
                            on_new_step: Callable[[int, list[dict]], None] | None = None) -> list[tuple[str, int, dict]]:
    """Play legal actions through the one write path until the game ends; return ``(step, seat, action)`` rows.

    ``choose(rng, legal)`` picks an action (default: uniformly at random);
    ``on_new_step(seat, legal)`` runs the first time each prompt step comes
    up; ``stop`` ends early after that many actions. Without ``stop`` the
    game must end within ``limit`` actions.
    """
    chooser = random.Random(seed)
    game = table.game()
    played: list[tuple[str, int, dict]] = []
    seen: set[str] = set()
    for _ in range(limit if stop is None else stop):
        table.refresh_from_db()
        state = game.decode(table.state)
        if game.result(state) is not None:
            return played
        prompt = game.prompt(state)
        seat = prompt.seats[0]  # the first of several prompted seats (simultaneous steps take turns here)
        legal = game.legal_actions(state, seat)
        if on_new_step and prompt.step not in seen:
            seen.add(prompt.step)
            on_new_step(seat, legal)
        action = choose(chooser, legal) if choose else chooser.choice(legal)
        submit_action(table.code, seat, action, table.version)
        played.append((prompt.step, seat, action))
    if stop is None:
        raise AssertionError("the game did not end")
    return played


def cookie_header(client: Client, code: str) -> tuple[bytes, bytes]:
    """The Cookie header a phone holding ``client``'s seat cookie sends with its websocket."""
    value = client.cookies[seat_cookie(code)].value
    return (b"cookie", f"{seat_cookie(code)}={value}".encode())


def socket_for(code: str, *headers: tuple[bytes, bytes], screen: bool = False) -> WebsocketCommunicator:
    """A websocket to table ``code`` from 127.0.0.1 (``screen``: the table screen), not yet connected."""
    from companion.asgi import application

    path = f"/ws/tables/{code}/" + ("?screen=1" if screen else "")
    return WebsocketCommunicator(application, path, headers=[(b"origin", b"http://127.0.0.1"),
                                                             (b"host", b"127.0.0.1"), *headers])
