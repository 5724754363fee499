"""The sockets' database thread (games/socket/socket_db.py): one call at a time, the caller's context, a slow call
never holding the event loop for longer than ``LOOP_WAIT``."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import time
from collections.abc import AsyncIterator

import pytest
from django.core.cache import caches
from django.db import connection
from django.utils import translation

from games.socket import socket_db
from games.write import write_path

pytestmark = pytest.mark.asyncio

SEEN: contextvars.ContextVar[str] = contextvars.ContextVar("seen", default="")


async def test_a_call_runs_in_the_callers_language_and_the_threads_own_context():
    SEEN.set("set on the loop")
    with translation.override("fa"):
        language, seen = await socket_db.run(lambda: (translation.get_language(), SEEN.get()))
    # The language is handed over; the caller's other context variables are not (the thread's context is its own).
    assert (language, seen) == ("fa", "")


async def test_the_threads_cache_client_is_kept_from_one_call_to_the_next():
    # Django keeps its cache clients in context-local storage: a call in a copy of the caller's context would make
    # a new client, and with Redis a new connection, on every call.
    first = await socket_db.run(lambda: caches["default"])
    assert await socket_db.run(lambda: caches["default"]) is first
    # Closing the thread's connections closes the client's, and keeps the client for the next call.
    socket_db.close()
    assert await socket_db.run(lambda: caches["default"]) is first


async def test_a_write_committed_in_the_thread_broadcasts_from_the_loop(monkeypatch: pytest.MonkeyPatch):
    sent: list[tuple[str, dict[str, object]]] = []

    async def collect(pending: list[tuple[str, dict[str, object]]]) -> None:
        sent.extend(pending)

    def commit_in_thread() -> bool:
        return write_path.broadcast_revision("ABCD", 7, 3)  # what a committed write calls, here in the thread

    monkeypatch.setattr(write_path, "send_broadcasts", collect)
    assert await socket_db.run(commit_in_thread) is True
    assert sent == [("table_ABCD", {"type": "table.revision", "revision": 7, "version": 3})]


async def test_a_call_raises_what_its_function_raises():
    def fails(exc: BaseException) -> None:
        raise exc

    with pytest.raises(ValueError, match="no such seat"):
        await socket_db.run(fails, ValueError("no such seat"))
    # A TimeoutError of the function's own is raised as such, not taken for the loop's wait running out.
    with pytest.raises(TimeoutError, match="the function's own"):
        await socket_db.run(fails, TimeoutError("the function's own"))


@contextlib.asynccontextmanager
async def other_sockets(pause: float) -> AsyncIterator[list[int]]:
    """A coroutine beside the block that counts its turns on the event loop (one every ``pause`` seconds, at most):
    ``turns[0]``, from the block's start."""
    turns = [0]

    async def beside() -> None:
        while True:
            await asyncio.sleep(pause)
            turns[0] += 1

    task = asyncio.ensure_future(beside())
    await asyncio.sleep(0)
    turns[0] = 0
    try:
        yield turns
    finally:
        task.cancel()


async def test_a_slow_call_lets_the_event_loop_serve_other_sockets():
    async with other_sockets(0.005) as turns:
        started = time.monotonic()
        await socket_db.run(time.sleep, 0.4)
        took, during = time.monotonic() - started, turns[0]
    assert took >= 0.4
    # The loop waited LOOP_WAIT at most, then went on: the other coroutine ran through most of the call.
    assert during >= 20, during


async def test_on_sqlite_the_loop_waits_for_a_quick_call_and_on_postgresql_it_goes_on():
    async with other_sockets(0) as turns:
        await socket_db.run(time.sleep, socket_db.LOOP_WAIT / 4)
        during = turns[0]
    if connection.vendor == "sqlite":
        # Waited for on the loop: nothing else ran while the thread worked.
        assert during == 0, during
    else:
        # Awaited: the other coroutine ran while the thread worked (a call waits on the network there).
        assert during > 0
