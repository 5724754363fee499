"""Scenario helpers for Yellow & Yangtze tests: a fixture board, personas and hand-built positions.

Personas: Alice (seat 0, "P1" of the rules file), Bob (1, "P2"), Carol (2, "P3"),
Dan (3, "P4"). Carol is the seat that must never see Alice's hand.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from games.engines.base import SeatInfo
from shelf.yellow_yangtze import YellowYangtzeGame
from shelf.yellow_yangtze.state import COLOURS, State

ALICE, BOB, CAROL, DAN = 0, 1, 2, 3
NAMES = ("Alice", "Bob", "Carol", "Dan")
BOARDS = Path(__file__).resolve().parent / "boards"


def fixture_board() -> dict[str, Any]:
    """The synthetic rhombus (q 0..7, r 0..8): rows 0-1 Yellow River, 2-6 land, 7-8 Yangtze."""
    return json.loads((BOARDS / "fixture_rhombus.json").read_text())


def make_game(n: int = 4, board: dict | None = None, **options: Any) -> YellowYangtzeGame:
    """A game on the fixture board (or ``board``) for ``n`` players with ``options``."""
    seats = [SeatInfo(i, NAMES[i], "red") for i in range(n)]
    return YellowYangtzeGame({"board": board or fixture_board(), **options}, seats)


def counts(d: dict[str, int] | None) -> tuple[int, int, int, int, int]:
    """``{"red": 2}`` -> counts tuple."""
    d = d or {}
    return tuple(d.get(c, 0) for c in COLOURS)  # type: ignore[return-value]


def position(
    game: YellowYangtzeGame,
    tiles: dict[tuple[int, int], str] | None = None,
    leaders: list[tuple[int, str, tuple[int, int]]] | None = None,
    hands: dict[int, dict[str, int]] | None = None,
    active: int = ALICE,
    actions_left: int = 2,
    market: dict[str, int] | None = None,
    pagodas: list[tuple[str, tuple]] | None = None,
    bag: dict[str, int] | None = None,
    full_hands: bool = False,
) -> State:
    """A play-phase state with exactly these pieces (hands default to empty, the bag to plenty)."""
    n = len(game.seats)
    supply = [2, 2, 2, 2, 1]
    pag = []
    for colour, tri in pagodas or []:
        supply[COLOURS.index(colour)] -= 1
        pag.append((colour, tuple(sorted(tri))))
    hand_counts = []
    for i in range(n):
        h = counts((hands or {}).get(i))
        if full_hands and sum(h) < 6:
            h = tuple(x + (6 - sum(h) if j == 4 else 0) for j, x in enumerate(h))
        hand_counts.append(h)
    return State(
        phase="play", start=0, active=active, actions_left=actions_left,
        bag=counts(bag if bag is not None else {"black": 20, "red": 20, "blue": 20, "green": 20, "yellow": 10}),
        set_aside=0, box=counts(None), market=counts(market),
        hands=tuple(hand_counts), points=tuple(counts(None) for _ in range(n)),
        tiles=tuple(sorted((tiles or {}).items())),
        leaders=tuple(sorted(leaders or [])), pagodas=tuple(sorted(pag)), pagoda_supply=tuple(supply),  # type: ignore[arg-type]
    )


def points(state: State, seat: int) -> dict[str, int]:
    """Seat's points by colour."""
    return dict(zip(COLOURS, state.points[seat], strict=True))


def hand(state: State, seat: int) -> dict[str, int]:
    """Seat's hand by colour."""
    return dict(zip(COLOURS, state.hands[seat], strict=True))


def play(game: YellowYangtzeGame, state: State, actor: int, kind: str, /, **fields: Any) -> State:
    """Apply ``{"kind": kind, **fields}`` (hexes as tuples are turned into lists)."""
    action = {"kind": kind}
    for k, v in fields.items():
        if isinstance(v, tuple):
            v = list(v)
        if k in ("triangle", "from"):
            v = [list(h) for h in v]
        action[k] = v
    return game.apply(state, actor, action)


def total_tiles(state: State) -> int:
    """Tiles in bag + hands + board + box + market + committed to a war (conservation, §1.2)."""
    from shelf.yellow_yangtze.state import War

    held = sum(t for _s, _side, t, _l in state.pending.commits) if isinstance(state.pending, War) else 0
    return sum(state.bag) + sum(map(sum, state.hands)) + len(state.tiles) + sum(state.box) + sum(state.market) + held


