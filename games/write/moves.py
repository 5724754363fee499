"""A seat's moves through the write path: play a move, take back one's own last move."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from games.engines.base import Game, IllegalAction, gettext_noop
from games.models import Action, Table
from games.record import setup as pregame_rules
from games.record.audit import (
    NOTE_KINDS,
    counted_draws,
    effective_actions,
    holds_draw,
    move_rng,
    replay_rows,
    status_after,
)
from games.write.corrections import void_corrections_of_undone
from games.write.write_path import SYSTEM, Change, Forbidden, Locked, Outcome, WriteRequest, write


def submit_action(code: str, seat: int, action: Mapping[str, Any], seen_version: int | None, key: str = "",
                  hint: Any = None) -> Outcome:
    """Apply ``action`` for ``seat`` at table ``code`` (the one write path for moves).

    In digital mode the chance outcome is filled from the table's RNG
    (:func:`play`). ``key`` is the idempotency key as posted (stored
    under the seat's own scope); ``hint`` a read-model snapshot (see
    :class:`WriteRequest`). Raises ``IllegalAction`` (the rules forbid it),
    ``StaleVersion`` (the table moved on), ``KeyReused``, ``Forbidden``
    (game closed), ``Table.DoesNotExist``.
    """
    return submit_move(WriteRequest(code, seat, play, seen_version, key, posted=action, hint=hint, kind=Action.Kind.GAME))


def submit_move(request: WriteRequest) -> Outcome:
    """Run a move ``request`` through :func:`write`: ``request.posted`` is the action, ``request.actor`` the seat.

    ``request.authorize`` (the API and the pages: who asks is read from the
    locked row) may return the request with its real seat, action, version
    and key. A physical entry refused for a reason the drawer could not
    rule out is logged publicly (:func:`_log_refused_entry`). Raises what
    :func:`submit_action` raises, and what ``authorize`` raises.
    """
    refused: list[tuple[IllegalAction, WriteRequest]] = []

    def authorize(table: Table, asked: WriteRequest) -> WriteRequest:
        if request.authorize is not None:
            asked = request.authorize(table, asked)
        if not isinstance(asked.posted, Mapping):
            raise IllegalAction("bad_action", gettext_noop("An action must be a JSON object."))
        if not isinstance(asked.actor, int):
            raise Forbidden("not_a_seat", "Only a player at this table can move.")
        return asked

    def compute(at: Locked) -> Change:
        try:
            return play(at)
        except IllegalAction as exc:
            if at.game.refusal_is_hidden(exc):
                refused.append((exc, at.request))
            raise

    try:
        return write(replace(request, compute=compute, independent=True, authorize=authorize, kind=Action.Kind.GAME))
    except IllegalAction as exc:
        if refused and refused[0][0] is exc:
            asked = refused[0][1]
            _log_refused_entry(asked.code, int(asked.actor), asked.posted or {})
        raise


def play(at: Locked) -> Change:
    """The :class:`Change` of one move: ``at.request.posted`` played by seat ``at.request.actor`` on the locked row.

    In digital mode the chance outcome is filled from the table's seed,
    keyed on the game's position (:func:`games.record.audit.move_rng`): a draw the
    host undid comes back the same when made again from the same point.
    The stored payload is :meth:`Game.canonical` of what was posted: what
    the engine derives for the log line (a settled conflict's outcome) is
    there whether or not the phone sent it.
    Raises ``Forbidden("table_closed")``, ``IllegalAction`` (``start_first``
    before who starts is decided, or the engine's refusal).
    """
    table, game, seat = at.table, at.game, int(at.request.actor)
    if not table.is_open:
        raise Forbidden("table_closed", "This table is closed: the game has ended.")
    if pregame_rules.start_pending(table.pregame):
        raise IllegalAction("start_first", gettext_noop(
            "Before the first move the table decides who starts: {rule}."),
            rule=pregame_rules.RULE_NAMES[table.pregame["start"]["rule"]])
    state = at.state()
    payload = dict(at.request.posted or {})
    if not game.physical:
        game.refuse_client_outcome(payload)
        payload = game.fill_chance(state, seat, payload, move_rng(table, at.seq))
    payload = game.canonical(state, seat, payload)  # the engine's derived fields, never the phone's say-so
    new_state = game.apply(state, seat, payload)
    status = Table.Status.FINISHED if game.result(new_state) is not None else None
    fields: tuple[str, ...] = ()
    if not game.physical and holds_draw(game, payload):  # one more of the app's draws counts: the next key
        table.draws += 1
        fields = ("draws",)
    return Change(Action.Kind.GAME, seat, payload, game.encode(new_state), new_state, status, fields)


def _log_refused_entry(code: str, seat: int, action: Mapping[str, Any]) -> None:
    """Log that ``seat``'s physical entry was refused, with no content: a ``refused`` row every phone reads.

    The bag or pile a drawer enters from is the whole set less the board and
    every hand, so a refused entry (one the drawer could not rule out,
    :meth:`Game.refusal_is_hidden`) tells the drawer something about the
    others' hidden hands. The refusal stays as it is (one code, one message
    whatever the reason), and each one is logged publicly ("Alice's entry
    was refused; asked again"), so a seat probing the bag through refusals
    does it in front of the whole table. The payload holds only the action
    kind (never the outcome typed in); the row changes no state, counts no
    move and is skipped by every replay. Written in its own transaction
    after the refusal (nothing of the refused action is kept), without an
    idempotency key: every refused request is logged, a retry too, so no
    choice of keys can make a refusal go unlogged.
    """
    kind = action.get("kind") if isinstance(action.get("kind"), str) else ""

    def compute(at: Locked) -> Change:
        return Change(Action.Kind.REFUSED, seat, {"kind": kind[:40]})

    try:
        write(WriteRequest(code, SYSTEM, compute))
    except Forbidden:
        pass  # the table was closed or imported in between: nothing more can be learnt at it


def own_undo_target(rows: Iterable[Action], seat: int, game: Game, complete: bool = True) -> Action:
    """The log row ``seat`` may take back now, or ``IllegalAction`` naming why not.

    ``rows`` are log rows in ``seq`` order: the whole log, or (``complete``
    false) only its newest rows, as a snapshot holds them. Walking back from
    the newest row, only this seat's own earlier take-backs (and the moves
    they dropped) may come after the target: the target is then the last
    counted game action. Codes: ``nothing_to_undo`` (no move counts),
    ``undo_not_yours`` (another seat moved last), ``undo_not_last`` (the host
    or the table did something since: an undo, a correction, a switch of
    components), ``undo_after_chance`` (the move drew, rolled or revealed
    something: :meth:`Game.reveals`). ``IllegalAction("undo_unknown")``
    when an incomplete window does not reach the target.
    """
    taken_back: set[int] = set()
    for row in reversed(list(rows)):
        if row.kind == Action.Kind.UNDO and row.payload.get("by") == seat and row.payload.get("undone"):
            taken_back.add(row.payload["undone"])
            continue
        if row.kind == Action.Kind.GAME and row.seq in taken_back:
            continue
        if row.kind in (Action.Kind.SETUP, Action.Kind.START):
            break  # the opening position (and who starts): no move before it
        if row.kind in NOTE_KINDS:
            continue  # a refused entry or a seat opened on another phone changed nothing
        if row.kind != Action.Kind.GAME:
            raise IllegalAction("undo_not_last", gettext_noop(
                "Only your last move can be taken back, and something else has happened at the table since; "
                "ask the host to undo."))
        if row.seat != seat:
            raise IllegalAction("undo_not_yours", gettext_noop(
                "The last move was not yours: you can only take back your own move while nobody has played since."))
        if game.reveals(row.payload):
            raise IllegalAction("undo_after_chance", gettext_noop(
                "Move #{seq} drew, rolled or revealed something the table has seen; it cannot be taken back "
                "(the host can undo it, or the table can correct it)."), seq=row.seq)
        return row
    if complete:
        raise IllegalAction("nothing_to_undo", gettext_noop("There is no move to undo."))
    raise IllegalAction("undo_unknown", gettext_noop("There is no move to undo."))


def undo_own(code: str, seat: int, seen_version: int | None, key: str = "") -> Outcome:
    """Seat ``seat`` takes back its own last move: an ``undo`` row ``{"undone": seq, "by": seat}``.

    Allowed while nothing else has happened since (see :func:`own_undo_target`
    for the refusals, all ``IllegalAction``). Through the write path with the
    version the phone saw: ``StaleVersion`` if the table moved on,
    ``Forbidden("table_closed")`` once the game is over, ``KeyReused``.
    """

    def compute(at: Locked) -> Change:
        table, game, seq = at.table, at.game, at.seq
        if not table.is_open:
            raise Forbidden("table_closed", "This table is closed: the game has ended.")
        rows = list(table.actions.order_by("seq"))
        target = own_undo_target(rows, seat, game)
        counted = effective_actions(rows)
        if not counted or counted[-1].seq != target.seq:  # the log says otherwise: never drop another move
            raise IllegalAction("undo_not_last", gettext_noop(
                "Only your last move can be taken back, and something else has happened at the table since; "
                "ask the host to undo."))
        payload = {"undone": target.seq, "by": seat}
        probe = [*rows, Action(table_id=table.id, seq=seq, kind=Action.Kind.UNDO, payload=payload, version=0)]
        state = replay_rows(table, game, probe)
        table.draws = counted_draws(table, game, probe)
        return Change(Action.Kind.UNDO, seat, payload, game.encode(state), status=status_after(game, state, table),
                      fields=("draws",))

    return void_corrections_of_undone(code, write(WriteRequest(code, seat, compute, seen_version, key,
                                                               posted={"by": seat}, kind=Action.Kind.UNDO)))
