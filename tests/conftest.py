"""Shared personas and table helpers (shared/STYLE.md principle 15).

Alice, Bob and Carol sit at the table; Carol is the seat that must never see
Alice's hand. ``counting`` is a tiny fixture game registered only in tests,
so the platform is tested apart from any real game's rules.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games import services
from games.access import seat_cookie
from games.engines import REGISTRY

PLAYERS = [{"name": "Alice"}, {"name": "Bob"}, {"name": "Carol"}]


@pytest.fixture
def fixture_game_registered(monkeypatch):
    """Register the Count-to-ten fixture game (web, api and realtime tests use it automatically)."""
    monkeypatch.setitem(REGISTRY, "counting", "tests.fixture_game:CountingGame")


@pytest.fixture
def counting_table(db, fixture_game_registered):
    """A digital three-seat Count-to-ten table."""
    return services.create_table("counting", {}, PLAYERS)


def phone_for(table, index: int) -> Client:
    """A test client holding seat ``index``'s cookie, as if it had opened the join link."""
    client = Client()
    seat = table.seats.get(index=index)
    response = client.get(f"/t/{table.code}/join/{seat.token}/")
    assert response.status_code == 302
    assert client.cookies[seat_cookie(table.code)]
    return client


def post_action(client: Client, table, action: dict, version: int | None = None, key: str = "", htmx: bool = True):
    """Tap one action on a phone (htmx request)."""
    table.refresh_from_db()
    data = {"action": json.dumps(action), "version": table.version if version is None else version, "key": key}
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(f"/t/{table.code}/act/", data, **headers)
