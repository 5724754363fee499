"""Edition data: the Coco tile deck (rules file 1 and 2.5).

The shipped deck is ``coco_kosmos.json`` (7 ghost / 5 build / 2 molasses +
wood / 2 wool + cutlass = 16), marked ``"verified": false`` because the split
comes from two implementations, not a printed list (2.5, open question 1).
A table may pass its own deck as the ``coco_deck`` option; it is validated by
:func:`validate_coco_deck`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from games.engines.base import IllegalAction, gettext_noop
from shelf.catan_junior.board import RESOURCES

EFFECTS = ("ghost", "build", "resources")


@dataclass(frozen=True)
class CocoKind:
    """One kind of Coco tile: ``effect`` is ghost/build/resources; ``take`` is a 5-tuple of counts."""

    name: str
    count: int
    effect: str
    take: tuple[int, ...]


@dataclass(frozen=True)
class CocoDeck:
    """A validated deck: ``kinds`` in file order; ``name`` and ``verified`` go into the view."""

    name: str
    verified: bool
    kinds: tuple[CocoKind, ...]

    @property
    def names(self) -> tuple[str, ...]:
        """Kind names in deck order (state count tuples follow this order)."""
        return tuple(kind.name for kind in self.kinds)

    @property
    def counts(self) -> tuple[int, ...]:
        """How many of each kind the full deck holds."""
        return tuple(kind.count for kind in self.kinds)


def validate_coco_deck(data: Any) -> CocoDeck:
    """Check a Coco deck JSON (2.5) and return it; ``IllegalAction("bad_edition")`` when malformed.

    Shape: ``{"name": str, "verified": bool, "tiles": {kind: {"count": int >= 0,
    "effect": "ghost"|"build"|"resources", "resources": {resource: int}}}}``;
    at least one tile in total; a resources tile takes at least one token.
    """

    def bad(message: str, **details: Any) -> IllegalAction:
        return IllegalAction("bad_edition", message, **details)

    if not isinstance(data, Mapping) or not isinstance(data.get("tiles"), Mapping) or not data["tiles"]:
        raise bad(gettext_noop("Rules 2.5: a Coco deck is an object with tiles."))
    if not isinstance(data.get("verified", False), bool):
        raise bad(gettext_noop("Rules 2.5: verified must be true or false."))
    kinds = []
    for name, raw in data["tiles"].items():
        count = raw.get("count") if isinstance(raw, Mapping) else None
        effect = raw.get("effect") if isinstance(raw, Mapping) else None
        if not isinstance(name, str) or isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise bad(gettext_noop("Rules 2.5: Coco kind {kind} needs a count of 0 or more."), kind=name)
        if effect not in EFFECTS:
            raise bad(gettext_noop("Rules 2.5: Coco kind {kind} has an unknown effect."), kind=name)
        take = [0] * len(RESOURCES)
        if effect == "resources":
            raw_take = raw.get("resources")
            if not isinstance(raw_take, Mapping) or not raw_take:
                raise bad(gettext_noop("Rules 2.5: resource tile {kind} must list what it gives."), kind=name)
            for resource, n in raw_take.items():
                if resource not in RESOURCES or isinstance(n, bool) or not isinstance(n, int) or n < 1:
                    raise bad(gettext_noop("Rules 2.5: resource tile {kind} gives a bad amount."), kind=name)
                take[RESOURCES.index(resource)] = n
        kinds.append(CocoKind(name, count, effect, tuple(take)))
    if sum(kind.count for kind in kinds) < 1:
        raise bad(gettext_noop("Rules 2.5: a Coco deck needs at least one tile."))
    return CocoDeck(str(data.get("name", "")), bool(data.get("verified", False)), tuple(kinds))


@cache
def shipped_coco_deck() -> CocoDeck:
    """The shipped Kosmos deck (``coco_kosmos.json``), validated."""
    path = Path(__file__).resolve().parent / "coco_kosmos.json"
    return validate_coco_deck(json.loads(path.read_text(encoding="utf-8")))
