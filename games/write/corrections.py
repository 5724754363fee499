"""Corrections: a seat proposes that a logged move be replaced or dropped, the others confirm or refuse.

A correction is a small state machine: open (proposed) -> applied (agreed) |
rejected (turned down by another seat) | withdrawn (by its proposer) | void
(the later moves no longer fit it). Each transition happens once, under ONE
lock order: the table row first (:func:`games.write.write_path.write` locks it),
then the correction row. Every closing
transition appends one ``correct`` log row under the single idempotency key
``correction-<id>``, so the database itself refuses a second closing row. A
repeat (a second "no", a double confirm) answers the current outcome instead
of an error.

What a seat is told about a correction that no longer fits is computed from
that seat's own view: never the engine's refusal text, code or values, which
may describe another seat's hidden hand or sealed offering.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.db import transaction

from games.engines import get_game_class
from games.engines.base import Game, IllegalAction, gettext_noop
from games.models import Action, Correction, Seat, Table
from games.record.audit import (
    app_drawn,
    counted_draws,
    effective_actions,
    opening_state,
    refuse_reopening,
    replay_rows,
    status_after,
)
from games.write.write_path import SYSTEM, Change, Forbidden, KeyReused, Locked, Outcome, WriteRequest, write


class _Decided(Exception):
    """Internal: the correction was already decided; nothing is written."""


def _move_is_visible(game: Game, row: Action, viewer: int | None) -> bool:
    """True when ``viewer`` may read all of ``row``: it is their own move, or its log line hides nothing.

    A move hides something when its mover's own line is marked private or
    says more (other details) than ``viewer``'s line does.
    """
    if row.seat is None or viewer == row.seat:
        return True
    own = game.describe(row.seat, row.payload, row.seat)
    theirs = game.describe(row.seat, row.payload, viewer)
    return not own.private and not theirs.private and dict(own.details) == dict(theirs.details)


def _no_longer_fits(game: Game, probe: list[Action], conflict: IllegalAction, viewer: int | None) -> IllegalAction:
    """The refusal ``viewer`` may read for a correction that a later (or the target) move no longer fits.

    Shape: ``IllegalAction("log_conflict", ..., seq=N, move="...")`` naming
    the move only when ``viewer`` may read it (:func:`_move_is_visible`),
    described through ``game.describe`` for ``viewer``; otherwise
    ``IllegalAction("log_conflict", ...)`` with no details. Never carries the
    engine's message, code or details (they may quote another seat's secret).
    """
    seq = conflict.details.get("seq")
    row = next((r for r in effective_actions(probe) if r.seq == seq), None)  # the target as corrected
    if row is not None and row.kind == Action.Kind.GAME and _move_is_visible(game, row, viewer):
        line = game.describe(row.seat, row.payload, viewer)
        return IllegalAction("log_conflict", gettext_noop("This change no longer fits move #{seq} ({move})."),
                             seq=seq, move=_line_text(line))
    return IllegalAction("log_conflict", gettext_noop("This change no longer fits the moves logged after it."))


def _line_text(line: Any) -> str:
    """A log line in the active language, placeholders filled (lists joined), as ``presenters.tr`` does."""
    from games.text.words import show

    return show(line.text, line.details)


def _check_fits(table: Table, game: Game, probe: list[Action], viewer: int | None) -> Any:
    """Replay ``probe``; the state, or the refusal ``viewer`` may read (:func:`_no_longer_fits`)."""
    try:
        return replay_rows(table, game, probe)
    except IllegalAction as exc:
        raise _no_longer_fits(game, probe, exc, viewer) from None


def _check_seat(table: Table, seat: int) -> None:
    if not isinstance(seat, int) or not 0 <= seat < table.seats.count():
        raise Forbidden("not_a_seat", "Only a player at this table can propose or answer a correction.")


def refuse_app_drawn(table: Table, game: Game, rows: list[Action], seq: int) -> None:
    """``IllegalAction("drawn_by_app")`` when log row ``seq`` holds a draw, roll or shuffle the app made from the
    seed (:func:`games.record.audit.app_drawn`): the seed is the truth, so no correction may replace or drop it."""
    if seq in app_drawn(table, game, rows):
        raise IllegalAction("drawn_by_app", gettext_noop(
            "Move #{seq} holds a draw, roll or shuffle the app made from the table's seed: what the app drew "
            "stays drawn. Only what a player entered for a real card, tile or die can be corrected."), seq=seq)


def propose_correction(code: str, proposer: int, target_seq: int, replacement: Mapping[str, Any] | None,
                       reason: str = "") -> Correction:
    """Seat ``proposer`` proposes that logged action ``target_seq`` be replaced by ``replacement`` (or dropped).

    ``replacement`` is an action payload (a JSON object) or ``None`` (drop).
    What the proposer is told is computed from what the proposer may know:
    whether a change still fits the log depends on hidden hands,
    bags and sealed offerings, so it is not checked here — a refusal or an
    acceptance would answer a question about another seat's secrets, and a
    refused probe would leave no trace. The proposal goes to the other
    phones; when the last of them confirms, the whole log is replayed and a
    change that no longer fits closes as ``void`` with a log row every phone
    reads. Probing therefore needs every other player's consent and stays in
    the log. Each seat has at most one open proposal at a time. Returns the
    open ``Correction``. Raises ``IllegalAction`` with code
    ``no_such_action`` (the move does not count), ``drawn_by_app`` (the move
    holds a digital draw, roll or shuffle: the seed is the truth, see
    :func:`games.record.audit.app_drawn`; whether it does is public, every log line
    says who drew), ``bad_action`` (the
    replacement is not a JSON object of a declared shape),
    ``correction_open`` (this seat already has one waiting); ``Forbidden``
    (``not_a_seat``); ``Table.DoesNotExist``.
    """
    if replacement is not None and not isinstance(replacement, Mapping):
        raise IllegalAction("bad_action", gettext_noop("An action must be a JSON object."))
    made: list[Correction] = []

    def compute(at: Locked) -> Change:
        table = at.table
        _check_seat(table, proposer)
        rows = list(table.actions.order_by("seq"))
        targets = {row.seq: row for row in effective_actions(rows)}
        if target_seq not in targets:
            raise IllegalAction("no_such_action", gettext_noop("Move #{seq} is not in the counted log."),
                                seq=target_seq)
        refuse_app_drawn(table, table.game(), rows, target_seq)
        if replacement is not None:
            at.game.check_payload(replacement)  # its shape only: nothing hidden decides this
        if Correction.objects.filter(table=table, proposer=proposer, status=Correction.Status.OPEN).exists():
            raise IllegalAction("correction_open", gettext_noop(
                "You already have a correction waiting for the others; withdraw it or wait for their answer first."))
        made.append(Correction.objects.create(
            table=table, proposer=proposer, target_seq=target_seq,
            replacement=dict(replacement) if replacement is not None else None, reason=(reason or "")[:200],
        ))
        return Change(None)

    write(WriteRequest(code, proposer, compute))
    correction = made[0]
    if correction.waiting_for(Seat.objects.filter(table__code=code).count()):
        return correction
    settle(code, correction.id, proposer)  # nobody else to ask
    correction.refresh_from_db()
    return correction


def confirm_correction(code: str, correction_id: int, seat: int) -> Correction:
    """Seat ``seat`` confirms; the last confirmation applies the correction through the write path.

    Idempotent: confirming twice, confirming one's own proposal, or
    confirming a correction already decided changes nothing and returns the
    correction as it stands (check ``status``). Returns the ``Correction``.
    Raises ``IllegalAction("log_conflict")`` only to the seat whose
    confirmation found that the log moved on and no longer fits (the
    correction is then closed as ``void`` with a log row; the message is
    what that seat may read); ``Forbidden("not_a_seat")``;
    ``Correction.DoesNotExist`` for another table's correction.
    """
    refusal: IllegalAction | None = None
    seats: list[int] = []

    def compute(at: Locked) -> Change:
        _check_seat(at.table, seat)
        correction = Correction.objects.select_for_update().get(id=correction_id, table=at.table)
        if correction.status != Correction.Status.OPEN or seat == correction.proposer or (
                seat in correction.confirmations):
            raise _Decided()
        correction.confirmations = [*correction.confirmations, seat]
        correction.save(update_fields=["confirmations"])
        seats.append(at.table.seats.count())
        return Change(None)

    with transaction.atomic():
        try:
            write(WriteRequest(code, seat, compute))
        except _Decided:
            return Correction.objects.get(id=correction_id, table__code=code)
        correction = Correction.objects.get(id=correction_id)
        if correction.waiting_for(seats[0]):
            return correction
        try:  # the last "yes": decided in the same transaction, still holding the table lock
            settle(code, correction_id, seat)
        except IllegalAction as exc:
            refusal = exc  # raised after the commit, so the void row stays
    if refusal is not None:
        raise refusal
    return Correction.objects.get(id=correction_id)


def reject_correction(code: str, correction_id: int, seat: int) -> Correction:
    """Another seat turns the correction down, or its proposer withdraws it: it closes, the moves stand.

    Appends one ``correct`` row ``{"target", "correction", "rejected": True,
    "by": seat, "withdrawn": bool}`` and sets the status ``rejected`` or
    ``withdrawn``. Idempotent: a correction already decided (by anyone,
    any way) is returned as it stands. Raises ``Forbidden("not_a_seat")``,
    ``Correction.DoesNotExist``.
    """

    def compute(at: Locked) -> Change:
        table = at.table
        _check_seat(table, seat)
        correction = Correction.objects.select_for_update().get(id=correction_id, table=table)
        if correction.status != Correction.Status.OPEN:
            raise _Decided()
        withdrawn = seat == correction.proposer
        correction.status = Correction.Status.WITHDRAWN if withdrawn else Correction.Status.REJECTED
        correction.confirmations = [*correction.confirmations, f"no:{seat}"]
        correction.save(update_fields=["status", "confirmations"])
        payload = {"target": correction.target_seq, "correction": correction.id, "rejected": True, "by": seat,
                   "withdrawn": withdrawn}
        return Change(Action.Kind.CORRECT, seat, payload)

    _close(code, correction_id, compute)
    return Correction.objects.get(id=correction_id, table__code=code)


def _close(code: str, correction_id: int, compute: Callable[[Locked], Change]) -> None:
    """Run one closing transition through the write path; a correction already decided is left as it is.

    The closing row is stored under the app's own key ``correction-<id>``
    (:data:`SYSTEM` scope), one per correction, so the database refuses a second.
    """
    Correction.objects.get(id=correction_id, table__code=code)  # DoesNotExist before any lock
    try:
        write(WriteRequest(code, SYSTEM, compute, key=f"correction-{correction_id}"))
    except (_Decided, KeyReused):
        pass  # another phone (or this one, a moment ago) closed it first: the current outcome stands


def settle(code: str, correction_id: int, seat: int | None) -> None:
    """Apply an open correction everyone confirmed, or close it as ``void`` if the log no longer fits it.

    Raises, when it turned void, the ``log_conflict`` refusal ``seat`` may
    read, or ``no_such_action`` when the target move was undone meanwhile.
    """
    refusal: list[IllegalAction] = []

    def compute(at: Locked) -> Change:
        table, game, seq = at.table, at.game, at.seq
        correction = Correction.objects.select_for_update().get(id=correction_id, table=table)
        if correction.status != Correction.Status.OPEN:
            raise _Decided()
        payload = {"target": correction.target_seq, "replacement": correction.replacement, "correction": correction.id}
        rows = list(table.actions.order_by("seq"))
        probe = [*rows, Action(table_id=table.id, seq=seq, kind=Action.Kind.CORRECT, payload=payload, version=0)]
        try:
            if correction.target_seq not in {row.seq for row in effective_actions(rows)}:  # undone meanwhile
                raise IllegalAction("no_such_action", gettext_noop("Move #{seq} is not in the counted log."),
                                    seq=correction.target_seq)
            state = _check_fits(table, game, probe, seat)
            refuse_reopening(table, rows, status_after(game, state, table))
        except IllegalAction as exc:
            # The log moved on since the proposal: close it, never leave it open, and keep no engine text.
            refusal.append(exc)
            correction.status = Correction.Status.VOID
            correction.save(update_fields=["status"])
            void = {"target": correction.target_seq, "correction": correction.id, "void": True}
            if exc.code == "seed_revealed":
                void["reason"] = exc.code
            return Change(Action.Kind.CORRECT, None, void)
        correction.status = Correction.Status.APPLIED
        correction.save(update_fields=["status"])
        table.draws = counted_draws(table, game, probe)
        return Change(Action.Kind.CORRECT, correction.proposer, payload, game.encode(state),
                      status=status_after(game, state, table), fields=("draws",))

    _close(code, correction_id, compute)
    if refusal:
        raise refusal[0]


def apply_correction(code: str, correction_id: int) -> Correction:
    """Apply an open correction now (or close it as ``void``); a decided one is returned as it stands.

    Raises ``IllegalAction("log_conflict")`` (phrased for the table screen,
    naming only a public move) when it no longer fits.
    """
    settle(code, correction_id, None)
    return Correction.objects.get(id=correction_id)


def correction_choices(table: Table, target_seq: int) -> tuple[int, dict[str, Any], list[dict[str, Any]]]:
    """What logged move ``target_seq`` could have been instead: ``(seat, original payload, alternatives)``.

    The alternatives are the legal actions of the same seat in the position
    before that move, with chance outcomes spelled out (as in physical mode,
    so "the card was a 7, not a 2" is one tap), without the original.
    Raises ``IllegalAction("no_such_action")`` if the move does not count.
    """
    rows = list(table.actions.order_by("seq"))
    counted = effective_actions(rows)
    index = next((i for i, row in enumerate(counted) if row.seq == target_seq), None)
    if index is None:
        raise IllegalAction("no_such_action", gettext_noop("Move #{seq} is not in the counted log."), seq=target_seq)
    target = counted[index]
    game = get_game_class(table.slug)({**table.options, "components": "physical"}, table.seat_infos())
    state = opening_state(table, game, rows)
    for row in counted[:index]:
        state = game.apply(state, row.seat, row.payload)
    alternatives = [a for a in game.legal_actions(state, target.seat) if a != target.payload]
    return target.seat, target.payload, alternatives


def void_corrections_of_undone(code: str, outcome: Outcome) -> Outcome:
    """Close, as ``void``, every open correction of the move an undo (``outcome``) just took back.

    An undo is public (its log row names the move), so closing the proposals about that move tells
    nobody anything new; left open, they kept asking every phone to confirm a change to a move that
    no longer counts. Each closes through :func:`settle` (its own write and ``correct`` log row, the
    one closing transition). A replayed undo (a retried key) closes nothing more. Returns ``outcome``,
    its ``version`` moved to the table's newest when a correction closed (the phone's next tap names it).
    """
    if outcome.replayed:
        return outcome
    row = Action.objects.filter(table__code=code, seq=outcome.seq, kind=Action.Kind.UNDO).first()
    undone = row.payload.get("undone") if row is not None else None
    open_ids = list(Correction.objects.filter(table__code=code, status=Correction.Status.OPEN,
                                              target_seq=undone).values_list("id", flat=True)) if undone else []
    for correction_id in open_ids:
        try:
            settle(code, correction_id, None)
        except IllegalAction:
            pass  # the expected outcome: the target is no longer counted, so the correction turned void
    if not open_ids:
        return outcome
    table = Table.objects.get(code=code)
    return Outcome(version=table.version, seq=outcome.seq, revision=table.revision)
