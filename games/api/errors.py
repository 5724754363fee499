"""API errors: every refusal is ``{"code", "message"}`` with a 4xx status, never a 500 for bad input."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.defaults import page_not_found
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.engines.base import gettext_noop
from games.read.presenters import tr


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, reshaped so that every error has a stable ``code`` and a ``message``."""
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    detail = response.data
    code = getattr(exc, "default_code", "error")
    if isinstance(detail, dict) and "detail" in detail:
        message = str(detail["detail"])
        code = getattr(detail["detail"], "code", code)
        response.data = {"code": code, "message": message}
    elif response.status_code == status.HTTP_400_BAD_REQUEST:
        unknown = _unknown_field(detail)
        field = next((name for name in FIELD_REFUSALS if isinstance(detail, dict) and name in detail), None)
        if unknown:
            response.data = {"code": "unknown_field", "message": unknown, "fields": detail}
        elif field is not None:
            code, template, details = FIELD_REFUSALS[field]
            response.data = {"code": code, "message": tr(template, details), "fields": detail}
        else:
            response.data = {"code": "invalid", "message": "The request body is not valid.", "fields": detail}
    return response


#: A refused field of a write's body, by name: the code and message the socket and the page give the same field
#: of a tap (games/socket/socket_taps.py, games/pages/views.py), so every door refuses one malformed tap alike.
FIELD_REFUSALS: dict[str, tuple[str, str, dict[str, Any]]] = {
    "action": ("bad_action", gettext_noop("An action must be a JSON object."), {}),
    "version": ("bad_version", gettext_noop("Every tap names the table version it was chosen at."), {}),
    "key": ("bad_key", gettext_noop("An idempotency key is at most {limit} characters."), {"limit": 80}),
}


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Django's 404 handler: ``{"code": "not_found", "message"}`` under ``/api/``, the usual page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"code": "not_found", "message": "No such API endpoint or table."}, status=404)
    return page_not_found(request, exception or Http404())


def _unknown_field(detail: Any) -> str:
    """The message of the first field error coded ``unknown_field`` in a serializer's nested errors, or ``""``."""
    if isinstance(detail, dict):
        detail = list(detail.values())
    if isinstance(detail, list):
        for item in detail:
            found = _unknown_field(item)
            if found:
                return found
        return ""
    return str(detail) if getattr(detail, "code", None) == "unknown_field" else ""
