"""Rules at hand, with pictures: a rules section that describes a position shows one, drawn by the game's board.

A game's adapter names, per rules section, what a position showing it looks
like (``WebAdapter.rule_examples``: ``shows(game, state, seat, action)``). The
picture is the first such position of a game played by the engine alone from
a fixed seed (four seats, the game's default options, the first legal action
that a seeded chooser picks), drawn by the game's own board templates as the
table screen shows it: the public view, no legal moves, no seat. Nothing of
a real table is read, so no table's secret can appear. The position is found
once per process and section; the drawing is made per language.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any

from games.engines import get_adapter, get_game_class
from games.engines.base import Game, SeatInfo
from games.pages.history import step_context
from games.read import regions

#: The seed of the example games, the seats they are played with and the most moves played to find a position.
SEED = 11
NAMES = ("Ann", "Ben", "Cat", "Dan")
MAX_MOVES = 1500


@dataclass(frozen=True)
class _ExampleTable:
    """What the board templates and :func:`games.pages.history.step_context` read of a table, for a game of no table."""

    slug: str
    seats: tuple[SeatInfo, ...]
    options: dict[str, Any]
    code: str = ""
    version: int = 0
    status: str = "playing"

    def seat_infos(self) -> list[SeatInfo]:
        """The example's seats, in seat order."""
        return list(self.seats)


def _table(slug: str) -> _ExampleTable:
    cls = get_game_class(slug)
    count = max(cls.min_seats, min(cls.max_seats, len(NAMES)))
    seats = tuple(SeatInfo(i, NAMES[i], cls.colours[i % len(cls.colours)], None) for i in range(count))
    return _ExampleTable(slug, seats, {})


@functools.lru_cache(maxsize=64)
def position(slug: str, key: str) -> tuple[Game, Any] | None:
    """``(game, state)``: the first position of the seeded example game that shows section ``key`` of ``slug``
    (``WebAdapter.rule_examples``), or ``None`` when the section has no example or none came within
    :data:`MAX_MOVES` moves. Pure: the engine alone, no database."""
    shows = get_adapter(slug).rule_examples.get(key)
    if shows is None:
        return None
    table = _table(slug)
    game = get_game_class(slug)(dict(table.options), table.seat_infos())
    chooser = random.Random(SEED)
    state = game.setup(random.Random(SEED))
    if shows(game, state, None, None):
        return game, state
    for _ in range(MAX_MOVES):
        if game.result(state) is not None:
            return None
        seats = list(game.prompt(state).seats)
        if not seats:
            return None
        seat = chooser.choice(seats)
        legal = game.legal_actions(state, seat)
        if not legal:
            return None
        action = dict(chooser.choice(legal))
        if not game.physical:
            action = game.fill_chance(state, seat, action, chooser)
        state = game.apply(state, seat, action)
        if shows(game, state, seat, action):
            return game, state
    return None


def picture(slug: str, key: str) -> str:
    """The HTML of section ``key``'s picture in the active language: the board region (and the fixed drawing
    it uses, when the game has one) of :func:`position`, as the table screen shows it; ``""`` without one."""
    found = position(slug, key)
    if found is None:
        return ""
    game, state = found
    context = step_context(_table(slug), game, state, None)  # type: ignore[arg-type]
    static = regions.draw_region(regions.STATIC, context) if context["static_template"] else ""
    return static + regions.draw_region(regions.BY_NAME["board"], context)
