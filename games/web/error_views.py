"""The site's error pages: 400, 403, 404 and 500 in the site layout and the reader's language.

Django's own handlers render 400.html and 500.html without the request, so
the page would lose its language picker and CSRF token; these render
``refusal.html`` through the request. Under ``/api/`` every error stays
``{"code", "message"}`` JSON.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

_API_MESSAGES = {400: ("bad_request", "The request could not be read."), 403: ("forbidden", "Not allowed."),
                 404: ("not_found", "No such API endpoint or table."), 500: ("server_error", "The server hit an error.")}


def error_page(request: HttpRequest, status: int, heading: str, message: str, *, back_url: str = "",
               back_label: str = "", code: str = "") -> HttpResponse:
    """``refusal.html`` with ``status``: a heading, the message that names what went wrong, and a way back.

    ``back_url`` defaults to the lobby; ``code``, when given, is the refusal's stable code (the page's
    ``data-code``). Requests under ``/api/`` get
    ``{"code", "message"}`` JSON instead (the API's error shape).
    """
    if request.path.startswith("/api/"):
        code, text = _API_MESSAGES.get(status, ("error", message))
        return JsonResponse({"code": code, "message": text}, status=status)
    context = {"heading": heading, "message": message, "back_url": back_url, "back_label": back_label,
               "status_code": status, "refusal_code": code}
    return render(request, "refusal.html", context, status=status)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler400``."""
    return error_page(request, 400, _("Bad request"), _("The request could not be read."))


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler403``."""
    return error_page(request, 403, _("Not allowed"), _("This phone may not open this page."))


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler404``."""
    return error_page(request, 404, _("Page not found"), _("This page does not exist, or the table is gone."))


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: rendered without touching the database (it may be what failed)."""
    return error_page(request, 500, _("Something went wrong"), _("The server hit an error. Try again in a moment."))


def address_not_a_page(request: HttpRequest) -> HttpResponse:
    """A browser that opens (reload, back button, bookmark) an address that only takes a posted tap.

    Django answers such a GET with an empty 405, a blank page on a phone; this is the same 405 in the
    site layout, with a way back to the table (``/t/<code>/...``), the past games (``/history/...``)
    or the lobby.
    """
    parts = request.path.strip("/").split("/")
    back_url, back_label = "", ""
    if len(parts) >= 2 and parts[0] == "t":
        back_url, back_label = f"/t/{parts[1]}/", _("Back to the table")
    elif parts[0] == "history":
        back_url, back_label = "/history/", _("Past games")
    return error_page(request, 405, _("Not a page"),
                      _("This address only takes a tap from one of the app's buttons. Go back and tap again."),
                      back_url=back_url, back_label=back_label)
