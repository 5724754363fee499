"""The middleware of settings.MIDDLEWARE that the project defines or adapts.

* :class:`InputGuardMiddleware` refuses NUL characters and oversized bodies at the door, with a 4xx
  ``{"code", "message"}``. PostgreSQL cannot store a NUL character in text or ``jsonb`` (SQLite can),
  so a NUL anywhere in the path, the query string or the body (raw, percent-encoded in a form, or
  escaped as ``\\u0000`` in JSON, in any field or uploaded file) is refused here, on every database
  alike, before a view sees it. A body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (or a form with too many
  fields) is refused the same way instead of Django's HTML 400. Status: 400 (NUL) or 413 (too large)
  on the API and plain requests; 422 for htmx requests, whose refusals the phone pages swap in (see
  ``games.pages.views.act``). A page opened by GET at an address that only takes a POST (a reload, the back
  button) gets its empty 405 replaced by the site's 405 page
  (``games.web.error_views.address_not_a_page``).
* :class:`PrivateAnswersMiddleware` marks every dynamic answer ``Cache-Control: private, no-store``.
* Django's own middleware (security, gzip, sessions, locale, common, CSRF, messages, X-Frame-Options)
  as subclasses whose hooks run in the event loop under ASGI while ``settings.INLINE_MIDDLEWARE_HOOKS``
  is on (:class:`InlineHooks`); off, they behave exactly as Django's classes.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote_to_bytes

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.conf import settings
from django.contrib.messages.middleware import MessageMiddleware as _Messages
from django.contrib.sessions.middleware import SessionMiddleware as _Session
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.middleware.clickjacking import XFrameOptionsMiddleware as _XFrame
from django.middleware.common import CommonMiddleware as _Common
from django.middleware.csrf import CsrfViewMiddleware as _Csrf
from django.middleware.gzip import GZipMiddleware as _GZip
from django.middleware.locale import LocaleMiddleware as _Locale
from django.middleware.security import SecurityMiddleware as _Security
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _

# A JSON escape of NUL: "\u0000" preceded by an even number of backslashes (an odd count escapes the backslash).
_ESCAPED_NUL = re.compile(rb"(?<!\\)(?:\\\\)*\\u0000", re.IGNORECASE)
_CHUNK = 64 * 1024


def _read_body(request: HttpRequest, limit: int) -> bytes:
    """``request.body`` under ``limit`` bytes instead of ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (a path of
    ``settings.BODY_LIMITS``: the API's import takes the same 2 MiB file as the import page). Raises
    ``RequestDataTooBig`` past it; afterwards ``request.body`` and the request stream give the bytes read."""
    if hasattr(request, "_body"):
        body = request._body
    else:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except (TypeError, ValueError):
            length = 0
        if length > limit:
            raise RequestDataTooBig(f"Request body exceeded {limit} bytes.")
        body = request.read(limit + 1)
        request._body = body
        request._stream = io.BytesIO(body)
    if len(body) > limit:
        raise RequestDataTooBig(f"Request body exceeded {limit} bytes.")
    return body


def refusal(request: HttpRequest, code: str, message: str, status: int) -> HttpResponse:
    """The ``{"code", "message"}`` answer; htmx requests get 422 so the phone page shows it.

    A browser's own page load or form post (``Accept: text/html``, outside ``/api/``, not htmx) gets the
    site's refusal page instead, in the reader's language, with ``data-code`` and a way back.
    """
    api = request.path.startswith("/api/")
    if request.headers.get("HX-Request") == "true" and not api:
        status = 422
    elif not api and "text/html" in request.headers.get("Accept", ""):
        from games.web.error_views import error_page

        return error_page(request, status, _("Bad request"), message, code=code)
    return JsonResponse({"code": code, "message": message}, status=status)


class SyncAndAsyncMiddleware:
    """A middleware shell for both modes: :meth:`before` may answer instead of the view, :meth:`after` may
    rewrite the answer. Neither does I/O, so both run inline in the event loop under ASGI.

    Why: a sync-only middleware in the chain makes Django hop from the event loop to
    a thread and back for every request.
    """

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.async_mode = iscoroutinefunction(get_response)
        if self.async_mode:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        """Answer from :meth:`before`, or pass the request on; then :meth:`after`."""
        if self.async_mode:
            return self._acall(request)
        return self.after(request, self.before(request) or self.get_response(request))

    async def _acall(self, request: HttpRequest) -> HttpResponse:
        return self.after(request, self.before(request) or await self.get_response(request))

    def before(self, request: HttpRequest) -> HttpResponse | None:
        """An answer that stops the request here, or ``None`` to pass it on."""
        return None

    def after(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        """The answer as sent (unchanged here)."""
        return response


class InputGuardMiddleware(SyncAndAsyncMiddleware):
    """Refuse NUL characters anywhere in a request and bodies over the configured limit.

    The check reads the body ASGI already received, so it does no I/O.
    """

    def before(self, request: HttpRequest) -> HttpResponse | None:
        try:
            has_nul = self._has_nul(request)
        except (RequestDataTooBig, TooManyFieldsSent):
            return refusal(request, "too_large", _("The request is too large."), 413)
        except MultiPartParserError:
            return refusal(request, "bad_body", _("The request body is not valid."), 400)
        if has_nul:
            return refusal(request, "nul_character", _("The request holds a NUL character, which is never valid input."),
                           400)
        if self._form_not_unicode(request):
            return refusal(request, "bad_text", _("The request holds text that is not Unicode (a lone surrogate)."),
                           400)
        return None

    def after(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        """A reload or the back button onto a POST-only address gets the site's 405 page, not a blank one."""
        if (response.status_code == 405 and request.method == "GET" and not response.content
                and not request.path.startswith("/api/")):
            from games.web.error_views import address_not_a_page

            return address_not_a_page(request)
        return response

    def _has_nul(self, request: HttpRequest) -> bool:
        if "\x00" in request.path or b"\x00" in unquote_to_bytes(request.META.get("QUERY_STRING", "")):
            return True
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return False
        if request.content_type == "multipart/form-data":
            return self._multipart_has_nul(request)
        limit = getattr(settings, "BODY_LIMITS", {}).get(request.path)
        # raises RequestDataTooBig past DATA_UPLOAD_MAX_MEMORY_SIZE, or past the path's own limit
        body = request.body if limit is None else _read_body(request, limit)
        if b"\x00" in body or _ESCAPED_NUL.search(body):
            return True
        if request.content_type == "application/x-www-form-urlencoded":
            return b"\x00" in unquote_to_bytes(body.replace(b"+", b" "))
        return False

    @staticmethod
    def _form_not_unicode(request: HttpRequest) -> bool:
        """True when a posted form's fields are not UTF-8 (a lone surrogate's bytes among them): Django would read
        them with replacement characters, so a tap's key would be taken as another text than the one sent,
        where the socket and the API refuse that text (``bad_text``)."""
        if request.method in ("GET", "HEAD", "OPTIONS") or request.content_type != "application/x-www-form-urlencoded":
            return False
        try:
            unquote_to_bytes(request.body.replace(b"+", b" ")).decode("utf-8")
        except UnicodeDecodeError:
            return True
        return False

    @staticmethod
    def _multipart_has_nul(request: HttpRequest) -> bool:
        for values in request.POST.lists():
            if any("\x00" in value for value in values[1]) or "\x00" in values[0]:
                return True
        for upload in request.FILES.values():
            if "\x00" in (upload.name or ""):
                return True
            tail = b""
            for chunk in upload.chunks(_CHUNK):
                window = tail + chunk
                if b"\x00" in chunk or _ESCAPED_NUL.search(window):
                    upload.seek(0)
                    return True
                tail = window[-16:]
            upload.seek(0)
        return False


class PrivateAnswersMiddleware(SyncAndAsyncMiddleware):
    """Every page, fragment and API answer is ``Cache-Control: private, no-store`` unless its view set a policy.

    A table's answers are computed from the asker's own seat (cookie or bearer token) and change with
    every move, so no shared cache (a café's proxy) and no disk cache may keep one for anyone else or
    for later. Static files never reach this (ServeStatic answers them first, with a public ``Cache-Control`` of its own).
    """

    def after(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if not response.has_header("Cache-Control"):
            patch_cache_control(response, private=True, no_store=True)
        return response


# -- Django's own middleware, its hooks run in the event loop -------------------------------------------------
# Under ASGI, Django's ``MiddlewareMixin.__acall__`` runs every ``process_request``, ``process_view`` and
# ``process_response`` of a sync middleware through ``sync_to_async``: one hop to a thread and back for each, about
# fifteen per request with the stack of settings.MIDDLEWARE. Their hooks do no I/O (but for the session's and the
# messages' save), so with ``settings.INLINE_MIDDLEWARE_HOOKS`` on (the default) the subclasses below call them
# inline, and hop only when the hook may touch the database. With it off they behave as Django's own classes
# (Django's ``__acall__`` runs), so a Django upgrade that changes it can be checked by turning the setting off.


class InlineHooks:
    """Mixin for a ``MiddlewareMixin`` subclass: under ASGI its hooks run in the event loop (no thread hop).

    Only when ``settings.INLINE_MIDDLEWARE_HOOKS`` is on, read when the handler builds its
    chain; off, Django's own ``__acall__`` runs. Sync mode (WSGI, the test client) is
    Django's either way. :meth:`response_does_io` names the answers whose
    ``process_response`` may do I/O: those still go through a thread.
    """

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        super().__init__(get_response)  # type: ignore[call-arg]
        self.inline_hooks = bool(getattr(self, "async_mode", False) and settings.INLINE_MIDDLEWARE_HOOKS)

    async def __acall__(self, request: HttpRequest) -> HttpResponse:
        """``process_request``, the rest of the chain, ``process_response``: inline unless I/O may follow."""
        if not self.inline_hooks:
            return await super().__acall__(request)  # type: ignore[misc]
        response = None
        if hasattr(self, "process_request"):
            response = self.process_request(request)
        response = response or await self.get_response(request)  # type: ignore[attr-defined]
        if hasattr(self, "process_response"):
            if self.response_does_io(request, response):
                response = await sync_to_async(self.process_response, thread_sensitive=True)(request, response)
            else:
                response = self.process_response(request, response)
        return response

    def response_does_io(self, request: HttpRequest, response: HttpResponse) -> bool:
        """True when ``process_response`` may read or write the database (never, here)."""
        return False


class InlineViewHook(InlineHooks):
    """:class:`InlineHooks` whose ``process_view`` is a coroutine too, so Django does not hop to call it."""

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        super().__init__(get_response)
        if self.inline_hooks:
            sync_view = self.process_view

            async def process_view(request, callback, callback_args, callback_kwargs):  # noqa: ANN001, ANN202
                return sync_view(request, callback, callback_args, callback_kwargs)

            self.process_view = process_view  # type: ignore[method-assign]


class SecurityMiddleware(InlineHooks, _Security):
    """Django's security headers, set in the event loop."""


class GZipMiddleware(InlineHooks, _GZip):
    """Django's gzip (with its BREACH padding), compressing in the event loop."""


class LocaleMiddleware(InlineHooks, _Locale):
    """Django's language pick, in the event loop."""


class CommonMiddleware(InlineHooks, _Common):
    """Django's common checks (slash redirects), in the event loop."""


class CsrfViewMiddleware(InlineViewHook, _Csrf):
    """Django's CSRF check, in the event loop (ASGI has the body in memory before the chain runs)."""


class MessageMiddleware(InlineHooks, _Messages):
    """Django's messages; a response that shows or adds messages still stores them in a thread (the session)."""

    def response_does_io(self, request: HttpRequest, response: HttpResponse) -> bool:
        """True when messages were read or added: their storage may fall back to the database session."""
        storage = getattr(request, "_messages", None)
        return storage is not None and bool(getattr(storage, "used", False) or getattr(storage, "added_new", False))


class XFrameOptionsMiddleware(InlineHooks, _XFrame):
    """Django's X-Frame-Options header, in the event loop."""


class SessionMiddleware(InlineHooks, _Session):
    """Django's sessions: loaded lazily (in the view's thread); the response hook hops only to save."""

    def response_does_io(self, request: HttpRequest, response: HttpResponse) -> bool:
        """True when the session would be saved (changed, or saved on every request)."""
        session = getattr(request, "session", None)
        return session is not None and (session.modified or settings.SESSION_SAVE_EVERY_REQUEST)
