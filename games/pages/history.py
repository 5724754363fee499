"""Past games: this device's finished tables, their final tally, a step-through replay; during play, the
public timeline of a table and its replay.

A device's tables are those it created, those whose seat it claimed, and
those whose seat secret it holds in a ``seat_<CODE>`` cookie (games/entry/access.py).
The replay folds the counted log (undo and corrections applied) from the
recorded opening and shows, after each move, the board as the viewer may see
it: the public view, or the viewer's own seat view when this device holds that
seat's current secret. While the game is played the replay and the timeline show the public view only
(the table screen's), whoever asks. Another seat's hidden values are never read: every
board comes from ``game.view(state, viewer)`` and every line from
``game.describe(seat, action, viewer)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import F, Q
from django.http import HttpRequest

from games.engines.base import Game
from games.entry.access import DEVICE_COOKIE, read_signed, seat_cookie
from games.models import Action, Seat, Table
from games.read import regions
from games.read.presenters import board_template, static_template, static_view, tr
from games.record.audit import effective_actions, opening_state

DONE = (Table.Status.FINISHED, Table.Status.ENDED)
MAX_LISTED = 100


def device_codes(request: HttpRequest) -> list[str]:
    """Codes of the tables whose seat cookie this request carries (secret not checked yet)."""
    return [name[5:] for name in request.COOKIES if name.startswith("seat_") and 0 < len(name) - 5 <= 12]


def device_tables(request: HttpRequest) -> list[Table]:
    """Finished (or ended) tables of this device, newest first: created here, claimed here, or a seat secret held."""
    device = read_signed(request.COOKIES, DEVICE_COOKIE)
    held = []
    for code in device_codes(request):
        token = read_signed(request.COOKIES, seat_cookie(code))
        if token:
            held.append(Q(code=code, seats__token=token))
    query = Q(pk__in=[])
    if device:
        query |= Q(created_by_device=device) | Q(seats__claimed_by_device=device)
    for q in held:
        query |= q
    return list(Table.objects.filter(query, status__in=DONE).distinct().order_by(F("finished_at").desc(nulls_last=True), "-pk")[:MAX_LISTED])


def summary(table: Table) -> dict[str, Any]:
    """One line of the history list: ``{"table", "players": [names], "winners": [names], "date"}``."""
    game = table.game()
    result = game.result(game.decode(table.state)) if table.status == Table.Status.FINISHED else None
    names = {s.index: s.name for s in table.seat_infos()}
    return {"table": table, "players": [names[i] for i in sorted(names)], "date": table.finished_at or table.started_at,
            "winners": [names.get(i, "?") for i in (result or {}).get("winners", [])]}


def viewer_seat(request: HttpRequest, table: Table) -> int | None:
    """The seat whose *current* secret this device holds for ``table`` (its own view), else ``None`` (public)."""
    token = read_signed(request.COOKIES, seat_cookie(table.code))
    if not token:
        return None
    seat = Seat.objects.filter(table=table, token=token).only("index").first()
    return seat.index if seat else None


@dataclass
class Replay:
    """The counted moves of a table and the position after each (``states[0]`` is the opening)."""

    game: Game
    moves: list[Action]
    states: list[Any]


def replay(table: Table) -> Replay:
    """Fold the counted log from the recorded opening: one state per move, plus the opening."""
    game = table.game()
    rows = list(table.actions.order_by("seq"))
    state = opening_state(table, game, rows)
    states = [state]
    moves = effective_actions(rows)
    for row in moves:
        state = game.apply(state, row.seat, row.payload)
        states.append(state)
    return Replay(game, moves, states)


def step_context(table: Table, game: Game, state: Any, viewer: int | None) -> dict[str, Any]:
    """What the board templates read (games/engines/README.md "The phone template interface") at one step,
    built from ``viewer``'s own view only; no legal moves (nothing can be played in a replay)."""
    seats = [{"index": s.index, "name": s.name, "colour": s.colour, "team": s.team, "claimed": False}
             for s in table.seat_infos()]
    prompt = game.prompt(state).as_json()
    view = game.view(state, viewer)
    static = static_template(table.slug)
    return {
        "table": table, "game": game, "slug": table.slug, "view": view, "prompt": prompt, "legal": [],
        "result": game.result(state), "seats": seats, "seat": viewer, "me": seats[viewer] if viewer is not None
        else None, "screen": viewer is None, "my_turn": False, "is_host": False, "error": None,
        "board_template": board_template(table.slug),
        "static_template": static,
        "static_view": static_view(table.slug, view) if static else None,
        "version": table.version, "form_key": "", "csrf_token": "",
    }


def render_step(table: Table, played: Replay, step: int, viewer: int | None) -> dict[str, str]:
    """The HTML of replay step ``step`` (0 = the opening) for ``viewer``: ``{"board", "static", "line"}``."""
    context = step_context(table, played.game, played.states[step], viewer)
    line = ""
    if step > 0:
        move = played.moves[step - 1]
        described = played.game.describe(move.seat, move.payload, viewer)
        line = tr(described.text, described.details)
    static = regions.draw_region(regions.STATIC, context) if context["static_template"] else ""
    return {"board": regions.draw_region(regions.BY_NAME["board"], context), "static": static, "line": line}


#: The cookie that keeps, per table (its path is the table's), the newest move this phone's timeline showed.
LOOKED_COOKIE = "looked"


def timeline(table: Table) -> list[dict[str, Any]]:
    """The public timeline of ``table``: one ``{"step", "seq", "who", "text"}`` per counted move, in order.

    ``step`` is the move's replay step (1 = the first move); ``text`` its log line as the table screen reads
    it (``game.describe(seat, action, None)``), so nothing any seat keeps hidden is in it. Built from the log
    alone, without replaying a position.
    """
    game = table.game()
    names = {s.index: s.name for s in table.seat_infos()}
    out = []
    for step, row in enumerate(effective_actions(table.actions.order_by("seq")), start=1):
        line = game.describe(row.seat, row.payload, None)
        out.append({"step": step, "seq": row.seq, "who": names.get(row.seat, ""), "text": tr(line.text, line.details)})
    return out


def last_look(request: HttpRequest) -> int | None:
    """The newest move (its ``seq``) this phone's timeline of the requested table showed, or ``None``."""
    value = request.COOKIES.get(LOOKED_COOKIE, "")
    return int(value) if value.isdigit() and len(value) < 10 else None
