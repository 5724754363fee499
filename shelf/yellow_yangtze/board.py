"""Board geometry and edition map data (rules file §3).

The printed Yellow & Yangtze map is unknown (§3.2), so the board is data: a
JSON "board profile" validated by :func:`validate_board`. Coordinates are
axial ``(q, r)`` (§3.3); neighbours and pagoda triangles are derived here.

Board profile schema (§3.4, extended with the app's flags)::

    {
      "game": "yellow_yangtze",            # required, exactly this
      "name": "Practice board",            # required, non-empty string
      "board_side": "base",                # optional, must be "base" if present
      "coord_system": "axial",             # required, exactly "axial"
      "orientation": "pointy" | "flat",    # required
      "grid": {"cols": 14, "rows": 11},    # required, ints 1..60
      "hexes": [                           # required, non-empty list
        {"q": 0, "r": 0, "terrain": "land"},
        {"q": 1, "r": 0, "terrain": "river", "river": "yellow" | "yangtze"},
        {"q": 2, "r": 0, "terrain": "land", "capital": "Qin"}
      ],
      "market_slots": 6,                   # optional, must be 6 if present
      "verified": false,                   # required bool: checked against a real board
      "practice": false,                   # optional bool: an invented playable map
      "fixture": false,                    # optional bool: a synthetic test map
      "source": "..."                      # optional string
    }

Grid bounds: every hex must lie inside the ``cols`` x ``rows`` rectangle of
offset coordinates. For ``"pointy"`` boards ("odd-r" layout) the offset
column is ``q + (r - (r & 1)) // 2`` and the row is ``r``; for ``"flat"``
boards ("odd-q") the column is ``q`` and the row is ``r + (q - (q & 1)) // 2``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from games.engines.base import IllegalAction, gettext_noop

Hex = tuple[int, int]

STATES = ("Qin", "Chu", "Qi", "Yan", "Han", "Wei", "Zhao")
RIVERS = ("yellow", "yangtze")
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
LABEL_BAND = 1.1  # hex radii kept free along the left and top edges for the row numbers and column letters
BOARDS_DIR = Path(__file__).resolve().parent / "boards"


def neighbours_of(h: Hex) -> tuple[Hex, ...]:
    """The six axial neighbours of ``h`` (§3.3), on or off the map."""
    q, r = h
    return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)


def triangles_of(h: Hex) -> tuple[tuple[Hex, Hex, Hex], ...]:
    """The six triangles (three mutually touching hexes, §3.3) containing ``h``, each sorted."""
    q, r = h
    out = []
    # Type A {(a,b),(a+1,b),(a,b+1)} and type B {(a,b),(a+1,b),(a+1,b-1)} with h at each corner.
    for a, b in ((q, r), (q - 1, r), (q, r - 1)):
        out.append(tuple(sorted(((a, b), (a + 1, b), (a, b + 1)))))
    for a, b in ((q, r), (q - 1, r), (q - 1, r + 1)):
        out.append(tuple(sorted(((a, b), (a + 1, b), (a + 1, b - 1)))))
    return tuple(out)  # type: ignore[return-value]


@dataclass(frozen=True)
class Board:
    """A validated map: playable hexes, river hexes by river, the seven capitals and flags.

    ``land`` and ``river`` are disjoint sets of axial hexes; ``rivers`` maps a
    river name to its hexes; ``capitals`` is ``((state name, hex), ...)`` in
    §1.3 order. ``neighbours`` maps each hex to its on-map neighbours.
    """

    name: str
    orientation: str
    cols: int
    rows: int
    land: frozenset[Hex]
    river: frozenset[Hex]
    rivers: tuple[tuple[str, frozenset[Hex]], ...]
    capitals: tuple[tuple[str, Hex], ...]
    verified: bool
    practice: bool
    fixture: bool
    neighbours: dict[Hex, tuple[Hex, ...]] = field(compare=False, repr=False, default_factory=dict)

    @property
    def hexes(self) -> frozenset[Hex]:
        """Every hex on the map."""
        return self.land | self.river

    def capital_at(self, h: Hex) -> str | None:
        """The printed capital name of ``h``, if any."""
        for name, ch in self.capitals:
            if ch == h:
                return name
        return None

    def label(self, h: Hex) -> str:
        """The human name of ``h``: column letter + row number, as drawn along the board's edges ("C4")."""
        col, row = _offset(self.orientation, *h)
        return f"{column_letters(col)}{row + 1}"

    def river_of(self, h: Hex) -> str | None:
        """The river name of ``h`` if it is a river hex."""
        for name, hs in self.rivers:
            if h in hs:
                return name
        return None


def column_letters(col: int) -> str:
    """``0 -> "A"``, ``25 -> "Z"``, ``26 -> "AA"``: the column names drawn along the top edge."""
    out = ""
    col += 1
    while col > 0:
        col, rest = divmod(col - 1, 26)
        out = chr(65 + rest) + out
    return out


def _bad(message: str, **details: Any) -> IllegalAction:
    return IllegalAction("bad_board", message, **details)


def _offset(orientation: str, q: int, r: int) -> tuple[int, int]:
    if orientation == "pointy":
        return q + (r - (r & 1)) // 2, r
    return q, r + (q - (q & 1)) // 2


def _axial(orientation: str, col: int, row: int) -> Hex:
    """Inverse of :func:`_offset`."""
    if orientation == "pointy":
        return col - (row - (row & 1)) // 2, row
    return col, row - (col - (col & 1)) // 2


def _connected(hexes: frozenset[Hex]) -> bool:
    if not hexes:
        return False
    start = next(iter(hexes))
    seen = {start}
    todo = [start]
    while todo:
        for n in neighbours_of(todo.pop()):
            if n in hexes and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(hexes)


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def validate_board(data: Any) -> Board:
    """Check a board profile (schema in this module's docstring) and return the :class:`Board`.

    Checks (rules file §3.4): the dict shape and types; ``game``,
    ``coord_system``, ``orientation``, ``grid`` and flag fields; every hex an
    ``{"q": int, "r": int, "terrain": "land"|"river"}`` inside the grid; no
    duplicate coordinates; river hexes name their river (``yellow`` or
    ``yangtze``) and carry no capital; exactly 7 capitals, all on land, named
    exactly Qin, Chu, Qi, Yan, Han, Wei and Zhao once each; the hexes of each
    river form one connected band, and both rivers are present.

    Raises ``IllegalAction("bad_board", message, **details)`` naming the
    first failed check; never any other exception.
    """
    if not isinstance(data, dict):
        raise _bad(gettext_noop("Rules §3.4: a board profile must be a JSON object."))
    if data.get("game") != "yellow_yangtze":
        raise _bad(gettext_noop("Rules §3.4: the board profile must say \"game\": \"yellow_yangtze\"."))
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise _bad(gettext_noop("Rules §3.4: the board profile needs a non-empty \"name\"."))
    if data.get("board_side", "base") != "base":
        raise _bad(gettext_noop("Rules §3.1: only the base side of the board is supported."))
    if data.get("coord_system") != "axial":
        raise _bad(gettext_noop("Rules §3.3: the board must use \"coord_system\": \"axial\"."))
    orientation = data.get("orientation")
    if orientation not in ("pointy", "flat"):
        raise _bad(gettext_noop("Rules §3.4: \"orientation\" must be \"pointy\" or \"flat\"."))
    grid = data.get("grid")
    if not isinstance(grid, dict) or not all(_int(grid.get(k)) and 1 <= grid[k] <= 60 for k in ("cols", "rows")):
        raise _bad(gettext_noop("Rules §3.4: \"grid\" must be {\"cols\": 1..60, \"rows\": 1..60}."))
    if data.get("market_slots", 6) != 6:
        raise _bad(gettext_noop("Rules §1.3: the market has 6 slots."))
    flags = {}
    for flag, required in (("verified", True), ("practice", False), ("fixture", False)):
        value = data.get(flag, None if required else False)
        if not isinstance(value, bool):
            raise _bad(gettext_noop("Rules §3.4: \"{flag}\" must be true or false."), flag=flag)
        flags[flag] = value
    if "source" in data and not isinstance(data["source"], str):
        raise _bad(gettext_noop("Rules §3.4: \"source\" must be a string."))
    hexes = data.get("hexes")
    if not isinstance(hexes, list) or not hexes:
        raise _bad(gettext_noop("Rules §3.4: \"hexes\" must be a non-empty list."))
    land: set[Hex] = set()
    rivers: dict[str, set[Hex]] = {name: set() for name in RIVERS}
    capitals: dict[str, Hex] = {}
    for item in hexes:
        if not isinstance(item, dict) or not _int(item.get("q")) or not _int(item.get("r")):
            raise _bad(gettext_noop("Rules §3.4: every hex needs integer \"q\" and \"r\"."))
        h = (item["q"], item["r"])
        col, row = _offset(orientation, *h)
        if not (0 <= col < grid["cols"] and 0 <= row < grid["rows"]):
            raise _bad(gettext_noop("Rules §3.4: hex {q},{r} lies outside the grid."), q=h[0], r=h[1])
        if h in land or any(h in hs for hs in rivers.values()):
            raise _bad(gettext_noop("Rules §3.4: hex {q},{r} is listed twice."), q=h[0], r=h[1])
        terrain = item.get("terrain")
        capital = item.get("capital")
        if terrain == "land":
            if "river" in item:
                raise _bad(gettext_noop("Rules §3.4: land hex {q},{r} names a river."), q=h[0], r=h[1])
            land.add(h)
        elif terrain == "river":
            river = item.get("river")
            if river not in RIVERS:
                raise _bad(
                    gettext_noop("Rules §3.1: river hex {q},{r} must name its river, \"yellow\" or \"yangtze\"."),
                    q=h[0],
                    r=h[1],
                )
            if capital is not None:
                raise _bad(gettext_noop("Rules §3.4: capital {name} is on a river hex."), name=str(capital))
            rivers[river].add(h)
        else:
            raise _bad(gettext_noop("Rules §3.4: hex {q},{r} must be \"land\" or \"river\"."), q=h[0], r=h[1])
        if capital is not None:
            if capital not in STATES:
                raise _bad(gettext_noop("Rules §1.3: {name} is not one of the seven states."), name=str(capital))
            if capital in capitals:
                raise _bad(gettext_noop("Rules §3.4: capital {name} appears twice."), name=capital)
            capitals[capital] = h
    if len(capitals) != 7:
        raise _bad(gettext_noop("Rules §3.4: the board needs exactly 7 capitals, not {n}."), n=len(capitals))
    for river in RIVERS:
        if not _connected(frozenset(rivers[river])):
            raise _bad(
                gettext_noop("Rules §3.1: the {river} river must be one connected band of river hexes."), river=river
            )
    river_all = frozenset(set().union(*rivers.values()))
    all_hexes = frozenset(land) | river_all
    board = Board(
        name=name.strip(),
        orientation=orientation,
        cols=grid["cols"],
        rows=grid["rows"],
        land=frozenset(land),
        river=river_all,
        rivers=tuple((name, frozenset(rivers[name])) for name in RIVERS),
        capitals=tuple((state, capitals[state]) for state in STATES),
        verified=flags["verified"],
        practice=flags["practice"],
        fixture=flags["fixture"],
    )
    board.neighbours.update({h: tuple(n for n in neighbours_of(h) if n in all_hexes) for h in all_hexes})
    return board


@cache
def practice_board_data() -> str:
    """The shipped practice board profile (an invented map, ``"practice": true``) as JSON text."""
    return (BOARDS_DIR / "practice.json").read_text(encoding="utf-8")


def load_board(data: dict | None) -> Board:
    """Validate ``data`` or, when ``None``, the shipped practice board (§3.4); raises what :func:`validate_board`
    raises. A profile is validated once per process, by its JSON text: every engine of a table is built from the
    same one (one per snapshot read from the database), and validating a map costs more than the rest of it."""
    if data is None:
        return _validated(practice_board_data())
    try:
        text = json.dumps(data, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError):
        return validate_board(data)  # not a JSON profile: validate_board names what is wrong with it
    return _validated(text)


@lru_cache(maxsize=64)
def _validated(text: str) -> Board:
    """The :class:`Board` of a profile's JSON text (a map is never changed once validated: shared, read-only)."""
    return validate_board(json.loads(text))


@lru_cache(maxsize=64)
def layout(board: Board, width: float = 360.0) -> dict[str, Any]:
    """SVG geometry for ``board`` scaled to ``width`` px: hex centres, polygons and the axial matrix.

    ``matrix`` maps axial ``(q, r)`` to pixels (as an SVG ``matrix(...)``
    transform) and ``inverse`` undoes its linear part, so a template can place
    a marker at a payload's hex with ``transform="{matrix} translate(q r) {inverse}"``.
    ``hex_shape`` and ``tile_shape`` are hexagon outlines in axial units (whole
    hex, and a tile inside it) for ``<use x="q" y="r">`` inside a ``matrix`` group.

    Made once per board and width (a map never changes during a game) and shared by every view built
    from it: read it, never change it.
    """
    s3 = math.sqrt(3)
    if board.orientation == "pointy":
        a, b, c, d = s3, 0.0, s3 / 2, 1.5  # x = a q + c r ; y = b q + d r
        corners = [(math.cos(math.radians(60 * i - 30)), math.sin(math.radians(60 * i - 30))) for i in range(6)]
    else:
        a, b, c, d = 1.5, s3 / 2, 0.0, s3
        corners = [(math.cos(math.radians(60 * i)), math.sin(math.radians(60 * i))) for i in range(6)]
    pts = [(a * q + c * r, b * q + d * r) for q, r in board.hexes]
    # A margin of one hex radius, plus a band on the left and the top for the row and column names.
    xmin = min(p[0] for p in pts) - 1 - LABEL_BAND
    xmax = max(p[0] for p in pts) + 1
    ymin = min(p[1] for p in pts) - 1 - LABEL_BAND
    ymax = max(p[1] for p in pts) + 1
    size = width / (xmax - xmin)
    e, f = -xmin * size, -ymin * size
    height = (ymax - ymin) * size
    offsets = [_offset(board.orientation, q, r) for q, r in board.hexes]
    edge = []
    for col in sorted({o[0] for o in offsets}):
        q, r = _axial(board.orientation, col, 0)
        edge.append({"text": column_letters(col), "x": round((a * q + c * r) * size + e, 1),
                     "y": round((LABEL_BAND / 2 + 0.1) * size, 1)})
    for row in sorted({o[1] for o in offsets}):
        q, r = _axial(board.orientation, 0, row)
        edge.append({"text": str(row + 1), "x": round((LABEL_BAND / 2 + 0.1) * size, 1),
                     "y": round((b * q + d * r) * size + f, 1)})
    hexes = []
    for q, r in sorted(board.hexes, key=lambda h: (h[1], h[0])):
        x = (a * q + c * r) * size + e
        y = (b * q + d * r) * size + f
        poly = " ".join(f"{x + cx * size * 0.97:.1f},{y + cy * size * 0.97:.1f}" for cx, cy in corners)
        hexes.append(
            {
                "q": q,
                "r": r,
                "x": round(x, 1),
                "y": round(y, 1),
                "points": poly,
                "terrain": "river" if (q, r) in board.river else "land",
                "river": board.river_of((q, r)),
                "capital": board.capital_at((q, r)),
                "label": board.label((q, r)),
            }
        )
    det = (a * d - b * c) * size * size
    ia, ib, ic, id_ = d * size / det, -b * size / det, -c * size / det, a * size / det

    def axial_shape(scale: float) -> str:
        # A hexagon of ``scale`` x the hex radius in axial units: drawn inside a group with
        # ``matrix``, ``<use x=q y=r>`` puts it on hex (q, r) with one short element per hex.
        pts = []
        for cx, cy in corners:
            px, py = cx * size * scale, cy * size * scale
            pts.append(f"{ia * px + ic * py:.3f},{ib * px + id_ * py:.3f}")
        return " ".join(pts)

    return {
        "width": round(width, 1),
        "height": round(height, 1),
        "viewbox": f"0 0 {width:.0f} {height:.0f}",
        "size": round(size, 2),
        "leader_scale": round(size * 0.68, 2),
        "hexes": hexes,
        "edge_labels": edge,
        "matrix": f"matrix({a * size:.4f} {b * size:.4f} {c * size:.4f} {d * size:.4f} {e:.3f} {f:.3f})",
        "inverse": f"matrix({ia:.6f} {ib:.6f} {ic:.6f} {id_:.6f} 0 0)",
        "hex_shape": axial_shape(0.97),
        "tile_shape": axial_shape(0.62),
    }
