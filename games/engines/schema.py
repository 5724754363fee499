"""Declared payload schemas for action kinds, checked at the edge before anything is stored.

Plain Python (engines never import Django). Each game declares, next to its
action dataclasses in ``shelf/<slug>/actions.py``, one :class:`Kind`
per action kind: the fields it takes, their types and ranges, which are
optional. :func:`check_action` refuses anything else (an unknown kind, a key
the kind does not declare, a wrong type, a number or a string out of range, a
list too long, a value nested too deep) with ``IllegalAction("bad_payload")``
naming the field, so junk never reaches ``apply`` or the log.

A schema is about shape only; whether the move is legal is still ``apply``'s
business.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.engines.errors import IllegalAction, gettext_noop

#: No posted action, once encoded as JSON, is longer than this (bytes); the largest legal payload is a few hundred.
MAX_ACTION_BYTES = 4096
#: Nesting depth of any JSON value accepted at the edge (actions, options, profiles, editor cells).
MAX_JSON_DEPTH = 32


def _refuse(path: str, why: str) -> IllegalAction:
    return IllegalAction("bad_payload", gettext_noop("The field {field} is not valid: {why}."),
                         field=path or "action", why=why)


class Spec:
    """One field's shape; :meth:`check` raises ``IllegalAction("bad_payload")`` naming ``path``."""

    def check(self, value: Any, path: str) -> None:  # pragma: no cover - every subclass overrides it
        """Refuse ``value`` unless it has this shape."""
        raise NotImplementedError


@dataclass(frozen=True)
class Int(Spec):
    """A whole number in ``[lo, hi]`` (JSON ``true`` is not a number)."""

    lo: int = -1000
    hi: int = 1000

    def check(self, value: Any, path: str) -> None:
        """Refuse non-integers, booleans and values outside ``[lo, hi]``."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise _refuse(path, "a whole number is expected")
        if not self.lo <= value <= self.hi:
            raise _refuse(path, f"it must lie between {self.lo} and {self.hi}")


@dataclass(frozen=True)
class Num(Spec):
    """A finite number (int or float, not a boolean) in ``[lo, hi]``."""

    lo: float = -1e9
    hi: float = 1e9

    def check(self, value: Any, path: str) -> None:
        """Refuse non-numbers, booleans, NaN, infinities and values outside ``[lo, hi]``."""
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not self.lo <= value <= self.hi:
            raise _refuse(path, f"a number between {self.lo:g} and {self.hi:g} is expected")


@dataclass(frozen=True)
class Str(Spec):
    """A string of at most ``max_len`` characters, optionally one of ``choices``."""

    max_len: int = 40
    choices: tuple[str, ...] = ()

    def check(self, value: Any, path: str) -> None:
        """Refuse non-strings, long strings, NUL characters and strings outside ``choices``."""
        if not isinstance(value, str):
            raise _refuse(path, "a string is expected")
        if len(value) > self.max_len or "\x00" in value:
            raise _refuse(path, f"at most {self.max_len} printable characters")
        if self.choices and value not in self.choices:
            raise _refuse(path, "not one of the allowed values")


@dataclass(frozen=True)
class Bool(Spec):
    """``true`` or ``false``."""

    def check(self, value: Any, path: str) -> None:
        """Refuse anything but a boolean."""
        if not isinstance(value, bool):
            raise _refuse(path, "true or false is expected")


@dataclass(frozen=True)
class Null(Spec):
    """JSON ``null`` (used inside :class:`OneOf`)."""

    def check(self, value: Any, path: str) -> None:
        """Refuse anything but ``None``."""
        if value is not None:
            raise _refuse(path, "null is expected")


@dataclass(frozen=True)
class ListOf(Spec):
    """A list of ``min_len`` to ``max_len`` items, each of shape ``item``."""

    item: Spec
    min_len: int = 0
    max_len: int = 16

    def check(self, value: Any, path: str) -> None:
        """Refuse non-lists, lists of the wrong length and any bad item."""
        if not isinstance(value, list):
            raise _refuse(path, "a list is expected")
        if not self.min_len <= len(value) <= self.max_len:
            raise _refuse(path, f"{self.min_len} to {self.max_len} items")
        for i, item in enumerate(value):
            self.item.check(item, f"{path}.{i}")


@dataclass(frozen=True)
class Tuple(Spec):
    """A list of exactly ``len(items)`` values, the i-th of shape ``items[i]``."""

    items: tuple[Spec, ...]

    def check(self, value: Any, path: str) -> None:
        """Refuse non-lists, lists of another length and any bad item."""
        if not isinstance(value, list) or len(value) != len(self.items):
            raise _refuse(path, f"a list of {len(self.items)} items is expected")
        for i, (item, spec) in enumerate(zip(value, self.items, strict=True)):
            spec.check(item, f"{path}.{i}")


@dataclass(frozen=True)
class MapOf(Spec):
    """An object with at most ``max_len`` keys (each of shape ``key``), values of shape ``value``."""

    key: Str
    value: Spec
    max_len: int = 8

    def check(self, value: Any, path: str) -> None:
        """Refuse non-objects, too many keys and any bad key or value."""
        if not isinstance(value, dict):
            raise _refuse(path, "an object is expected")
        if len(value) > self.max_len:
            raise _refuse(path, f"at most {self.max_len} keys")
        for k, v in value.items():
            self.key.check(k, f"{path}.<key>")
            self.value.check(v, f"{path}.{k}")


@dataclass(frozen=True)
class Obj(Spec):
    """An object with exactly the ``required`` keys, any of the ``optional`` ones, and no other key."""

    required: Mapping[str, Spec] = field(default_factory=dict)
    optional: Mapping[str, Spec] = field(default_factory=dict)

    def check(self, value: Any, path: str) -> None:
        """Refuse non-objects, missing required keys, unknown keys and any bad value."""
        if not isinstance(value, dict):
            raise _refuse(path, "an object is expected")
        for name in self.required:
            if name not in value:
                raise _refuse(_join(path, name), "the field is missing")
        for name, item in value.items():
            spec = self.required.get(name) or self.optional.get(name)
            if spec is None:
                raise _refuse(_join(path, str(name)[:40]), "this field is unknown")
            spec.check(item, _join(path, name))


@dataclass(frozen=True)
class Shape(Spec):
    """An object whose listed keys, when present, have the given shapes (keys starting with a ``prefixed``
    prefix too); other keys are left to the engine's own validator. For edition data, whose checks name rules."""

    fields: Mapping[str, Spec] = field(default_factory=dict)
    prefixed: Mapping[str, Spec] = field(default_factory=dict)
    max_len: int = 256

    def check(self, value: Any, path: str) -> None:
        """Refuse non-objects, too many keys and any listed key of the wrong shape."""
        if not isinstance(value, dict):
            raise _refuse(path, "an object is expected")
        if len(value) > self.max_len:
            raise _refuse(path, f"at most {self.max_len} keys")
        for name, item in value.items():
            spec = self.fields.get(name) or next(
                (s for prefix, s in self.prefixed.items() if str(name).startswith(prefix)), None)
            if spec is not None:
                spec.check(item, _join(path, str(name)[:40]))


@dataclass(frozen=True)
class OneOf(Spec):
    """A value of any one of ``options`` (tried in order)."""

    options: tuple[Spec, ...]

    def check(self, value: Any, path: str) -> None:
        """Refuse a value that fits none of the options (the last option's reason is given)."""
        last: IllegalAction | None = None
        for option in self.options:
            try:
                option.check(value, path)
                return
            except IllegalAction as exc:
                last = exc
        assert last is not None
        raise last


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def Kind(**fields: Spec) -> Obj:  # noqa: N802 - reads as a declaration: Kind(card=Str(), steps=Int(-7, 13))
    """The schema of one action kind: ``fields`` are required; wrap a spec in :class:`Opt` to make it optional."""
    required = {k: v for k, v in fields.items() if not isinstance(v, Opt)}
    optional = {k: v.spec for k, v in fields.items() if isinstance(v, Opt)}
    return Obj(required, optional)


@dataclass(frozen=True)
class Opt(Spec):
    """Marks a field of :func:`Kind` as optional."""

    spec: Spec

    def check(self, value: Any, path: str) -> None:
        """Check ``value`` against the wrapped spec."""
        self.spec.check(value, path)


def json_depth(value: Any, limit: int = MAX_JSON_DEPTH) -> int:
    """Nesting depth of a JSON value (a scalar is 0, ``[[]]`` is 2); stops counting past ``limit + 1``.

    Iterative, so a value nested 100,000 deep neither recurses nor takes long.
    """
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            depth += 1
            deepest = max(deepest, depth)
            if deepest > limit:
                return deepest
            stack.extend((child, depth) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


#: Any surrogate code point in a Python string: JSON joins an escaped pair into one character, so one left is lone.
_SURROGATE = re.compile("[\ud800-\udfff]")
BAD_TEXT = gettext_noop("The {what} holds text that is not Unicode (a lone surrogate).")


def check_json_value(value: Any, *, max_depth: int = MAX_JSON_DEPTH, what: str = "value",
                     unicode_only: bool = True) -> None:
    """Refuse a JSON value nested deeper than ``max_depth``, or holding a NUL character or a lone surrogate
    anywhere (in a key or a value).

    A lone surrogate (``"\\ud800"`` escaped in JSON text, never a whole pair, which JSON reads as one
    character) is no Unicode character: UTF-8 cannot encode it, so no column, log line or page could hold it
    (RFC 7493, I-JSON, refuses it for that reason).

    ``unicode_only=False`` lets lone surrogates through, for a reader that judges the text as a whole
    (an exported game file: any change to it gets one answer, after its seal is checked).

    Raises ``IllegalAction("too_deep")``, ``IllegalAction("nul_character")`` or ``IllegalAction("bad_text")``.
    """
    if json_depth(value, max_depth) > max_depth:
        raise IllegalAction("too_deep", gettext_noop("The {what} is nested more than {depth} levels deep."),
                            what=what, depth=max_depth)
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise IllegalAction("nul_character", gettext_noop("The {what} holds a NUL character."), what=what)
            if unicode_only and _SURROGATE.search(item):
                raise IllegalAction("bad_text", BAD_TEXT, what=what)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def check_options(schemas: Mapping[str, Spec] | None, options: Any) -> None:
    """Refuse table options whose edition data has the wrong shape (``IllegalAction("bad_edition")``).

    ``schemas`` maps an option name to the shape of its value; options not
    named are left to the engine's ``validate_options``.
    """
    if not schemas or not isinstance(options, Mapping):
        return
    for name, spec in schemas.items():
        if name in options:
            try:
                spec.check(options[name], name)
            except IllegalAction as exc:
                raise IllegalAction("bad_edition", gettext_noop("Option {option}: {why}"), option=name,
                                    why=exc.message) from exc


def check_action(schemas: Mapping[str, Obj] | None, action: Any) -> None:
    """Refuse ``action`` unless its ``kind`` is declared in ``schemas`` and every field fits the kind's schema.

    With ``schemas=None`` (a game that declares none) only the generic checks run.

    Raises ``IllegalAction``: ``"bad_action"`` (not an object or no string kind),
    ``"unknown_action"`` (undeclared kind), ``"too_large"`` (over
    :data:`MAX_ACTION_BYTES` as JSON), ``"bad_payload"`` (a field missing,
    unknown or of the wrong shape).
    """
    if not isinstance(action, dict):
        raise IllegalAction("bad_action", gettext_noop("An action must be a JSON object."))
    check_json_value(action, max_depth=8, what="action")
    try:
        size = len(json.dumps(action, ensure_ascii=False).encode("utf-8"))
    except (TypeError, ValueError) as exc:
        raise IllegalAction("bad_action", gettext_noop("An action must be a JSON object.")) from exc
    if size > MAX_ACTION_BYTES:
        raise IllegalAction("too_large", gettext_noop("An action is at most {limit} bytes long."),
                            limit=MAX_ACTION_BYTES)
    kind = action.get("kind")
    if not isinstance(kind, str) or not kind:
        raise IllegalAction("bad_action", gettext_noop("An action needs a kind."))
    if schemas is None:
        return
    schema = schemas.get(kind)
    if schema is None:
        raise IllegalAction("unknown_action", gettext_noop("This game has no action {kind}."), kind=kind[:40])
    schema.check({k: v for k, v in action.items() if k != "kind"}, "")
