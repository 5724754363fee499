"""One tap entry: a seat's move from any door (shared/DESIGN.md "The write path").

The socket, the htmx page and the API each parse what a phone sent in their
own form and shape the answer in their own form; the move itself is
:func:`play`, one function for all three: find the seat that holds the
credential (on the row the write locks), log a bearer token's first use of
the seat, read and check what was posted, and write the move through
:func:`games.write.moves.submit_move`. Who holds a seat is found by one
function, :func:`seat_of`, from the table's snapshot.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from games.entry.access import held_by_bearer
from games.entry.refusals import REFUSALS, NoSeat
from games.models import Table
from games.read import snapshots
from games.write import moves
from games.write.write_path import SYSTEM, Outcome, WriteRequest


class _NotHeldByBearer(Exception):
    """The locked revision shows the seat held by a phone, not by the bearer token that taps: log it first."""


@dataclass(frozen=True)
class Posted:
    """What a door read of a tap: the ``action`` (JSON object), the ``version`` it was chosen at, its ``key``."""

    action: Any
    version: int | None
    key: str = ""


@dataclass(frozen=True)
class Tapped:
    """What :func:`play` did: the locked ``table`` row and the asker's ``seat``; ``outcome`` when written,
    ``refused`` (one of :data:`games.entry.refusals.REFUSALS`) when refused."""

    table: Table
    seat: int
    outcome: Outcome | None = None
    refused: Exception | None = None


def seat_of(snap: snapshots.Snapshot | None, token: str | None) -> int | None:
    """The index of the seat whose current secret is ``token`` in ``snap``, or ``None`` (no query)."""
    if snap is None or not token:
        return None
    return snap.seat_index(token)


def guessed_seat(code: str, token: str | None) -> int | str:
    """The seat a tap is expected to come from, from the newest snapshot this process holds, or ``SYSTEM``.

    A guess (a secret only ever opens one seat index): it only lets the
    write's lock also probe the tap's key. The write checks the secret on
    the row it locks and looks the key up again when the guess was wrong.
    """
    index = seat_of(snapshots.latest(code), token)
    return index if index is not None else SYSTEM


def held_by_bearer_in(snap: snapshots.Snapshot, index: int) -> bool:
    """True when seat ``index`` is held through a bearer token at ``snap``'s revision (its use was logged)."""
    return any(s["index"] == index and s["by_bearer"] for s in snap.seats)


def play(code: str, token: str | None, read: Callable[[Table, int], Posted], key: str = "",
         by_bearer: bool = False) -> Tapped:
    """Play the tap of the seat whose secret is ``token`` at table ``code``, through the one write path.

    ``read(table, seat)`` is the door's reading of what was posted, called
    on the locked row once the seat is known (so every door answers in the
    same order: no table, no seat, then the input, then the write); it
    returns a :class:`Posted` or raises (a refusal of
    :data:`~games.entry.refusals.REFUSALS`, or the door's own answer, which is
    raised on). The action is checked against its kind's schema. ``key`` is
    the posted key as first seen, used only to probe it with the lock.
    ``by_bearer``: the secret came as a bearer token; when the locked
    revision shows a phone holding the seat, the token's use is logged
    first (:func:`games.entry.access.held_by_bearer`), as any claim.
    Raises :class:`games.entry.refusals.NoSeat` and ``Table.DoesNotExist``; a refusal comes back
    in :attr:`Tapped.refused`.
    """
    if not token:
        raise NoSeat
    asked: dict[str, Any] = {}

    def authorize(table: Table, request: WriteRequest) -> WriteRequest:
        snap = snapshots.for_table(table)
        seat = seat_of(snap, token)
        if seat is None:
            raise NoSeat
        if by_bearer and not held_by_bearer_in(snap, seat):
            raise _NotHeldByBearer
        asked.update(table=table, seat=seat)
        posted = read(table, seat)
        snap.game.check_payload(posted.action)  # the kind's schema
        # The snapshot of the locked revision is the write's hint: its engine, state and newest log row are
        # the row's, so the write reads none of them again (the hint play() passed may be a revision behind).
        return replace(request, actor=seat, posted=posted.action, seen_version=posted.version, key=posted.key,
                       hint=snap)

    for _attempt in range(2):
        guess = guessed_seat(code, token)
        try:
            outcome = moves.submit_move(WriteRequest(code, guess, moves.play, key=key if guess != SYSTEM else "",
                                                     hint=snapshots.latest(code), authorize=authorize))
        except _NotHeldByBearer:
            held_by_bearer(code, token)  # its own write: the seat's "opened on another phone" line
            continue
        except REFUSALS as exc:
            if "table" not in asked:
                raise
            return Tapped(asked["table"], asked["seat"], refused=exc)
        return Tapped(asked["table"], asked["seat"], outcome=outcome)
    raise NoSeat  # held_by_bearer found the secret no longer holds the seat
