"""Strict input at the edge: JSON that is too deep, too large or holds a NUL character is refused
before anything is parsed further or stored.

:func:`load_json` is the one way the web layer turns posted text (an action
field, a board editor drawing, an imported profile file) into JSON.
:func:`clean_text` bounds a free-text field (a correction reason).
"""

from __future__ import annotations

import json
from typing import Any

from games.engines.base import IllegalAction, gettext_noop
from games.engines.schema import MAX_JSON_DEPTH, check_json_value

#: The longest text of one tap any door reads, in bytes of UTF-8: a socket message, a page's action field, the body
#: of the API's action post. One limit, checked before the text is parsed, so the three doors refuse the same
#: oversized tap with the same code (``too_large``) rather than each meeting another limit first.
MAX_TAP_BYTES = 8192


def check_length(raw: str | bytes, max_bytes: int, what: str = "JSON") -> None:
    """Refuse ``raw`` unread when it is longer than ``max_bytes``: ``IllegalAction("too_large")``."""
    if len(raw) > max_bytes:
        raise IllegalAction("too_large", gettext_noop("The {what} is longer than {limit} bytes."),
                            what=what, limit=max_bytes)


def load_json(raw: str | bytes, *, max_bytes: int, max_depth: int = MAX_JSON_DEPTH, what: str = "JSON",
              unicode_only: bool = True) -> Any:
    """Parse ``raw`` (UTF-8 text) as JSON, refusing what cannot be stored as it came.

    Raises ``IllegalAction`` with code ``too_large`` (over ``max_bytes``),
    ``bad_json`` (not UTF-8 or not JSON, including ``NaN``/``Infinity``,
    numbers too large for a float and an object naming one key twice, whose
    first value a reader would see and the parser would drop), ``too_deep`` (nested more than
    ``max_depth``), ``nul_character`` (a NUL, raw or escaped as ``\\u0000``) or ``bad_text`` (a lone
    surrogate escaped in the text, unless ``unicode_only`` is false: see
    :func:`games.engines.schema.check_json_value`).
    """
    check_length(raw, max_bytes, what)
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        value = json.loads(text, parse_constant=_refuse_constant, object_pairs_hook=_unique_keys)
    except _DuplicateKey as exc:
        raise IllegalAction("bad_json", gettext_noop("The {what} names the key {key} twice in one object."),
                            what=what, key=str(exc)[:40]) from exc
    except RecursionError as exc:
        raise IllegalAction("too_deep", gettext_noop("The {what} is nested more than {depth} levels deep."),
                            what=what, depth=max_depth) from exc
    except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise IllegalAction("bad_json", gettext_noop("The {what} is not valid JSON."), what=what) from exc
    _refuse_infinite(value, what)
    check_json_value(value, max_depth=max_depth, what=what, unicode_only=unicode_only)
    return value


class _DuplicateKey(ValueError):
    """An object names one key twice (its argument: the key)."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _refuse_infinite(value: Any, what: str) -> None:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, float) and (item != item or item in (float("inf"), float("-inf"))):
            raise IllegalAction("bad_json", gettext_noop("The {what} is not valid JSON."), what=what)
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def clean_text(value: str, *, max_len: int, what: str) -> str:
    """``value`` stripped; ``IllegalAction("too_large"|"nul_character")`` if longer than ``max_len`` or holding NUL."""
    if "\x00" in value:
        raise IllegalAction("nul_character", gettext_noop("The {what} holds a NUL character."), what=what)
    value = value.strip()
    if len(value) > max_len:
        raise IllegalAction("too_large", gettext_noop("The {what} is longer than {limit} characters."),
                            what=what, limit=max_len)
    return value
