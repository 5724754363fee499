"""Where the Yellow & Yangtze map draws its tap targets: the picks of the action step, hex by hex.

No rule lives here and no markup is written here: these functions only regroup the legal actions the
engine already listed, by the pick (tile, leader, revolt) and the hex they name; the board templates draw
them (the adapter declares them as template filters, ``web.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import groupby
from typing import Any


def pick_name(kind: Any, payload: Mapping[str, Any]) -> str:
    """A legal item's pick as the board's ``data-picks`` and the action bar's ``data-yy-pick`` name it.

    ``peasants-1`` / ``peasants-0`` (the Peasants' Revolt with the blue leader or with two blue tiles),
    else ``<kind>-<colour>`` (``tile-red``, ``leader-black``; ``<kind>-`` for an item without a colour).
    """
    if kind == "peasants":
        return f"peasants-{int(bool(payload.get('leader')))}"
    return f"{kind}-{payload.get('colour', '')}"


def picks(legal: Iterable[Mapping[str, Any]]) -> set[str]:
    """The Yellow & Yangtze picks of the action step that have at least one legal hex (rules §4.1-§4.3).

    ``legal`` is the page's list of ``{"kind", "payload", "json", "label"}``.
    A pick is named as the board's ``data-picks`` names it: ``tile-<colour>``,
    ``leader-<colour>``, ``peasants-1`` (with the blue leader) or
    ``peasants-0`` (two blue tiles). The action bar disables a pick not in
    this set, so every enabled pick lights at least one hex.
    """
    out: set[str] = set()
    for item in legal:
        payload = item.get("payload") or {}
        kind = item.get("kind")
        if not payload.get("hex") or kind not in ("tile", "leader", "peasants"):
            continue
        out.add(pick_name(kind, payload))
    return out


#: The kinds of the action step's placements: picked in the action bar, placed on a lit hex.
PICK_KINDS = frozenset({"tile", "leader", "peasants"})


def other_moves(legal: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The action step's legal items other than placements (withdraw, pagoda, swap, pass), grouped as the action bar
    lists them: ``[{"grouper": kind, "list": items}]``.

    ``legal`` is the page's list of ``{"kind", "payload", "json", "label"}``. Items are grouped as Django's
    ``{% regroup legal by kind %}`` groups them (each run of items of one kind is one group, in the order of
    ``legal``), and the groups of :data:`PICK_KINDS` are left out: the hundreds of placements are the map's.
    """
    return [{"grouper": kind, "list": list(items)}
            for kind, items in groupby(legal, key=lambda item: item.get("kind")) if kind not in PICK_KINDS]


def hex_picks(legal: Iterable[Mapping[str, Any]]) -> list[tuple[Any, Any, str]]:
    """The Yellow & Yangtze action step's hex targets: ``[(q, r, picks)]``, one per hex with a legal item.

    ``legal`` is the page's list of ``{"kind", "payload", "json", "label"}``; an item whose payload names a
    ``hex`` (``[q, r]`` axial) adds its pick (named as :func:`picks` names it) to that hex's ``picks``, a
    space-separated string in the order of ``legal``. Hexes come in the order of their first item; items without
    a hex are left out. The board draws one target per hex (a tuple: the active seat has a hundred and more); the
    picker script arms it for the picks it lists (rules §4.1-§4.3).
    """
    targets: dict[tuple[Any, Any], list[str]] = {}
    for item in legal:
        payload = item.get("payload")
        hex_ = payload.get("hex") if isinstance(payload, Mapping) else None
        if not hex_ or not isinstance(hex_, (list, tuple)) or len(hex_) < 2:
            continue
        name = pick_name(item.get("kind"), payload)
        key = (hex_[0], hex_[1])
        named = targets.get(key)
        if named is None:
            targets[key] = [name]
        else:
            named.append(name)
    return [(q, r, " ".join(names)) for (q, r), names in targets.items()]


def who(players: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The players as the map's legend and its leaders' titles name them: ``[{"seat", "dynasty", "name"}]``.

    ``players`` is the view's list of players, which also holds what changes every move (the tiles in hand,
    the treasures): the parts that show only who plays which dynasty are drawn from this, so a move that
    changes no name and no dynasty neither redraws nor resends them.
    """
    return [{"seat": p.get("seat"), "dynasty": p.get("dynasty"), "name": p.get("name")} for p in players]


def war_sides(legal: Iterable[Mapping[str, Any]]) -> dict[int, dict[str, bool]]:
    """The war sides this seat can commit to now (rules §5.3), and with what: ``{side: {"tiles", "leader"}}``.

    ``legal`` is the page's list of ``{"kind", "payload", "json", "label"}``. A side is listed when some
    ``commit`` names it; ``tiles`` is true when a commit without the red leader does (the seat holds red
    tiles), ``leader`` when one with the off-board red leader does (§1.1). A side not listed is shown as
    information, not as something to tap; an empty dict means the seat can only commit nothing.
    """
    out: dict[int, dict[str, bool]] = {}
    for item in legal:
        payload = item.get("payload")
        if item.get("kind") != "commit" or not isinstance(payload, Mapping):
            continue
        side = payload.get("side")
        if not isinstance(side, int) or isinstance(side, bool):
            continue
        found = out.setdefault(side, {"tiles": False, "leader": False})
        found["leader" if payload.get("leader") else "tiles"] = True
    return out
