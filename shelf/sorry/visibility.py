"""What each seat may see (shared/STYLE.md principle 7; rules file sorry.md, section 3.2).

Everything on the board is public, and so is the face-up discard pile. The
draw pile is shown as a count only. In points mode the hands are secret:
a seat sees its own cards under ``view["private"]["hand"]`` and only the
number of cards in the other hands.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, Protocol

from games.engines.base import kept_view
from shelf.sorry.board import (
    BASE,
    CELL,
    COLOURS,
    HOME,
    JUNCTION_R,
    START_EXIT_R,
    VIEWBOX,
    _px,
    _rotate,
    loc_xy,
    safe_xy,
    slide_squares,
    track_xy,
)
from shelf.sorry.notation import pawn_id
from shelf.sorry.state import CARDS, SorryState, as_mapping, loc_text


class Table(Protocol):
    """What a view reads of the engine (``SorryGame`` is one).

    ``options``: the validated table options; ``points``: points mode (secret
    hands); ``seat_colour``: each seat's colour index; ``mine``: per seat, the
    colour indexes it moves (two with partners).
    """

    options: Mapping[str, Any]
    points: bool
    seat_colour: tuple[int, ...]
    mine: tuple[tuple[int, ...], ...]


@cache
def layout() -> dict[str, Any]:
    """Static drawing data: pixel centres of every square, slide marks, START/HOME circles (section 1.3)."""
    slides = slide_squares()
    track = []
    for square in range(60):
        x, y = track_xy(square)
        owner, part = slides.get(square, (None, ""))
        track.append({
            "i": square, "x": x, "y": y, "x0": x - CELL // 2, "y0": y - CELL // 2,
            "slide": COLOURS[owner] if owner is not None else "", "part": part, "arrow": "▶▼◀▲"[square // 15],
            "junction": COLOURS[(square - JUNCTION_R) // 15] if (square - JUNCTION_R) % 15 == 0 else "",
            "exit": COLOURS[(square - START_EXIT_R) // 15] if (square - START_EXIT_R) % 15 == 0 else "",
        })
    safety, areas = [], []
    for c, colour in enumerate(COLOURS):
        for k in range(1, 6):
            x, y = safe_xy(c, k)
            safety.append({"colour": colour, "k": k, "x": x, "y": y, "x0": x - CELL // 2, "y0": y - CELL // 2})
        sx, sy = _px(*_rotate(START_EXIT_R, 2, c))
        hx, hy = _px(*_rotate(JUNCTION_R, 6.8, c))
        areas.append({"colour": colour, "base": BASE[c], "start_x": sx, "start_y": sy, "home_x": hx, "home_y": hy,
                      "r": round(CELL * 1.3)})
    # Where a move's "to" lands, for destination taps: "T17" on the track; "R:S2", "R:HOME" per colour.
    points: dict[str, list[int]] = {f"T{sq['i']}": [sq["x"], sq["y"]] for sq in track}
    for sq in safety:
        points[f"{sq['colour'][0].upper()}:S{sq['k']}"] = [sq["x"], sq["y"]]
    for a in areas:
        points[f"{a['colour'][0].upper()}:HOME"] = [a["home_x"], a["home_y"]]
        points[f"{a['colour'][0].upper()}:START"] = [a["start_x"], a["start_y"]]
    return {"viewbox": VIEWBOX, "cell": CELL, "track": track, "safety": safety, "areas": areas, "points": points}


def build_view(game: Table, state: SorryState, seat: int | None) -> dict[str, Any]:
    """The JSON view of ``state`` for ``seat`` (``None``: table screen): the public view (:func:`public_view`) and, in
    points mode, the seat's own hand under ``private``.

    A new dictionary per call whose public pieces are the objects :func:`public_view` made once for ``state``:
    every seat's view shares them (read them, never mutate them)."""
    public = public_view(game, state)
    view = dict(public)
    if game.points and seat is not None and 0 <= seat < len(state.hands):
        hand = state.hands[seat]
        view["private"] = {"hand": [card for card, n in zip(CARDS, hand, strict=True) for _ in range(n)]}
    return view


def public_view(game: Table, state: SorryState) -> dict[str, Any]:
    """What every seat and the table screen see of ``state`` (the board, the pile counts, the number of cards in
    each hand), made once per state object on ``game`` (the last one asked is kept). Never mutate it."""
    return kept_view(game, (state,), (), lambda: _build_public(game, state))


def _build_public(game: Table, state: SorryState) -> dict[str, Any]:
    pawns = []
    for c, row in enumerate(state.pawns):
        for i, loc in enumerate(row):
            x, y = loc_xy(loc, c, i)
            pawns.append({"id": pawn_id(c, i), "colour": COLOURS[c], "loc": loc_text(loc), "x": x, "y": y})
    table = game.options["points_table"]
    view: dict[str, Any] = {
        "edition": (
            {"name": table["name"], "verified": table["verified"]}
            if game.points
            else {"name": "Hasbro 2005 classic", "verified": True}
        ),
        "rules": {
            key: game.options[key]
            for key in ("team_mode", "points_mode", "components", "pawns_per_colour", "two_draws_again",
                        "sorry_forward4_option", "eleven_swap_may_decline", "swapped_opponent_slides",
                        "slide_on_own_colour")
        },
        "layout": layout(),
        "pawns": pawns,
        "seats": [
            {"seat": s, "colour": COLOURS[c], "moves": [COLOURS[m] for m in game.mine[s]],
             "home": sum(1 for loc in state.pawns[c] if loc == HOME)}
            for s, c in enumerate(game.seat_colour)
        ],
        "turn": state.turn,
        "turn_colour": COLOURS[game.seat_colour[state.turn]],
        "step": state.step,
        "card": state.card,
        "draw_pile": sum(state.deck),
        "discard": as_mapping(state.discard),
        "discard_count": sum(state.discard),
        "winner": state.winner,
    }
    if game.points:
        view["hand_sizes"] = [sum(hand) for hand in state.hands]
    return view
