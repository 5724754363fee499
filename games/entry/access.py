"""Who is asking: the device, the seat and the host, from signed HttpOnly cookies or a bearer token.

A seat's secret (``Seat.token``) rides in the signed cookie ``seat_<CODE>``
(phones) or in ``Authorization: Bearer <token>`` (API). The host's secret
rides in ``host_<CODE>`` or ``X-Host-Token``. Handing a seat over rotates its
secret, so the old link and cookie stop working.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from functools import wraps
from typing import Any, NamedTuple

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.http.request import split_domain_port
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

from companion import lan
from games.models import Seat, Table
from games.write.host import claim_seat

DEVICE_COOKIE = "device"


def seat_cookie(code: str) -> str:
    """The cookie name that holds a seat secret for table ``code``."""
    return f"seat_{code}"


def host_cookie(code: str) -> str:
    """The cookie name that holds the host secret for table ``code``."""
    return f"host_{code}"


def _signer(name: str) -> signing.Signer:
    # One salt per cookie name, so a seat secret can't be replayed as a host secret.
    return signing.get_cookie_signer(salt=f"companion.cookie.{name}")


def read_signed(cookies: Mapping[str, str], name: str) -> str | None:
    """The value of signed cookie ``name`` (HTTP request or websocket scope); ``None`` if absent, forged or expired."""
    raw = cookies.get(name)
    if not raw:
        return None
    try:
        return _signer(name).unsign(raw, max_age=settings.SEAT_COOKIE_MAX_AGE)
    except signing.BadSignature:
        return None


def set_signed(response: HttpResponse, name: str, value: str) -> None:
    """Set a signed, HttpOnly, SameSite=Lax cookie that lasts ``SEAT_COOKIE_MAX_AGE`` seconds."""
    response.set_cookie(
        name, _signer(name).sign(value), max_age=settings.SEAT_COOKIE_MAX_AGE, httponly=True, samesite="Lax", secure=settings.SECURE_COOKIES
    )


class Reach(NamedTuple):
    """Where the other phones reach this server, as the host page says it.

    ``origin``: ``scheme://host[:port]`` without a trailing slash; ``via``: ``"public"`` (the
    ``PUBLIC_URL`` setting), ``"lan"`` (the machine's LAN address in place of the loopback name the host
    typed), or ``"typed"`` (the address the host's own request used); ``typed``: that address;
    ``unreachable``: True when the links can only work on this machine (the host typed a loopback name
    and the server does not listen on the network).
    """

    origin: str
    via: str
    typed: str
    unreachable: bool

    @property
    def address(self) -> str:
        """The origin without its scheme, as a person reads it (``192.168.1.20:8000``)."""
        return self.origin.split("://", 1)[-1]

    @property
    def address_html(self) -> str:
        """:attr:`address` marked ``translate="no"``: people type it into a browser, so a Persian or Pashto
        page keeps its Latin digits (games/web/digits.py spares the mark), as it does a table code."""
        return format_html('<span translate="no">{}</span>', self.address)

    @property
    def typed_html(self) -> str:
        """:attr:`typed` marked as :attr:`address_html` is."""
        return format_html('<span translate="no">{}</span>', self.typed)


def reach(request: HttpRequest) -> Reach:
    """The origin join links, QR codes and the table-screen link use for ``request`` (see :class:`Reach`).

    ``settings.PUBLIC_URL`` wins; else, when the host opened the page as ``127.0.0.1``/``localhost``
    and the server listens on every address, the machine's LAN address (``settings.LAN_ADDRESS``, found
    at start-up by :func:`companion.lan.lan_address`) with the port the host used; else the host's own.
    """
    typed = request.get_host()
    if settings.PUBLIC_URL:
        return Reach(settings.PUBLIC_URL, "public", typed, False)
    loopback = lan.is_loopback(typed)
    if loopback and settings.LAN_ADDRESS:
        port = split_domain_port(typed)[1] or request.get_port()
        default = "443" if request.is_secure() else "80"
        netloc = lan.url_host(settings.LAN_ADDRESS) + ("" if str(port) == default else f":{port}")
        return Reach(f"{request.scheme}://{netloc}", "lan", typed, False)
    return Reach(f"{request.scheme}://{typed}", "typed", typed, loopback)


def join_link(request: HttpRequest, code: str, token: str) -> str:
    """The absolute join link of a seat: ``http://<address>/t/<code>/join/#<token>``.

    The address is the one the other phones reach (:func:`reach`: ``PUBLIC_URL``, else the LAN
    address in place of a loopback name, else the host's own). The secret rides in the URL fragment,
    which browsers never send to the server, so it stays out of access logs and Referer headers; the
    join page POSTs it (see ``games.pages.views.join``). QR codes encode this same link.
    """
    return reach(request).origin + reverse("games:join", args=[code]) + "#" + token


def device_id(request: HttpRequest) -> str:
    """This device's id (created on first use and set on the response by :func:`remember_device`)."""
    existing = read_signed(request.COOKIES, DEVICE_COOKIE)
    if existing:
        return existing
    if not hasattr(request, "_new_device"):
        request._new_device = secrets.token_urlsafe(16)  # type: ignore[attr-defined]
    return request._new_device  # type: ignore[attr-defined]


def remember_device(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """Set the device cookie if this request created the id."""
    if getattr(request, "_new_device", None):
        set_signed(response, DEVICE_COOKIE, request._new_device)  # type: ignore[attr-defined]
    return response


def bearer(request: HttpRequest) -> str | None:
    """The token of an ``Authorization: Bearer`` header, if any."""
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        return header[7:].strip() or None
    return None


def seat_from_cookies(table: Table, cookies: Mapping[str, str]) -> Seat | None:
    """The seat whose current secret is in the cookie ``seat_<CODE>``, or ``None``."""
    token = read_signed(cookies, seat_cookie(table.code))
    if not token:
        return None
    return table.seats.filter(token=token).first()


def seat_for(request: HttpRequest, table: Table) -> Seat | None:
    """The seat this request speaks for: bearer token first (see :func:`held_by_bearer`), then the cookie."""
    token = bearer(request)
    if token:
        seat = table.seats.filter(token=token).first()
        if seat is not None and seat.claimed_by_device != Seat.API_DEVICE:
            claim_seat(seat, Seat.API_DEVICE, announce=_seats_for_phones(table))
        return seat
    return seat_from_cookies(table, request.COOKIES)


def note_bearer(request: HttpRequest, code: str) -> None:
    """Before a write: log the request's bearer token as the API's device holding its seat (:func:`held_by_bearer`).

    Called outside the write path (a claim is a write of its own). It reads the seat's row, not a cached
    snapshot: a phone may have taken the seat back since this process last read the table.
    """
    token = bearer(request)
    if token:
        held_by_bearer(code.upper(), token)


def held_by_bearer(code: str, token: str) -> None:
    """Record that the seat whose secret is ``token`` at table ``code`` is read through a bearer token.

    A bearer token is one more device holding the seat (:data:`Seat.API_DEVICE`): its first use is logged
    like a claim of a seat another phone held, "the seat was opened on another phone"
    (:func:`games.write.host.claim_seat`), so whoever holds every link (the host) cannot read another
    player's hidden hand unseen through the API or a socket either. At a table made in the lobby it is logged
    when it happens, whether or not a phone joined the seat before (a read before the seat's phone first joins
    is not left for that join to log). At a table made through the API, whose creator holds every token for
    its bots, the first use is logged once a phone held the seat. Later uses write nothing; a bot's own claim
    (``POST /claim/``) leaves no line.
    """
    seat = (Seat.objects.filter(table__code=code, token=token).exclude(claimed_by_device=Seat.API_DEVICE)
            .select_related("table").first())
    if seat is not None:
        claim_seat(seat, Seat.API_DEVICE, announce=_seats_for_phones(seat.table))


def _seats_for_phones(table: Table) -> bool:
    """True for a table made on a phone's page (the lobby): its seats are handed to phones by join links, so a
    bearer read of a seat no phone holds yet is a read by whoever holds the links (the host), logged at once.
    A table made through the API handed every token to its creator, whose bots hold their seats by them."""
    return bool(table.created_by_device)


def is_host(request: HttpRequest, table: Table) -> bool:
    """True when the request carries the table's host secret (cookie or ``X-Host-Token``)."""
    token = request.headers.get("X-Host-Token") or read_signed(request.COOKIES, host_cookie(table.code))
    return bool(token) and secrets.compare_digest(token, table.host_token)


def refusal(request: HttpRequest, table: Table, message: str) -> HttpResponse:
    """A 403 that names why: the site page with a way back to the table.

    htmx requests (a tap answered into ``#table``) and API calls keep the short
    plain-text answer their callers show in place.
    """
    if request.headers.get("HX-Request") or request.path.startswith("/api/") or bearer(request):
        return HttpResponseForbidden(message)
    from games.web.error_views import error_page  # the views layer; imported here to keep this module light

    return error_page(request, 403, _("Not allowed"), message,
                      back_url=reverse("games:table", args=[table.code]), back_label=_("Back to the table"))


def table_view(*, seat: bool = False, host: bool = False):
    """Decorate a view taking ``(request, code)``: load the table or 404, attach ``request.table``,
    ``request.seat`` and ``request.is_host``; refuse with 403 when a seat or the host is required."""

    def decorate(view):
        @wraps(view)
        def wrapper(request: HttpRequest, code: str, *args: Any, **kwargs: Any) -> HttpResponse:
            table = get_object_or_404(Table, code=code.upper())
            request.table = table  # type: ignore[attr-defined]
            request.seat = seat_for(request, table)  # type: ignore[attr-defined]
            request.is_host = is_host(request, table)  # type: ignore[attr-defined]
            if seat and request.seat is None:  # type: ignore[attr-defined]
                return refusal(request, table, _("This phone has no seat at this table. Ask the host for your link."))
            if host and not request.is_host:  # type: ignore[attr-defined]
                return refusal(request, table, _("Only the host can do this."))
            return view(request, table, *args, **kwargs)

        return wrapper

    return decorate
