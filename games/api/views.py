"""The REST API over the same write path as the phone pages.

Seats authenticate with ``Authorization: Bearer <seat token>``; the host with
``X-Host-Token``. Every answer for a seat is built from that seat's view.
"""

from __future__ import annotations

import functools
from typing import Any

from django.conf import settings
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import SimpleTemplateResponse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.decorators import api_view, throttle_classes
from rest_framework.exceptions import ParseError
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.serializers import (
    ActionDoneSerializer,
    ClaimedSerializer,
    ClaimSerializer,
    CreatedTableSerializer,
    CreateTableSerializer,
    ErrorSerializer,
    LogSerializer,
    MyViewSerializer,
    PostActionSerializer,
    PromptBodySerializer,
    StaleSerializer,
    StartSerializer,
    TableDetailSerializer,
    UndoMineSerializer,
    UndoSerializer,
)
from games.api.throttles import ClaimThrottle, CreateTableThrottle, TableThrottle
from games.engines.base import IllegalAction
from games.entry import taps
from games.entry.access import (
    bearer,
    held_by_bearer,
    is_host,
    join_link,
    read_signed,
    seat_cookie,
    seat_for,
)
from games.entry.refusals import REFUSALS, NoSeat, refusal_for
from games.models import Seat, Table
from games.read import snapshots
from games.read.presenters import ENDED_PROMPT, error_message, legal_for, log_lines, seat_context, stopped_early, tr
from games.record import setup
from games.web.inputs import MAX_TAP_BYTES, check_length
from games.write import host, moves
from games.write import pregame as pregame_commands
from games.write.write_path import Outcome, StaleVersion

CODE = OpenApiParameter("code", str, OpenApiParameter.PATH, pattern=r"^[A-Za-z0-9]{1,12}$",
                        description="The table code (case does not matter).")
SEAT_AUTH = [{"seatToken": []}, {"seatCookie": []}]
HOST_AUTH = [{"hostToken": []}, {"hostCookie": []}]
OPTIONAL_SEAT_AUTH = [{}, {"seatToken": []}]
HOST_HEADER = OpenApiParameter("X-Host-Token", str, OpenApiParameter.HEADER, required=False,
                               description="The host secret from table creation (or send the host cookie).")


def _error_responses(*codes: int, description: str = "") -> dict[int, OpenApiResponse]:
    reasons = {
        400: "Invalid input: a malformed body or field, a NUL character anywhere, a refused action "
             "(the engine's code and the rule in the message).",
        403: "No seat (or not the host), a cookie-authenticated write from another origin, or a closed table.",
        404: "No table with this code.",
        409: "The table moved on (the fresh prompt is attached), or the key was used for another write.",
        413: "The body is over the size limit.",
        415: "The body is not JSON.",
        429: "Too many requests from this address; wait and retry.",
    }
    return {c: OpenApiResponse(StaleSerializer if c == 409 else ErrorSerializer, description=reasons[c])
            for c in codes}


READ_ERRORS = _error_responses(400, 403, 404, 429)
WRITE_ERRORS = _error_responses(400, 403, 404, 409, 413, 415, 429)


def _error(code: str, message: str, http: int, **extra: Any) -> Response:
    return Response({"code": code, "message": message, **extra}, status=http)


def _foreign_origin(request: Request) -> bool:
    """True when a cookie-authenticated write comes from a page of another origin (or states none).

    Bearer and ``X-Host-Token`` requests carry their secret explicitly, so a
    foreign page cannot make a browser send them: only cookie writes are checked.
    """
    if request.method in ("GET", "HEAD", "OPTIONS") or bearer(request) or request.headers.get("X-Host-Token"):
        return False
    origin = request.headers.get("Origin")
    if not origin or origin == "null":
        return True
    if origin in settings.CSRF_TRUSTED_ORIGINS:
        return False
    return not url_has_allowed_host_and_scheme(origin + "/", allowed_hosts={request.get_host()},
                                               require_https=request.is_secure())


def _origin_refused() -> Response:
    return _error("bad_origin", "A write authenticated by a cookie must come from this site's own pages "
                                "(send the seat token as 'Authorization: Bearer <token>' instead).", 403)


def _load(request: Request, code: str, need_seat: bool = True) -> tuple[Table, Seat | None, Response | None]:
    table = get_object_or_404(Table, code=code.upper())
    seat = seat_for(request, table)
    if need_seat and seat is None:
        return table, None, _error("no_seat", "Send a valid seat token as 'Authorization: Bearer <token>'.", 403)
    if seat is not None and _foreign_origin(request):
        return table, None, _origin_refused()
    return table, seat, None


def _seat_snapshot(request: Request, code: str) -> tuple[snapshots.Snapshot | None, int | None, Response | None]:
    """The table's snapshot now and the asker's seat in it, for a seat's read: ``(snap, seat, None)`` or a refusal.

    The seat is found as :func:`games.entry.taps.seat_of` finds a tap's (bearer token, else the seat cookie),
    in the snapshot of the revision read, which every later read and the next move's write reuse. A bearer
    token's first use since a phone held the seat is logged first (:func:`games.entry.access.held_by_bearer`,
    a write of its own), then the snapshot of the revision it made is read.
    """
    table = get_object_or_404(Table, code=code.upper())
    token = bearer(request)
    snap = snapshots.for_table(table)
    seat = taps.seat_of(snap, token or read_signed(request.COOKIES, seat_cookie(table.code)))
    if seat is not None and token and not taps.held_by_bearer_in(snap, seat):
        held_by_bearer(table.code, token)
        table.refresh_from_db()
        snap = snapshots.for_table(table)
        seat = taps.seat_of(snap, token)
    if seat is None:
        return snap, None, _error("no_seat", "Send a valid seat token as 'Authorization: Bearer <token>'.", 403)
    if _foreign_origin(request):
        return snap, None, _origin_refused()
    return snap, seat, None


def _prompt_body(table: Table, seat: int | None, snap: snapshots.Snapshot | None = None) -> dict[str, Any]:
    """The prompt as ``seat`` reads it; with ``snap`` (the snapshot of ``table``'s revision) its engine and state."""
    game = snap.game if snap is not None else table.game()
    state = snap.state if snap is not None else game.decode(table.state)
    # A game the host ended asks nobody anything, as the phones show it (games.read.presenters.ENDED_PROMPT).
    prompt = ENDED_PROMPT if stopped_early(table, game.result(state)) else game.prompt(state)
    body = prompt.as_json()
    # ``{names}``: the prompted seats, as the phone page fills it (games.read.presenters).
    body["text"] = tr(prompt.text, {**prompt.details, "names": [game.seats[i].name for i in prompt.seats]})
    waiting = setup.start_pending(table.pregame)  # no move before the table decided who starts
    answer = {
        "version": table.version,
        "status": table.status,
        "prompt": body,
        "legal": [{"action": item["payload"], "label": item["label"]} for item in legal_for(game, state, seat, snap)]
        if table.is_open and not waiting else [],
    }
    if waiting:  # the question before the first move, not a move that would be refused start_first
        rule = table.pregame["start"]["rule"]
        question = "Before the first move the table decides who starts: {rule}."
        body.update(seats=[], kinds=[], chance=False, step="start", details={"rule": rule},
                    text=tr(question, {"rule": gettext(setup.RULE_NAMES[rule])}))
        answer["start"] = {"rule": rule, "tied": table.pregame["start"].get("tied") or []}
    return answer


@extend_schema(request=CreateTableSerializer, auth=[{}],
               responses={201: CreatedTableSerializer, **_error_responses(400, 413, 415, 429)})
@api_view(["POST"])
@throttle_classes([CreateTableThrottle])
def create_table(request: Request) -> Response:
    """Create a table; the answer holds the host secret and every seat's secret and join link."""
    body = CreateTableSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    try:
        data = body.validated_data
        table = pregame_commands.create_table(data["game"], data["options"], data["seats"], start=data.get("start"),
                                      start_seat=data.get("start_seat"), walkthrough=data.get("walkthrough", False))
    except IllegalAction as exc:
        return _error(exc.code, error_message(exc), 400)
    seats = [
        {"index": s.index, "name": s.name, "colour": s.colour, "token": s.token,
         "join_url": join_link(request, table.code, s.token)}
        for s in table.seats.all()
    ]
    return Response({"code": table.code, "game": table.slug, "version": table.version,
                     "host_token": table.host_token, "seats": seats}, status=201)


@extend_schema(parameters=[CODE], auth=[{}], responses={200: TableDetailSerializer, **_error_responses(400, 404, 429)})
@api_view(["GET"])
@throttle_classes([TableThrottle])
def table_detail(request: Request, code: str) -> Response:
    """The public facts of a table: game, seats (no secrets), version, status, the public prompt.

    ``draws``: ``{"commitment": sha256(str(seed)) hex, "seed": str | None}``;
    the seed (decimal text: it has 63 bits) is revealed once the game has
    finished by its rules (``status`` ``finished``), so anyone can re-derive
    every digital draw (``manage.py check_draws``); a game the host ended
    (``ended``) keeps it sealed, as it keeps the hands held when it stopped.
    """
    table = get_object_or_404(Table, code=code.upper())
    seats = [{"index": s.index, "name": s.name, "colour": s.colour, "claimed": bool(s.claimed_at)}
             for s in table.seats.all()]
    return Response({"code": table.code, "game": table.slug, "options": _public_options(table), "seats": seats,
                     "draws": {"commitment": table.seed_commitment,
                               "seed": None if table.seed_revealed is None else str(table.seed_revealed)},
                     **_prompt_body(table, None)})


def _public_options(table: Table) -> dict[str, Any]:
    """The table's options as the API shows them: an edition profile (a mapping with a ``name``, such as a board or
    a price list) by its name and whether it is verified; every other value (a plain mapping such as Sorry!'s
    ``deck_counts``, section 2.1) as it is."""
    out = {}
    for name, value in table.options.items():
        if isinstance(value, dict) and ("name" in value or "verified" in value):
            out[name] = {"name": value.get("name", ""), "verified": value.get("verified", False)}
        else:
            out[name] = value
    return out


@extend_schema(parameters=[CODE], request=ClaimSerializer, auth=[{}],
               responses={200: ClaimedSerializer, **_error_responses(400, 403, 413, 415, 429)})
@api_view(["POST"])
@throttle_classes([ClaimThrottle])
def claim(request: Request, code: str) -> Response:
    """Claim a seat with the token of its join link; use the token as the bearer afterwards."""
    body = ClaimSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    seat = Seat.objects.filter(table__code=code.upper(), token=body.validated_data["token"]).first()
    if seat is None:
        return _error("dead_link", "This link holds no seat (the host may have handed it over).", 403)
    host.claim_seat(seat, Seat.API_DEVICE)
    return Response({"seat": seat.index, "name": seat.name, "colour": seat.colour, "token": seat.token})


@extend_schema(parameters=[CODE], auth=SEAT_AUTH, responses={200: MyViewSerializer, **READ_ERRORS})
@api_view(["GET"])
@throttle_classes([TableThrottle])
def my_view(request: Request, code: str) -> Response:
    """My seat's view of the game (my secrets and the public board), the prompt and the result.

    Once the game is over, ``result.ranking`` rows carry ``rank`` (equal after
    every tie-break, equal rank) and ``ties`` holds the translated sentences
    naming the tie-break between neighbours level on score. A game the host
    ended before its end has no ``result``; ``standing`` then ranks the
    position where the game can count one (``ties`` are then its sentences),
    and ``view`` shows what the game's own end would show.
    """
    table, seat, refused = _load(request, code)
    if refused:
        return refused
    context = seat_context(table, seat.index)
    return Response({"seat": seat.index, "version": table.version, "status": table.status,
                     "view": context["view"], "prompt": context["prompt"], "result": context["result"],
                     "standing": context["standing"], "ties": context["result_ties"]})


@extend_schema(parameters=[CODE], auth=SEAT_AUTH, responses={200: PromptBodySerializer, **READ_ERRORS})
@api_view(["GET"])
@throttle_classes([TableThrottle])
def prompt(request: Request, code: str) -> Response:
    """Who must act now, and my legal actions as ready-to-post payloads (read from the table's snapshot)."""
    snap, seat, refused = _seat_snapshot(request, code)
    if refused:
        return refused
    return Response(_prompt_body(snap.table, seat, snap))


def rendered_in_view(view: Any) -> Any:
    """Wrap a DRF function view so its answer is rendered in the view's own thread.

    Django renders a ``TemplateResponse`` (DRF's ``Response`` is one) after the
    view, through ``sync_to_async`` under ASGI: one more thread hop per request.
    The answer leaves as the plain ``HttpResponse`` it renders to (same body,
    status, headers and cookies). Keeps the view's attributes (``cls``,
    ``csrf_exempt``) for the URL router and the schema.
    """

    @functools.wraps(view)
    def wrapper(request: Any, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        if not isinstance(response, SimpleTemplateResponse):
            return response
        response.render()
        plain = HttpResponse(response.content, status=response.status_code, headers=dict(response.items()))
        plain.cookies = response.cookies
        return plain

    return wrapper


class _Refused(Exception):
    """Internal: the move request is refused with ``response`` (a foreign origin) before any write."""

    def __init__(self, response: Response) -> None:
        self.response = response
        super().__init__(response.status_code)


@rendered_in_view
@extend_schema(parameters=[CODE], auth=SEAT_AUTH, request=PostActionSerializer,
               responses={200: ActionDoneSerializer, **WRITE_ERRORS})
@api_view(["POST"])
@throttle_classes([TableThrottle])
def post_action(request: Request, code: str) -> Response:
    """Play one action (the one tap entry, :func:`games.entry.taps.play`). 400: the rules forbid it; 409: stale version.

    The table is read once, locked, by the write itself: the
    seat, the origin, the body and the action's schema are checked on that
    row, in that order, before anything else, so every answer is the one a
    view that loaded the table first gave (404, 403, 400, then the write's).
    """
    code = code.upper()
    try:
        try:  # the socket and the page refuse a tap this long unread too
            check_length(request.body, MAX_TAP_BYTES, "request body")
        except IllegalAction as exc:
            raise ParseError(error_message(exc), code=exc.code) from exc
        posted, unreadable = request.data, None
    except Exception as exc:  # noqa: BLE001 - raised again where the body is first needed: after the seat checks
        posted, unreadable = None, exc

    def read(table: Table, seat: int) -> taps.Posted:
        if _foreign_origin(request):
            raise _Refused(_origin_refused())
        if unreadable is not None:
            raise unreadable
        body = PostActionSerializer(data=posted)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        return taps.Posted(data["action"], data["version"], data["key"])

    token = bearer(request) or read_signed(request.COOKIES, seat_cookie(code))
    key = posted.get("key") if isinstance(posted, dict) else None
    try:
        tapped = taps.play(code, token, read, key=key if isinstance(key, str) else "", by_bearer=bool(bearer(request)))
    except Table.DoesNotExist:
        raise Http404("No Table matches the given query.") from None
    except NoSeat:
        if not Table.objects.filter(code=code).exists():
            raise Http404("No Table matches the given query.") from None
        return _error("no_seat", "Send a valid seat token as 'Authorization: Bearer <token>'.", 403)
    except _Refused as refused:
        return refused.response
    if tapped.refused is not None:
        return _refusal(tapped.table, tapped.seat, tapped.refused)
    return _done(tapped.outcome)


def _answer_write(table: Table, seat: int | None, write: Any) -> Response:
    """Run one seat's write and answer it: 200 ``{version, seq, replayed}`` or :func:`_refusal`."""
    try:
        outcome = write()
    except REFUSALS as exc:
        return _refusal(table, seat, exc)
    return _done(outcome)


def _done(outcome: Outcome) -> Response:
    return Response({"version": outcome.version, "seq": outcome.seq, "replayed": outcome.replayed})


def _refusal(table: Table, seat: int | None, exc: Exception) -> Response:
    """The answer to a refused write (:func:`games.entry.refusals.refusal_for`): 400 refused (with the engine's
    details and the rule's link), 409 stale (with the fresh prompt) or a reused key, 403 not allowed."""
    refused = refusal_for(exc, table=table, seat=seat)
    extra: dict[str, Any] = {}
    if isinstance(exc, IllegalAction):
        extra = {"details": exc.as_json()["details"], "rule_url": refused.rule_url}
    if isinstance(exc, StaleVersion):
        table.refresh_from_db()
        extra = {"fresh": _prompt_body(table, seat)}
    return _error(refused.code, refused.message, refused.status, **extra)


@extend_schema(parameters=[CODE], auth=OPTIONAL_SEAT_AUTH, responses={200: LogSerializer, **READ_ERRORS})
@api_view(["GET"])
@throttle_classes([TableThrottle])
def log(request: Request, code: str) -> Response:
    """The log as the caller may read it (a seat with a bearer token sees its own private lines)."""
    table, seat, refused = _load(request, code, need_seat=False)
    if refused:
        return refused
    lines = log_lines(table, table.game(), seat.index if seat else None, limit=10_000)
    return Response({"version": table.version, "log": lines})


@extend_schema(parameters=[CODE, HOST_HEADER], auth=HOST_AUTH, request=UndoSerializer,
               responses={200: ActionDoneSerializer, **WRITE_ERRORS})
@api_view(["POST"])
@throttle_classes([TableThrottle])
def undo(request: Request, code: str) -> Response:
    """Host (``X-Host-Token``): rewind the last move; body ``{"version": N, "key"?: "..."}``."""
    table = get_object_or_404(Table, code=code.upper())
    if not is_host(request, table):
        return _error("not_host", "Only the host can undo (send X-Host-Token).", 403)
    if _foreign_origin(request):
        return _origin_refused()
    body = UndoSerializer(data=request.data)
    if not body.is_valid():
        return _error("bad_version", "Send the table version you saw: {\"version\": N}.", 400, fields=body.errors)
    return _answer_write(table, None, lambda: host.undo_last(table.code, body.validated_data["version"],
                                                             body.validated_data["key"]))


@extend_schema(parameters=[CODE], auth=SEAT_AUTH, request=UndoMineSerializer,
               responses={200: ActionDoneSerializer, **WRITE_ERRORS})
@api_view(["POST"])
@throttle_classes([TableThrottle])
def undo_mine(request: Request, code: str) -> Response:
    """Take back my own last move while nobody has played, drawn or rolled since; body ``{"version": N, "key": K}``.

    400 with a stable code when it may not be taken back (``nothing_to_undo``,
    ``undo_not_yours``, ``undo_not_last``, ``undo_after_chance``); 403 without
    a seat or once the game is over; 409 stale version or reused key.
    """
    table, seat, refused = _load(request, code)
    if refused:
        return refused
    body = UndoMineSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    data = body.validated_data
    return _answer_write(table, seat.index,
                         lambda: moves.undo_own(table.code, seat.index, data["version"], data["key"]))


@extend_schema(parameters=[CODE], auth=SEAT_AUTH, request=StartSerializer,
               responses={200: ActionDoneSerializer, **WRITE_ERRORS})
@api_view(["POST"])
@throttle_classes([TableThrottle])
def start(request: Request, code: str) -> Response:
    """Answer "who starts?" before the first move: ``{"seat"}`` (youngest, oldest),
    ``{"draw": true}`` (highest card, digital) or ``{"cards": {"0": "7", ...}}`` (highest card, physical).

    400 ``start_decided``, ``bad_start``, ``bad_start_cards``; 403 without a seat or once the game is over.
    """
    table, seat, refused = _load(request, code)
    if refused:
        return refused
    body = StartSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    data = body.validated_data
    return _answer_write(table, seat.index, lambda: pregame_commands.decide_start(
        table.code, seat=data.get("seat"), cards=data.get("cards"), draw=data["draw"], key=data["key"], by=seat.index))
