"""Envelopes of the REST API (the game-specific payloads are checked by the engines)."""

from __future__ import annotations

import json
from typing import Any

from django.core.validators import MaxLengthValidator, MinLengthValidator
from rest_framework import serializers

from games.engines import REGISTRY
from games.engines.base import IllegalAction
from games.engines.schema import check_json_value

#: The largest table version a body may name (a 32-bit column; bigger is refused, not overflowed).
MAX_VERSION = 2**31 - 1


class StrictBooleanField(serializers.BooleanField):
    """A JSON boolean, ``true`` or ``false`` and nothing else: DRF's own field also takes ``0``, ``1``, ``"yes"``,
    ``"on"`` and the like, which a script meaning another thing could send unnoticed."""

    default_error_messages = {"invalid": "Must be true or false (a JSON boolean)."}

    def to_internal_value(self, data: Any) -> bool:
        """``data`` when it is ``True`` or ``False``; ``ValidationError`` (code ``invalid``) for anything else."""
        if isinstance(data, bool):
            return data
        self.fail("invalid", input=data)
        raise AssertionError  # fail raises


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer and nothing else: DRF's own field also takes ``5.0``, ``-0.0``, ``"5"`` and ``true``,
    where the socket and the page refuse them (every door reads a number alike)."""

    def to_internal_value(self, data: Any) -> int:
        """``data`` when it is an ``int`` (not a ``bool``) within the field's bounds; ``ValidationError``
        (code ``invalid``, ``min_value`` or ``max_value``) for anything else."""
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class SeatInSerializer(serializers.Serializer):
    """One seat of a new table: ``name``, ``colour``, ``team``, nothing else (an unknown field is refused
    ``unknown_field``, naming it, rather than silently dropped)."""

    name = serializers.CharField(max_length=40, required=False, allow_blank=True)
    colour = serializers.CharField(max_length=20, required=False, allow_blank=True)
    team = StrictIntegerField(required=False, allow_null=True, min_value=0, max_value=4)

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            unknown = sorted(str(k) for k in data if k not in self.fields)
            if unknown:
                raise serializers.ValidationError(
                    {k: [serializers.ErrorDetail(f"A seat has no field {k!r}: send name, colour and team only.",
                                                 code="unknown_field")] for k in unknown})
        return super().to_internal_value(data)


def seat_range() -> tuple[int, int]:
    """The fewest and the most seats any registered game is played with (each game's own range is checked when
    the table is made: ``seat_count``)."""
    from games.engines import get_game_class

    classes = [get_game_class(slug) for slug in REGISTRY]
    return min(c.min_seats for c in classes), max(c.max_seats for c in classes)


def seat_ranges() -> str:
    """Each registered game's seat range, for the schema: ``"<slug> 2-4, <slug> 2-5"``."""
    from games.engines import get_game_class

    return ", ".join(f"{slug} {get_game_class(slug).min_seats}-{get_game_class(slug).max_seats}"
                     for slug in sorted(REGISTRY))


def _bounded_json(value: Any, *, what: str, max_bytes: int, max_depth: int) -> Any:
    """``value`` if it is nested at most ``max_depth`` deep, holds no NUL and is at most ``max_bytes`` as JSON."""
    try:
        check_json_value(value, max_depth=max_depth, what=what)
    except IllegalAction as exc:
        raise serializers.ValidationError(exc.message, code=exc.code) from exc
    if len(json.dumps(value, ensure_ascii=False).encode("utf-8")) > max_bytes:
        raise serializers.ValidationError(f"The {what} is longer than {max_bytes} bytes.", code="too_large")
    return value


class CreateTableSerializer(serializers.Serializer):
    """``POST /api/tables/``: game slug, options (see each game's OptionSpec list), one seat per player within
    the game's own seat range (``seat_count`` otherwise), who starts (one of the game's start rules, the ones
    the lobby offers: ``bad_start`` otherwise)."""

    game = serializers.ChoiceField(choices=sorted(REGISTRY))
    options = serializers.DictField(required=False, default=dict,
                                    help_text="Rule options by name; a board or edition as its profile object.")
    seats = serializers.ListField(child=SeatInSerializer(), min_length=2, max_length=5)  # bounds: __init__

    start = serializers.ChoiceField(
        choices=["printed", "youngest", "oldest", "highest_card", "random", "chosen"], required=False,
        help_text="Who starts: the game's printed rule, a question the phones answer before "
                  "the first move, a random seat from the table's seed, or start_seat. Absent: seat 0 starts.")
    start_seat = StrictIntegerField(required=False, min_value=0, max_value=4,
                                          help_text="The seat that starts when start is chosen.")
    walkthrough = StrictBooleanField(required=False, default=False,
                                           help_text="Walk the phones through the physical set-up.")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = sorted(REGISTRY)  # the registry as it is now, not at import time
        low, high = seat_range()
        seats = self.fields["seats"]
        seats.min_length, seats.max_length = low, high
        seats.validators = [v for v in seats.validators if not hasattr(v, "limit_value")]
        seats.validators += [MinLengthValidator(low, message=f"A table has {low} to {high} seats."),
                             MaxLengthValidator(high, message=f"A table has {low} to {high} seats.")]
        seats.help_text = f"{low}-{high} seats, one per player, within the game's own range ({seat_ranges()})."

    def validate_options(self, value: dict) -> dict:
        """Options are bounded JSON: at most 64 KiB, nested at most 16 deep, no NUL."""
        return _bounded_json(value, what="options", max_bytes=64 * 1024, max_depth=16)



class SeatOutSerializer(serializers.Serializer):
    """A seat as its creator sees it: with its secret token and join link."""

    index = serializers.IntegerField()
    name = serializers.CharField()
    colour = serializers.CharField()
    token = serializers.CharField()
    join_url = serializers.CharField()


class CreatedTableSerializer(serializers.Serializer):
    """The new table: its code, the host secret (send as ``X-Host-Token``) and every seat's secret."""

    code = serializers.CharField()
    game = serializers.CharField()
    version = serializers.IntegerField()
    host_token = serializers.CharField()
    seats = SeatOutSerializer(many=True)


class PostActionSerializer(serializers.Serializer):
    """``POST /api/tables/{code}/actions/``: one action payload from ``/prompt/``'s ``legal`` list."""

    action = serializers.DictField(help_text="The action, e.g. {\"kind\": \"draw\"}; copy one from /prompt/. "
                                             "Checked against the kind's declared schema: no unknown keys.")
    version = StrictIntegerField(min_value=0, max_value=MAX_VERSION,
                                       help_text="The table version the action was chosen at.")
    key = serializers.CharField(max_length=80, required=False, allow_blank=True, default="",
                                help_text="Optional idempotency key: a retry with the same key writes nothing twice; "
                                          "without one, a retry is a new request.")


class UndoMineSerializer(serializers.Serializer):
    """``POST /api/tables/{code}/undo-mine/``: take back my own last move."""

    version = StrictIntegerField(min_value=0, max_value=MAX_VERSION,
                                       help_text="The table version the undo was chosen at.")
    key = serializers.CharField(max_length=80, required=False, allow_blank=True, default="",
                                help_text="Optional idempotency key: a retry with the same key writes nothing twice; "
                                          "without one, a retry is a new request.")

class StartSerializer(serializers.Serializer):
    """``POST /api/tables/{code}/start/``: answer "who starts?" before the first move."""

    seat = StrictIntegerField(required=False, min_value=0, max_value=4,
                                    help_text="youngest / oldest: the seat that is the youngest (oldest).")
    draw = StrictBooleanField(required=False, default=False,
                                    help_text="highest_card, digital: the app turns up a card for every seat.")
    cards = serializers.DictField(child=serializers.CharField(max_length=8, allow_blank=True), required=False, allow_empty=True,
                                  help_text="highest_card, physical: seat index (as text) -> the card it turned up.")
    key = serializers.CharField(max_length=80, required=False, allow_blank=True, default="",
                                help_text="Optional idempotency key: a retry with the same key writes nothing twice; "
                                          "without one, a retry is a new request.")

    def validate_cards(self, value: dict) -> dict:
        """At most one card per seat (5)."""
        if len(value) > 5:
            raise serializers.ValidationError("At most one card per seat.")
        return value


class UndoSerializer(serializers.Serializer):
    """``POST /api/tables/{code}/undo/`` (host): the version the host saw, and an idempotency key."""

    version = StrictIntegerField(min_value=0, max_value=MAX_VERSION,
                                       help_text="The table version the host saw.")
    key = serializers.CharField(max_length=80, required=False, allow_blank=True, default="",
                                help_text="Optional idempotency key: a retry with the same key undoes nothing twice.")


class ActionDoneSerializer(serializers.Serializer):
    """The write went through (or was a retry of one that had)."""

    version = serializers.IntegerField()
    seq = serializers.IntegerField()
    replayed = serializers.BooleanField()


class ErrorSerializer(serializers.Serializer):
    """A refusal: a stable machine code and a message naming the rule (``fields``: which input was invalid)."""

    code = serializers.CharField()
    message = serializers.CharField()
    details = serializers.DictField(required=False)
    fields = serializers.JSONField(required=False, help_text="Per-field reasons of an invalid body.")
    rule_url = serializers.CharField(
        required=False, allow_null=True,
        help_text="A refused action: the path of the rules section that explains the rule (``/rules/<game>/<section>/``, "
                  "with ``?t=<code>`` and an anchor), or null when no rule explains the code (malformed input).")


class PromptSerializer(serializers.Serializer):
    """Who must act now: seats, action kinds, an English text, chance step or not, the step name."""

    seats = serializers.ListField(child=serializers.IntegerField())
    kinds = serializers.ListField(child=serializers.CharField())
    text = serializers.CharField(allow_blank=True)
    chance = serializers.BooleanField()
    step = serializers.CharField(allow_blank=True)
    details = serializers.DictField()


class LegalActionSerializer(serializers.Serializer):
    """One legal action, ready to post as ``action``, with its label."""

    action = serializers.DictField()
    label = serializers.CharField(allow_blank=True)


class PromptBodySerializer(serializers.Serializer):
    """The prompt at a version, and the caller's legal actions (empty once the table is closed)."""

    version = serializers.IntegerField()
    status = serializers.CharField()
    prompt = PromptSerializer()
    legal = LegalActionSerializer(many=True)


class PublicSeatSerializer(serializers.Serializer):
    """A seat as anyone may see it (no secret)."""

    index = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    colour = serializers.CharField(allow_blank=True)
    claimed = serializers.BooleanField()


class TableDetailSerializer(PromptBodySerializer):
    """The public facts of a table and its public prompt."""

    code = serializers.CharField()
    game = serializers.CharField()
    options = serializers.DictField()
    seats = PublicSeatSerializer(many=True)


class ClaimedSerializer(serializers.Serializer):
    """The claimed seat; send ``token`` as the bearer afterwards."""

    seat = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    colour = serializers.CharField(allow_blank=True)
    token = serializers.CharField()


class MyViewSerializer(serializers.Serializer):
    """My seat's view (game-specific shape), the prompt as the phone shows it, and the result once over."""

    seat = serializers.IntegerField()
    version = serializers.IntegerField()
    status = serializers.CharField()
    view = serializers.DictField()
    prompt = serializers.DictField()
    result = serializers.DictField(allow_null=True)
    standing = serializers.DictField(allow_null=True, help_text=(
        "A game the host ended before its end: the position ranked as the game counts it then "
        "(`ranking`, `steps`, `ties`; no `winners`), or null where the game cannot count one; null otherwise."))
    ties = serializers.ListField(child=serializers.CharField())


class LogSerializer(serializers.Serializer):
    """The log lines the caller may read."""

    version = serializers.IntegerField()
    log = serializers.ListField(child=serializers.DictField())


class StaleSerializer(ErrorSerializer):
    """409: the table moved on (``fresh`` holds the new prompt), or the key was used for another write."""

    fresh = PromptBodySerializer(required=False)


class ClaimSerializer(serializers.Serializer):
    """``POST /api/tables/{code}/claim/``: the seat secret from the join link."""

    token = serializers.CharField(min_length=1, max_length=64, trim_whitespace=False)

