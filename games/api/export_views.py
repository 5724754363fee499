"""The API of past games: a finished game's export as JSON or CSV, and importing one."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view, throttle_classes
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.serializers import ErrorSerializer
from games.api.throttles import CreateTableThrottle, TableThrottle
from games.api.views import CODE, _error, _error_responses
from games.engines.base import IllegalAction
from games.models import Table
from games.read.presenters import error_message
from games.web.inputs import load_json
from games.write import export

NOT_FINISHED = OpenApiResponse(ErrorSerializer, description="The game is not finished (code `not_finished`).")


class ImportedSerializer(serializers.Serializer):
    """A rebuilt table: its new code (read-only, ``imported``) and where to see it."""

    code = serializers.CharField()
    game = serializers.CharField()
    imported = serializers.BooleanField()
    moves = serializers.IntegerField(help_text="Counted moves replayed.")
    history_url = serializers.CharField()


@extend_schema(parameters=[CODE], auth=[{}], responses={
    (200, "application/json"): OpenApiResponse(OpenApiTypes.OBJECT, description=(
        f"The export document (format `{export.FORMAT}`, version {export.FORMAT_VERSION}): game, code, options, "
        "seats (no secrets), `created_at` and `finished_at` (when the game started and finished, as stored then; "
        "an imported copy's are the original's, and `copy_of` names the original's play id), "
        "`draws` (commitment and revealed seed), `seal` (which server key sealed the file), `moves` (each counted "
        "move: seq, seat, payload, public line, `after` = SHA-256 of the public view after it; a private move is "
        "`sealed`: kind and an HMAC under this server's key only, which the file cannot open), "
        "`result`.")),
    409: NOT_FINISHED, **_error_responses(404, 429)})
@api_view(["GET"])
@throttle_classes([TableThrottle])
def export_json(request: Request, code: str) -> Response:
    """A finished game as JSON: only public data (the seed is revealed at the end, so it is included)."""
    table = get_object_or_404(Table, code=code.upper())
    try:
        return Response(export.build_export(table))
    except export.NotFinished as exc:
        return _error(exc.code, exc.message, 409)


@extend_schema(parameters=[CODE], auth=[{}], responses={
    (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description=(
        "Header `seat,name,colour,rank,winner,score` (`team` after `colour` in a game played in teams) then the "
        "game's score components; one row per player.")),
    409: NOT_FINISHED, **_error_responses(404, 429)})
@api_view(["GET"])
@throttle_classes([TableThrottle])
def export_csv(request: Request, code: str) -> HttpResponse | Response:
    """A finished game's result as CSV: one row per player (seat, colour, score components, rank)."""
    table = get_object_or_404(Table, code=code.upper())
    try:
        text = export.build_csv(table)
    except export.NotFinished as exc:
        return _error(exc.code, exc.message, 409)
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{table.slug}-{table.code}.csv"'
    return response


@extend_schema(auth=[{}], request={"application/json": OpenApiTypes.OBJECT}, responses={
    201: ImportedSerializer,
    400: OpenApiResponse(ErrorSerializer, description=(
        "Not an export (`bad_import`, `bad_json`, `too_deep`, `nul_character`), or it does not replay to its "
        "recorded result (`import_diverges`, naming the first move that does not fit), or it holds sealed moves "
        "and was changed after it was exported (`import_changed`, one answer whatever changed) or sealed under "
        "another server's key (`import_sealed_elsewhere`).")),
    **_error_responses(413, 415, 429)})
@api_view(["POST"])
@throttle_classes([CreateTableThrottle])
def import_game(request: Request) -> Response:
    """Rebuild an exported game as a new read-only table; refused unless every move replays to the result."""
    if "json" not in (request.content_type or ""):
        return _error("unsupported_media_type", "Send the export as 'Content-Type: application/json'.", 415)
    try:
        data = load_json(request.body, max_bytes=export.MAX_IMPORT_BYTES, max_depth=export.MAX_IMPORT_DEPTH,
                         what="game file", unicode_only=False)
        table = export.import_export(data)
    except IllegalAction as exc:
        return _error(exc.code, error_message(exc), 400, details=exc.as_json()["details"])
    return Response({"code": table.code, "game": table.slug, "imported": True,
                     "moves": table.actions.filter(kind="game").count(),
                     "history_url": f"/t/{table.code}/history/"}, status=201)
