"""One websocket per phone (shared/DESIGN.md "Pages and sync").

The consumer joins its table's feed (games/socket/fanout.py: the process hears the table's group once) and is
told each ``revision R``. On each
it builds *this* phone's own context (through the same per-seat view as the
HTTP page, from the table's shared snapshot, games/read/snapshots.py) and pushes only the page
regions whose content changed for this phone since its last frame, as htmx
out-of-band swaps (games/read/regions.py). It never picks recipients and never
forwards another seat's data: each socket renders its own view. On connect
it compares the regions the page holds (``?s=``, the page's signature) with
the current ones and sends nothing when they match, everything otherwise
(so a phone that slept catches up at once; a missed message never matters).
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import time
from collections import OrderedDict
from typing import Any
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.http.cookie import parse_cookie
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext

from games.entry import refusals
from games.entry.access import held_by_bearer, host_cookie, read_signed, seat_cookie
from games.read import regions, snapshots
from games.read.presenters import needs_database, seat_context
from games.socket import fanout, socket_db, socket_taps
from games.web import digits

log = logging.getLogger(__name__)


#: What a table code may be (games.models.new_code makes six of its letters and digits): anything else names no table.
TABLE_CODE = re.compile(r"[A-Z0-9]{1,32}")


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


def render_push(code: str, token: str | None, language: str, screen: bool, sent: regions.Sent,
                host_token: str | None = None, csrf_token: str | None = None,
                page_signature: str | None = None, revision: int | None = None,
                digit_system: str | None = None, snap: snapshots.Snapshot | None = None) -> str | None:
    """The frame that brings this phone up to date: the regions that changed since ``sent`` ('' for none).

    Returns ``None`` when the seat's secret is no longer valid (the host
    handed the seat over) or the table is gone. On connect,
    ``page_signature`` is what the phone's page holds: when it matches the
    current regions nothing is resent. ``csrf_token`` is the phone's own CSRF
    cookie, so the plain forms of a pushed region (confirm a correction)
    still pass Django's CSRF check. ``revision`` is the table's from the
    group message; ``digit_system`` the phone's digits (games/web/digits.py;
    ``None``: ASCII), applied once per region and system. ``snap``, when
    given, is the snapshot to render (held in memory). Costs no query when the
    table's snapshot is held (shared by every phone of the table), one
    without a revision.
    """
    if snap is None:
        snap = snapshots.by_code(code, revision)
    if snap is None:
        return None
    seat_index: int | None = None
    if not screen:
        seat_index = snap.seat_index(token)
        if seat_index is None:
            return None
    sent.at = snap.key
    with translation.override(language):
        context = seat_context(snap, seat_index)
        is_host = bool(host_token) and secrets.compare_digest(host_token, snap.table.host_token)
        context.update(is_host=is_host, csrf_token=csrf_token)
        if page_signature:
            shown = regions.page_regions(context)
            if regions.page_signature(shown) == page_signature:
                sent.seed(context, shown)
                return ""
        return regions.push(context, sent, digit_system)


#: Seconds between two looks at the table's row for a heartbeat of a current phone (between them: a pong only).
HEARTBEAT_CHECK = 15.0
#: Seconds a socket waits before sending every region again for another heartbeat naming a frame it does not
#: know (a phone sends one heartbeat every 2 s; a burst of such heartbeats gets one whole page, not one each).
FULL_RESEND_GAP = 2.0
FRAMES_KEPT = 16  # how many frames back a socket can resync a phone from only what changed since
#: Seconds a push is taken to be on its way: a heartbeat naming the frame before it, read sooner than this after it
#: went, crossed it (a phone sends its heartbeat right after its taps, and every 2 s) and gets nothing resent.
IN_FLIGHT = 2.0


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

    Resync: every push carries a frame id (``#r-frame``), and the
    socket keeps what it had sent as of its last :data:`FRAMES_KEPT` frames.
    The page sends ``{"frame": ID}`` (the last push it applied) as a
    heartbeat; the socket answers with what changed since that frame (a lost
    frame, a lost group message), nothing when the phone is current, and
    every region when it does not know the frame.

    Order: everything this socket sends (pushes, refusals, pongs) goes out under :attr:`push_lock`, in the order it
    was decided. The socket has no channel of its own (``channel_layer_alias`` names no layer): its table's
    revisions come from the process's feed (:meth:`heard`), and its taps are answered from their own task.
    """

    channel_layer_alias = None  # no layer, no channel of its own: the table's feed listens for it

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Channels' consumer, which leaves its table's feed however it ends (a disconnect, a fault, cancelled)."""
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.live = False
            if hasattr(self, "feed"):
                await self.feed.leave(self.code, self)

    async def connect(self) -> None:
        self.code = self.scope["url_route"]["kwargs"]["code"].upper()
        if not TABLE_CODE.fullmatch(self.code):
            await self.close(code=4403)  # names no table, as an unknown code: refused before any group is joined
            return
        headers = _headers(self.scope)
        cookies = parse_cookie(headers.get("cookie", ""))
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.screen = query.get("screen") == ["1"]
        auth = headers.get("authorization", "")
        self.token = auth[7:].strip() if auth.startswith("Bearer ") else read_signed(cookies, seat_cookie(self.code))
        self.by_bearer = auth.startswith("Bearer ") and bool(self.token)  # a seat token sent as a bearer token
        self.language = _language(headers, cookies)
        self.digits = digits.system_for(self.language, cookies.get(digits.COOKIE))
        self.host_token = read_signed(cookies, host_cookie(self.code))
        self.csrf_token = cookies.get(settings.CSRF_COOKIE_NAME)
        self.sent = regions.Sent()
        self.socket_id = secrets.token_hex(4)
        self.frames = 0
        self.last_frame = ""  # the page's own state: no push applied yet
        # By frame id, oldest first: what the phone showed as of that frame, and when the frame went (time.monotonic();
        # None for the page's own state at connect, "", which no push brought).
        self.history: OrderedDict[str, tuple[regions.Sent, float | None]] = OrderedDict()
        self.acting: set[asyncio.Task] = set()  # taps being written, pushes and pongs waiting for their turn
        self.unanswered = 0  # taps received whose push or refusal has not gone yet
        self.tap_lock = asyncio.Lock()  # one tap of this socket at a time, in the order they came
        self.push_lock = asyncio.Lock()  # one frame of this socket at a time (pushes, refusals, pongs), in order
        self.checked_at = 0.0  # time.monotonic() of the last heartbeat that read the table's row
        self.resent_at = -FULL_RESEND_GAP  # time.monotonic() of the last whole-page resend a heartbeat asked for
        # Join the table's feed before the first render: a move committed between the two is then heard
        # (pushed after this frame, which holds the push lock) instead of being told to no one.
        self.live = False  # accepted and not yet closed: pushes go out only then
        self.feed = fanout.fanout()
        await self.feed.join(self.code, self)
        async with self.push_lock:
            try:
                first = await self._render((query.get("s") or [None])[0])
            except BaseException:
                await self.feed.leave(self.code, self)
                raise
            if first is None:
                await self.feed.leave(self.code, self)
                if self.token and not self.screen:
                    # A secret that held a seat (handed over since): accepted only to say so and close with 4403,
                    # which the page reads as "stop reconnecting"; a refused handshake would read as a network
                    # fault (1006).
                    await self.accept()
                    self.live = True
                    await self._seat_gone()
                else:
                    await self.close(code=4403)
                return
            await self.accept()
            self.live = True
            if self.by_bearer and not self.screen:  # the table screen sends the public view only: no seat is read
                await socket_db.run(held_by_bearer, self.code, self.token)
            if first:
                await self._send_frame(first)
            else:
                self.history[""] = (self.sent.copy(), None)

    async def disconnect(self, close_code: int) -> None:
        self.live = False
        if hasattr(self, "feed"):
            await self.feed.leave(self.code, self)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """A heartbeat or a tap (games/socket/socket_taps.py); anything else is refused to this socket, which stays open.

        ``{"frame": ID, "ping": P}``: the phone's heartbeat, answered with what
        changed since push ID (nothing when current), then, with ``ping``, a
        pong (every message before it has been handled). A tap acts for this
        socket's own seat through the one write path (:meth:`_act`, beside
        this loop) and is answered by its move's push when applied, or by a
        refusal frame; a stale tap also gets every region.
        """
        message = socket_taps.read_message(text_data, bytes_data)
        if isinstance(message, socket_taps.Heartbeat):
            async with self.push_lock:
                await self._heartbeat(message.frame)
                if message.ping is not None and not self.unanswered:
                    await self._send_quietly(socket_taps.pong(message.ping))
            if message.ping is not None and self.unanswered:
                self._beside(self._pong_after_taps(message.ping))  # answered once the taps before it are
            return
        if isinstance(message, socket_taps.Tap):
            self.unanswered += 1
            self._beside(self._act(message))
            return
        refusal = socket_taps.refusal_of(message, self.language)
        if refusal is not None:
            async with self.push_lock:
                await self._answer_refusal(refusal)

    def _beside(self, work: Any) -> None:
        """Run coroutine ``work`` beside this socket's message loop, kept (from the collector) until done."""
        task = asyncio.ensure_future(work)
        self.acting.add(task)
        task.add_done_callback(self.acting.discard)

    async def _pong_after_taps(self, ping: Any) -> None:
        """The pong of a heartbeat that came after taps still being written: sent once they are answered (each
        tap's task answers it before it lets the tap lock go), so it follows their refusals and pushes as it
        follows the taps."""
        async with self.tap_lock:
            pass
        async with self.push_lock:
            await self._send_quietly(socket_taps.pong(ping))

    async def _act(self, tap: socket_taps.Tap) -> None:
        """Run ``tap`` through the write path in a thread, after the taps this socket received before it, and
        answer it: a move or a command by this socket's own push of the revision it made (rendered here, before
        the table's feed brings it), a refusal by its frame, a retried key by nothing.

        It runs beside the socket's message loop, so heartbeats and other phones' pushes are not held up behind
        the write.
        """
        async with self.tap_lock:
            try:
                answer = await socket_db.run(socket_taps.act, self.code, self.token, self.screen, tap,
                                                                       self.language, self.by_bearer)
            except Exception:  # noqa: BLE001 - a fault of the server answers this tap; the socket and later taps go on
                log.exception("a socket tap at table %s failed", self.code)
                answer = refusals.server_error(self.language)
            try:
                if isinstance(answer, socket_taps.Done):
                    if answer.revision is not None:
                        await self._push(answer.revision)
                else:
                    async with self.push_lock:
                        await self._answer_refusal(answer)
            finally:
                self.unanswered -= 1

    async def _answer_refusal(self, refusal: refusals.Refusal) -> None:
        """Send ``refusal`` to this phone; after a stale tap, every region first (the phone is behind). A tap
        refused because this phone's seat was handed over ends the socket (:meth:`_seat_gone`). The caller holds
        :attr:`push_lock`."""
        if refusal.code == "no_seat" and self.token and not self.screen:
            await self._seat_gone()
            return
        if socket_taps.is_stale(refusal):
            self.sent = regions.Sent()  # what the phone shows is older than this socket thought: every region
            await self._refresh()
        await self._send_quietly(socket_taps.frame(refusal, self.language, self.digits))

    async def _seat_gone(self) -> None:
        """This phone's secret no longer holds a seat (the host handed it over): say so in the status region and
        close with 4403, on which the page stops reconnecting, drops its waiting taps and disables its buttons
        (static/js/table.js). Once only: a socket that is closed sends nothing more."""
        if not self.live:
            return
        with translation.override(self.language):
            text = escape(gettext("This link no longer holds a seat. Ask the host for a new one."))
        await self._send_quietly(f'<div id="r-status" hx-swap-oob="true"><p class="banner error" role="alert">{text}</p></div>')
        self.live = False
        await self.close(code=4403)

    async def _heartbeat(self, frame_id: str) -> None:
        """Bring the phone up to date from push ``frame_id``, the last one it applied (nothing when current).
        The caller holds :attr:`push_lock`."""
        if frame_id == self.last_frame:
            now = time.monotonic()
            if now - self.checked_at < HEARTBEAT_CHECK:
                return  # the phone shows the newest push, and the table was checked a moment ago
            self.checked_at = now
            revision = await socket_db.run(snapshots.current_revision, self.code)
            if revision is not None and f"{self.code}:{revision}" == self.sent.at:
                return  # the phone shows the newest push, and the table has not moved since
        elif self._on_its_way(frame_id):
            return  # the pushes after the phone's frame went a moment ago: this heartbeat crossed them
        elif frame_id in self.history:
            self.sent = self.history[frame_id][0].copy()  # a push was lost: resend what changed since the phone's
        else:  # a frame this socket does not know (or too old): every region, at most once per FULL_RESEND_GAP
            now = time.monotonic()
            if now - self.resent_at < FULL_RESEND_GAP:
                return
            self.resent_at = now
            self.sent = regions.Sent()
        await self._refresh()

    def _on_its_way(self, frame_id: str) -> bool:
        """Whether the push that followed frame ``frame_id`` (this socket's first push, for a frame it does not
        know) went less than :data:`IN_FLIGHT` seconds ago: the phone has not had it yet, rather than lost it."""
        went = [(frame, at) for frame, (_, at) in self.history.items() if at is not None]  # the pushes, oldest first
        later = next((i + 1 for i, (frame, _) in enumerate(went) if frame == frame_id), None)
        if later is None:
            if frame_id in self.history or not went:
                return False  # the page's own state, current at connect; or nothing pushed yet
            later = 0
        return later < len(went) and time.monotonic() - went[later][1] < IN_FLIGHT

    def shown(self) -> int:
        """The table revision this phone shows as far as this socket knows (-1 before its first frame)."""
        return int(self.sent.at.rpartition(":")[2]) if self.sent.at else -1

    def heard(self, revision: int | None) -> None:
        """The table's feed heard ``revision`` (games/socket/fanout.py; its snapshot is made when the message
        carried the move): push what changed for this phone, beside the message loop. A phone that already shows
        it (its own tap's push) costs nothing."""
        if revision is None or revision > self.shown():
            self._beside(self._push(revision))

    async def _push(self, revision: int | None) -> None:
        """Push what changed for this phone up to ``revision``, in turn with this socket's other frames; nothing
        when the phone shows it or a later one already."""
        async with self.push_lock:
            if self.live and (revision is None or revision > self.shown()):
                await self._refresh(revision)

    async def _send_quietly(self, text: str) -> None:
        """Send one frame that is no push (a refusal, a pong); a socket the phone just closed is not an error, and a
        socket that is closed sends nothing."""
        if not self.live:
            return
        try:
            await self.send(text_data=text)
        except SOCKET_GONE:
            return

    async def _send_frame(self, frame: str) -> None:
        """Send one push, tagged with its frame id, and remember what the phone then shows (nothing is sent on a
        socket that is closed)."""
        if not self.live:
            return
        self.frames += 1
        self.last_frame = f"{self.socket_id}.{self.frames}"
        self.history[self.last_frame] = (self.sent.copy(), time.monotonic())
        while len(self.history) > FRAMES_KEPT:
            self.history.popitem(last=False)
        try:
            await self.send(text_data=frame + frame_marker(self.last_frame))
        except SOCKET_GONE:
            # The phone closed its socket while this push was on its way (a reconnect storm): its disconnect
            # follows, and its next socket catches up on connect. Not an error of the server's.
            return

    async def _render(self, page_signature: str | None = None, revision: int | None = None) -> str | None:
        """This phone's frame rendered in a worker thread (it may read the database)."""
        return await socket_db.run(render_push, self.code, self.token, self.language, self.screen, self.sent,
                                                         self.host_token, self.csrf_token, page_signature, revision,
                                                         self.digits)

    def _held(self, revision: int | None) -> snapshots.Snapshot | None:
        """The snapshot of ``revision`` when this phone's frame can be rendered from it with no database: held in
        this process, its seat found on it, and every piece of the context on it (:func:`needs_database`).
        ``None`` otherwise (the render goes to a thread). No I/O."""
        snap = snapshots.held(self.code, revision) if revision is not None else None
        if snap is None:
            return None
        viewer = None if self.screen else snap.seat_index(self.token)
        if viewer is None and not self.screen:
            return None  # a secret this snapshot does not know: the thread's render answers it
        return None if needs_database(snap, viewer) else snap

    async def _refresh(self, revision: int | None = None) -> None:
        """Push what changed for this phone; rendered right here in the event loop when the snapshot of
        ``revision`` is held and its render reads no database (pure work on data in memory, no thread hop),
        else in a thread. The caller holds :attr:`push_lock`.

        A bearer socket whose seat a phone took back since is first logged as the API holding it again
        (:func:`games.entry.access.held_by_bearer`), before anything of the seat is sent."""
        if self.by_bearer and not self.screen:
            pushed = snapshots.held(self.code, revision) if revision is not None else None
            index = pushed.seat_index(self.token) if pushed is not None else None
            if pushed is None or index is None or not any(s["index"] == index and s["by_bearer"] for s in pushed.seats):
                await socket_db.run(held_by_bearer, self.code, self.token)
        snap = self._held(revision)
        if snap is not None:
            frame = render_push(self.code, self.token, self.language, self.screen, self.sent, self.host_token,
                                self.csrf_token, None, revision, self.digits, snap)
        else:
            frame = await self._render(revision=revision)
        if frame is None:
            await self._seat_gone()
            return
        if frame:
            await self._send_frame(frame)
