"""One websocket per phone (shared/DESIGN.md "Pages and sync"; issue 8).

The consumer joins the table's group and listens for ``table.revision`` messages. On each
it builds *this* phone's own context (through the same per-seat view as the
HTTP page, from the table's shared snapshot) and pushes only the page
regions whose content changed for this phone since its last frame, as htmx
out-of-band swaps (games/live.py). It never picks recipients and never
forwards another seat's data: each socket renders its own view. On connect
it compares the regions the page holds (``?s=``, the page's signature) with
the current ones and sends nothing when they match, everything otherwise
(so a phone that slept catches up at once; a missed message never matters).
"""

from __future__ import annotations

import functools
import logging
import secrets
import time
from collections import OrderedDict
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.core.exceptions import SynchronousOnlyOperation
from django.http.cookie import parse_cookie
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext

from games import digits, live, socket_taps
from games.access import host_cookie, read_signed, seat_cookie
from games.presenters import seat_context
from games.write_path import group_name

log = logging.getLogger(__name__)


def _headers(scope: dict[str, Any]) -> dict[str, str]:
    return {k.decode("latin1").lower(): v.decode("latin1") for k, v in scope.get("headers", [])}


def _language(headers: dict[str, str], cookies: dict[str, str]) -> str:
    chosen = cookies.get(settings.LANGUAGE_COOKIE_NAME)
    codes = {code for code, _ in settings.LANGUAGES}
    if chosen in codes:
        return chosen
    for part in headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip().split("-")[0].lower()
        if code in codes:
            return code
    return settings.LANGUAGE_CODE


@functools.lru_cache(maxsize=4096)
def _token_digest(token: str) -> str:
    """:func:`games.live.token_digest` of a socket's seat secret, made once per secret instead of on every push."""
    return live.token_digest(token)


def _seat_index(snap: live.Snapshot, token: str | None) -> int | None:
    """The seat of ``snap`` whose secret is ``token`` (``Snapshot.seat_index``, its digest made once), or ``None``."""
    if not token:
        return None
    digest = _token_digest(token)
    return next((s["index"] for s in snap.seats if s["token"] == digest), None)


def render_push(code: str, token: str | None, language: str, screen: bool, sent: live.Sent,
                host_token: str | None = None, csrf_token: str | None = None,
                page_signature: str | None = None, marker: tuple[int, int] | None = None,
                digit_system: str | None = None) -> str | None:
    """The frame that brings this phone up to date: the regions that changed since ``sent`` ('' for none).

    Returns ``None`` when the seat's secret is no longer valid (the host
    handed the seat over) or the table is gone. On connect,
    ``page_signature`` is what the phone's page holds: when it matches the
    current regions nothing is resent. ``csrf_token`` is the phone's own CSRF
    cookie, so the plain forms of a pushed region (confirm a correction)
    still pass Django's CSRF check. ``marker`` is ``(version, revision)`` from
    the group message; ``digit_system`` the phone's digits (games/digits.py;
    ``None``: ASCII as cached), applied once per region and system. Costs no query when the table's snapshot is cached
    (shared by every phone of the table), one without a marker.
    """
    snap = live.snapshot_by_code(code, marker)
    if snap is None:
        return None
    seat_index: int | None = None
    if not screen:
        seat_index = _seat_index(snap, token)
        if seat_index is None:
            return None
    sent.at = snap.key
    with translation.override(language):
        context = seat_context(snap, seat_index)
        is_host = bool(host_token) and secrets.compare_digest(host_token, snap.table.host_token)
        context.update(is_host=is_host, csrf_token=csrf_token)
        if page_signature:
            regions = live.page_regions(context)
            if live.page_signature(regions) == page_signature:
                sent.seed(context, regions)
                return ""
        return live.push(context, sent, digit_system)


#: Seconds between two looks at the table's row for a heartbeat of a current phone (between them: a pong only).
HEARTBEAT_CHECK = 15.0
FRAMES_KEPT = 16  # how many frames back a socket can resync a phone from only what changed since


def _gone_errors() -> tuple[type[BaseException], ...]:
    """What the ASGI servers raise when a frame is sent to a socket the phone just closed."""
    found: list[type[BaseException]] = []
    try:
        from autobahn.exception import Disconnected  # daphne

        found.append(Disconnected)
    except ImportError:  # pragma: no cover - daphne is a dependency
        pass
    try:
        from uvicorn.protocols.utils import ClientDisconnected  # uvicorn (scale-out)

        found.append(ClientDisconnected)
    except ImportError:  # pragma: no cover - uvicorn is optional
        pass
    return tuple(found)


SOCKET_GONE = _gone_errors()


def frame_marker(frame_id: str) -> str:
    """The out-of-band element every push ends with: the page keeps the id of the last push it applied."""
    return f'<i id="r-frame" hidden data-frame="{escape(frame_id)}" hx-swap-oob="true"></i>'


class TableConsumer(AsyncWebsocketConsumer):
    """``/ws/tables/<code>/``; ``?screen=1`` for the table screen (public view), ``?s=SIG`` the page's regions.

    Resync (issue 8): every push carries a frame id (``#r-frame``), and the
    socket keeps what it had sent as of its last :data:`FRAMES_KEPT` frames.
    The page sends ``{"frame": ID}`` (the last push it applied) as a
    heartbeat; the socket answers with what changed since that frame (a lost
    frame, a lost group message), nothing when the phone is current, and
    every region when it does not know the frame.
    """

    async def connect(self) -> None:
        self.code = self.scope["url_route"]["kwargs"]["code"].upper()
        headers = _headers(self.scope)
        cookies = parse_cookie(headers.get("cookie", ""))
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.screen = query.get("screen") == ["1"]
        auth = headers.get("authorization", "")
        self.token = auth[7:].strip() if auth.startswith("Bearer ") else read_signed(cookies, seat_cookie(self.code))
        self.language = _language(headers, cookies)
        self.digits = digits.system_for(self.language, cookies.get(digits.COOKIE))
        self.host_token = read_signed(cookies, host_cookie(self.code))
        self.csrf_token = cookies.get(settings.CSRF_COOKIE_NAME)
        self.sent = live.Sent()
        self.inline_refused = False  # True once this (screen) socket's inline render had to read the database
        self.socket_id = secrets.token_hex(4)
        self.frames = 0
        self.last_frame = ""  # the page's own state: no push applied yet
        self.history: OrderedDict[str, live.Sent] = OrderedDict()
        self.checked_at = 0.0  # time.monotonic() of the last heartbeat that read the table's row
        # Join the group before the first render: a move committed between the two is then heard
        # (pushed after this frame) instead of being told to a group this socket was not in yet.
        await self.channel_layer.group_add(group_name(self.code), self.channel_name)
        first = await self._render((query.get("s") or [None])[0])
        if first is None:
            await self.channel_layer.group_discard(group_name(self.code), self.channel_name)
            await self.close(code=4403)
            return
        await self.accept()
        if first:
            await self._send_frame(first)
        else:
            self.history[""] = self.sent.copy()

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch without its thread hop per message to close old database connections.

        Channels 4.2+ runs ``close_old_connections`` in a thread before every
        handler, four hops per move on a table of four phones. This consumer
        reads the database only through ``database_sync_to_async``, which
        closes old connections on its own thread before and after each call,
        and a push rendered in the event loop reads none.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def disconnect(self, close_code: int) -> None:
        if hasattr(self, "code"):
            await self.channel_layer.group_discard(group_name(self.code), self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """A heartbeat or a tap (games/socket_taps.py); anything else is refused to this socket, which stays open.

        ``{"frame": ID, "ping": P}``: the phone's heartbeat, answered with what
        changed since push ID (nothing when current), then, with ``ping``, a
        pong (every message before it has been handled). A tap acts for this
        socket's own seat through the one write path (in a thread) and is
        answered by nothing when applied (the push every phone gets is the
        answer) or by a refusal frame; a stale tap also gets every region.
        """
        message = socket_taps.read_message(text_data, bytes_data)
        if isinstance(message, socket_taps.Heartbeat):
            await self._heartbeat(message.frame)
            if message.ping is not None:
                await self._send_quietly(socket_taps.pong(message.ping))
            return
        if isinstance(message, socket_taps.Tap):
            try:
                refusal = await database_sync_to_async(socket_taps.act)(self.code, self.token, self.screen, message,
                                                                        self.language)
            except Exception:  # noqa: BLE001 - a fault of the server answers this tap; the socket and later taps go on
                log.exception("a socket tap at table %s failed", self.code)
                refusal = socket_taps.fault(self.language)
        else:
            refusal = socket_taps.refusal_of(message, self.language)
        if refusal is None:
            return
        if refusal.stale:
            self.sent = live.Sent()  # what the phone shows is older than this socket thought: every region
            await self._refresh()
        await self._send_quietly(refusal.frame(self.digits))

    async def _heartbeat(self, frame_id: str) -> None:
        """Bring the phone up to date from push ``frame_id``, the last one it applied (nothing when current)."""
        if frame_id == self.last_frame:
            now = time.monotonic()
            if now - self.checked_at < HEARTBEAT_CHECK:
                return  # the phone shows the newest push, and the table was checked a moment ago
            self.checked_at = now
            marker = await database_sync_to_async(live.current_marker)(self.code)
            if marker is not None and live.snapshot_key(self.code, *marker) == self.sent.at:
                return  # the phone shows the newest push, and the table has not moved since
        elif frame_id in self.history:
            self.sent = self.history[frame_id].copy()  # a push was lost: resend what changed since the phone's
        else:
            self.sent = live.Sent()  # a frame this socket does not know (or too old): every region
        await self._refresh()

    async def _send_quietly(self, text: str) -> None:
        """Send one frame that is no push (a refusal, a pong); a socket the phone just closed is not an error."""
        try:
            await self.send(text_data=text)
        except SOCKET_GONE:
            return

    async def table_revision(self, event: dict[str, Any]) -> None:
        """Group message ``{"type": "table.revision", "revision": R, "version": V}``: push what changed for this phone."""
        await self._refresh((event["version"], event["revision"]))

    async def _send_frame(self, frame: str) -> None:
        """Send one push, tagged with its frame id, and remember what the phone then shows."""
        self.frames += 1
        self.last_frame = f"{self.socket_id}.{self.frames}"
        self.history[self.last_frame] = self.sent.copy()
        while len(self.history) > FRAMES_KEPT:
            self.history.popitem(last=False)
        try:
            await self.send(text_data=frame + frame_marker(self.last_frame))
        except SOCKET_GONE:
            # The phone closed its socket while this push was on its way (a reconnect storm): its disconnect
            # follows, and its next socket catches up on connect. Not an error of the server's.
            return

    async def _render(self, page_signature: str | None = None,
                      marker: tuple[int, int] | None = None) -> str | None:
        # Regions are cached with ASCII digits; each phone's frame is written in its own digit system.
        return await database_sync_to_async(render_push)(self.code, self.token, self.language, self.screen, self.sent,
                                                         self.host_token, self.csrf_token, page_signature, marker,
                                                         self.digits)

    def _render_inline(self, marker: tuple[int, int]) -> str | None | bool:
        """This phone's frame (in its digit system) rendered right here in the event loop, or ``False`` to go through a thread.

        When the write that sent ``marker`` left its snapshot in this
        process (games/live.py ``publish_move``), a render reads no database:
        it is pure work on data in memory, so it skips the hop to the
        executor thread (and that thread's connection handling), which cost
        about as much as the render. Should it touch the database after all,
        Django refuses in async code (``SynchronousOnlyOperation``) and the
        render is redone in a thread from what the phone showed before (a
        table screen that had to do so once goes to the thread from then on:
        its draw tally reads the log whenever the table moved).
        """
        if not live.has_snapshot(self.code, marker) or self.inline_refused:
            return False
        # No copy of what the phone shows first: live.push replaces its dictionaries only once the frame is made,
        # so a render that gives up midway leaves them as they were (the thread's render sets ``at`` again).
        try:
            return render_push(self.code, self.token, self.language, self.screen, self.sent, self.host_token,
                               self.csrf_token, None, marker, self.digits)
        except SynchronousOnlyOperation:
            # The table screen's draw tally reads the log from the database whenever the table moved: once its
            # render gave up here, the screen goes straight to the thread (a phone's render reads none).
            self.inline_refused = self.screen
            return False

    async def _refresh(self, marker: tuple[int, int] | None = None) -> None:
        frame = self._render_inline(marker) if marker is not None else False
        if frame is False:
            frame = await self._render(marker=marker)
        if frame is None:
            with translation.override(self.language):
                text = escape(gettext("This link no longer holds a seat. Ask the host for a new one."))
            await self.send(text_data=f'<div id="r-status" hx-swap-oob="true"><p class="banner error">{text}</p></div>')
            await self.close(code=4403)
            return
        if frame:
            await self._send_frame(frame)
