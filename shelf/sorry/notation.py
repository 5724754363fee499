"""Position and move notation (rules file sorry.md, section 5).

Pawn ids are a colour letter and a 0-based index: ``R0``, ``B3``.
Locations are ``T0``..``T59`` (absolute track square, section 1.2),
``S1``..``S5`` (the pawn's own safety zone), ``START``, ``HOME``.

Position text (what :func:`parse_position` reads, and so
:func:`shelf.sorry.positions.moves_for_position`)::

    position := [mover ":"] token ( [","] token )*
    mover    := R | B | Y | G | red | blue | yellow | green   (the colour whose turn it is)
    token    := pawn "@" loc        one pawn:  R0@T17, B1@S2, Y0@START, G3@HOME
              | colour "@" loc      every pawn of that colour not listed by id: B@START
    loc      := T<0..59> | S<1..5> | START | HOME     (case-insensitive; a leading "@" alone, as
                                                       in the rules file's "@S2", belongs to the token)

Unlisted pawns of a colour that appears in the position are in HOME (as in
the rules file's cases). The colours in play are those named by a token
plus the mover; without a mover the colour of the first token moves.
Example: ``"R: R0@T6, R1@T9"`` (Red to move, R2 and R3 HOME);
``"Y: Y0@T58 R1@T2 R2@T4"``; ``"R0@T10 Y0@T15 R1@START B@START G@START"``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from games.engines.base import IllegalAction, gettext_noop
from shelf.sorry.board import COLOURS, HOME, LETTERS, SAFE0, START, TRACK_LEN, backward, forward, start_exit
from shelf.sorry.rules import Move, Pawns
from shelf.sorry.state import loc_text, parse_loc

_TOKEN = re.compile(r"^([RBYG])(\d*)@(\S+)$", re.IGNORECASE)
_NAMES = {name: i for i, name in enumerate(COLOURS)} | {letter.lower(): i for i, letter in enumerate(LETTERS)}


def bad_position(why: str, **details: Any) -> IllegalAction:
    """The error for a position text that cannot be read (section 5 notation)."""
    return IllegalAction("bad_position", gettext_noop("Section 5 notation: {why}"), why=why.format(**details), **details)


def pawn_id(colour: int, idx: int) -> str:
    """``(0, 1)`` -> ``"R1"``."""
    return f"{LETTERS[colour]}{idx}"


def parse_pawn_id(text: Any) -> tuple[int, int]:
    """``"R1"`` -> ``(0, 1)``; ``IllegalAction("bad_pawn")`` for anything else (range is the caller's check)."""
    if isinstance(text, str) and len(text) >= 2 and text[0].upper() in LETTERS and text[1:].isdigit():
        return LETTERS.index(text[0].upper()), int(text[1:])
    raise IllegalAction("bad_pawn", gettext_noop("Section 5: {text} is not a pawn id such as R0 or B3."), text=str(text))


@dataclass(frozen=True)
class Position:
    """A parsed position: ``pawns[c]`` locations (``()`` for colours not in play) and the colour to move."""

    pawns: Pawns
    mover: int

    @property
    def colours(self) -> tuple[int, ...]:
        """The colours in play, clockwise."""
        return tuple(c for c in range(4) if self.pawns[c])


def parse_position(text: str, pawns_per_colour: int = 4) -> Position:
    """Read a position (grammar in the module docstring); ``IllegalAction("bad_position")`` on error.

    Refuses two pawns of one colour on one track or safety square, two
    pawns on one track square, unknown tokens and out-of-range pawn indexes.
    """
    if not isinstance(text, str):
        raise bad_position("the position must be text")
    body = text.strip()
    mover: int | None = None
    if ":" in body:
        head, body = body.split(":", 1)
        mover = _NAMES.get(head.strip().lower())
        if mover is None:
            raise bad_position("unknown colour {colour} before ':'", colour=head.strip())
    rows: list[list[int | None] | None] = [None] * 4
    fill: dict[int, int] = {}
    first: int | None = None
    for token in body.replace(",", " ").split():
        m = _TOKEN.match(token)
        if not m:
            raise bad_position("cannot read {token}", token=token)
        colour = LETTERS.index(m.group(1).upper())
        first = colour if first is None else first
        try:
            loc = parse_loc(m.group(3))
        except IllegalAction as err:
            raise bad_position("cannot read {token}", token=token) from err
        row = rows[colour] if rows[colour] is not None else [None] * pawns_per_colour
        rows[colour] = row
        if m.group(2) == "":
            if colour in fill:
                raise bad_position("{token} given twice", token=token)
            fill[colour] = loc
            continue
        idx = int(m.group(2))
        if idx >= pawns_per_colour or row[idx] is not None:
            raise bad_position("{token}: no such pawn, or given twice", token=token)
        row[idx] = loc
    if mover is None:
        if first is None:
            raise bad_position("no pawns and no mover")
        mover = first
    if rows[mover] is None:
        rows[mover] = [None] * pawns_per_colour
    pawns = tuple(
        () if row is None else tuple(fill.get(c, HOME) if loc is None else loc for loc in row)
        for c, row in enumerate(rows)
    )
    _check_occupancy(pawns)
    return Position(pawns, mover)


def _check_occupancy(pawns: Pawns) -> None:
    seen: dict[int, str] = {}
    for c, row in enumerate(pawns):
        own: set[int] = set()
        for i, loc in enumerate(row):
            if loc in (START, HOME):
                continue
            if loc in own:
                raise bad_position("two {colour} pawns on {loc}", colour=COLOURS[c], loc=loc_text(loc))
            own.add(loc)
            if 0 <= loc < TRACK_LEN:
                if loc in seen:
                    raise bad_position("{a} and {b} share {loc}", a=seen[loc], b=pawn_id(c, i), loc=loc_text(loc))
                seen[loc] = pawn_id(c, i)


def format_position(pawns: Pawns, mover: int | None = None) -> str:
    """Every pawn as ``R0@T17`` tokens, mover prefix when given; :func:`parse_position` reads it back."""
    tokens = [f"{pawn_id(c, i)}@{loc_text(loc)}" for c, row in enumerate(pawns) for i, loc in enumerate(row)]
    text = " ".join(tokens)
    return f"{LETTERS[mover]}: {text}" if mover is not None else text


def _leg_text(pawns: Pawns, pawn: tuple[int, int], steps: int, dest: int | None) -> str:
    c, i = pawn
    sign = "+" if steps > 0 else "-"
    return f"{pawn_id(c, i)} {loc_text(pawns[c][i])}{sign}{abs(steps)}>{loc_text(dest) if dest is not None else '?'}"


def move_text(before: Pawns, move: Move, after: Pawns | None = None) -> str:
    """A move as short text (section 5 style).

    ``R0 T6+5>T11`` (count), ``R0 T3-4>T59`` (backward), ``R0 START>T4``
    (start), ``R0 T1<>B0 T20`` (11 swap), ``R1 START>Y0@T15`` (Sorry!),
    ``R0 T6+3>T9, R1 T9+4>T13`` (split 7, in order). When ``after`` is given
    and the move did more than put the pawn(s) on the landing square(s)
    (slide, bumps), `` => `` lists every pawn whose location changed.
    """
    text, naive = _text_and_landings(before, move)
    if after is not None:
        changed = [
            (cc, ii) for cc, row in enumerate(after) for ii, loc in enumerate(row) if loc != before[cc][ii]
        ]
        if any(after[cc][ii] != naive.get((cc, ii)) for cc, ii in changed):
            text += " => " + " ".join(f"{pawn_id(cc, ii)}@{loc_text(after[cc][ii])}" for cc, ii in changed)
    return text


def side_effects(before: Pawns, move: Move, after: Pawns) -> list[dict[str, str]]:
    """Pawns that end somewhere other than the move's plain landing squares (slides, bumps, sweeps).

    Shape: ``[{"pawn": "G0", "to": "T4"}, {"pawn": "B1", "to": "START"}]`` in
    pawn order; empty for a plain move (sections 2.3, 2.4).
    """
    _, naive = _text_and_landings(before, move)
    return [
        {"pawn": pawn_id(cc, ii), "to": loc_text(loc)}
        for cc, row in enumerate(after) for ii, loc in enumerate(row)
        if loc != before[cc][ii] and loc != naive.get((cc, ii))
    ]


def _text_and_landings(before: Pawns, move: Move) -> tuple[str, dict[tuple[int, int], Any]]:
    """The move's short text, and where each moved pawn lands before any slide or bump."""
    c, i = move.pawn
    naive = {}
    if move.how in ("count", "split"):
        dest = forward(before[c][i], move.steps, c) if move.steps > 0 else backward(before[c][i], -move.steps, c)
        text = _leg_text(before, move.pawn, move.steps, dest)
        naive[move.pawn] = dest
        if move.how == "split" and move.then_pawn is not None:
            qc, qi = move.then_pawn
            qdest = forward(before[qc][qi], move.then_steps, qc)
            text += ", " + _leg_text(before, move.then_pawn, move.then_steps, qdest)
            naive[move.then_pawn] = qdest
    elif move.how == "start":
        naive[move.pawn] = start_exit(c)
        text = f"{pawn_id(c, i)} START>{loc_text(start_exit(c))}"
    else:
        tc, ti = move.target  # type: ignore[misc]
        tloc = before[tc][ti]
        naive[move.pawn] = tloc
        if move.how == "swap":
            naive[(tc, ti)] = before[c][i]
            text = f"{pawn_id(c, i)} {loc_text(before[c][i])}<>{pawn_id(tc, ti)} {loc_text(tloc)}"
        else:
            naive[(tc, ti)] = START
            text = f"{pawn_id(c, i)} START>{pawn_id(tc, ti)}@{loc_text(tloc)}"
    return text, naive


def safe_text(colour: int, k: int) -> str:
    """``(0, 2)`` -> ``"R@S2"``: a safety square named with its colour (for logs)."""
    return f"{LETTERS[colour]}@{loc_text(SAFE0 + k)}"
