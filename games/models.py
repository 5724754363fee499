"""Tables, seats and the action log: nothing game-specific lives here.

The log (``Action``) is the truth; ``Table.state`` is a cache rebuilt by
replaying it (``manage.py replay_table CODE``). Nothing is ever deleted from
the log: undo and corrections are rows of their own.
"""

from __future__ import annotations

import hashlib
import secrets
import string
from typing import Any

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engines import get_game_class
from games.engines.base import Game, SeatInfo
from games.engines.chance import POSITION_KEYS, SEQ_KEYS

CODE_ALPHABET = "".join(c for c in string.ascii_uppercase + string.digits if c not in "0O1IL")


def new_code() -> str:
    """A short table code people can read aloud: six characters, no look-alikes."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))


def new_token() -> str:
    """A seat or host secret: 32 url-safe characters."""
    return secrets.token_urlsafe(24)


def new_seed() -> int:
    """The table's RNG seed (63 bits)."""
    return secrets.randbits(63)


def seed_commitment(seed: int) -> str:
    """The published commitment to a table seed: the SHA-256 of its decimal text, in hex."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


_SEAT_INFOS: dict[tuple[int, str], tuple[SeatInfo, ...]] = {}  # (table id, code) -> seats, read once per process


class Table(models.Model):
    """One game in progress (or finished): game slug, options, seats, version, snapshot."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")
        ENDED = "ended", _("ended by the host")

    class DrawKeys(models.TextChoices):
        POSITION = POSITION_KEYS, "by position"
        SEQ = SEQ_KEYS, "by log row"

    code = models.CharField(max_length=12, unique=True, default=new_code)
    slug = models.CharField(max_length=40)
    options = models.JSONField(default=dict)
    seed = models.BigIntegerField(default=new_seed)
    # ``sha256(str(seed))`` in hex, written once when the row is first saved and published from then on (host
    # page, table screen, API): ``check_draws`` checks the seed against this stored value, so a seed changed in
    # the database afterwards no longer "matches" (a value recomputed from the seed always would).
    seed_commitment = models.CharField(max_length=64, default="", editable=False)
    # How the seed is keyed for each digital draw (games/engines/chance.py ``draw_rng``): by the game's position
    # (an undone draw made again gives the same outcome), or, for tables created before that, by the log row.
    # Fixed for the table's life; exported with its seed so an import re-derives the draws the same way.
    draw_keys = models.CharField(max_length=10, choices=DrawKeys.choices, default=DrawKeys.POSITION, editable=False)
    # How many of the app's own draws count now (not undone): the position key of the next digital draw. A cache
    # of the log like ``state`` (``games.record.audit.counted_draws`` derives it), moved by every write that changes it
    # (a draw, an undo, a correction, a repair), so a draw reads no log; ``check_draws`` never trusts it.
    draws = models.PositiveIntegerField(default=0, editable=False)
    version = models.PositiveIntegerField(default=0)
    # Moves on every change any phone may see (a move, a claim, a hand-over, a correction, a repair): the
    # read model keys each table's snapshot by (code, revision).
    revision = models.PositiveBigIntegerField(default=0)
    state = models.JSONField(default=dict)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PLAYING)
    host_token = models.CharField(max_length=64, default=new_token)
    created_by_device = models.CharField(max_length=64, blank=True, default="")
    # Rebuilt from an exported game (games/write/export.py): read-only, every write is refused ("table_imported").
    imported = models.BooleanField(default=False)
    # Before, between and after games, see ``games/record/setup.py``: ``{"start": {"rule",
    # "seat", "tied", "asked"}, "walk": {"checked": [step ids], "skipped": bool}, "next": code, "previous": code}``.
    # Empty for tables made without these steps (the API default): seat 0 starts, no walkthrough.
    pregame = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # When the game was set up (the table made), and when it finished by its rules or the host ended it: written
    # once when each happens (:meth:`move_status`) and read by every export, seal, BG Stats play and history page,
    # never derived from ``updated_at`` (which a later hand-over or Play again moves). An imported copy holds the
    # original's times.
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    # An imported copy: the play id of the game it copies (the original table's code, or the one that table was
    # itself a copy of), sent to BG Stats as ``sourcePlayId`` so the copy logs the same play. Empty for a table
    # played here.
    copy_of = models.CharField(max_length=32, blank=True, default="")

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return f"{self.slug} {self.code}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save the row and move :attr:`revision` with it (named in ``update_fields`` when those are given).

        The first save stores :attr:`seed_commitment` from the seed it is created with; later saves never
        change it (DESIGN.md "Fair draws": the commitment is published before the first draw).
        """
        if not self.seed_commitment:
            self.seed_commitment = seed_commitment(self.seed)
        self.revision += 1
        fields = kwargs.get("update_fields")
        if fields is not None and "revision" not in fields:
            kwargs["update_fields"] = [*fields, "revision"]
        super().save(*args, **kwargs)

    def move_status(self, status: str) -> list[str]:
        """Set :attr:`status` to ``status`` and the finish time with it; the names of the fields set.

        The game's end (finished by its rules, or ended by the host) stores :attr:`finished_at` the moment it
        happens; the end stays as it was while the status does not change, and a game reopened (a host's undo
        of the last move when no seed was revealed) clears it, so the end that counts is the last one.
        """
        names = ["status"]
        done = (self.Status.FINISHED, self.Status.ENDED)
        if status in done and (self.status not in done or self.finished_at is None):
            self.finished_at = timezone.now()
            names.append("finished_at")
        elif status not in done and self.finished_at is not None:
            self.finished_at = None
            names.append("finished_at")
        self.status = status
        return names

    @property
    def play_id(self) -> str:
        """The play's id for BG Stats (``sourcePlayId``): this table's code, or for a copy the original's."""
        return self.copy_of or self.code

    @property
    def duration_minutes(self) -> int:
        """Whole minutes from :attr:`started_at` to :attr:`finished_at` (at least 1); 1 while there is no end."""
        if self.finished_at is None:
            return 1
        return max(1, round((self.finished_at - self.started_at).total_seconds() / 60))

    def seat_infos(self) -> list[SeatInfo]:
        """The seats as the engine sees them, in seat order.

        Index, name, colour and team never change after the table is created (a hand-over changes only the
        secret), so this process reads them once per table instead of on every write and prompt.
        """
        key = (self.pk, self.code)
        infos = _SEAT_INFOS.get(key)
        if infos is None or self.pk is None:
            infos = tuple(SeatInfo(s.index, s.name, s.colour, s.team) for s in self.seats.order_by("index"))
            if self.pk is not None and infos:
                if len(_SEAT_INFOS) > 4096:
                    _SEAT_INFOS.clear()
                _SEAT_INFOS[key] = infos
        return list(infos)

    def game(self, seats: list[SeatInfo] | None = None) -> Game:
        """The engine for this table's game, options and seats."""
        return get_game_class(self.slug)(self.options, seats if seats is not None else self.seat_infos())

    @property
    def title(self) -> str:
        """The game's English title."""
        return get_game_class(self.slug).title

    @property
    def seed_revealed(self) -> int | None:
        """The seed once the game has finished by its rules; ``None`` while it is played and after the host ended it.

        A game the host stopped keeps its hidden hands hidden (``Game.ended_view``); its seed would give
        every digital draw, the hands held when it stopped among them (a Sorry! points hand the rules never
        show), so it stays sealed, and its draws are not proven in public.
        """
        return self.seed if self.status == self.Status.FINISHED else None

    @property
    def is_open(self) -> bool:
        """True while actions may still be posted."""
        return self.status == self.Status.PLAYING


class Seat(models.Model):
    """One player at a table. ``token`` is the seat's secret (join link, cookie, bearer).

    ``claimed_by_device``: the phone's device id that opened the seat last, or :data:`API_DEVICE` once the
    token was sent as a bearer token.
    """

    #: The device a seat is held by while its token is used as ``Authorization: Bearer`` (the API, a bot).
    API_DEVICE = "api"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=40)
    colour = models.CharField(max_length=20)
    team = models.PositiveSmallIntegerField(null=True, blank=True)
    token = models.CharField(max_length=64, default=new_token, unique=True)
    claimed_by_device = models.CharField(max_length=64, blank=True, default="")
    claimed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["index"]
        constraints = [models.UniqueConstraint(fields=["table", "index"], name="unique_seat_index")]

    def __str__(self) -> str:
        return f"{self.table.code} seat {self.index} ({self.name})"


class Action(models.Model):
    """One row of a table's append-only log.

    ``kind`` is ``game`` (an engine action by ``seat``; ``payload`` holds the
    action with its chance outcome), ``undo`` (the host rewinds the last
    effective game action, or a seat takes back its own: ``{"undone": seq,
    "by": seat}``), ``correct`` (a confirmed correction: payload
    ``{"target": seq, "replacement": action | None}``) or ``end`` (the host
    ended the game) or ``options`` (the host switched digital/physical) or
    ``setup`` (seq 0, version 0: the opening position the set-up dealt,
    payload ``{"state": encoded state}``; every replay starts from it, so the
    deal's randomness is in the log like every other chance outcome) or
    ``start`` (who starts, before the first move: payload
    ``{"rule", "seat": start seat or None, "rounds": [{seat: card}, ...],
    "mode": "digital" | "physical"}``; every replay applies the last one
    with a seat to the opening, :meth:`Game.with_start`).
    ``version`` is the table version this row produced.
    """

    class Kind(models.TextChoices):
        GAME = "game", _("move")
        UNDO = "undo", _("undo")
        CORRECT = "correct", _("correction")
        END = "end", _("end")
        OPTIONS = "options", _("options")
        SETUP = "setup", _("opening deal")
        START = "start", _("who starts")
        # A seat's own entry of a hidden draw that the table's record refused: logged with no
        # content, so every phone sees that a refusal happened and probing the bag through refusals shows.
        REFUSED = "refused", _("entry refused")
        # A seat held by one phone was opened on another (its join link used again): logged so
        # that whoever holds every link (the host's page lists them) cannot read another seat's phone unseen.
        OPENED = "opened", _("seat opened on another phone")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.GAME)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    payload = models.JSONField(default=dict)
    idempotency_key = models.CharField(max_length=80, blank=True, default="")
    version = models.PositiveIntegerField()
    # the step prompted after this row and the seats it asks: "offering|0,2"
    prompt_step = models.CharField(max_length=60, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="unique_action_seq"),
            models.UniqueConstraint(
                fields=["table", "idempotency_key"],
                condition=~models.Q(idempotency_key=""),
                name="unique_action_idempotency_key",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table.code}#{self.seq} {self.kind}"


class Correction(models.Model):
    """A proposal that the table says otherwise: replace (or drop) one logged action.

    Every other seat confirms on their phone; then the service re-checks the
    whole log with the replacement and appends a ``correct`` action. The
    original row stays in the log. ``status`` moves once, from ``open`` to
    ``applied`` (everyone agreed), ``rejected`` (another seat turned it
    down), ``withdrawn`` (its proposer took it back) or ``void`` (the later
    moves no longer fit it); see ``games/write/corrections.py``.
    """

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        APPLIED = "applied", _("applied")
        REJECTED = "rejected", _("rejected")
        WITHDRAWN = "withdrawn", _("withdrawn")
        VOID = "void", _("no longer fits")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="corrections")
    proposer = models.PositiveSmallIntegerField()
    target_seq = models.PositiveIntegerField()
    replacement = models.JSONField(null=True, blank=True)
    reason = models.CharField(max_length=200, blank=True, default="")
    confirmations = models.JSONField(default=list)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"correction of #{self.target_seq} ({self.status})"

    def waiting_for(self, seat_count: int) -> list[int]:
        """Seats that still have to confirm (everyone but the proposer)."""
        return [i for i in range(seat_count) if i != self.proposer and i not in self.confirmations]


class EditionProfile(models.Model):
    """Printed facts of one edition as JSON (boards, price tables), per DESIGN.md "Edition data".

    ``option`` names the engine option the data is passed as (``board``,
    ``edition``); ``verified`` is false until someone copied the numbers from
    a real box.
    """

    slug = models.CharField(max_length=40)
    option = models.CharField(max_length=40)
    name = models.CharField(max_length=80)
    data = models.JSONField()
    verified = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["slug", "name"]

    def __str__(self) -> str:
        return f"{self.slug}/{self.option}: {self.name}"

    def as_option(self) -> dict[str, Any]:
        """The data as the engine option value."""
        return dict(self.data)
