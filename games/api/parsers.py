"""The API's JSON parser: the body is read by the one strict JSON reader every door uses (games/web/inputs.py)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from games.engines.base import IllegalAction
from games.engines.schema import MAX_JSON_DEPTH
from games.read.presenters import error_message
from games.web.inputs import load_json


class SafeJSONParser(JSONParser):
    """A JSON body read by :func:`games.web.inputs.load_json`, as the socket reads a tap and the page an action.

    What it refuses is a 400 ``ParseError`` carrying that reader's code: ``bad_json`` (not UTF-8 or not
    JSON, ``NaN``, a number too large for a float, a key named twice in one object), ``too_deep``,
    ``nul_character``, ``bad_text`` (a lone surrogate) or ``too_large``; never a 500.
    """

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        """The body as JSON reads it; ``ParseError`` with the strict reader's code otherwise."""
        raw = stream.read() if stream is not None else b""
        limit = max(settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0, settings.IMPORT_MAX_BYTES)
        try:
            return load_json(raw, max_bytes=limit, max_depth=MAX_JSON_DEPTH, what="request body")
        except IllegalAction as exc:
            raise ParseError(error_message(exc), code=exc.code) from exc
