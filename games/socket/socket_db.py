"""The database thread of the sockets: one thread per process, its connection kept from one tap to the next.

Every blocking call of a socket (a tap's write, a render that reads the
database, the heartbeat's look at the table's revision) runs here, one at a
time, in the order the event loop sent them. Django's connections belong to
the thread that opened them; Channels' ``database_sync_to_async`` closes the
thread's connection before and after every call (``CONN_MAX_AGE = 0``, which
an ASGI server needs for its request threads), so each tap would open a new
connection. On SQLite that is most of a move's cost: opening a connection,
and closing the last one of a write-ahead-log database, which checkpoints
the log. This thread keeps its own connection for as long as it is usable:
after a call that met a database error it is tested and closed when broken,
so the next call opens a new one (a restarted PostgreSQL, a dropped
connection). Calls run in the thread's own context, kept from one call to
the next: Django keeps other per-thread handles there (the cache's Redis
connection pool, in the context-local storage of ``asgiref.local.Local``),
and a copy of the caller's context per call would make them anew, a new
Redis connection per call. What a call needs of its caller is handed over:
its language, and the list that collects the broadcasts of the writes it
commits, which :func:`run` sends on the loop once the call returns.

On SQLite a call is work for this machine's CPU (a local file, no network
wait), and the process has one interpreter lock: the socket's event loop
waits for the call, for :data:`LOOP_WAIT` seconds at most, instead of
running other sockets' Python beside it. Both threads taking turns at the
lock for every statement cost more CPU than the call itself. A call that
takes longer (a lock held by another writer) is then awaited, so a slow
write never holds every socket of the process for longer than that. On
PostgreSQL a call waits on the network, and the loop goes on with other
sockets meanwhile.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.core.cache import caches
from django.db import connections
from django.utils import translation

from games.write import write_path

#: The one thread (per process) that runs the sockets' database work.
EXECUTOR = ThreadPoolExecutor(max_workers=1, thread_name_prefix="socket-db")
#: Seconds the event loop waits for a call on SQLite before it awaits the rest (and serves other sockets).
LOOP_WAIT = 0.02


def _loop_waits() -> bool:
    """True when the database is SQLite: a call is CPU work the event loop waits for (see the module's docstring)."""
    return connections["default"].vendor == "sqlite"


def _tidy() -> None:
    """After a call: close a connection left inside a transaction, or one a database error left unusable."""
    for conn in connections.all(initialized_only=True):
        if conn.connection is None:
            continue
        if conn.in_atomic_block:
            conn.close()  # a call never leaves a transaction open; one that did must not leak into the next tap
        elif conn.errors_occurred:
            if conn.is_usable():
                conn.errors_occurred = False
            else:
                conn.close()


def _call[T](language: str | None, pending: list[tuple[str, dict[str, Any]]], fn: Callable[..., T],
              args: tuple[Any, ...], kwargs: dict[str, Any]) -> T:
    """On the database thread, in its own context: ``fn(*args, **kwargs)`` in ``language``, the broadcasts of what
    it commits collected in ``pending``."""
    try:
        with write_path.broadcasts_deferred(pending), translation.override(language):
            return fn(*args, **kwargs)
    finally:
        _tidy()


async def run[T](fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)`` on the sockets' database thread, in the caller's language (not the caller's other
    context variables: the call runs in the thread's own context); raises what ``fn`` raises. On SQLite the event
    loop waits for it up to :data:`LOOP_WAIT` seconds, then awaits it.

    The table broadcasts of the writes it commits are sent from here, on the event loop, once it returns
    (:func:`games.write.write_path.broadcasts_deferred`): the thread does not wait on the loop to send them.
    """
    pending: list[tuple[str, dict[str, Any]]] = []
    try:
        future = EXECUTOR.submit(_call, translation.get_language(), pending, fn, args, kwargs)
        if _loop_waits():
            try:
                return future.result(timeout=LOOP_WAIT)
            except concurrent.futures.TimeoutError:
                pass  # still running (or it raised TimeoutError itself, which the await raises again)
        return await asyncio.wrap_future(future)
    finally:
        await write_path.send_broadcasts(pending)


def _close_all() -> None:
    connections.close_all()
    caches.close_all()


def close() -> None:
    """Close the thread's database connections and cache clients (the end of a test: a test database is dropped
    only without them)."""
    EXECUTOR.submit(_close_all).result(timeout=30)
