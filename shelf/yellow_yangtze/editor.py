"""The Yellow & Yangtze board editor (rules file §3.4, DESIGN.md "Edition data").

Pick the grid (columns, rows, orientation), tap cells to cycle land, Yellow
River, Yangtze and "not on the map", pick one of the seven capitals and tap
its hex, then save. The drawing lives in one hidden JSON field (``cells``)
that ``static/yellow_yangtze/board_editor.js`` keeps up to date; the server rebuilds the
board profile from it and runs the engine's :func:`validate_board`, so a
post without the script is checked exactly the same. A refused board comes
back on the form with the failed check's message (status 400), never a 500;
a valid one is stored through :func:`games.write.editions.save`, the same gate the
import page uses, and can be exported from the editions page.
"""

from __future__ import annotations

import json
import math
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engines.base import IllegalAction
from games.models import EditionProfile
from games.read.presenters import error_message
from games.text.words import isolate
from games.web.inputs import load_json
from games.write import editions
from shelf.yellow_yangtze.board import STATES, practice_board_data, validate_board

SLUG, OPTION = "yellow_yangtze", "board"
MAX_SIDE = 30  # cells per side the editor draws (the engine accepts up to 60)
TERRAINS = ("land", "yellow", "yangtze", "off")  # the tap cycle; "off" is a cell that is not on the map
CELL = 14.0  # px radius of a drawn cell
MAX_DRAWING_BYTES = 64 * 1024  # a 30x30 drawing is about 35 KB


class BoardForm(forms.Form):
    """The grid, the profile's name and flags, and the drawing as hidden JSON."""

    name = forms.CharField(label=gettext_lazy("Name of this board"), max_length=80)
    orientation = forms.ChoiceField(label=gettext_lazy("Orientation"), choices=[
        ("pointy", gettext_lazy("pointy top (rows of hexes)")), ("flat", gettext_lazy("flat top (columns of hexes)"))])
    cols = forms.IntegerField(label=gettext_lazy("Columns"), min_value=1, max_value=MAX_SIDE)
    rows = forms.IntegerField(label=gettext_lazy("Rows"), min_value=1, max_value=MAX_SIDE)
    verified = forms.BooleanField(label=gettext_lazy("Copied from a real board"), required=False)
    source = forms.CharField(label=gettext_lazy("Source (edition, who drew it)"), max_length=300, required=False)
    cells = forms.CharField(widget=forms.HiddenInput, required=False)

    def clean_cells(self) -> dict[str, dict[str, Any]]:
        """``{"q,r": {"terrain": land|yellow|yangtze|off, "capital": name?}}``; anything else is refused."""
        raw = self.cleaned_data.get("cells") or "{}"
        try:  # a drawing is {"q,r": {"terrain", "capital"?}}: two levels deep, at most MAX_SIDE² cells
            data = load_json(raw, max_bytes=MAX_DRAWING_BYTES, max_depth=2, what="drawing")
        except IllegalAction as exc:
            raise forms.ValidationError(_("The drawing is not valid JSON.") if exc.code == "bad_json"
                                        else error_message(exc), code=exc.code) from exc
        if not isinstance(data, dict):
            raise forms.ValidationError(_("The drawing must be a JSON object."))
        if len(data) > MAX_SIDE * MAX_SIDE:
            raise forms.ValidationError(_("The drawing has more cells than the largest grid."))
        out: dict[str, dict[str, Any]] = {}
        for key, cell in data.items():
            if not isinstance(cell, dict) or not isinstance(cell.get("terrain"), str) \
                    or cell["terrain"] not in TERRAINS or _hex_of(key) is None or set(cell) - {"terrain", "capital"}:
                raise forms.ValidationError(_("The drawing has a malformed cell %(key)s.") % {"key": str(key)[:20]})
            capital = cell.get("capital")
            if capital is not None and (not isinstance(capital, str) or capital not in STATES):
                raise forms.ValidationError(_("%(name)s is not one of the seven states.") % {"name": isolate(str(capital)[:20])})
            out[key] = {"terrain": cell["terrain"], **({"capital": capital} if capital else {})}
        return out


def _hex_of(key: Any) -> tuple[int, int] | None:
    try:
        q, r = (int(x) for x in str(key).split(","))
    except ValueError:
        return None
    return q, r


def axial(orientation: str, col: int, row: int) -> tuple[int, int]:
    """Offset (column, row) to axial (q, r): "odd-r" for pointy, "odd-q" for flat (board.py's grid bounds)."""
    if orientation == "pointy":
        return col - (row - (row & 1)) // 2, row
    return col, row - (col - (col & 1)) // 2


def grid_cells(orientation: str, cols: int, rows: int, cells: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The SVG of the grid: every offset cell with its axial key, centre, polygon and current terrain."""
    s3 = math.sqrt(3)
    out = []
    for row in range(rows):
        for col in range(cols):
            q, r = axial(orientation, col, row)
            if orientation == "pointy":
                x, y = CELL * s3 * (col + 0.5 * (row & 1)) + CELL, CELL * 1.5 * row + CELL
                angles = [60 * i - 30 for i in range(6)]
            else:
                x, y = CELL * 1.5 * col + CELL, CELL * s3 * (row + 0.5 * (col & 1)) + CELL
                angles = [60 * i for i in range(6)]
            points = " ".join(f"{x + CELL * 0.95 * math.cos(math.radians(a)):.1f},"
                              f"{y + CELL * 0.95 * math.sin(math.radians(a)):.1f}" for a in angles)
            cell = cells.get(f"{q},{r}", {"terrain": "off"})
            out.append({"key": f"{q},{r}", "x": round(x, 1), "y": round(y, 1), "points": points,
                        "terrain": cell["terrain"], "capital": cell.get("capital", "")})
    width = max(c["x"] for c in out) + CELL * 1.1
    height = max(c["y"] for c in out) + CELL * 1.1
    return {"cells": out, "viewbox": f"0 0 {width:.0f} {height:.0f}"}


def profile_from(data: dict[str, Any]) -> dict[str, Any]:
    """The board profile (board.py's schema) drawn by a valid :class:`BoardForm`."""
    hexes = []
    for key, cell in sorted(data["cells"].items(), key=lambda kv: _hex_of(kv[0]) or (0, 0)):
        if cell["terrain"] == "off":
            continue
        q, r = _hex_of(key)  # type: ignore[misc]
        item: dict[str, Any] = {"q": q, "r": r, "terrain": "land" if cell["terrain"] == "land" else "river"}
        if cell["terrain"] != "land":
            item["river"] = cell["terrain"]
        if cell.get("capital"):
            item["capital"] = cell["capital"]
        hexes.append(item)
    profile: dict[str, Any] = {
        "game": SLUG, "name": data["name"], "board_side": "base", "coord_system": "axial",
        "orientation": data["orientation"], "grid": {"cols": data["cols"], "rows": data["rows"]},
        "hexes": hexes, "market_slots": 6, "verified": bool(data["verified"]), "practice": False, "fixture": False,
    }
    if data.get("source"):
        profile["source"] = data["source"]
    return profile


def cells_from(profile: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The editor's drawing of a stored board profile (inverse of :func:`profile_from`)."""
    cells: dict[str, dict[str, Any]] = {}
    for h in profile.get("hexes", []):
        terrain = h.get("river", "yellow") if h.get("terrain") == "river" else "land"
        cells[f"{h['q']},{h['r']}"] = {"terrain": terrain, **({"capital": h["capital"]} if h.get("capital") else {})}
    return cells


def _initial(request: HttpRequest) -> dict[str, Any]:
    """A blank land grid, the practice board (``?start=practice``) or a stored board (``?from=<id>``)."""
    source = None
    if request.GET.get("start") == "practice":
        source = json.loads(practice_board_data())
        source = {**source, "name": _("My board (from the practice map)"), "source": ""}
    elif (request.GET.get("from") or "").isdigit():
        stored = EditionProfile.objects.filter(id=int(request.GET["from"]), slug=SLUG, option=OPTION).first()
        source = stored.as_option() if stored else None
    if source is None:
        cols, rows = 9, 7
        cells = {}
        for row in range(rows):
            for col in range(cols):
                q, r = axial("pointy", col, row)
                cells[f"{q},{r}"] = {"terrain": "land"}
        return {"name": _("My board"), "orientation": "pointy", "cols": cols, "rows": rows, "verified": False,
                "source": "", "cells": json.dumps(cells)}
    return {"name": source.get("name", ""), "orientation": source.get("orientation", "pointy"),
            "cols": source["grid"]["cols"], "rows": source["grid"]["rows"], "verified": source.get("verified", False),
            "source": source.get("source", ""), "cells": json.dumps(cells_from(source))}


def board_editor(request: HttpRequest) -> HttpResponse:
    """Draw a board; "Redraw the grid" keeps the drawing, "Save" validates (§3.4) and stores the profile."""
    status = 200
    error = None
    if request.method == "POST":
        form = BoardForm(request.POST)
        if form.is_valid() and "save" in request.POST:
            profile = profile_from(form.cleaned_data)
            try:
                validate_board(profile)
                stored = editions.save(SLUG, OPTION, profile)
            except IllegalAction as exc:
                error = {"code": exc.code, "message": error_message(exc)}
                status = 400
            else:
                messages.success(request, _("Saved the board “%(name)s”; pick it in a new table's options.")
                                 % {"name": isolate(stored.name)})
                return redirect("games:editions")
        elif not form.is_valid():
            status = 400
    else:
        form = BoardForm(initial=_initial(request))
    values = form.cleaned_data if form.is_bound and form.is_valid() else {
        k: form.initial.get(k) for k in ("orientation", "cols", "rows", "cells")}
    cells = values.get("cells")
    if isinstance(cells, str):
        cells = json.loads(cells or "{}")
    grid = None
    if values.get("orientation") in ("pointy", "flat") and values.get("cols") and values.get("rows"):
        grid = grid_cells(values["orientation"], values["cols"], values["rows"], cells or {})
    if form.is_bound and form.is_valid():
        # Redraw: the hidden field carries the drawing of the (possibly new) grid: cells outside it are
        # dropped, new cells start as land.
        drawing = {c["key"]: (cells or {}).get(c["key"], {"terrain": "land"}) for c in grid["cells"]} if grid else {}
        grid = grid_cells(values["orientation"], values["cols"], values["rows"], drawing) if grid else None
        form = BoardForm({**request.POST.dict(), "cells": json.dumps(drawing)})
        form.is_valid()
    return render(request, "yellow_yangtze/board_editor.html",
                  {"form": form, "grid": grid, "states": STATES, "error": error, "terrains": TERRAINS},
                  status=status)
