"""The floor for bench_realtime.py: a bare Channels broadcast app (no database, no templates).

Run by the bench, never by hand:  uvicorn bare_app:application  (cwd tests/bench/)
``REDIS_URL`` set: channels_redis (as the scale-out app); else the in-memory layer; both as the app configures them.

Three floors, one protocol (each a server process of its own, started by the bench):

- socket taps (``application``): a phone's tap arrives as a text message on its own socket and the
  consumer broadcasts it to the table's group; the floor of the app's socket taps.
- bare POST (``application``): raw ASGI for HTTP, the POST broadcasts; the floor of the API path.
- durable socket taps (``durable_application``): the socket floor, but each tap first makes one durable write on
  the database kind of the app's layout (``DATABASE_URL``: a SQLite file, embedded; PostgreSQL, scale-out), in one
  transaction: lock the table's row (``BEGIN IMMEDIATE`` on SQLite, ``SELECT ... FOR UPDATE`` on PostgreSQL),
  insert one log row, bump the row's version, commit; then ``group_send`` of the new version. One connection per
  process, kept and used from one writer thread: the floor is what one durable write costs, not connection set-up.
  The bench makes the schema first (``python bare_app.py init-durable`` with ``DATABASE_URL``).
- ``django_application``: the same, but each POST goes through Django's own request cycle (``ASGIHandler``,
  URL resolving, a sync view run in the handler's thread, ``async_to_sync`` back to the layer, as the
  app's write does after commit), with no middleware, no database and no templates: the least any
  Django view costs. Its websocket side is the same consumer.

- ``POST /bump/<code>/`` with body ``{"version": N}``: ``group_send`` of ``version N+1`` to the
  table's group (a group message as small as the app's), answers ``{"version": N+1}``.
- ``GET /health/``: 200.
- websocket ``/ws/tables/<code>/``: joins the group, sends a ~40-byte frame carrying
  ``data-version="N"`` on connect and on each group message. A text message
  ``{"action": {...}, "version": N, "key": "K"}`` (the app's socket tap) is ``group_send`` of
  ``version N+1``, as ``POST /bump/`` does; any other message (a heartbeat) is ignored. The
  floor checks neither seat, version nor key: it is the least a socket tap costs.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import unquote, urlparse

import django
from django.conf import settings

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # companion.channel_layer

if not settings.configured:
    redis_url = os.environ.get("REDIS_URL", "")
    settings.configure(
        DEBUG=False,
        INSTALLED_APPS=[],
        ALLOWED_HOSTS=["*"],
        ROOT_URLCONF=__name__,
        MIDDLEWARE=[],
        SECRET_KEY="bench-only",
        CHANNEL_LAYERS={
            # The app's own layers, configured as companion/settings.py does: a fair floor.
            "default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer", "CONFIG": {
                "hosts": [{"address": redis_url, "socket_timeout": 5.0, "socket_connect_timeout": 5.0}]}}
            if redis_url else {"BACKEND": "companion.channel_layer.SweepingInMemoryChannelLayer"}
        },
    )
    django.setup()

from asgiref.sync import async_to_sync  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.layers import get_channel_layer  # noqa: E402
from django.core.asgi import get_asgi_application  # noqa: E402
from django.http import HttpRequest, JsonResponse  # noqa: E402
from django.urls import path as url_path  # noqa: E402
from django.views.decorators.csrf import csrf_exempt  # noqa: E402


def frame(version: int) -> str:
    return f'<div id="t" data-version="{version}"></div>'


class BareConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        path = self.scope["path"].strip("/").split("/")  # ws/tables/<code>
        self.group = f"table_{path[2] if len(path) > 2 else 'x'}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send(text_data=frame(0))

    async def disconnect(self, close_code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """A socket tap ``{"action": ..., "version": N, "key": K}``: ``version N+1`` to the group; else nothing."""
        try:
            data = json.loads(text_data or "")
        except ValueError:
            return
        if isinstance(data, dict) and "action" in data:
            version = int(data.get("version", 0)) + 1
            await self.channel_layer.group_send(self.group, {"type": "table.version", "version": version})

    async def table_version(self, event: dict) -> None:
        await self.send(text_data=frame(event["version"]))


async def _read_body(receive) -> bytes:
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            return body


async def _answer(send, status: int, payload: dict) -> None:
    data = json.dumps(payload).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]})
    await send({"type": "http.response.body", "body": data})


async def http_app(scope, receive, send) -> None:
    body = await _read_body(receive)
    parts = scope["path"].strip("/").split("/")
    if scope["method"] == "POST" and len(parts) == 2 and parts[0] == "bump":
        version = int(json.loads(body or b"{}").get("version", 0)) + 1
        await get_channel_layer().group_send(f"table_{parts[1]}", {"type": "table.version", "version": version})
        await _answer(send, 200, {"version": version})
        return
    if parts == ["health"]:
        await _answer(send, 200, {"ok": True})
        return
    await _answer(send, 404, {"code": "not_found"})


_ws_app = BareConsumer.as_asgi()


async def application(scope, receive, send) -> None:
    if scope["type"] == "http":
        await http_app(scope, receive, send)
    elif scope["type"] == "websocket":
        await _ws_app(scope, receive, send)
    elif scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return


@csrf_exempt
def bump_view(request: HttpRequest, code: str) -> JsonResponse:
    """The Django floor's ``POST /bump/<code>/``: a sync view, as the app's write path is."""
    version = int(json.loads(request.body or b"{}").get("version", 0)) + 1
    async_to_sync(get_channel_layer().group_send)(f"table_{code}", {"type": "table.version", "version": version})
    return JsonResponse({"version": version})


def health_view(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"ok": True})


urlpatterns = [url_path("bump/<str:code>/", bump_view), url_path("health/", health_view)]
_django_http = get_asgi_application()


async def django_application(scope, receive, send) -> None:
    if scope["type"] == "websocket":
        await _ws_app(scope, receive, send)
    elif scope["type"] == "http":
        await _django_http(scope, receive, send)
    else:
        await application(scope, receive, send)


# -- the durable floor ---------------------------------------------------------------------------------

DURABLE_SCHEMA = {
    "sqlite": ["CREATE TABLE IF NOT EXISTS floor_table (code TEXT PRIMARY KEY, version INTEGER NOT NULL)",
               "CREATE TABLE IF NOT EXISTS floor_log (id INTEGER PRIMARY KEY AUTOINCREMENT, code TEXT NOT NULL,"
               " seq INTEGER NOT NULL, action TEXT NOT NULL, key TEXT NOT NULL, at REAL NOT NULL)"],
    "postgres": ["CREATE TABLE IF NOT EXISTS floor_table (code TEXT PRIMARY KEY, version INTEGER NOT NULL)",
                 "CREATE TABLE IF NOT EXISTS floor_log (id BIGSERIAL PRIMARY KEY, code TEXT NOT NULL,"
                 " seq INTEGER NOT NULL, action TEXT NOT NULL, key TEXT NOT NULL, at DOUBLE PRECISION NOT NULL)"],
}


def _database() -> tuple[str, str]:
    """``(kind, target)`` of ``DATABASE_URL``: ``("sqlite", path)`` or ``("postgres", conninfo URL)``."""
    url = os.environ.get("DATABASE_URL", "")
    parsed = urlparse(url)
    if parsed.scheme == "sqlite":
        return "sqlite", unquote(parsed.path)
    if parsed.scheme in ("postgres", "postgresql"):
        return "postgres", url.replace("postgres://", "postgresql://", 1)
    raise RuntimeError(f"the durable floor needs DATABASE_URL sqlite:///PATH or postgres://..., not {url!r}")


class DurableWriter:
    """One kept connection, used only from one writer thread (a one-thread executor): taps are written in turn.

    SQLite with the app's PRAGMAs (WAL, ``synchronous=NORMAL``) and ``BEGIN IMMEDIATE`` (the app's
    ``transaction_mode``); PostgreSQL through psycopg with the row locked ``FOR UPDATE``.
    """

    def __init__(self) -> None:
        self.kind, self.target = _database()
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="durable-writer")
        self.conn = None  # opened in the writer thread on first use, then kept

    def _connect(self):
        if self.conn is None:
            if self.kind == "sqlite":
                self.conn = sqlite3.connect(self.target, isolation_level=None, check_same_thread=True, timeout=20)
                self.conn.execute("PRAGMA journal_mode=WAL")
                self.conn.execute("PRAGMA synchronous=NORMAL")
            else:
                import psycopg

                self.conn = psycopg.connect(self.target, autocommit=True)
        return self.conn

    def _open(self, code: str) -> None:
        conn = self._connect()
        if self.kind == "sqlite":
            conn.execute("INSERT OR IGNORE INTO floor_table (code, version) VALUES (?, 0)", (code,))
        else:
            conn.execute("INSERT INTO floor_table (code, version) VALUES (%s, 0) ON CONFLICT DO NOTHING", (code,))

    def _write(self, code: str, action: str, key: str) -> int:
        """One transaction: lock the table's row, insert one log row, bump its version, commit; the new version."""
        conn = self._connect()
        if self.kind == "sqlite":
            conn.execute("BEGIN IMMEDIATE")
            try:
                row = conn.execute("SELECT version FROM floor_table WHERE code = ?", (code,)).fetchone()
                version = (row[0] if row else 0) + 1
                conn.execute("INSERT INTO floor_log (code, seq, action, key, at) VALUES (?, ?, ?, ?, ?)",
                             (code, version, action, key, time.time()))
                conn.execute("UPDATE floor_table SET version = ? WHERE code = ?", (version, code))
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            return version
        with conn.transaction():
            row = conn.execute("SELECT version FROM floor_table WHERE code = %s FOR UPDATE", (code,)).fetchone()
            version = (row[0] if row else 0) + 1
            conn.execute("INSERT INTO floor_log (code, seq, action, key, at) VALUES (%s, %s, %s, %s, %s)",
                         (code, version, action, key, time.time()))
            conn.execute("UPDATE floor_table SET version = %s WHERE code = %s", (version, code))
        return version

    async def open(self, code: str) -> None:
        await asyncio.get_running_loop().run_in_executor(self.executor, self._open, code)

    async def write(self, code: str, action: str, key: str) -> int:
        return await asyncio.get_running_loop().run_in_executor(self.executor, self._write, code, action, key)


_writer: DurableWriter | None = None
_writer_lock = threading.Lock()


def durable_writer() -> DurableWriter:
    global _writer
    with _writer_lock:
        if _writer is None:
            _writer = DurableWriter()
        return _writer


class DurableConsumer(BareConsumer):
    """The socket floor with one durable write per tap before the broadcast (the table's version from the row)."""

    async def connect(self) -> None:
        path = self.scope["path"].strip("/").split("/")
        await durable_writer().open(path[2] if len(path) > 2 else "x")
        await super().connect()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            data = json.loads(text_data or "")
        except ValueError:
            return
        if isinstance(data, dict) and "action" in data:
            version = await durable_writer().write(self.group[len("table_"):], json.dumps(data["action"]),
                                                   str(data.get("key", "")))
            await self.channel_layer.group_send(self.group, {"type": "table.version", "version": version})


_durable_ws_app = DurableConsumer.as_asgi()


async def durable_application(scope, receive, send) -> None:
    if scope["type"] == "websocket":
        await _durable_ws_app(scope, receive, send)
    else:
        await application(scope, receive, send)


def init_durable() -> None:
    """Make the durable floor's tables in ``DATABASE_URL`` (the bench runs this once before the floor's servers)."""
    kind, target = _database()
    if kind == "sqlite":
        conn = sqlite3.connect(target, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        for statement in DURABLE_SCHEMA[kind]:
            conn.execute(statement)
        conn.close()
        return
    import psycopg

    with psycopg.connect(target, autocommit=True) as conn:
        for statement in DURABLE_SCHEMA[kind]:
            conn.execute(statement)


if __name__ == "__main__" and sys.argv[1:] == ["init-durable"]:
    init_durable()
