"""One websocket per phone (shared/DESIGN.md "Pages and sync").

The consumer joins the table's group and listens for ``version N``. On each
it renders *this* phone's own fragment through the same per-seat context as
the HTTP page and pushes it as an htmx out-of-band swap. It never picks
recipients and never forwards another seat's data: each socket renders its
own view. On connect (and so on every reconnect after a phone slept) it sends
the current fragment at once, so a missed message never matters.
"""

from __future__ import annotations

import secrets
import uuid
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.http.cookie import parse_cookie
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext

from games.access import host_cookie, read_signed, seat_cookie
from games.models import Seat, Table
from games.presenters import seat_context
from games.services import group_name

FRAGMENT = "games/table.html#table-body"


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


def render_fragment(code: str, token: str | None, language: str, screen: bool, host_token: str | None = None,
                    csrf_token: str | None = None) -> tuple[int, str] | None:
    """Render the out-of-band ``#table`` fragment for the seat holding ``token`` (or the table screen).

    Returns ``(version, html)``, or ``None`` when the seat's secret is no longer
    valid (the host handed the seat over) or the table is gone. ``csrf_token``
    is the phone's own CSRF cookie, so the plain forms of a pushed fragment
    (confirm a correction) still pass Django's CSRF check.
    """
    table = Table.objects.filter(code=code).first()
    if table is None:
        return None
    seat_index: int | None = None
    if not screen:
        seat = Seat.objects.filter(table=table, token=token).first() if token else None
        if seat is None:
            return None
        seat_index = seat.index
    with translation.override(language):
        context = seat_context(table, seat_index)
        is_host = bool(host_token) and secrets.compare_digest(host_token, table.host_token)
        context.update(oob=True, screen=screen, form_key=uuid.uuid4().hex, is_host=is_host, error=None)
        if csrf_token:
            context["csrf_token"] = csrf_token
        html = render_to_string(FRAGMENT, context)
    return table.version, html


class TableConsumer(AsyncWebsocketConsumer):
    """``/ws/tables/<code>/``; ``?screen=1`` for the table screen (public view)."""

    async def connect(self) -> None:
        self.code = self.scope["url_route"]["kwargs"]["code"].upper()
        headers = _headers(self.scope)
        cookies = parse_cookie(headers.get("cookie", ""))
        query = self.scope.get("query_string", b"").decode()
        self.screen = "screen=1" in query.split("&")
        auth = headers.get("authorization", "")
        self.token = auth[7:].strip() if auth.startswith("Bearer ") else read_signed(cookies, seat_cookie(self.code))
        self.language = _language(headers, cookies)
        self.host_token = read_signed(cookies, host_cookie(self.code))
        self.csrf_token = cookies.get(settings.CSRF_COOKIE_NAME)
        self.sent_version = -1
        first = await database_sync_to_async(render_fragment)(self.code, self.token, self.language, self.screen,
                                                                 self.host_token, self.csrf_token)
        if first is None:
            await self.close(code=4403)
            return
        await self.channel_layer.group_add(group_name(self.code), self.channel_name)
        await self.accept()
        await self._send(first)

    async def disconnect(self, close_code: int) -> None:
        if hasattr(self, "code"):
            await self.channel_layer.group_discard(group_name(self.code), self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Any message from the phone asks for a resync; actions go through HTTP (the one write path)."""
        await self._refresh(force=True)

    async def table_version(self, event: dict[str, Any]) -> None:
        """Group message ``{"type": "table.version", "version": N}``: re-render this phone's own view."""
        await self._refresh(force=True)

    async def _refresh(self, force: bool = False) -> None:
        rendered = await database_sync_to_async(render_fragment)(self.code, self.token, self.language, self.screen,
                                                                 self.host_token, self.csrf_token)
        if rendered is None:
            with translation.override(self.language):
                text = escape(gettext("This link no longer holds a seat. Ask the host for a new one."))
            await self.send(text_data=f'<div id="table" hx-swap-oob="true"><p class="banner error">{text}</p></div>')
            await self.close(code=4403)
            return
        if force or rendered[0] > self.sent_version:
            await self._send(rendered)

    async def _send(self, rendered: tuple[int, str]) -> None:
        self.sent_version, html = rendered
        await self.send(text_data=html)
