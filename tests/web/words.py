"""Shared helpers of the every-word tests: seeded games of each game, its pages, and the words a reader sees.

``visible_words(html)`` reads the text a reader sees (text nodes and the ``title``,
``aria-label``, ``placeholder`` and ``alt`` attributes; never ``<script>``/``<style>``) and
leaves out what is isolated as a name or a code: anything inside ``<bdi>``, an element
with ``dir="auto"`` or the class ``code``.
"""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

from django.conf import settings
from django.test import Client

from games.entry.access import host_cookie, set_signed

# A word in Latin letters (Azerbaijani's ə ğ ı ö ş ç ü included; × and ÷ are not letters).
LATIN_WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ɏ]+(?:['’][A-Za-z]+)?")
ISOLATED_RUN = re.compile("[\u2066\u2067\u2068]([^\u2069]*)\u2069")
SHOWN_ATTRS = ("title", "aria-label", "placeholder", "alt")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
        "path", "circle", "rect", "line", "polygon", "polyline", "ellipse", "use", "stop"}


class _Reader(HTMLParser):
    """Collects ``(text, isolated)`` pieces of an HTML page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool, bool]] = []  # (tag, isolated, hidden)
        self.pieces: list[tuple[str, bool]] = []
        self.page_lang = ""

    def _flags(self) -> tuple[bool, bool]:
        return (self.stack[-1][1], self.stack[-1][2]) if self.stack else (False, False)

    def handle_starttag(self, tag, attrs):
        attr = dict(attrs)
        isolated, hidden = self._flags()
        classes = (attr.get("class") or "").split()
        isolated = (isolated or tag in ("bdi", "code") or attr.get("dir") == "auto" or "code" in classes
                    or bool(attr.get("lang") and self.page_lang and attr["lang"] != self.page_lang))
        if tag == "html":
            self.page_lang = attr.get("lang") or ""
        hidden = hidden or tag in ("script", "style", "template")
        if not hidden:
            for name in SHOWN_ATTRS:
                if attr.get(name):
                    self.pieces.append((attr[name], isolated))
            if tag == "input" and attr.get("type") in ("submit", "button") and attr.get("value"):
                self.pieces.append((attr["value"], isolated))
        if tag not in VOID:
            self.stack.append((tag, isolated, hidden))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self.stack:
            self.stack.pop()

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        isolated, hidden = self._flags()
        if hidden or not data.strip():
            return
        # Text between Unicode isolates (FSI/LRI/RLI ... PDI) is a name or a code isolated in a sentence.
        for inner in ISOLATED_RUN.findall(data):
            self.pieces.append((inner, "run"))  # isolated in a sentence: must still be a name or a code
        rest = ISOLATED_RUN.sub(" ", data)
        if rest.strip():
            self.pieces.append((rest, isolated))


def visible_pieces(html: str) -> list[tuple[str, bool | str]]:
    """The pieces of text of ``html`` a reader sees, each with whether it is isolated.

    ``True``: isolated by markup as a name or a code (``<bdi>``, ``.code``...); ``"run"``: a run
    between Unicode isolates inside a sentence (a name, a code, a card name: checked by the caller).
    """
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return reader.pieces


def latin_words(html: str, allowed: set[str]) -> set[str]:
    """Latin-letter words shown outside isolated names/codes, less ``allowed`` (compared case-blind)."""
    found = set()
    for text, isolated in visible_pieces(html):
        if isolated is True:
            continue
        for word in LATIN_WORD.findall(text):
            if word.lower() not in allowed:
                found.add(word)
    return found


def host_client(table, language: str) -> Client:
    """A client holding the host cookie of ``table`` and seat 0's cookie, reading ``language``."""
    from tests.conftest import phone_for

    client = phone_for(table, 0)
    carrier = _Carrier()
    set_signed(carrier, host_cookie(table.code), table.host_token)
    client.cookies[host_cookie(table.code)] = carrier.value
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


class _Carrier:
    """Receives a signed cookie value from :func:`games.entry.access.set_signed`."""

    value = ""

    def set_cookie(self, key, value, **kwargs):
        self.value = value

    def set_signed_cookie(self, key, value, **kwargs):
        self.value = value


def play(table, seed: int, stop: int) -> list[tuple[str, int, dict]]:
    """Play up to ``stop`` random legal actions (fewer if the game ends)."""
    from tests.conftest import play_through_write_path

    try:
        return play_through_write_path(table, seed, stop=stop)
    except AssertionError:
        return []


def rng_for(seed: int) -> random.Random:
    return random.Random(seed)
