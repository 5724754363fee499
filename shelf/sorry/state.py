"""State of a Sorry! playthrough: frozen dataclasses and their JSON form.

Decks, discards and hands are multisets: tuples of counts indexed like
:data:`CARDS` (section 2.1). Pawn locations use the int scheme of
:mod:`shelf.sorry.board`; the JSON form uses the readable notation of
:mod:`shelf.sorry.notation` (``"T17"``, ``"S2"``, ``"START"``, ``"HOME"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engines.base import IllegalAction, gettext_noop
from shelf.sorry.board import HOME, SAFE0, START, TRACK_LEN

CARDS: tuple[str, ...] = ("1", "2", "3", "4", "5", "7", "8", "10", "11", "12", "sorry")
CARD_INDEX: dict[str, int] = {card: i for i, card in enumerate(CARDS)}
DECK_2005: dict[str, int] = {"1": 5, "2": 4, "3": 4, "4": 4, "5": 4, "7": 4, "8": 4, "10": 4, "11": 4, "12": 4, "sorry": 4}

# Steps of the game (``SorryState.step``).
DEAL = "deal"  # points mode: dealing the opening hands, one card per action
DRAW = "draw"  # a seat draws (standard: the turn's card; points: refill one card)
MOVE = "move"  # a seat uses its card (standard) or plays from its hand (points)
OVER = "over"


@dataclass(frozen=True)
class SorryState:
    """One moment of a Sorry! game.

    ``pawns[c]``: locations of colour ``c``'s pawns (``()`` for colours not in
    play). ``turn``: the seat that acts. ``step``: one of ``deal``, ``draw``,
    ``move``, ``over``. ``card``: the drawn card waiting to be used (standard
    game) or ``None``. ``deck`` / ``discard``: counts per :data:`CARDS`.
    ``hands``: per-seat counts (points mode, else ``()``). ``again``: the card
    being resolved grants another play/draw to the same seat (a 2, section
    2.2 and 3.2). ``winner``: the seat that finished, once over.
    """

    pawns: tuple[tuple[int, ...], ...]
    turn: int
    step: str
    card: str | None
    deck: tuple[int, ...]
    discard: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...] = ()
    again: bool = False
    winner: int | None = None


def loc_text(loc: int) -> str:
    """``-1`` -> ``START``, ``66`` -> ``HOME``, ``62`` -> ``S2``, ``17`` -> ``T17``."""
    if loc == START:
        return "START"
    if loc == HOME:
        return "HOME"
    if SAFE0 < loc < HOME:
        return f"S{loc - SAFE0}"
    return f"T{loc}"


def parse_loc(text: Any) -> int:
    """Inverse of :func:`loc_text`; ``IllegalAction("bad_location")`` on anything else."""
    if isinstance(text, str):
        t = text.strip().upper()
        if t == "START":
            return START
        if t == "HOME":
            return HOME
        if len(t) >= 2 and t[0] in "TS" and t[1:].isdigit():
            n = int(t[1:])
            if t[0] == "T" and 0 <= n < TRACK_LEN:
                return n
            if t[0] == "S" and 1 <= n <= 5:
                return SAFE0 + n
    raise IllegalAction("bad_location", gettext_noop("Section 5: {text} is not a location (T0..T59, S1..S5, START, HOME)."), text=str(text))


def counts_of(cards: Mapping[str, int]) -> tuple[int, ...]:
    """Card -> count mapping as a tuple indexed like :data:`CARDS`."""
    return tuple(int(cards.get(card, 0)) for card in CARDS)


def as_mapping(counts: tuple[int, ...]) -> dict[str, int]:
    """Counts tuple -> ``{card: count}`` for the non-zero cards."""
    return {card: n for card, n in zip(CARDS, counts, strict=True) if n}


def encode_state(state: SorryState) -> dict[str, Any]:
    """The JSON snapshot of ``state`` (readable locations, card counts by name)."""
    return {
        "pawns": [[loc_text(loc) for loc in locs] for locs in state.pawns],
        "turn": state.turn,
        "step": state.step,
        "card": state.card,
        "deck": as_mapping(state.deck),
        "discard": as_mapping(state.discard),
        "hands": [as_mapping(hand) for hand in state.hands],
        "again": state.again,
        "winner": state.winner,
    }


def decode_state(data: Mapping[str, Any]) -> SorryState:
    """Inverse of :func:`encode_state`; ``IllegalAction("bad_state")`` when malformed."""
    try:
        return SorryState(
            pawns=tuple(tuple(parse_loc(loc) for loc in locs) for locs in data["pawns"]),
            turn=int(data["turn"]),
            step=str(data["step"]),
            card=data["card"],
            deck=counts_of(data["deck"]),
            discard=counts_of(data["discard"]),
            hands=tuple(counts_of(hand) for hand in data["hands"]),
            again=bool(data["again"]),
            winner=data["winner"],
        )
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise IllegalAction("bad_state", gettext_noop("The saved state is malformed: {error}."), error=str(err)) from err
