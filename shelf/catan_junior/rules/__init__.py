"""The rules, split by the rules file's sections (section 3).

* :mod:`.setup`      SU: set-up and starting resources
* :mod:`.production` TU1, PR, GC, SH: die roll, production, Ghost Captain, supply shortage
* :mod:`.building`   BU, EN: lairs, ships, piece limits, the immediate win
* :mod:`.coco`       CO, CA: Coco tiles and the castle lair
* :mod:`.trading`    TR: marketplace, 2:1 supply trades, player trades

Every module works on a :class:`Ruleset` (board, deck and the table's
options, fixed for the table) and a :class:`~..state.State`.
"""

from __future__ import annotations

from dataclasses import dataclass

from shelf.catan_junior.board import Board
from shelf.catan_junior.editions import CocoDeck

#: Lairs per colour, the CASTLE lair included (BU5, EN1).
LAIRS_PER_COLOUR = 7


@dataclass(frozen=True)
class Ruleset:
    """What stays fixed for one table (STYLE principle 2).

    ``colours``: the edition colour of each seat; ``start_colours``: the key of
    each seat in the board's start set ``start_set``; ``ships_per_colour``:
    7 (Kosmos) or 8 (English); ``start_hand``: 5-tuple each player starts
    with (SU5); ``shortage``: ``"not_enough"`` or ``"none_left"`` (SH3);
    ``freeze``: SH2 on; ``ghost_to_castle``: GC3 relaxed; ``balanced_die``;
    ``player_trades``: TR4; ``physical``: chance outcomes typed in.
    """

    board: Board
    deck: CocoDeck
    seat_count: int
    colours: tuple[str, ...]
    start_set: str
    start_colours: tuple[str, ...]
    ships_per_colour: int
    start_hand: tuple[int, ...]
    shortage: str
    freeze: bool
    ghost_to_castle: bool
    balanced_die: bool
    player_trades: bool
    physical: bool
