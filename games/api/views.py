"""The REST API over the same write path as the phone pages.

Seats authenticate with ``Authorization: Bearer <seat token>``; the host with
``X-Host-Token``. Every answer for a seat is built from that seat's view.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from games import services
from games.access import is_host, seat_for
from games.api.serializers import (
    ActionDoneSerializer,
    ClaimSerializer,
    CreatedTableSerializer,
    CreateTableSerializer,
    ErrorSerializer,
    PostActionSerializer,
    UndoMineSerializer,
)
from games.engines.base import IllegalAction
from games.models import Seat, Table
from games.presenters import error_message, legal_for, log_lines, seat_context, tr

BEARER = OpenApiParameter("Authorization", str, OpenApiParameter.HEADER, required=True,
                          description="Bearer <seat token>")
ANY_JSON = inline_serializer("AnyJson", {"data": serializers.JSONField()})


def _error(code: str, message: str, http: int, **extra: Any) -> Response:
    return Response({"code": code, "message": message, **extra}, status=http)


def _load(request: Request, code: str, need_seat: bool = True) -> tuple[Table, Seat | None, Response | None]:
    table = get_object_or_404(Table, code=code.upper())
    seat = seat_for(request, table)
    if need_seat and seat is None:
        return table, None, _error("no_seat", "Send a valid seat token as 'Authorization: Bearer <token>'.", 403)
    return table, seat, None


def _prompt_body(table: Table, seat: int | None) -> dict[str, Any]:
    game = table.game()
    state = game.decode(table.state)
    prompt = game.prompt(state)
    body = prompt.as_json()
    body["text"] = tr(prompt.text, prompt.details)
    return {
        "version": table.version,
        "status": table.status,
        "prompt": body,
        "legal": [{"action": item["payload"], "label": item["label"]} for item in legal_for(game, state, seat)]
        if table.is_open else [],
    }


@extend_schema(request=CreateTableSerializer, responses={201: CreatedTableSerializer, 400: ErrorSerializer})
@api_view(["POST"])
def create_table(request: Request) -> Response:
    """Create a table; the answer holds the host secret and every seat's secret and join link."""
    body = CreateTableSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    try:
        table = services.create_table(body.validated_data["game"], body.validated_data["options"],
                                      body.validated_data["seats"])
    except IllegalAction as exc:
        return _error(exc.code, error_message(exc), 400)
    seats = [
        {"index": s.index, "name": s.name, "colour": s.colour, "token": s.token,
         "join_url": request.build_absolute_uri(reverse("games:join", args=[table.code, s.token]))}
        for s in table.seats.all()
    ]
    return Response({"code": table.code, "game": table.slug, "version": table.version,
                     "host_token": table.host_token, "seats": seats}, status=201)


@extend_schema(responses={200: ANY_JSON, 404: ErrorSerializer})
@api_view(["GET"])
def table_detail(request: Request, code: str) -> Response:
    """The public facts of a table: game, seats (no secrets), version, status, the public prompt.

    ``draws``: ``{"commitment": sha256(str(seed)) hex, "seed": str | None}``;
    the seed (decimal text: it has 63 bits) is revealed once the game is over
    (finished or ended), so anyone can re-derive every digital draw
    (``manage.py check_draws``).
    """
    table = get_object_or_404(Table, code=code.upper())
    seats = [{"index": s.index, "name": s.name, "colour": s.colour, "claimed": bool(s.claimed_at)}
             for s in table.seats.all()]
    return Response({"code": table.code, "game": table.slug, "options": _public_options(table), "seats": seats,
                     "draws": {"commitment": table.seed_commitment,
                               "seed": None if table.seed_revealed is None else str(table.seed_revealed)},
                     **_prompt_body(table, None)})


def _public_options(table: Table) -> dict[str, Any]:
    out = {}
    for name, value in table.options.items():
        if isinstance(value, dict):
            out[name] = {"name": value.get("name", ""), "verified": value.get("verified", False)}
        else:
            out[name] = value
    return out


@extend_schema(request=ClaimSerializer, responses={200: ANY_JSON, 403: ErrorSerializer})
@api_view(["POST"])
def claim(request: Request, code: str) -> Response:
    """Claim a seat with the token of its join link; use the token as the bearer afterwards."""
    body = ClaimSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    seat = Seat.objects.filter(table__code=code.upper(), token=body.validated_data["token"]).first()
    if seat is None:
        return _error("dead_link", "This link holds no seat (the host may have handed it over).", 403)
    services.claim_seat(seat, "api")
    return Response({"seat": seat.index, "name": seat.name, "colour": seat.colour, "token": seat.token})


@extend_schema(parameters=[BEARER], responses={200: ANY_JSON, 403: ErrorSerializer})
@api_view(["GET"])
def my_view(request: Request, code: str) -> Response:
    """My seat's view of the game (my secrets and the public board), the prompt and the result.

    Once the game is over, ``result.ranking`` rows carry ``rank`` (equal after
    every tie-break, equal rank) and ``ties`` holds the translated sentences
    naming the tie-break between neighbours level on score.
    """
    table, seat, refused = _load(request, code)
    if refused:
        return refused
    context = seat_context(table, seat.index)
    return Response({"seat": seat.index, "version": table.version, "status": table.status,
                     "view": context["view"], "prompt": context["prompt"], "result": context["result"],
                     "ties": context["result_ties"]})


@extend_schema(parameters=[BEARER], responses={200: ANY_JSON, 403: ErrorSerializer})
@api_view(["GET"])
def prompt(request: Request, code: str) -> Response:
    """Who must act now, and my legal actions as ready-to-post payloads."""
    table, seat, refused = _load(request, code)
    if refused:
        return refused
    return Response(_prompt_body(table, seat.index))


@extend_schema(parameters=[BEARER], request=PostActionSerializer,
               responses={200: ActionDoneSerializer, 400: ErrorSerializer, 403: ErrorSerializer,
                          409: OpenApiResponse(description="The table moved on: the fresh prompt is attached.")})
@api_view(["POST"])
def post_action(request: Request, code: str) -> Response:
    """Play one action (the one write path). 400: the rules forbid it; 409: stale version."""
    table, seat, refused = _load(request, code)
    if refused:
        return refused
    body = PostActionSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    data = body.validated_data
    try:
        outcome = services.submit_action(table.code, seat.index, data["action"], data["version"], data["key"])
    except IllegalAction as exc:
        return _error(exc.code, error_message(exc), 400, details=exc.as_json()["details"])
    except services.StaleVersion as exc:
        table.refresh_from_db()
        return _error(exc.code, exc.message, 409, fresh=_prompt_body(table, seat.index))
    except services.Forbidden as exc:
        return _error(exc.code, exc.message, 403)
    except services.KeyReused as exc:
        return _error(exc.code, exc.message, 409)
    return Response({"version": outcome.version, "seq": outcome.seq, "replayed": outcome.replayed})


@extend_schema(responses={200: ANY_JSON})
@api_view(["GET"])
def log(request: Request, code: str) -> Response:
    """The log as the caller may read it (a seat with a bearer token sees its own private lines)."""
    table, seat, _ = _load(request, code, need_seat=False)
    lines = log_lines(table, table.game(), seat.index if seat else None, limit=10_000)
    return Response({"version": table.version, "log": lines})


@extend_schema(responses={200: ActionDoneSerializer, 400: ErrorSerializer, 403: ErrorSerializer})
@api_view(["POST"])
def undo(request: Request, code: str) -> Response:
    """Host (``X-Host-Token``): rewind the last move; body ``{"version": N}``."""
    table = get_object_or_404(Table, code=code.upper())
    if not is_host(request, table):
        return _error("not_host", "Only the host can undo (send X-Host-Token).", 403)
    try:
        outcome = services.undo_last(table.code, int(request.data.get("version")), str(request.data.get("key", "")))
    except (TypeError, ValueError, AttributeError):
        return _error("bad_version", "Send the table version you saw: {\"version\": N}.", 400)
    except services.Forbidden as exc:
        return _error(exc.code, exc.message, 403)
    except services.KeyReused as exc:
        return _error(exc.code, exc.message, 409)
    except IllegalAction as exc:
        return _error(exc.code, error_message(exc), 400)
    except services.StaleVersion as exc:
        return _error(exc.code, exc.message, status.HTTP_409_CONFLICT)
    return Response({"version": outcome.version, "seq": outcome.seq, "replayed": outcome.replayed})


@extend_schema(parameters=[BEARER], request=UndoMineSerializer,
               responses={200: ActionDoneSerializer, 400: ErrorSerializer, 403: ErrorSerializer,
                          409: OpenApiResponse(description="The table moved on: the fresh prompt is attached.")})
@api_view(["POST"])
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
    try:
        outcome = services.undo_own(table.code, seat.index, data["version"], data["key"])
    except IllegalAction as exc:
        return _error(exc.code, error_message(exc), 400)
    except services.StaleVersion as exc:
        table.refresh_from_db()
        return _error(exc.code, exc.message, 409, fresh=_prompt_body(table, seat.index))
    except services.Forbidden as exc:
        return _error(exc.code, exc.message, 403)
    except services.KeyReused as exc:
        return _error(exc.code, exc.message, 409)
    return Response({"version": outcome.version, "seq": outcome.seq, "replayed": outcome.replayed})
