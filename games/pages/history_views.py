"""Past games on the web: the history list, a table's final tally with its exports,
the step-through replay, and importing an exported game."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.engines.base import IllegalAction
from games.entry.access import device_id, remember_device
from games.models import Table
from games.pages import history
from games.read import regions
from games.read.chance_stats import chance_stats
from games.read.presenters import error_message, seat_context
from games.web.inputs import load_json
from games.write import export


@require_GET
def history_list(request: HttpRequest) -> HttpResponse:
    """This device's finished tables (game, date, players, winner) and a form to import an exported game."""
    device_id(request)  # a phone that opens its history first gets its device id here
    rows = [history.summary(t) for t in history.device_tables(request)]
    return remember_device(request, render(request, "games/history.html", {"rows": rows}))


def _done_table(code: str) -> Table:
    return get_object_or_404(Table, code=code.upper())


def _timeline(request: HttpRequest, table: Table) -> HttpResponse:
    """A table still being played: its public timeline, newest move first, each opening its replay step.

    The moves since this phone's last look (a cookie scoped to the table's path) are marked and counted; the
    answer then notes the newest move as looked at.
    """
    moves = history.timeline(table)
    looked = history.last_look(request)
    fresh = [m for m in moves if looked is not None and m["seq"] > looked]
    response = render(request, "games/timeline.html", {
        "table": table, "moves": moves[::-1], "fresh": len(fresh), "looked": looked,
        "first_fresh": fresh[0]["step"] if fresh else None,
    })
    if moves:
        response.set_cookie(history.LOOKED_COOKIE, str(moves[-1]["seq"]), max_age=7 * 24 * 3600,
                            path=f"/t/{table.code}/", samesite="Lax", secure=settings.SECURE_COOKIES, httponly=True)
    response["Cache-Control"] = "private, no-store"
    return response


@require_GET
def table_history(request: HttpRequest, code: str) -> HttpResponse:
    """A table's history: while it is played, its public timeline; once over, the final tally exactly as the
    table showed it (with its chart), the draws beside chance, exports, replay."""
    table = _done_table(code)
    if table.is_open:
        return _timeline(request, table)
    viewer = history.viewer_seat(request, table)
    context = seat_context(table, viewer)
    get_token(request)
    # The record of the game as it ended: no link to a next game started from it later.
    context.update(is_host=False, error=None, csrf_token=request.META.get("CSRF_COOKIE", ""), next_code="")
    tally = regions.draw_region(regions.BY_NAME["status"], context)
    stats = chance_stats(table, context["game"]) if viewer is not None else None  # the screen's tally shows them
    finished = table.status == Table.Status.FINISHED
    return render(request, "games/table_history.html", {
        "table": table, "tally": tally, "stats": stats, "finished": finished,
        "bgstats": export.bgstats_link(table) if finished else "", "moves": len(history.replay(table).moves),
    })


@require_GET
def replay_step(request: HttpRequest, code: str) -> HttpResponse:
    """Step ``?step=N`` of the replay (0 = the opening): the move, the board after it, prev/next, a counter.

    While the game is played every phone sees the public board (the table screen's view), its own seat's
    hidden details included nowhere: a past position is looked back on together."""
    table = _done_table(code)
    played = history.replay(table)
    total = len(played.moves)
    try:
        step = int(request.GET.get("step", total))
    except ValueError:
        step = total
    step = max(0, min(total, step))
    viewer = None if table.is_open else history.viewer_seat(request, table)
    html = history.render_step(table, played, step, viewer)
    move = played.moves[step - 1] if step else None
    names = {s.index: s.name for s in table.seat_infos()}
    return render(request, "games/replay.html", {
        "table": table, "step": step, "total": total, "html": html, "seq": move.seq if move else None,
        "who": names.get(move.seat, "") if move else "", "viewer_name": names.get(viewer) if viewer is not None else "",
        "prev": step - 1 if step > 0 else None, "next": step + 1 if step < total else None,
        "playing": table.is_open,
    })


def _export_refused(exc: export.NotFinished) -> JsonResponse:
    return JsonResponse({"code": exc.code, "message": _("Only a finished game can be exported.")}, status=409)


@require_GET
def export_json(request: HttpRequest, code: str) -> HttpResponse:
    """Download the finished game as JSON (public log and result; see games/write/export.py)."""
    table = _done_table(code)
    try:
        data = export.build_export(table)
    except export.NotFinished as exc:
        return _export_refused(exc)
    response = JsonResponse(data, json_dumps_params={"indent": 1, "ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="{table.slug}-{table.code}.json"'
    return response


@require_GET
def export_csv(request: HttpRequest, code: str) -> HttpResponse:
    """Download the result as CSV: one row per player (seat, colour, score components, rank)."""
    table = _done_table(code)
    try:
        text = export.build_csv(table)
    except export.NotFinished as exc:
        return _export_refused(exc)
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{table.slug}-{table.code}.csv"'
    return response


@require_POST
def import_game(request: HttpRequest) -> HttpResponse:
    """Import an exported game (multipart field ``file``): a new read-only table, checked by replay."""
    upload = request.FILES.get("file")
    try:
        if upload is None or upload.size > export.MAX_IMPORT_BYTES:
            raise ValueError
        data = load_json(upload.read(export.MAX_IMPORT_BYTES + 1), max_bytes=export.MAX_IMPORT_BYTES,
                         max_depth=export.MAX_IMPORT_DEPTH, what="game file", unicode_only=False)
        table = export.import_export(data, device=device_id(request))
    except ValueError:
        return _import_refused(request, "bad_file", _("Choose an exported game file (JSON, at most 2 MiB)."))
    except IllegalAction as exc:
        return _import_refused(request, exc.code, error_message(exc))
    messages.success(request, _("Imported: the moves replay to the recorded result. This copy is read-only."))
    return remember_device(request, redirect("games:table_history", code=table.code))


def _import_refused(request: HttpRequest, code: str, message: str) -> HttpResponse:
    """422 ``{code, message}`` for htmx and scripts that ask for JSON, else the history page with the message."""
    if getattr(request, "htmx", False) or "json" in request.headers.get("Accept", ""):
        return JsonResponse({"code": code, "message": message}, status=422)
    messages.error(request, message)
    return redirect("games:history")

