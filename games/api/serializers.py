"""Envelopes of the REST API (the game-specific payloads are checked by the engines)."""

from __future__ import annotations

from rest_framework import serializers

from games.engines import REGISTRY


class SeatInSerializer(serializers.Serializer):
    """One seat of a new table."""

    name = serializers.CharField(max_length=40, required=False, allow_blank=True)
    colour = serializers.CharField(max_length=20, required=False, allow_blank=True)
    team = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=4)


class CreateTableSerializer(serializers.Serializer):
    """``POST /api/tables/``: game slug, options (see each game's OptionSpec list), 2-5 seats."""

    game = serializers.ChoiceField(choices=sorted(REGISTRY))
    options = serializers.DictField(required=False, default=dict)
    seats = SeatInSerializer(many=True)

    def validate_seats(self, value: list) -> list:
        if not 1 <= len(value) <= 5:
            raise serializers.ValidationError("A table has 2 to 5 seats.")
        return value


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

    action = serializers.DictField(help_text="The action, e.g. {\"kind\": \"draw\"}; copy one from /prompt/.")
    version = serializers.IntegerField(help_text="The table version the action was chosen at.")
    key = serializers.CharField(max_length=80, required=False, allow_blank=True, default="",
                                help_text="Idempotency key: a retry with the same key writes nothing twice.")


class UndoMineSerializer(serializers.Serializer):
    """``POST /api/tables/{code}/undo-mine/``: take back my own last move (issue 10 item 4)."""

    version = serializers.IntegerField(help_text="The table version the undo was chosen at.")
    key = serializers.CharField(max_length=80, required=False, allow_blank=True, default="",
                                help_text="Idempotency key: a retry with the same key writes nothing twice.")


class ActionDoneSerializer(serializers.Serializer):
    """The write went through (or was a retry of one that had)."""

    version = serializers.IntegerField()
    seq = serializers.IntegerField()
    replayed = serializers.BooleanField()


class ErrorSerializer(serializers.Serializer):
    """A refusal: a stable machine code and a message naming the rule."""

    code = serializers.CharField()
    message = serializers.CharField()
    details = serializers.DictField(required=False)


class ClaimSerializer(serializers.Serializer):
    """``POST /api/tables/{code}/claim/``: the seat secret from the join link."""

    token = serializers.CharField(max_length=64)
