"""Card effects, landing, bumping and slides (rules file sorry.md, sections 2.2-2.5, 3.1).

One function, :func:`perform`, decides whether a move is legal and what it
does; :func:`moves_for_card` enumerates candidate moves and keeps those
:func:`perform` accepts, so listing and applying share one source of truth.
``perform`` returns the new pawn tuple, or a rule code (``str``) when the
move is illegal; :data:`REASONS` maps each code to its message.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engines.base import gettext_noop
from shelf.sorry.board import (
    HOME,
    START,
    TRACK_LEN,
    backward,
    forward,
    slide_at,
    start_exit,
)

Pawns = tuple[tuple[int, ...], ...]

REASONS: dict[str, str] = {
    "pawn_in_start": gettext_noop("Section 2.3: a pawn in START leaves it only with a 1, a 2 or a Sorry! card."),
    "pawn_at_home": gettext_noop("Section 2.3: a pawn in HOME never moves again."),
    "overshoots_home": gettext_noop("Section 2.3: HOME needs the exact count; this move overshoots it."),
    "own_pawn_on_target": gettext_noop("Section 2.3: a pawn may not land on a square held by a pawn of its own colour."),
    "pawn_not_in_start": gettext_noop("Section 2.2: this card puts a pawn from START on the board; that pawn is not in START."),
    "pawn_not_on_track": gettext_noop("Section 2.2: the 11 swaps two pawns on the outer track only (not START, safety zone or HOME)."),
    "target_not_on_track": gettext_noop("Section 2.2: only a pawn on the outer track can be swapped or hit by Sorry! (not START, safety zone or HOME)."),
    "target_is_own": gettext_noop("Section 2.2: the target must be another colour's pawn."),
    "target_is_partner": gettext_noop("Section 3.1: in team play the 11 swaps only with an opponent's pawn."),
    "same_pawn_twice": gettext_noop("Section 2.5: a split 7 moves two different pawns."),
    "wrong_count": gettext_noop("Section 2.2: this card does not move a pawn {steps} squares."),
    "card_cannot_start": gettext_noop("Section 2.3: only a 1 or a 2 takes a pawn out of START."),
    "card_cannot_swap": gettext_noop("Section 2.2: only the 11 swaps pawns and only Sorry! hits from START."),
}


@dataclass(frozen=True)
class Flags:
    """The rule options that change move legality (section 3.4 flags)."""

    slide_on_own_colour: bool = False
    swapped_opponent_slides: bool = True
    sorry_forward4_option: bool = False
    team_mode: bool = False
    team_swap_with_partner: bool = False


@dataclass(frozen=True)
class Move:
    """One use of a card by the seat in turn.

    ``how``: ``"count"`` (``pawn`` moves ``steps`` squares, negative =
    backward), ``"start"`` (``pawn`` from START to its start exit),
    ``"swap"`` (11: ``pawn`` trades places with ``target``), ``"sorry"``
    (``pawn`` from START onto ``target``, which goes to START) or
    ``"split"`` (7: ``pawn`` moves ``steps``, then ``then_pawn`` moves
    ``then_steps``). Pawns are ``(colour, index)`` pairs.
    """

    card: str
    how: str
    pawn: tuple[int, int]
    steps: int = 0
    target: tuple[int, int] | None = None
    then_pawn: tuple[int, int] | None = None
    then_steps: int = 0


COUNTS: dict[str, tuple[int, ...]] = {
    "1": (1,), "2": (2,), "3": (3,), "4": (-4,), "5": (5,), "7": (7,), "8": (8,),
    "10": (10, -1), "11": (11,), "12": (12,), "sorry": (),
}


def counts_for(card: str, flags: Flags) -> tuple[int, ...]:
    """The signed step counts ``card`` allows for one pawn (section 2.2; Sorry! 4 is the 2013 flag)."""
    if card == "sorry" and flags.sorry_forward4_option:
        return (4,)
    return COUNTS.get(card, ())


def _set(pawns: Pawns, colour: int, idx: int, loc: int) -> Pawns:
    row = pawns[colour]
    return pawns[:colour] + (row[:idx] + (loc,) + row[idx + 1:],) + pawns[colour + 1:]


def _bump(pawns: Pawns, square: int, colour: int, idx: int) -> Pawns:
    """Send every pawn on track ``square`` except ``(colour, idx)`` to its START (section 2.3)."""
    for c, row in enumerate(pawns):
        if square in row:
            for i, loc in enumerate(row):
                if loc == square and (c, i) != (colour, idx):
                    pawns = _set(pawns, c, i, START)
    return pawns


def land(pawns: Pawns, colour: int, idx: int, dest: int, flags: Flags) -> Pawns:
    """Put pawn ``(colour, idx)`` on ``dest``, bump, then slide (section 2.4).

    The caller has checked ``dest`` holds no pawn of the same colour. On the
    track, any other pawn on ``dest`` goes to START; a foreign triangle
    carries the pawn to the slide's end, sending every other pawn on the
    squares after the triangle to START (own colour included).
    """
    pawns = _set(pawns, colour, idx, dest)
    if 0 <= dest < TRACK_LEN:
        pawns = _bump(pawns, dest, colour, idx)
        slide = slide_at(dest)
        if slide is not None and (slide[0] != colour or flags.slide_on_own_colour):
            _, triangle, end = slide
            for square in range(triangle + 1, end + 1):
                pawns = _bump(pawns, square, colour, idx)
            pawns = _set(pawns, colour, idx, end)
    return pawns


def landing(pawns: Pawns, move: Move) -> int | None:
    """The square ``move``'s (first) pawn lands on before any slide, for labels and payloads."""
    colour, idx = move.pawn
    loc = pawns[colour][idx]
    if move.how in ("count", "split"):
        if move.steps > 0:
            return forward(loc, move.steps, colour)
        return backward(loc, -move.steps, colour)
    if move.how == "start":
        return start_exit(colour)
    tc, ti = move.target  # type: ignore[misc]
    return pawns[tc][ti]


def count_leg(pawns: Pawns, colour: int, idx: int, steps: int, flags: Flags) -> Pawns | str:
    """Move one pawn ``steps`` squares (negative: backward); new pawns or a rule code (sections 1.4, 2.3)."""
    loc = pawns[colour][idx]
    if loc == START:
        return "pawn_in_start"
    if loc == HOME:
        return "pawn_at_home"
    dest = forward(loc, steps, colour) if steps > 0 else backward(loc, -steps, colour)
    if dest is None:
        return "overshoots_home"
    if dest != HOME and dest in pawns[colour]:
        return "own_pawn_on_target"
    return land(pawns, colour, idx, dest, flags)


def perform(pawns: Pawns, move: Move, mine: tuple[int, ...], flags: Flags) -> Pawns | str:
    """Play ``move`` for a seat controlling colours ``mine``: new pawns, or a rule code.

    Does not check which card allows which kind of move beyond the count
    table and the start/swap/sorry cards (section 2.2); ownership of the
    pawns is the caller's check.
    """
    colour, idx = move.pawn
    how = move.how
    if how == "count":
        if move.steps not in counts_for(move.card, flags):
            return "wrong_count"
        return count_leg(pawns, colour, idx, move.steps, flags)
    if how == "start":
        if move.card not in ("1", "2"):
            return "card_cannot_start"
        if pawns[colour][idx] != START:
            return "pawn_not_in_start"
        dest = start_exit(colour)
        if dest in pawns[colour]:
            return "own_pawn_on_target"
        return land(pawns, colour, idx, dest, flags)
    if how == "split":
        if move.card != "7" or not (1 <= move.steps <= 6) or move.steps + move.then_steps != 7:
            return "wrong_count"
        if move.then_pawn == move.pawn or move.then_pawn is None:
            return "same_pawn_twice"
        first = count_leg(pawns, colour, idx, move.steps, flags)
        if isinstance(first, str):
            return first
        qc, qi = move.then_pawn
        return count_leg(first, qc, qi, move.then_steps, flags)
    target = move.target
    if target is None:
        return "target_not_on_track"
    tc, ti = target
    tloc = pawns[tc][ti]
    if not 0 <= tloc < TRACK_LEN:
        return "target_not_on_track"
    if tc == colour:
        return "target_is_own"
    if how == "swap":
        if move.card != "11":
            return "card_cannot_swap"
        loc = pawns[colour][idx]
        if not 0 <= loc < TRACK_LEN:
            return "pawn_not_on_track"
        if tc in mine:
            if not (flags.team_swap_with_partner and not _opponent_on_track(pawns, mine)):
                return "target_is_partner"
        pawns = _set(pawns, tc, ti, loc)
        pawns = land(pawns, colour, idx, tloc, flags)
        if flags.swapped_opponent_slides and pawns[tc][ti] == loc:
            pawns = land(pawns, tc, ti, loc, flags)
        return pawns
    if how == "sorry":
        if move.card != "sorry":
            return "card_cannot_swap"
        if pawns[colour][idx] != START:
            return "pawn_not_in_start"
        return land(pawns, colour, idx, tloc, flags)
    return "wrong_count"


def _opponent_on_track(pawns: Pawns, mine: tuple[int, ...]) -> bool:
    return any(0 <= loc < TRACK_LEN for c, row in enumerate(pawns) if c not in mine for loc in row)


def _first_in_start(pawns: Pawns, colour: int) -> int | None:
    row = pawns[colour]
    return row.index(START) if START in row else None


def moves_for_card(pawns: Pawns, card: str, mine: tuple[int, ...], flags: Flags) -> list[tuple[Move, Pawns]]:
    """Every legal use of ``card`` by a seat moving colours ``mine``, with the pawns after it.

    Ordered by moving pawn. Pawns in START are interchangeable, so only the
    lowest-numbered START pawn of each colour is listed (section 2.2).
    A split 7 that gives the same result in both orders is listed once; if
    the orders differ, both are listed (section 2.5).
    """
    out: list[tuple[Move, Pawns]] = []
    own = [(c, i) for c in mine for i in range(len(pawns[c]))]

    def keep(move: Move) -> None:
        res = perform(pawns, move, mine, flags)
        if not isinstance(res, str):
            out.append((move, res))

    for pawn in own:
        c, i = pawn
        loc = pawns[c][i]
        if loc == START:
            if _first_in_start(pawns, c) != i:
                continue
            if card in ("1", "2"):
                keep(Move(card, "start", pawn))
            elif card == "sorry":
                for tc, row in enumerate(pawns):
                    for ti, tloc in enumerate(row):
                        if tc != c and 0 <= tloc < TRACK_LEN:
                            keep(Move(card, "sorry", pawn, target=(tc, ti)))
            continue
        if loc == HOME:
            continue
        for steps in counts_for(card, flags):
            keep(Move(card, "count", pawn, steps))
        if card == "11" and 0 <= loc < TRACK_LEN:
            for tc, row in enumerate(pawns):
                for ti, tloc in enumerate(row):
                    if tc != c and 0 <= tloc < TRACK_LEN:
                        keep(Move(card, "swap", pawn, target=(tc, ti)))
    if card == "7":
        movable = [p for p in own if pawns[p[0]][p[1]] not in (START, HOME)]
        splits: list[tuple[Move, Pawns]] = []
        for x, p in enumerate(movable):
            for q in movable[x + 1:]:
                for a in range(1, 7):
                    m1 = Move(card, "split", p, a, then_pawn=q, then_steps=7 - a)
                    m2 = Move(card, "split", q, 7 - a, then_pawn=p, then_steps=a)
                    r1 = perform(pawns, m1, mine, flags)
                    r2 = perform(pawns, m2, mine, flags)
                    if not isinstance(r1, str):
                        splits.append((m1, r1))
                    if not isinstance(r2, str) and (isinstance(r1, str) or r1 != r2):
                        splits.append((m2, r2))
        out.extend(splits)
        out.sort(key=lambda pair: pair[0].pawn)
    return out


def eleven_may_decline(moves: list[tuple[Move, Pawns]], flags_decline: bool) -> bool:
    """Section 2.2 / 2.3: with an 11 and no 11-forward move, the seat may end the turn instead of swapping."""
    return flags_decline and all(move.how == "swap" for move, _ in moves)
