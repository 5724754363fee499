"""The chart of a finished game: each seat's count over the game, laid out on the server for a small SVG.

Each engine says what its own tally counts at a position (``Game.score_track``: honour, lairs, pawns HOME,
Yellow & Yangtze's lowest colour); :func:`series` replays the counted log (undo and corrections folded in)
from the recorded opening and asks it after every move, keeping only the moves where a count changed.
:func:`layout` turns that into what ``games/_end_chart.jinja`` draws: one step line per seat (``H``/``V``
path commands, whole units of a 280 × 140 view box), the two scale marks and a sentence for screen readers,
with time running in the reading direction (right to left on a Persian or Pashto page).

Secrecy: a chart exists only for a game over by its rules (it has a result). Until then a count may read
what sits behind a screen (Yellow & Yangtze's points), and the end is what reveals it (§7); a game the host
ended before its end keeps its history uncharted.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.utils.translation import get_language_bidi, gettext

from games.engines.base import Game
from games.models import Action, Table
from games.record.audit import effective_actions, opening_state
from games.text.words import clause_separator, isolate

WIDTH, HEIGHT = 280, 140  # the view box: a phone draws it about 300 px wide, so its 12-unit text reads at 12 px or more
SCALE, END, TOP, BOTTOM = 26, 6, 8, 18  # margins: the scale at the start side, the move count under the plot
PLOT_W, PLOT_H = WIDTH - SCALE - END, HEIGHT - TOP - BOTTOM


def series(table: Table, game: Game, rows: Iterable[Action] | None = None) -> dict[str, Any] | None:
    """Each seat's count after every counted move of a finished ``table``, or ``None`` (no chart).

    Shape: ``{"label": msgid, "moves": N, "points": [[[move, count], ...] per seat]}``, where a seat's
    points are the opening (move 0) and every move after which its count changed. ``None`` while the game has
    no result (it runs, or the host ended it early) or when the engine keeps no running count.
    ``rows`` is the log in any order (default: read from the database).
    """
    rows = list(rows) if rows is not None else list(table.actions.order_by("seq"))
    rows.sort(key=lambda row: row.seq)
    state = opening_state(table, game, rows)
    first = game.score_track(state)
    if first is None:
        return None
    points = [[[0, count]] for count in first["scores"]]
    moves = effective_actions(rows)
    for n, row in enumerate(moves, start=1):
        state = game.apply(state, row.seat, row.payload)
        for seat, count in enumerate(game.score_track(state)["scores"]):
            if points[seat][-1][1] != count:
                points[seat].append([n, count])
    if game.result(state) is None:
        return None
    return {"label": first["label"], "moves": len(moves), "points": points}


def _step_path(points: Sequence[Sequence[int]], x: Any, y: Any, last: int, lift: int) -> str:
    """An SVG path through ``points`` as steps: a count holds until the move that changed it."""
    d = [f"M{x(points[0][0])} {y(points[0][1]) - lift}"]
    for move, count in points[1:]:
        d.append(f"H{x(move)}V{y(count) - lift}")
    d.append(f"H{x(last)}")
    return "".join(d)


def layout(data: Mapping[str, Any], seats: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """What the chart template draws from :func:`series` ``data``, in the active language.

    Shape: ``{"label" (translated), "moves", "top" (the highest count), "width", "height", "lines": [{"seat",
    "colour", "name", "final", "d"}], "marks": {"zero_y", "top_y", "text_x", "anchor", "start_x", "end_x",
    "end_anchor", "base_y"}, "spoken", "key"}``. Time runs in the reading direction: the scale stands at the
    start side of the plot (left, or right on a right-to-left page). ``spoken`` is the chart as one sentence
    (what each seat ended with), for ``aria-label``; ``key`` a digest of everything shown. Lines of seats level
    on a count are lifted apart by a unit so each shows.
    """
    rtl = get_language_bidi()
    moves = max(1, data["moves"])
    top = max([1] + [count for line in data["points"] for _, count in line])

    def x(move: int) -> int:
        offset = round(move * PLOT_W / moves)
        return WIDTH - SCALE - offset if rtl else SCALE + offset

    def y(count: int) -> int:
        return TOP + PLOT_H - round(count * PLOT_H / top)

    n = len(data["points"])
    label = gettext(data["label"])
    lines = []
    for seat, points in enumerate(data["points"]):
        info = seats[seat] if seat < len(seats) else {"colour": "", "name": "?"}
        lift = seat - (n - 1) // 2  # whole units keep the path short
        lines.append({"seat": seat, "colour": info["colour"], "name": info["name"], "final": points[-1][1],
                      "d": _step_path(points, x, y, data["moves"], lift)})
    finals = clause_separator().join(f"{isolate(str(line['name']))} {line['final']}" for line in lines)
    spoken = gettext("How the game went: %(what)s of each player over %(moves)s moves. At the end: %(finals)s.") % {
        "what": label, "moves": data["moves"], "finals": finals}
    # The svg is drawn left to right (direction="ltr"): "end" anchors a text's right edge at its x.
    marks = {"zero_y": y(0), "top_y": y(top), "base_y": HEIGHT - 4, "start_x": x(0), "end_x": x(data["moves"]),
             "text_x": WIDTH - SCALE + 4 if rtl else SCALE - 4, "anchor": "start" if rtl else "end",
             "end_anchor": "start" if rtl else "end"}
    shown = {"label": label, "moves": data["moves"], "top": top, "width": WIDTH, "height": HEIGHT, "lines": lines,
             "marks": marks, "spoken": spoken}
    key = hashlib.sha1(repr(sorted(shown.items())).encode()).hexdigest()[:16]
    return {**shown, "key": key}
