"""Scenario helpers for the Sorry! tests: seat a table, set a position, list and play moves.

Personas: Alice plays Red, Bob Blue, Carol Yellow, Dan Green (seat order is
clockwise, play passes to the left, rules file sorry.md section 1.1).
"""

from __future__ import annotations

from games.engines.base import SeatInfo
from shelf.sorry import SorryGame
from shelf.sorry.board import COLOURS
from shelf.sorry.notation import format_position

NAMES = {"red": "Alice", "blue": "Bob", "yellow": "Carol", "green": "Dan"}


def table(colours: str = "red blue yellow green", **options) -> SorryGame:
    """A game seating ``colours`` (space-separated, in seat order) with ``options``."""
    seats = [SeatInfo(i, NAMES[c], c) for i, c in enumerate(colours.split())]
    return SorryGame(options, seats)


def at(game: SorryGame, position: str, card: str | None = None, **kw):
    """The state of ``position`` (section 5 notation) with ``card`` just drawn."""
    return game.state_from_position(position, card=card, **kw)


def lines(game: SorryGame, state) -> list[str]:
    """The legal actions of the seat in turn as short notation."""
    return [game.action_text(state, a) for a in game.legal_actions(state, state.turn)]


def legal(game: SorryGame, state) -> list[dict]:
    """The legal payloads of the seat in turn."""
    return game.legal_actions(state, state.turn)


def play(game: SorryGame, state, **payload):
    """Apply ``payload`` (kind defaults to move) for the seat in turn."""
    payload.setdefault("kind", "move")
    return game.apply(state, state.turn, payload)


def board(state, mover=None) -> str:
    """Every pawn of ``state`` in section 5 notation."""
    return format_position(state.pawns, mover)


def where(state, pawn: str) -> str:
    """Location text of pawn id ``pawn`` (``"R0"`` -> ``"T17"``)."""
    from shelf.sorry.state import loc_text

    c = "RBYG".index(pawn[0])
    return loc_text(state.pawns[c][int(pawn[1:])])


__all__ = ["COLOURS", "at", "board", "legal", "lines", "play", "table", "where"]
