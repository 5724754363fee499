"""One websocket per phone (shared/DESIGN.md "Pages and sync"; issue 8).

The consumer joins the table's group and listens for ``version N``. On each
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

import secrets
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.core.exceptions import SynchronousOnlyOperation
from django.http.cookie import parse_cookie
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext

from games import digits, live
from games.access import host_cookie, read_signed, seat_cookie
from games.presenters import seat_context
from games.services import group_name


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


def render_push(code: str, token: str | None, language: str, screen: bool, sent: live.Sent,
                host_token: str | None = None, csrf_token: str | None = None,
                page_signature: str | None = None, marker: tuple[int, float] | None = None) -> str | None:
    """The frame that brings this phone up to date: the regions that changed since ``sent`` ('' for none).

    Returns ``None`` when the seat's secret is no longer valid (the host
    handed the seat over) or the table is gone. On connect,
    ``page_signature`` is what the phone's page holds: when it matches the
    current regions nothing is resent. ``csrf_token`` is the phone's own CSRF
    cookie, so the plain forms of a pushed region (confirm a correction)
    still pass Django's CSRF check. ``marker`` is ``(version, stamp)`` from
    the group message. Costs no query when the table's snapshot is cached
    (shared by every phone of the table), one without a marker.
    """
    snap = live.snapshot_by_code(code, marker)
    if snap is None:
        return None
    seat_index: int | None = None
    if not screen:
        seat_index = snap.seat_index(token)
        if seat_index is None:
            return None
    with translation.override(language):
        context = seat_context(snap, seat_index)
        is_host = bool(host_token) and secrets.compare_digest(host_token, snap.table.host_token)
        context.update(is_host=is_host, csrf_token=csrf_token)
        if page_signature:
            regions = live.page_regions(context)
            if live.page_signature(regions) == page_signature:
                sent.seed(context, regions)
                return ""
        return live.push(context, sent)


class TableConsumer(AsyncWebsocketConsumer):
    """``/ws/tables/<code>/``; ``?screen=1`` for the table screen (public view), ``?s=SIG`` the page's regions."""

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
            await self.send(text_data=first)

    async def disconnect(self, close_code: int) -> None:
        if hasattr(self, "code"):
            await self.channel_layer.group_discard(group_name(self.code), self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Any message from the phone asks for a full resync; actions go through HTTP (the one write path)."""
        self.sent = live.Sent()
        await self._refresh()

    async def table_version(self, event: dict[str, Any]) -> None:
        """Group message ``{"type": "table.version", "version": N, "stamp": T}``: push what changed for this phone."""
        stamp = event.get("stamp")
        await self._refresh((event["version"], stamp) if stamp is not None else None)

    async def _render(self, page_signature: str | None = None,
                      marker: tuple[int, float] | None = None) -> str | None:
        frame = await database_sync_to_async(render_push)(self.code, self.token, self.language, self.screen, self.sent,
                                                          self.host_token, self.csrf_token, page_signature, marker)
        # Regions are cached with ASCII digits; each phone's frame is written in its own digit system.
        return digits.localize_html(frame, self.digits) if frame else frame

    def _render_inline(self, marker: tuple[int, float]) -> str | None | bool:
        """This phone's frame rendered right here in the event loop, or ``False`` to go through a thread.

        When the write that sent ``marker`` left its snapshot in this
        process (games/live.py ``publish_move``), a render reads no database:
        it is pure work on data in memory, so it skips the hop to the
        executor thread (and that thread's connection handling), which cost
        about as much as the render. Should it touch the database after all,
        Django refuses in async code (``SynchronousOnlyOperation``) and the
        render is redone in a thread from what the phone showed before.
        """
        if not live.has_snapshot(self.code, marker):
            return False
        sent = live.Sent(dict(self.sent.regions), dict(self.sent.lines))
        try:
            frame = render_push(self.code, self.token, self.language, self.screen, sent, self.host_token,
                                self.csrf_token, None, marker)
        except SynchronousOnlyOperation:
            return False
        self.sent = sent
        return digits.localize_html(frame, self.digits) if frame else frame  # as _render writes it

    async def _refresh(self, marker: tuple[int, float] | None = None) -> None:
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
            await self.send(text_data=frame)
