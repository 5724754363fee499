"""The legal moves in a written position (rules file sorry.md, section 5).

Above the engine: builds a :class:`~shelf.sorry.SorryGame` for a
position written in section 5 notation and lists what the mover may do. Used by
``manage.py rules sorry moves`` and the notation tests.
"""

from __future__ import annotations

from games.engines.base import SeatInfo
from shelf.sorry import SorryGame
from shelf.sorry.board import COLOURS
from shelf.sorry.notation import parse_position


def moves_for_position(position_text: str, card: str, options: dict | None = None) -> list[str]:
    """The legal actions of the mover in a position holding ``card``, as short text lines.

    ``position_text``: the grammar of :mod:`shelf.sorry.notation`, e.g.
    ``"R: R0@T6 R1@T9"`` (mover prefix optional: default the first token's
    colour; unlisted pawns of a listed colour are HOME).
    ``card``: ``"1" "2" "3" "4" "5" "7" "8" "10" "11" "12"`` or ``"sorry"``.
    ``options``: Sorry! table options (see ``SorryGame.option_specs``);
    ``points_mode`` and ``components`` are ignored (one card, standard
    turn). With ``team_mode`` all four colours are seated (missing colours
    have every pawn HOME).

    Returns one line per legal action in
    :func:`shelf.sorry.notation.move_text` form; ``"pass"``
    when the turn is lost or the 11 swap may be declined. Raises
    ``IllegalAction`` (``bad_position``, ``bad_card``, ``bad_option``).
    """
    opts = {k: v for k, v in (options or {}).items() if k not in ("points_mode", "components")}
    per = opts.get("pawns_per_colour", 4)
    position = parse_position(position_text, per if isinstance(per, int) else 4)
    colours = tuple(range(4)) if opts.get("team_mode") else position.colours
    if len(colours) < 2:
        colours = tuple(sorted({position.mover, (position.mover + 2) % 4}))
    seats = [SeatInfo(n, COLOURS[c], COLOURS[c]) for n, c in enumerate(colours)]
    game = SorryGame(opts, seats)
    state = game.state_from_position(position_text, card=card)
    seat = colours.index(position.mover)
    return [game.action_text(state, a) for a in game.legal_actions(state, seat)]
