"""htmx pages: lobby, phone page, table screen, host tools. Each view is a short script:
find the table and the seat, parse at the edge, call one service function, render."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any

import segno
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.api.serializers import MAX_VERSION
from games.engines.base import IllegalAction, gettext_noop
from games.entry import taps
from games.entry.access import (
    bearer,
    device_id,
    host_cookie,
    is_host,
    join_link,
    reach,
    read_signed,
    refusal,
    remember_device,
    seat_cookie,
    set_signed,
    table_view,
)
from games.entry.refusals import REFUSALS, BadVersion, NoSeat, no_seat_message, refusal_for
from games.models import Correction, Seat, Table
from games.pages.forms import NewTableForm, game_choices, option_groups, options_form, options_from
from games.read import regions, rulebook, snapshots
from games.read.presenters import error_message, seat_context, tr
from games.record import audit
from games.web.inputs import MAX_TAP_BYTES, clean_text, load_json
from games.write import corrections, moves
from games.write import host as host_tools
from games.write import pregame as pregame_commands
from games.write.write_path import HOST

TABLE_PARTIAL = "games/table.html#table-body"


def _is_htmx(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False))


def _version(value: Any) -> int:
    """The table version a phone based its tap on; :class:`BadVersion` if absent or not a number."""
    try:
        version = int(value)
    except (TypeError, ValueError, OverflowError) as exc:
        raise BadVersion from exc
    if not 0 <= version <= MAX_VERSION:
        raise BadVersion
    return version


MAX_KEY = 80  # characters of an idempotency key (Action.idempotency_key)
MAX_REASON = 200  # characters of a correction reason (Correction.reason)


def _key(request: HttpRequest) -> str:
    """The posted idempotency key; ``IllegalAction("bad_key")`` if longer than the log stores."""
    key = request.POST.get("key", "")
    if len(key) > MAX_KEY:
        raise IllegalAction("bad_key", gettext_noop("An idempotency key is at most {limit} characters."), limit=MAX_KEY)
    return key


def _posted_action(raw: str, table: Table, checked: bool = True) -> Any:
    """The posted action JSON, checked against its kind's declared schema (unless ``checked`` is false: the
    tap entry checks it); ``IllegalAction`` if refused."""
    try:
        action = load_json(raw, max_bytes=MAX_TAP_BYTES, max_depth=8, what="action")
    except IllegalAction as exc:
        if exc.code == "bad_json":
            raise IllegalAction("bad_json", gettext_noop("The action is not valid JSON.")) from exc
        raise
    if not checked:
        return action
    held = snapshots.held(table.code, table.revision)  # its engine: no new one
    (held.game if held is not None else table.game()).check_payload(action)
    return action


# -- lobby ---------------------------------------------------------------------


def lobby(request: HttpRequest) -> HttpResponse:
    """List this device's tables and create a new one (game, players, options)."""
    device = device_id(request)
    games = [value for value, _ in game_choices()]
    slug = request.POST.get("game") or request.GET.get("game") or ""
    if slug not in games:  # an unknown game (typed into the URL) falls back to the first one
        slug = games[0] if games else ""
    form = NewTableForm(request.POST or None, initial={"game": slug}, slug=slug)
    opts = options_form(slug, request.POST or None) if slug else None
    if request.method == "POST" and form.is_valid() and opts is not None and opts.is_valid():
        slug = form.cleaned_data["game"]
        try:
            table = pregame_commands.create_table(slug, options_from(opts, slug), form.seats(), device=device,
                                          **form.start_options())
        except IllegalAction as exc:
            form.add_error(None, error_message(exc))
        else:
            first = table.seats.get(index=0)
            host_tools.claim_seat(first, device)
            response = redirect("games:host", code=table.code)
            set_signed(response, host_cookie(table.code), table.host_token)
            set_signed(response, seat_cookie(table.code), first.token)
            return remember_device(request, response)
    mine = (Table.objects.filter(created_by_device=device) | Table.objects.filter(seats__claimed_by_device=device))
    groups = option_groups(opts, slug) if opts is not None else []
    context = {"form": form, "options_form": opts, "tables": mine.distinct()[:30], "slug": slug,
               "lead_options": [g for g in groups if g.key == "first"],
               "option_groups": [g for g in groups if g.key != "first"]}
    template = "games/lobby.html#options" if _is_htmx(request) and request.method == "GET" else "games/lobby.html"
    return remember_device(request, render(request, template, context))


# -- joining -------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, code: str) -> HttpResponse:
    """Claim a seat by its join link ``/t/<code>/join/#<token>`` (see :func:`games.entry.access.join_link`).

    GET: a small page whose script reads the token from the URL fragment (never
    sent to the server, so never in an access log) and POSTs it, with a
    "Join" button. POST ``token``: sets the seat cookie and redirects to the
    phone page; 404 with the dead-link page when the token holds no seat, 400 with an
    "incomplete link" page when there is no token (the fragment was cut off on the way).
    """
    if request.method == "GET":
        return render(request, "games/join.html", {"code": code.upper()})
    token = request.POST.get("token", "").strip()
    if not token:  # the link's #secret was cut off on the way (a chat app, a QR reader): say so, not "dead"
        return render(request, "games/dead_link.html", {"incomplete": True}, status=400)
    seat = None
    if token and len(token) <= 64:
        seat = Seat.objects.filter(table__code=code.upper(), token=token).select_related("table").first()
    if seat is None:
        return render(request, "games/dead_link.html", status=404)
    host_tools.claim_seat(seat, device_id(request))
    response = redirect("games:table", code=seat.table.code)
    set_signed(response, seat_cookie(seat.table.code), seat.token)
    return remember_device(request, response)


# -- the phone page and the table screen ------------------------------------------


def _render_table(request: HttpRequest, table: Table, seat: int | None, status: int = 200,
                  error: dict[str, Any] | None = None) -> HttpResponse:
    """The phone page (or, for htmx, the ``#table`` fragment) built from its regions (games/read/regions.py)."""
    context = seat_context(table, seat)
    get_token(request)  # makes sure the phone has a CSRF cookie
    # The unmasked secret (as the phone's socket sends it), so a region with a form digests the same in the
    # page and in the socket's pushes; Django accepts it in a form as well as a masked one.
    if error:  # "Why? Read the rule": the section the refusal cites
        error = {**error, "rule_url": rulebook.rule_url(table.slug, error["code"], table.code)}
    context.update(is_host=getattr(request, "is_host", False), error=error, csrf_token=request.META["CSRF_COOKIE"])
    shown = regions.page_regions(context)
    context.update(region_html={name: html for name, (_, html) in shown.items()},
                   page_signature=regions.page_signature(shown))
    if not _is_htmx(request):
        return render(request, "games/table.html", context, status=status)
    response = render(request, TABLE_PARTIAL, context, status=status)
    # Say where the fragment goes, so a refusal (4xx) replaces #table like a success does.
    response["HX-Retarget"] = "#table"
    response["HX-Reswap"] = "outerHTML"
    return response


@table_view()
def table_page(request: HttpRequest, table: Table) -> HttpResponse:
    """The phone page of this device's seat (or a "no seat" page with the table-screen link)."""
    if request.seat is None:  # type: ignore[attr-defined]
        return render(request, "games/no_seat.html", {"table": table, "is_host": request.is_host}, status=403)  # type: ignore[attr-defined]
    return _render_table(request, table, request.seat.index)  # type: ignore[attr-defined]


@table_view()
def screen(request: HttpRequest, table: Table) -> HttpResponse:
    """The table screen: the public view for a tablet in the middle of the table."""
    return _render_table(request, table, None)


@require_POST
def act(request: HttpRequest, code: str) -> HttpResponse:
    """Post one action: form fields ``action`` (JSON), ``version`` (seen), ``key`` (idempotency).

    Answers the phone's ``#table`` fragment: 200 applied, 422 refused (the
    banner names the rule; 422 rather than 400 because htmx 2 would swap a
    400 answer over the whole page body), 409 stale, 403 closed.

    The move is the one tap entry's (:func:`games.entry.taps.play`): the table is
    read once, locked, by the write itself, and the seat (cookie or bearer
    token), then the posted fields are checked on that row, in the same
    order as :func:`games.entry.access.table_view` (404, 403 no seat, then the
    action, version and key).
    """
    code = code.upper()
    token = bearer(request) or read_signed(request.COOKIES, seat_cookie(code))

    def read(table: Table, seat: int) -> taps.Posted:
        request.table = table  # type: ignore[attr-defined]
        request.is_host = is_host(request, table)  # type: ignore[attr-defined]
        return taps.Posted(_posted_action(request.POST.get("action", ""), table, checked=False),
                           _version(request.POST.get("version")), _key(request))

    key = request.POST.get("key", "")
    try:
        tapped = taps.play(code, token, read, key=key if len(key) <= MAX_KEY else "", by_bearer=bool(bearer(request)))
    except Table.DoesNotExist:
        raise Http404("No Table matches the given query.") from None
    except NoSeat:
        table = get_object_or_404(Table, code=code)
        return refusal(request, table, no_seat_message())

    def write() -> None:
        if tapped.refused is not None:
            raise tapped.refused

    return _answer_write(request, tapped.table, tapped.seat, write)


#: Header a phone page sends with its taps while its websocket is open (static/js/table.js).
LIVE_SOCKET_HEADER = "X-Live-Socket"


def _answer_write(request: HttpRequest, table: Table, seat: int, write: Any) -> HttpResponse:
    """Run one phone write and answer it: the ``#table`` fragment for htmx (200 done, 422 refused with the
    rule, 409 stale or a reused tap, 403 closed), else a redirect to the phone page with the message.

    What a refusal says comes from :func:`games.entry.refusals.refusal_for`; its 400 is
    answered 422 here, since htmx 2 would swap a 400 answer over the whole page.
    A done write from a page whose websocket is open (header ``X-Live-Socket: open``) is answered
    ``204 No Content``: that phone's socket pushes the regions that changed for it, as every other
    phone's does, so the write is not followed by a second render of the whole page."""
    error = None
    status = 200
    try:
        write()
    except REFUSALS as exc:
        refused = refusal_for(exc, table=table, seat=seat)
        error = {"code": refused.code, "message": refused.message}
        status = 422 if refused.status == 400 else refused.status
    if error is None and _is_htmx(request) and request.headers.get(LIVE_SOCKET_HEADER) == "open":
        return HttpResponse(status=204)
    table.refresh_from_db()
    if not _is_htmx(request):
        if error:
            messages.error(request, _with_rule_link(table, error["code"], error["message"]))
        return redirect("games:table", code=table.code)
    return _render_table(request, table, seat, status=status, error=error)


def _refusal_banner(request: HttpRequest, table: Table, exc: Exception, seat: int | None = None) -> None:
    """Put the refusal of ``exc`` (one of :data:`REFUSALS`) on the next page as a banner, with its rule link."""
    refused = refusal_for(exc, table=table, seat=seat)
    messages.error(request, _with_rule_link(table, refused.code, refused.message))


@require_POST
@table_view(seat=True)
def undo_mine(request: HttpRequest, table: Table) -> HttpResponse:
    """Take back this seat's own last move: form fields ``version`` (seen), ``key``.

    Answers like :func:`act`: the ``#table`` fragment, 200 taken back, 422
    refused (the banner says why: not your move, a draw or roll since, ...),
    409 stale, 403 closed.
    """
    seat = request.seat.index  # type: ignore[attr-defined]
    return _answer_write(
        request, table, seat,
        lambda: moves.undo_own(table.code, seat, _version(request.POST.get("version")), _key(request)))


@table_view()
def fragment(request: HttpRequest, table: Table) -> HttpResponse:
    """The current ``#table`` fragment of this device (resync after a sleep)."""
    seat = request.seat.index if request.seat else None  # type: ignore[attr-defined]
    request.htmx = True  # type: ignore[attr-defined]
    return _render_table(request, table, seat)


# -- corrections -------------------------------------------------------------------


@require_POST
@table_view(seat=True)
def propose_correction(request: HttpRequest, table: Table) -> HttpResponse:
    """Any seat proposes that move ``target`` be replaced by ``replacement`` (JSON) or dropped (empty).

    Always answers a redirect to the phone page with a message: every
    refusal (bad input, rules, no longer fits) is a message, never a 500.
    """
    seat = request.seat.index  # type: ignore[attr-defined]
    try:
        target = int(request.POST.get("target", ""))
        if not 0 <= target <= MAX_VERSION:
            raise ValueError(target)
        raw = request.POST.get("replacement", "").strip()
        replacement = _posted_action(raw, table) if raw else None
        reason = clean_text(request.POST.get("reason", ""), max_len=MAX_REASON, what="reason")
    except ValueError:
        return _refused(request, table, "bad_target", _("Pick the move to fix from the log, then what really happened."))
    except IllegalAction as exc:
        return _refused(request, table, exc.code, error_message(exc))
    try:
        corrections.propose_correction(table.code, seat, target, replacement, reason)
        messages.success(request, _("Correction proposed; the others confirm on their phones."))
    except REFUSALS as exc:
        _refusal_banner(request, table, exc, seat)
    return redirect("games:table", code=table.code)


def _with_rule_link(table: Table, code: str, message: str) -> str:
    """A refusal's message for the page banner, with "Why? Read the rule" when a rules section explains it."""
    link = rulebook.rule_url(table.slug, code, table.code)
    if not link:
        return message
    return format_html('{} <a class="rule-link" href="{}">{}</a>', message, link,
                       pgettext("rules at hand", "Why? Read the rule"))


def _refused(request: HttpRequest, table: Table, code: str, message: str) -> HttpResponse:
    """Input refused at the edge: 422 ``{code, message, rule_url}`` for htmx, else back to the phone page (the
    banner says why); ``rule_url`` is the rules section the refusal cites, or null."""
    if _is_htmx(request):
        return JsonResponse({"code": code, "message": message,
                             "rule_url": rulebook.rule_url(table.slug, code, table.code)}, status=422)
    messages.error(request, _with_rule_link(table, code, message))
    return redirect("games:table", code=table.code)


@require_GET
@table_view(seat=True)
def fix_move(request: HttpRequest, table: Table, seq: int) -> HttpResponse:
    """Pick what move ``seq`` should have been (or drop it); the choice becomes a proposal to the others."""
    viewer = request.seat.index  # type: ignore[attr-defined]
    rows = list(table.actions.order_by("seq"))
    target = next((row for row in audit.effective_actions(rows) if row.seq == seq), None)
    try:
        if target is None:
            raise IllegalAction("no_such_action", gettext_noop("Move #{seq} is not in the counted log."), seq=seq)
        # Only the player who made the move may see what else it could have been: the list is built from
        # their options, which can reveal a hidden hand or a sealed offering to anyone else. For anyone
        # else it is not even computed, so the time the page takes says nothing about it either.
        seat, original, alternatives = (corrections.correction_choices(table, seq) if viewer == target.seat
                                        else (target.seat, target.payload, []))
    except IllegalAction as exc:
        messages.error(request, error_message(exc))
        return redirect("games:table", code=table.code)
    game = table.game()
    line = game.describe(seat, original, viewer)
    try:  # a draw the app made stays drawn: the page says so in place of the choices (the same for every seat)
        corrections.refuse_app_drawn(table, game, rows, seq)
        drawn = ""
    except IllegalAction as exc:
        drawn, alternatives = error_message(exc), []
    choices = [{"json": json.dumps(a, sort_keys=True), "label": tr(game.label(seat, a).text,
                                                                   game.label(seat, a).details)}
               for a in alternatives] if viewer == seat else []
    context = {"table": table, "seq": seq, "original": tr(line.text, line.details), "choices": choices,
               "mover": table.seats.get(index=seat).name, "own_move": viewer == seat, "drawn": drawn}
    return render(request, "games/fix_move.html", context)


def _correction_outcome(correction: Correction) -> str:
    """What a phone is told about a correction after answering it: its current outcome."""
    return {
        Correction.Status.OPEN: _("Your answer is in; waiting for the others."),
        Correction.Status.APPLIED: _("The correction was agreed and applied."),
        Correction.Status.REJECTED: _("The correction was turned down; the move stands."),
        Correction.Status.WITHDRAWN: _("The correction was withdrawn; the move stands."),
        Correction.Status.VOID: _("The correction no longer fits the later moves and was dropped."),
    }.get(correction.status, "")


@require_POST
@table_view(seat=True)
def answer_correction(request: HttpRequest, table: Table, correction_id: int) -> HttpResponse:
    """Confirm (``answer=yes``) or turn down a correction; its proposer's "no" withdraws it.

    Idempotent and race-safe (the service decides each correction once): a
    repeated or late answer is told the current outcome. Answers a redirect
    with a message, 404 for an unknown correction, never a 500.
    """
    seat = request.seat.index  # type: ignore[attr-defined]
    try:
        if request.POST.get("answer") == "yes":
            correction = corrections.confirm_correction(table.code, correction_id, seat)
        else:
            correction = corrections.reject_correction(table.code, correction_id, seat)
    except REFUSALS as exc:
        _refusal_banner(request, table, exc, seat)
    except Correction.DoesNotExist as exc:
        raise Http404 from exc
    else:
        messages.info(request, _correction_outcome(correction))
    return redirect("games:table", code=table.code)


# -- host tools ----------------------------------------------------------------------


@table_view(host=True)
def host(request: HttpRequest, table: Table) -> HttpResponse:
    """The host panel: join links and QR codes, hand a seat over, undo, end, digital/physical."""
    seats = [
        {"seat": s, "link": join_link(request, table.code, s.token)}
        for s in table.seats.all()
    ]
    where = reach(request)  # the address the other phones use, said on the page
    context = {"table": table, "seats": seats, "reach": where,
               "screen_url": where.origin + reverse("games:screen", args=[table.code]),
               "draws": {"commitment": table.seed_commitment, "seed": table.seed_revealed}}
    return render(request, "games/host.html", context)


@table_view(host=True)
def seat_qr(request: HttpRequest, table: Table, index: int) -> HttpResponse:
    """The join link of seat ``index`` as an SVG QR code (host only)."""
    seat = table.seats.filter(index=index).first()
    if seat is None:
        raise Http404
    link = join_link(request, table.code, seat.token)
    buffer = io.BytesIO()
    segno.make(link, error="m").save(buffer, kind="svg", scale=4, border=2)  # a standalone SVG, with xmlns
    response = HttpResponse(buffer.getvalue(), content_type="image/svg+xml")
    response["Cache-Control"] = "private, no-store"
    return response


def _host_redirect(request: HttpRequest, table: Table) -> HttpResponse:
    target = request.POST.get("next") or ""
    if not target.startswith("/") or not url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        target = reverse("games:host", args=[table.code])  # never off-site (//evil.example/, https://…)
    return HttpResponseRedirect(target)  # a path, never a view name for redirect() to resolve


def _host_step(request: HttpRequest, table: Table, run: Callable[[], Any], done: str = "") -> HttpResponse:
    """Run one host tool's write and go back to the host tools: ``done`` as a banner, or the refusal's."""
    try:
        run()
    except REFUSALS as exc:
        _refusal_banner(request, table, exc)
    else:
        if done:
            messages.success(request, done)
    return _host_redirect(request, table)


@require_POST
@table_view(host=True)
def undo(request: HttpRequest, table: Table) -> HttpResponse:
    """Host: rewind the last move (logged as an undo row)."""
    return _host_step(request, table, lambda: host_tools.undo_last(
        table.code, _version(request.POST.get("version")), _key(request)), _("The last move was undone."))


@require_POST
@table_view(host=True)
def hand_over(request: HttpRequest, table: Table, index: int) -> HttpResponse:
    """Host: give seat ``index`` a new link (the old link and cookie stop working)."""
    if not table.seats.filter(index=index).exists():
        raise Http404
    return _host_step(request, table, lambda: host_tools.hand_over_seat(table.code, index),
                      _("Seat %(n)s has a new link; the old one no longer works.") % {"n": index + 1})


@require_POST
@table_view(host=True)
def end(request: HttpRequest, table: Table) -> HttpResponse:
    """Host: end the game now."""
    return _host_step(request, table, lambda: host_tools.end_game(table.code, _key(request)))


@require_POST
@table_view(host=True)
def components(request: HttpRequest, table: Table) -> HttpResponse:
    """Host: switch between digital and physical deck/bag/die."""
    return _host_step(request, table, lambda: host_tools.set_components(
        table.code, request.POST.get("mode", ""), _key(request)))


# -- the installable web app ---------------------------------------------------------------


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest, so phones can add Companion to the home screen."""
    return JsonResponse(
        {
            "name": "Companion",
            "short_name": "Companion",
            "start_url": "/",
            "display": "standalone",
            "background_color": "#f6f1e7",
            "theme_color": "#8a3b12",
            "icons": [
                {"src": "/static/icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
                {"src": "/static/icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
            ],
        },
        content_type="application/manifest+json",
    )


# -- before, between and after games -------------------------------------------------


def _back(request: HttpRequest, table: Table) -> HttpResponse:
    """Back to where the tap came from: the phone page of a seat, else the host tools."""
    if request.seat is not None:  # type: ignore[attr-defined]
        return redirect("games:table", code=table.code)
    return redirect("games:host", code=table.code)


@require_POST
@table_view()
def start(request: HttpRequest, table: Table) -> HttpResponse:
    """Answer "who starts?": ``seat`` (the youngest/oldest tapped), ``draw`` (digital
    highest card) or ``card_<seat>`` fields (the real cards, physical). A seated phone or the host."""
    if request.seat is None and not request.is_host:  # type: ignore[attr-defined]
        return refusal(request, table, no_seat_message())
    cards = {k[5:]: v for k, v in request.POST.items() if k.startswith("card_")}
    seat: Any = request.POST.get("seat")
    try:
        seat = int(seat) if seat not in (None, "") else None
    except ValueError:
        seat = -1
    return _pregame_step(request, table, lambda: pregame_commands.decide_start(
        table.code, seat=seat, cards=cards or None, draw=bool(request.POST.get("draw")), key=_key(request),
        by=request.seat.index if request.seat is not None else HOST))  # type: ignore[attr-defined]


def _pregame_step(request: HttpRequest, table: Table, step: Callable[[], Any]) -> HttpResponse:
    """Run one before-the-game write (who starts, ask again) and go back; a refusal becomes a banner."""
    try:
        step()
    except REFUSALS as exc:
        _refusal_banner(request, table, exc, request.seat.index if request.seat is not None else None)  # type: ignore[attr-defined]
    return _back(request, table)


@require_POST
@table_view(host=True)
def start_again(request: HttpRequest, table: Table) -> HttpResponse:
    """Host: ask "who starts?" again before the first move (a mis-tap), see :func:`host.ask_start_again`."""
    return _pregame_step(request, table, lambda: host_tools.ask_start_again(table.code, _key(request)))


@require_POST
@table_view(host=True)
def walk(request: HttpRequest, table: Table) -> HttpResponse:
    """Host: check or uncheck one set-up step (``step``, ``checked`` 1/0), or ``skip`` the walkthrough."""
    try:
        if request.POST.get("skip"):
            pregame_commands.skip_walkthrough(table.code)
        else:
            pregame_commands.check_walk_step(table.code, request.POST.get("step", "")[:40], request.POST.get("checked") != "0")
    except REFUSALS as exc:
        _refusal_banner(request, table, exc)
    return _back(request, table)


@require_POST
@table_view(host=True)
def play_again(request: HttpRequest, table: Table) -> HttpResponse:
    """Host, from the final tally: the next game with the same seats, phones and options.

    The host's phone moves to its own seat of the new table at once; every
    other phone gets a "Next game" button (:func:`next_game`).
    """
    try:
        new = pregame_commands.play_again(table.code, device_id(request))
    except REFUSALS as exc:
        _refusal_banner(request, table, exc)
        return _back(request, table)
    table.refresh_from_db()  # it now names the next game
    response = redirect("games:table", code=new.code) if request.seat else redirect("games:host", code=new.code)  # type: ignore[attr-defined]
    _follow(request, table, new, response)
    return remember_device(request, response)


def _follow(request: HttpRequest, old: Table, new: Table, response: HttpResponse) -> None:
    """Give this phone its seat of ``new`` (the same index as its seat of ``old``) and the host secret if it hosted."""
    if request.seat is not None:  # type: ignore[attr-defined]
        seat = pregame_commands.follow_seat(old, request.seat)  # type: ignore[attr-defined]
        host_tools.claim_seat(seat, device_id(request))
        set_signed(response, seat_cookie(new.code), seat.token)
    if request.is_host:  # type: ignore[attr-defined]
        set_signed(response, host_cookie(new.code), new.host_token)


@require_POST
@table_view()
def next_game(request: HttpRequest, table: Table) -> HttpResponse:
    """Follow the host into the next game: this phone gets its own seat of the new table.

    Only the phone whose cookie holds the current secret of seat N of this
    table gets seat N of the next one; any other phone is refused (403), so
    nobody takes another player's seat without a new join link.
    """
    if request.seat is None and not request.is_host:  # type: ignore[attr-defined]
        return refusal(request, table, no_seat_message())
    code = table.pregame.get("next")
    new = Table.objects.filter(code=code).first() if code else None
    if new is None:
        messages.error(request, _("The host has not started the next game yet."))
        return _back(request, table)
    response = redirect("games:table", code=new.code) if request.seat else redirect("games:host", code=new.code)  # type: ignore[attr-defined]
    _follow(request, table, new, response)
    return remember_device(request, response)
