"""One digit system per page: Persian digits in fa and ps, Latin in en and az, per phone.

The pass runs over rendered HTML at the output boundary (the HTTP response in
:class:`DigitsMiddleware`, the websocket frame in ``games.socket.consumers``), so every
cached region keeps ASCII digits and no cache key needs the digit system.
It rewrites **what people read**: text nodes and the attributes a phone shows or reads out
(``placeholder``, ``title``, ``aria-label``, ``alt``); the other attributes (SVG coordinates,
``data-action`` payloads, form values, URLs) are copied byte for byte, and
nothing inside ``<script>``, ``<style>``, ``<textarea>``, ``<code>``, ``<kbd>``,
``<samp>``, ``<pre>`` or an element with the class ``code`` or ``translate="no"``
(table codes, seed hashes: typed or compared by people as printed) changes, nor a
digit run that touches a Latin letter (a table code in the page title, a hex "A11").

The phone picks its system with the cookie :data:`COOKIE` (``latin`` or
``persian``; absent or anything else: the language's default).
"""

from __future__ import annotations

import re

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from games.web.middleware import SyncAndAsyncMiddleware

COOKIE = "digits"
SYSTEMS = ("latin", "persian")
PERSIAN_DEFAULT = {"fa", "ps"}  # Pashto writes the same Extended Arabic-Indic digits (U+06F0-U+06F9)
_TO_PERSIAN = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")
# Catalogues write some numbers in Persian digits (rule sections: "بخش ۲.۱"); a Latin page shows them in Latin.
_TO_LATIN = str.maketrans("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩", "01234567890123456789")
_NATIVE = re.compile("[۰-۹٠-٩]")
_ASCII_DIGIT = re.compile("[0-9]")
# A digit run touching a Latin letter is part of a code ("XYYWC8" in a title, a hex "A11"): it stays as printed.
# A character reference (``&#39;``) is markup, not a number: its digits stay.
_WITH_LETTERS = re.compile(r"(?<!&#)(?<![A-Za-z0-9۰-۹٠-٩])[0-9۰-۹٠-٩]+(?![A-Za-z0-9۰-۹٠-٩])")
_TOKEN = re.compile(r"<!--.*?-->|<![^>]*>|<(/?)([A-Za-z][\w:.-]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*)>|[^<]+|<",
                    re.S)
_RAW = {"script", "style", "textarea", "code", "kbd", "samp", "pre"}
_ASCII_MARK = re.compile(r"""\bclass\s*=\s*["'][^"']*\bcode\b|\btranslate\s*=\s*["']no["']""")
# Attributes a phone shows (placeholder, tooltip) or reads out (aria-label, alt): people read their numbers.
_SHOWN_ATTR = re.compile(r"""(\s(?:placeholder|title|aria-label|alt)\s*=\s*)("[^"]*"|'[^']*')""", re.I)
# A Persian or Pashto zero is a dot (۰): a full stop touching a Persian digit reads as one more digit ("۲." reads
# "۲۰"). In Persian-digit text a point between digits is the Persian decimal separator (٫: "۵٫۳"), and a full stop
# after a number is left out (the number ends its sentence; the next one starts with its own words).
_DOTTED_NUMBER = re.compile(r"[۰-۹]+(?:\.[۰-۹]+)+")  # one point: a decimal or a rule section; more: an address, kept
_STOP_AFTER_NUMBER = re.compile(r"(?<=[۰-۹])\.(?![.۰-۹])")
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def system_for(language: str | None, choice: str | None) -> str:
    """The digit system a page in ``language`` uses: the phone's ``choice`` when valid, else the language's."""
    if choice in SYSTEMS:
        return choice  # type: ignore[return-value]
    return "persian" if (language or "").split("-")[0] in PERSIAN_DEFAULT else "latin"


def localize_number(text: str, system: str) -> str:
    """``text`` (plain, no markup) with its digits in ``system``: ``"12"`` → ``"۱۲"`` (persian), ``"۱۲"`` → ``"12"`` (latin)."""
    return text.translate(_TO_PERSIAN if system == "persian" else _TO_LATIN)


def localize_text(text: str, system: str) -> str:
    """``text`` (plain, no markup: an API message) with its numbers in ``system``, as :func:`localize_html`
    writes a text node: a digit run touching a Latin letter (a table code, "P1") stays as printed."""
    table = _TO_PERSIAN if system == "persian" else _TO_LATIN
    text = _WITH_LETTERS.sub(lambda m: m.group(0).translate(table), text)
    return no_dot_beside_digit(text) if system == "persian" else text


def no_dot_beside_digit(text: str) -> str:
    """Persian-digit ``text`` with no full stop touching a digit: ``"۵.۳"`` → ``"۵٫۳"``, ``"از ۲."`` → ``"از ۲"``."""
    if "." not in text:
        return text
    text = _DOTTED_NUMBER.sub(lambda m: m.group(0).replace(".", "٫") if m.group(0).count(".") == 1 else m.group(0), text)
    return _STOP_AFTER_NUMBER.sub("", text)


def localize_html(html: str, system: str) -> str:
    """``html`` with the digits people read written in ``system``: text nodes and the shown attributes
    (``placeholder``, ``title``, ``aria-label``, ``alt``); other markup and attributes untouched.

    ``persian`` writes ASCII digits as ۰-۹; ``latin`` writes Persian and Arabic-Indic digits as 0-9, so
    a page has one system whichever the catalogue used. A tolerant pass over tags (no full parse): an
    unknown or unclosed tag never raises, a stray ``<`` is copied as text.
    """
    if system == "persian":
        if not _ASCII_DIGIT.search(html) and not _NATIVE.search(html):
            return html
        table = _TO_PERSIAN
    elif _NATIVE.search(html):
        table = _TO_LATIN
    else:
        return html
    out: list[str] = []
    stack: list[tuple[str, bool]] = []  # (tag, keeps ASCII)
    for match in _TOKEN.finditer(html):
        piece = match.group(0)
        tag = match.group(2)
        if tag is None:
            if piece.startswith("<!") or (stack and stack[-1][1]):
                out.append(piece)
            else:
                piece = _WITH_LETTERS.sub(lambda m: m.group(0).translate(table), piece)
                out.append(no_dot_beside_digit(piece) if table is _TO_PERSIAN else piece)
            continue
        name = tag.lower()
        keeps_ascii = bool(stack and stack[-1][1]) or bool(_ASCII_MARK.search(match.group(3) or ""))
        if not match.group(1) and not keeps_ascii and _SHOWN_ATTR.search(piece):
            piece = _SHOWN_ATTR.sub(lambda m: m.group(1) + _WITH_LETTERS.sub(
                lambda d: d.group(0).translate(table), m.group(2)), piece)
        out.append(piece)
        if match.group(1):  # closing tag: pop to the matching opener, if any
            for i in range(len(stack) - 1, -1, -1):
                if stack[i][0] == name:
                    del stack[i:]
                    break
            continue
        if name in _VOID or piece.endswith("/>"):
            continue
        keep = keeps_ascii or name in _RAW
        stack.append((name, keep))
    return "".join(out)


def current_system(request: HttpRequest) -> str:
    """The digit system of the page this request gets (its cookie, then the active language)."""
    return system_for(translation.get_language(), request.COOKIES.get(COOKIE))


def digit_system(request: HttpRequest) -> dict[str, str]:
    """Context processor: ``{"digit_system": "latin" | "persian"}`` for this page, so CSS can number lists (``<ol>``
    markers are drawn by the browser, not text nodes the pass rewrites) in the same system as the text."""
    return {"digit_system": current_system(request)}


class DigitsMiddleware(SyncAndAsyncMiddleware):
    """Writes the digits of every HTML response in the phone's digit system (after the page is rendered)."""

    def after(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        """The page with its text digits in this phone's system (tags, attributes and codes untouched)."""
        request.digits = current_system(request)  # type: ignore[attr-defined]
        kind = response.get("Content-Type", "")
        if (kind.startswith("text/html") and not response.streaming
                and not response.has_header("Content-Encoding")):
            charset = response.charset or settings.DEFAULT_CHARSET
            response.content = localize_html(response.content.decode(charset), request.digits).encode(charset)
            if response.has_header("Content-Length"):
                response["Content-Length"] = str(len(response.content))
        return response


def set_digits(request: HttpRequest) -> HttpResponse:
    """POST ``digits`` (``auto``, ``latin`` or ``persian``) and ``next``: store the phone's choice, go back.

    ``auto`` forgets the choice (the language decides). Anything else is a 400;
    ``next`` must be a path of this site (else the lobby).
    """
    from django.http import HttpResponseBadRequest, HttpResponseNotAllowed, HttpResponseRedirect
    from django.utils.http import url_has_allowed_host_and_scheme

    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    choice = request.POST.get("digits", "")
    if choice not in (*SYSTEMS, "auto"):
        return HttpResponseBadRequest(translation.gettext("Pick Latin or Persian digits."), content_type="text/plain")
    target = request.POST.get("next") or "/"
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        target = "/"
    response = HttpResponseRedirect(target)
    if choice == "auto":
        response.delete_cookie(COOKIE)
    else:
        response.set_cookie(COOKIE, choice, max_age=365 * 24 * 3600, samesite="Lax", secure=settings.SECURE_COOKIES)
    return response
