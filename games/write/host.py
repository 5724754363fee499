"""The host's tools: undo, end the game, switch components, ask who starts again, hand over and claim seats."""

from __future__ import annotations

from django.utils import timezone

from games.engines import get_game_class
from games.engines.base import IllegalAction, gettext_noop
from games.models import Action, Seat, Table
from games.record import setup as pregame_rules
from games.record.audit import (
    counted_draws,
    effective_actions,
    opening_state,
    refuse_reopening,
    replay_rows,
    status_after,
)
from games.write.corrections import void_corrections_of_undone
from games.write.write_path import HOST, SYSTEM, Change, Forbidden, Locked, Outcome, WriteRequest, write


def undo_last(code: str, seen_version: int | None, key: str = "") -> Outcome:
    """The host rewinds the last counted game action (logged as an ``undo`` row, nothing deleted).

    ``key`` is stored under the host's own scope (``host/<key>``). Raises
    ``IllegalAction("nothing_to_undo")`` when no game action counts,
    ``IllegalAction("seed_revealed")``, ``Forbidden("table_closed")``,
    ``StaleVersion``, ``KeyReused``.
    """

    def compute(at: Locked) -> Change:
        table, game, seq = at.table, at.game, at.seq
        if table.status == Table.Status.ENDED:
            raise Forbidden("table_closed", "The host ended this game; it can no longer be changed.")
        rows = list(table.actions.order_by("seq"))
        counted = effective_actions(rows)
        if not counted:
            raise IllegalAction("nothing_to_undo", gettext_noop("There is no move to undo."))
        payload = {"undone": counted[-1].seq}
        probe = [*rows, Action(table_id=table.id, seq=seq, kind=Action.Kind.UNDO, payload=payload, version=0)]
        state = replay_rows(table, game, probe)
        status = status_after(game, state, table)
        refuse_reopening(table, rows, status)
        table.draws = counted_draws(table, game, probe)  # an undone draw no longer counts: drawn again, it is the same
        return Change(Action.Kind.UNDO, None, payload, game.encode(state), status=status, fields=("draws",))

    return void_corrections_of_undone(code, write(WriteRequest(code, HOST, compute, seen_version, key,
                                                                 kind=Action.Kind.UNDO)))


def end_game(code: str, key: str = "") -> Outcome:
    """The host ends the game early; the log keeps an ``end`` row and the table closes.

    ``key`` is stored under the host's own scope. Raises ``Forbidden("table_closed")``, ``KeyReused``.
    """

    def compute(at: Locked) -> Change:
        if not at.table.is_open:
            raise Forbidden("table_closed", "This table is closed already.")
        return Change(Action.Kind.END, status=Table.Status.ENDED)

    return write(WriteRequest(code, HOST, compute, key=key, kind=Action.Kind.END))


def set_components(code: str, mode: str, key: str = "") -> Outcome:
    """Switch the table between a digital and a physical deck/bag/die mid-game.

    Safe because every chance outcome is in the log, the opening deal included
    (the ``setup`` row every replay starts from; DESIGN.md "The engine
    contract"). ``key`` is stored under the host's own scope. Raises
    ``IllegalAction("bad_option")`` for another mode, ``Forbidden("table_closed")``, ``KeyReused``.
    """

    def compute(at: Locked) -> Change:
        table = at.table
        if not table.is_open:
            raise Forbidden("table_closed", "This table is closed: the game has ended.")
        before = table.options.get("components", "digital")
        options = {**table.options, "components": mode}
        checked = get_game_class(table.slug)(options, table.seat_infos()).options
        table.options = checked
        # "from" lets check_draws tell which moves were drawn by the server.
        return Change(Action.Kind.OPTIONS, None, {"components": mode, "from": before}, fields=("options",))

    return write(WriteRequest(code, HOST, compute, key=key, posted={"components": mode}, kind=Action.Kind.OPTIONS))


def ask_start_again(code: str, key: str = "") -> Outcome:
    """The host asks "who starts?" again before the first move (a mis-tapped seat or card).

    Logs a ``start`` row ``{"rule", "seat": None, "again": True}``: the
    opening goes back to the engine's, and the question is asked again.
    Only for the asked rules (youngest, oldest, highest card). Raises
    ``IllegalAction("start_decided")`` once a move was played or for a start
    decided at creation (random, chosen, winner). ``key`` is stored under the host's own scope.
    """

    def compute(at: Locked) -> Change:
        table, game, seq = at.table, at.game, at.seq
        if not table.is_open:
            raise Forbidden("table_closed", "This table is closed: the game has ended.")
        start = pregame_rules.start_state(table.pregame)
        rows = list(table.actions.order_by("seq"))
        if (start is None or start.get("seat") is None or start["rule"] not in ("youngest", "oldest", "highest_card")
                or any(r.kind == Action.Kind.GAME for r in rows)):
            raise IllegalAction("start_decided", gettext_noop("Who starts is already decided."))
        table.pregame = {**table.pregame, "start": {"rule": start["rule"], "seat": None, "tied": []}}
        payload = {"rule": start["rule"], "seat": None, "again": True, "mode": "asked"}
        probe = [*rows, Action(table_id=table.id, seq=seq, kind=Action.Kind.START, payload=payload, version=0)]
        return Change(Action.Kind.START, None, payload, game.encode(opening_state(table, game, probe)),
                      fields=("pregame",))

    return write(WriteRequest(code, HOST, compute, key=key, posted={"again": True}, kind=Action.Kind.START))


def hand_over_seat(code: str, index: int) -> Seat:
    """Give seat ``index`` a new secret: the old link and cookie die, a new link is shown (every phone is told).

    Raises ``Seat.DoesNotExist``, ``Forbidden("table_imported")``.
    """
    handed: list[Seat] = []

    def compute(at: Locked) -> Change:
        seat = Seat.objects.select_for_update().get(table=at.table, index=index)
        seat.token = Seat._meta.get_field("token").default()
        seat.claimed_by_device = ""
        seat.claimed_at = None
        seat.save(update_fields=["token", "claimed_by_device", "claimed_at"])
        handed.append(seat)
        return Change(None)

    write(WriteRequest(code, HOST, compute, imported_ok=True))
    return handed[0]


def claim_seat(seat: Seat, device: str, announce: bool = False) -> Seat:
    """Record that ``device`` holds ``seat`` now (the same phone rejoins after a reload); every phone is told.

    ``announce``: the seat is read through its secret sent as a bearer token (not claimed by a phone or a
    bot's own claim), which is logged as an ``opened`` row even when no device held the seat before, at
    the moment of the read: a read before the seat's phone first joins is not left for that join to log.

    A seat another device held is opened on this one as well (its join
    link used again): that is logged as an ``opened`` row every phone reads
    ("Bob's seat was opened on another phone"), with no content, since the
    new phone reads the seat's hidden hand. Whoever holds every link (the
    host's page shows them all, the API's creator gets every token) can
    then not read another player's hand unseen. The row changes no state
    and counts no move. At an imported (read-only) table the claim is kept
    without a row: nothing is hidden there.
    """

    def compute(at: Locked) -> Change:
        # Read under the table's lock: two claims at once see each other's holder (one line, not one each).
        before = Seat.objects.filter(pk=seat.pk).values_list("claimed_by_device", flat=True).first() or ""
        seat.claimed_by_device = device
        seat.claimed_at = timezone.now()
        seat.save(update_fields=["claimed_by_device", "claimed_at"])
        if device and before != device and (before or announce):
            return Change(Action.Kind.OPENED, seat.index)
        return Change(None)

    write(WriteRequest(seat.table.code, SYSTEM, compute, imported_ok=True))
    return seat
