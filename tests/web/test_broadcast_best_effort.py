"""The broadcast after a move is best effort (DESIGN.md "The write path" step 3).

The move is committed before the table's group hears ``version N``. A channel
layer that is down (Redis refuses) or frozen (accepts and never answers) must
never turn the answer to a saved move into a 500, and must not hold the
request for more than about :data:`games.write.write_path.BROADCAST_TIMEOUT`; phones
resync on their own when their socket returns.
"""

from __future__ import annotations

import asyncio
import logging
import time

import pytest
from rest_framework.test import APIClient

from games.write import write_path
from games.write.corrections import confirm_correction, propose_correction
from games.write.host import hand_over_seat, undo_last
from games.write.moves import submit_action
from games.write.pregame import create_table
from games.write.write_path import BROADCAST_TIMEOUT, broadcast_revision, group_name
from tests.conftest import phone_for, post_action


class RefusingLayer:
    """A channel layer whose Redis refuses every connection."""

    sent = 0

    async def group_send(self, group, message):
        type(self).sent += 1
        raise ConnectionRefusedError("Redis is down")


class FrozenLayer:
    """A channel layer whose Redis accepted the connection and never answers."""

    async def group_send(self, group, message):
        await asyncio.sleep(3)


@pytest.fixture
def layer(monkeypatch, request):
    chosen = request.param()
    monkeypatch.setattr(write_path, "get_channel_layer", lambda *args: chosen)
    return chosen


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("layer", [RefusingLayer, FrozenLayer], indirect=True)
def test_a_move_is_answered_and_saved_when_the_channel_layer_fails(fixture_game_registered, layer, caplog):
    table = create_table("counting", {}, [{"name": "Alice"}, {"name": "Bob"}])
    alice = phone_for(table, 0)
    caplog.set_level(logging.WARNING, logger="games.write.write_path")
    started = time.monotonic()
    response = post_action(alice, table, {"kind": "draw"}, key="tap-1")
    elapsed = time.monotonic() - started
    assert response.status_code == 200
    assert table.actions.filter(seq__gt=0).count() == 1, "the move is saved"
    table.refresh_from_db()
    assert table.version == 1 and 'data-version="1"' in response.content.decode()
    assert elapsed < BROADCAST_TIMEOUT + 1.0, f"the request was held {elapsed:.2f} s"
    assert "phones will resync" in caplog.text


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("layer", [RefusingLayer, FrozenLayer], indirect=True)
def test_the_api_answers_a_saved_move_when_the_channel_layer_fails(fixture_game_registered, layer):
    table = create_table("counting", {}, [{"name": "Alice"}, {"name": "Bob"}])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {table.seats.get(index=0).token}")
    started = time.monotonic()
    response = client.post(f"/api/tables/{table.code}/actions/", {"action": {"kind": "draw"}, "version": 0},
                           format="json")
    assert response.status_code == 200 and response.json()["version"] == 1
    assert time.monotonic() - started < BROADCAST_TIMEOUT + 1.0
    assert table.actions.filter(seq__gt=0).count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("layer", [RefusingLayer, FrozenLayer], indirect=True)
def test_host_tools_and_corrections_also_survive_a_failing_channel_layer(fixture_game_registered, layer):
    table = create_table("counting", {"components": "physical"}, [{"name": "Alice"}, {"name": "Bob"}])
    submit_action(table.code, 0, {"kind": "draw", "card": "1"}, 0)
    correction = propose_correction(table.code, 0, 1, {"kind": "draw", "card": "3"})
    assert confirm_correction(table.code, correction.id, 1).status == "applied"
    hand_over_seat(table.code, 1)
    undo_last(table.code, None)
    table.refresh_from_db()
    assert [row.kind for row in table.actions.filter(seq__gt=0).order_by("seq")] == ["game", "correct", "undo"]


def test_broadcast_revision_reports_a_failure_instead_of_raising(monkeypatch):
    monkeypatch.setattr(write_path, "get_channel_layer", lambda *args: RefusingLayer())
    assert broadcast_revision("ABCDEF", 3, 2) is False
    monkeypatch.setattr(write_path, "get_channel_layer", lambda *args: FrozenLayer())
    started = time.monotonic()
    assert broadcast_revision("ABCDEF", 3, 2) is False
    assert time.monotonic() - started < BROADCAST_TIMEOUT + 0.5


class BusyLoopLayer:
    """An in-memory channel layer in a server whose event loop is busy: a send is taken 0.8 s late."""

    def __init__(self) -> None:
        from channels.layers import InMemoryChannelLayer

        self.inner = InMemoryChannelLayer()

    async def group_send(self, group, message):
        await asyncio.sleep(0.8)
        await self.inner.group_send(group, message)


def test_a_broadcast_slower_than_the_bound_still_reaches_the_phones(monkeypatch):
    """A busy event loop delays the send past BROADCAST_TIMEOUT: the write stops waiting, the send goes on.

    Cancelling the send at the bound would leave the table's phones never hearing of the move. The server's event loop is a fresh one in a
    thread of its own: the browser tests' Playwright leaves its loop marked running in the main thread.
    """
    import threading

    from asgiref.sync import sync_to_async

    layer = BusyLoopLayer()
    monkeypatch.setattr(write_path, "get_channel_layer", lambda *args: layer)
    seen: dict = {}

    async def server() -> None:
        phone = await layer.inner.new_channel()
        await layer.inner.group_add(group_name("ABCDEF"), phone)
        started = time.monotonic()
        seen["taken"] = await sync_to_async(broadcast_revision)("ABCDEF", 5, 4)  # a write's thread
        seen["waited"] = time.monotonic() - started
        seen["message"] = await asyncio.wait_for(layer.inner.receive(phone), 3)

    worker = threading.Thread(target=lambda: asyncio.run(server()))
    worker.start()
    worker.join(10)
    assert seen["waited"] < BROADCAST_TIMEOUT + 0.3, "the write does not wait for the send"
    assert seen["taken"] is False
    assert seen["message"] == {"type": "table.revision", "revision": 5, "version": 4}
