"""Template helpers for the phone layout (issue 9): tap targets that a thumb can hit.

No rule lives here: these filters only regroup the legal actions the engine
already listed, by where their targets are drawn.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from functools import lru_cache
from itertools import groupby
from typing import Any

from django import template
from django.conf import settings
from django.utils.html import conditional_escape as escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from games.templatetags.companion import where

register = template.Library()

# Board units (Sorry! viewBox) that a 44 CSS px hit area covers on a 360 px phone (the board is drawn about 336 px
# wide, 0.89 px per unit): two destinations closer than this would share a tap.
SORRY_HIT_RADIUS = 25


@register.filter
def sorry_destinations(legal: Iterable[Mapping[str, Any]], points: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The board targets of the simple Sorry! moves (no split 7), one per place a thumb can tell apart.

    ``legal`` is the page's list of ``{"kind", "payload", "json", "label"}``;
    ``points`` the layout's ``{key: (x, y)}`` (``sorry.visibility``). Returns
    ``[{"pawn", "x", "y", "items"}]``: a pawn's destinations whose hit circles
    (radius :data:`SORRY_HIT_RADIUS`) would overlap are merged into one target
    whose ``items`` hold every move there (the page then opens the pawn's list
    of moves instead of guessing which one was meant, issue 9 item 2).
    """
    targets: list[dict[str, Any]] = []
    for item in legal:
        payload = item.get("payload") or {}
        if item.get("kind") != "move" or not payload.get("to") or payload.get("then"):
            continue
        xy = points.get(where(payload))
        if not xy:
            continue
        x, y = float(xy[0]), float(xy[1])
        near = next((t for t in targets if t["pawn"] == payload.get("pawn")
                     and any(math.dist((x, y), p) < 2 * SORRY_HIT_RADIUS for p in t["points"])), None)
        if near is None:
            targets.append({"pawn": payload.get("pawn"), "x": x, "y": y, "points": [(x, y)], "items": [item]})
        else:
            near["points"].append((x, y))
            near["items"].append(item)
            near["x"] = sum(p[0] for p in near["points"]) / len(near["points"])
            near["y"] = sum(p[1] for p in near["points"]) / len(near["points"])
    return targets


@register.filter
def yy_picks(legal: Iterable[Mapping[str, Any]]) -> set[str]:
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
        out.add(f"{kind}-{int(bool(payload.get('leader')))}" if kind == "peasants" else f"{kind}-{payload.get('colour')}")
    return out


# -- the Sorry! board's moving pieces, written in Python (issue 8) ----------------------------------------
# The board is pushed to every phone on every move; drawn by template nodes (a loop over the movable pawns
# inside the loop over the 16 pawns, three times) it cost ~2.7 ms a render, most of a push. These helpers
# write the same markup byte for byte from the same inputs (the view's pawns and the seat's legal actions).


def _num(value: Any) -> str:
    """A number as ``{% localize off %}{{ value }}`` writes it (``377.3``, never ``377,3``).

    Written without localization, so the same in every language: remembered per ``(type, value)``.
    """
    if isinstance(value, (int, float)):
        return _num_text(type(value), value)
    from django.utils.formats import localize

    return localize(value, use_l10n=False) if not isinstance(value, str) else escape(value)


@lru_cache(maxsize=8192)
def _num_text(kind: type, value: Any) -> str:
    """:func:`_num` of a number (``kind`` keeps ``1``, ``1.0`` and ``True`` apart)."""
    from django.utils.formats import localize

    return localize(value, use_l10n=False)


@lru_cache(maxsize=8192)
def _pawn_group(language: str, pid: Any, colour: Any, loc: Any, x: Any, y: Any, hits: int) -> str:
    """One pawn's ``<g>`` of :func:`sorry_pieces`: the same pawn on the same square, same marks, same markup."""
    spid, sx, sy = escape(pid), _num(x), _num(y)
    number = int(str(pid)[1:]) + 1
    return (f'<g class="pawn {escape(colour)}{" tap legal" * hits}" data-pawn="{spid}" '
            f'data-loc="{escape(loc)}"{f" data-open=\"moves-{spid}\" data-hit=\"hit-{spid}\"" * hits} '
            f'transform="translate({sx} {sy})"><circle r="7" fill="{escape(colour)}"/><text>{number}</text>'
            f'<title>{_pawn_title(language, str(pid), str(loc))}</title></g>')


@lru_cache(maxsize=4096)
def _pawn_title(language: str, pawn: str, loc: str) -> str:
    """``"red pawn 1 · square 41"`` in ``language`` (active): the pawn's tooltip, escaped."""
    from games.templatetags.companion import sorry_pawn, sorry_square

    return f"{escape(sorry_pawn(pawn))} · {escape(sorry_square(loc))}"


def _movable(legal: Iterable[Mapping[str, Any]]) -> list[Any]:
    """The groupers of ``{% regroup legal by payload.pawn %}``: the pawn of each run of consecutive items."""
    out: list[Any] = []
    last: Any = object()
    for item in legal:
        pawn = (item.get("payload") or {}).get("pawn") if isinstance(item.get("payload"), Mapping) else None
        if not out or pawn != last:
            out.append(pawn)
            last = pawn
    return out


@register.simple_tag
def sorry_pieces(view: Mapping[str, Any], legal: list[Mapping[str, Any]]) -> str:
    """The Sorry! board's moving part: hit areas, pawns and destinations of ``legal`` (rules file sorry.md, 1.3).

    ``view`` is the seat's Sorry! view (``pawns`` of ``{"id", "colour", "loc", "x", "y"}``, ``layout.points``);
    ``legal`` the seat's ``{"kind", "payload", "json", "label"}`` list. Returns safe HTML: each movable pawn gets
    a transparent 44 px hit circle (drawn first, under the pawn), each pawn its group with the ``tap legal``
    marks, each simple move's destination its target (merged when two would share a thumb).
    """
    language = get_language() or ""
    movable = _movable(legal)
    pawns = view.get("pawns") or []
    out: list[str] = ["\n  \n  "]
    for p in pawns:
        pid = p.get("id")
        for grouper in movable:
            if grouper == pid:
                out.append(f'<circle class="hit tap pawn-hit" r="25" cx="{_num(p.get("x"))}" cy="{_num(p.get("y"))}" '
                           f'data-piece="{escape(pid)}" data-open="moves-{escape(pid)}" id="hit-{escape(pid)}"/>')
    out.append("\n  ")
    for p in pawns:
        hits = sum(1 for grouper in movable if grouper == p.get("id"))
        try:
            out.append(_pawn_group(language, p.get("id"), p.get("colour"), p.get("loc"), p.get("x"), p.get("y"), hits))
        except TypeError:  # an unhashable field: written without the cache
            out.append(_pawn_group.__wrapped__(language, p.get("id"), p.get("colour"), p.get("loc"), p.get("x"),
                                               p.get("y"), hits))
    out.append("\n  \n  ")
    points = (view.get("layout") or {}).get("points") or {}
    for t in sorry_destinations(legal, points):
        tx, ty, pawn = _num(t["x"]), _num(t["y"]), escape(t["pawn"])
        if len(t["items"]) == 1:
            item = t["items"][0]
            out.append(f'\n  <g class="dest tap" data-for="{pawn}" data-action=\'{escape(item["json"])}\'>\n'
                       f'    <circle class="hit" cx="{tx}" cy="{ty}" r="25"/>\n'
                       f'    <circle cx="{tx}" cy="{ty}" r="10" fill="#2a6" fill-opacity="0.55" stroke="#064" '
                       f'stroke-width="2"/>\n    <title>{escape(item["label"])}</title>\n  </g>')
            continue
        dots = []
        for item in t["items"]:
            xy = points.get(where(item.get("payload") or {})) or (None, None)
            dots.append(f'<circle cx="{_dot(xy, 0)}" cy="{_dot(xy, 1)}" r="8" fill="#2a6" fill-opacity="0.45" '
                        f'stroke="#064" stroke-width="1.5"/>')
        labels = " · ".join(escape(item["label"]) for item in t["items"])
        out.append(f'\n  <g class="dest tap merged" data-for="{pawn}" data-piece="{pawn}" data-open="moves-{pawn}">\n'
                   f'    <circle class="hit" cx="{tx}" cy="{ty}" r="25"/>\n    {"".join(dots)}\n'
                   f'    <circle cx="{tx}" cy="{ty}" r="8" fill="#064"/><text class="merged-n" x="{tx}" y="{ty}">'
                   f'{len(t["items"])}</text>\n    <title>{labels}</title>\n  </g>')
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped or a number


def _dot(xy: Any, i: int) -> str:
    """Coordinate ``i`` of a layout point as the template wrote ``{{ xy.0 }}`` ('' when missing)."""
    try:
        return _num(xy[i]) if xy[i] is not None else ""
    except (IndexError, TypeError, KeyError):
        return ""


def _text(value: Any) -> str:
    """``{{ value }}`` as a template inside ``{% localize off %}`` writes it: numbers as is, ``None`` as "None", escaped."""
    return escape(_num(value))


def _item(value: Any, index: int) -> str:
    """``{{ value.<index> }}`` as the template wrote it: the item's text, '' when there is none."""
    if isinstance(value, (list, tuple)):
        return _text(value[index]) if len(value) > index else ""
    from django.template import Context, Template

    return Template("{% load l10n %}{% localize off %}{{ v." + str(index) + " }}{% endlocalize %}").render(
        Context({"v": value}))


def _hex_of(item: Mapping[str, Any]) -> Any:
    """``payload.hex`` of a legal item as ``{% regroup legal by payload.hex %}`` reads it (``None`` when missing)."""
    payload = item.get("payload")
    return payload.get("hex") if isinstance(payload, Mapping) else None


def _pick(item: Mapping[str, Any]) -> str:
    """One entry of a target's ``data-picks``: ``kind-1``/``kind-0`` (peasants: with a leader or not), else ``kind-colour``."""
    payload = item.get("payload")
    payload = payload if isinstance(payload, Mapping) else {}
    kind = item.get("kind")
    if kind == "peasants":
        return f" {_text(kind)}-{'1' if payload.get('leader') else '0'}"
    return f" {_text(kind)}-{_text(payload['colour']) if 'colour' in payload else ''}"


@register.simple_tag
def yy_targets(legal: list[Mapping[str, Any]]) -> str:
    """The Yellow & Yangtze action step's hex targets: one ``<g>`` per run of legal items on the same hex.

    ``legal`` is the seat's ``{"kind", "payload", "json", "label"}`` list; the markup is what
    ``{% regroup legal by payload.hex %}`` and its loops in ``yellow_yangtze/board.html`` wrote, byte for byte
    (a hex with hundreds of legal placements cost the active phone most of its board render). Safe HTML.
    """
    out: list[str] = []
    for grouper, items in groupby(legal, key=_hex_of):
        if not grouper:
            continue
        q, r = _item(grouper, 0), _item(grouper, 1)
        picks = "".join(_pick(item) for item in items)
        out.append(f'<g class="yy-t tap" data-hex="{q},{r}" data-picks="{picks} "><use href="#yyh" x="{q}" y="{r}"/></g>')
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped or a number


def _shown(context: Any, value: Any) -> str:
    """``{{ value }}`` as the template writes it in ``context`` (localized unless inside ``{% localize off %}``), escaped."""
    kind = type(value)
    if kind is int and not (context.use_l10n is not False and settings.USE_THOUSAND_SEPARATOR):
        return str(value)  # an int is its digits, but where a thousands separator is configured and applies
    if kind is str:
        return escape(value)
    from django.utils.formats import localize

    return escape(localize(value, use_l10n=context.use_l10n))


def _field(item: Any, key: str) -> Any:
    """``item.<key>`` of a view entry (a dict), ``""`` when missing (the template's empty string)."""
    return item.get(key, "") if isinstance(item, Mapping) else ""


@register.simple_tag(takes_context=True)
def yy_tiles(context: Any, tiles: Iterable[Mapping[str, Any]]) -> str:
    """The tiles on the Yellow & Yangtze map (``view.tiles`` of ``{"q", "r", "colour", "token"}``), byte for byte
    the ``{% for t in view.tiles %}`` loop ``yellow_yangtze/board.html`` drew them with. Safe HTML."""
    out = []
    for t in tiles or ():
        q, r = _shown(context, _field(t, "q")), _shown(context, _field(t, "r"))
        token = " token" if _field(t, "token") else ""
        out.append(f'<use href="#yyt" x="{q}" y="{r}" class="t {_shown(context, _field(t, "colour"))}{token}" '
                   f'data-tile="{q},{r}"/>')
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped or a number


def _seat_of(item: Any) -> Any:
    """``item.seat`` as an ``{% if %}`` reads it: ``None`` when missing."""
    return item.get("seat") if isinstance(item, Mapping) else None


def _translated(value: Any) -> str:
    """``{% translate value %}`` of a variable: the value's translation, escaped (percent signs kept)."""
    from django.utils.translation import gettext

    return escape(gettext(str(value).replace("%", "%%"))).replace("%%", "%")


@register.simple_tag(takes_context=True)
def yy_leaders(context: Any, view: Mapping[str, Any]) -> str:
    """The leaders on the Yellow & Yangtze map (``view.leaders``, named after ``view.players``), byte for byte the
    ``{% for l in view.leaders %}`` loop ``yellow_yangtze/board.html`` drew them with. Safe HTML."""
    from django.utils.translation import gettext

    players = view.get("players") or []
    scale = _shown(context, _field(view.get("board") or {}, "leader_scale"))
    word = escape(gettext("leader"))
    out = []
    for leader in view.get("leaders") or ():
        seat, colour = _field(leader, "seat"), _field(leader, "colour")
        # {% if p.seat == l.seat %}: a missing field compares as None there
        names = "".join(_shown(context, _field(p, "name")) for p in players
                        if _seat_of(p) == _seat_of(leader))
        out.append(f'<g class="leader {_shown(context, colour)}" data-leader="{_shown(context, seat)}-'
                   f'{_shown(context, colour)}"><use href="#yyd-{_shown(context, _field(leader, "dynasty"))}" '
                   f'transform="translate({_shown(context, _field(leader, "x"))} {_shown(context, _field(leader, "y"))})'
                   f' scale({scale})"/><title>{names} · {_translated(colour) if "colour" in leader else ""} '
                   f'{word}</title></g>')
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped or a number
