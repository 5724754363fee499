"""API errors: every refusal is ``{"code", "message"}`` with a 4xx status, never a 500 for bad input."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.defaults import page_not_found
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


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
        response.data = {"code": "unknown_field" if unknown else "invalid",
                         "message": unknown or "The request body is not valid.", "fields": detail}
    return response


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
