"""The table's random source: seeded, replay-free (shared/STYLE.md principle 5)."""

from __future__ import annotations

import random

#: How a table keys the RNG of its digital chance moves (``Table.draw_keys``).
#: ``position``: by the game's position, the number of draws the app made that still count before this one,
#: so a draw the host undid comes back the same when the game reaches the same point again.
POSITION_KEYS = "position"
#: ``seq``: by the log row number of the chance move (tables created before draws were keyed by position).
SEQ_KEYS = "seq"
DRAW_KEYS = (POSITION_KEYS, SEQ_KEYS)


def table_rng(seed: int, sequence: int) -> random.Random:
    """The RNG for the chance step that becomes action number ``sequence`` of a table.

    Deriving it from (seed, sequence) keeps no RNG state between requests:
    the outcome is stored in the logged action, so replay never calls it.
    Sequence 0 is the set-up shuffle; tables keyed by :data:`SEQ_KEYS` draw
    every chance move from it as well (:func:`draw_rng`).
    """
    return random.Random(f"{seed}:{sequence}")


def draw_rng(seed: int, keys: str, seq: int, position: int) -> random.Random:
    """The RNG that fills a digital chance move (a card, tiles, a roll) logged as row ``seq``.

    ``keys`` is the table's scheme: :data:`POSITION_KEYS` keys it on
    ``position``, the number of app-drawn moves that count (not undone)
    before it, so an undone draw made again from the same point (the same
    deck or bag: the undo restored it) gives the same outcome, and the host
    cannot draw again until a card they like turns up (DESIGN.md "Table
    truth": what the app drew is the seed's). :data:`SEQ_KEYS` keys it on
    the log row, as older tables were drawn. ``ValueError`` for another scheme.
    """
    if keys == POSITION_KEYS:
        return random.Random(f"{seed}:draw:{position}")
    if keys == SEQ_KEYS:
        return table_rng(seed, seq)
    raise ValueError(f"unknown draw keys {keys!r}")


def start_rng(seed: int, keys: str, seq: int) -> random.Random:
    """The RNG of a digital "who starts" draw (a random seat, the highest card) logged as row ``seq``.

    :data:`POSITION_KEYS`: one key per table (the start is drawn before any
    move, always at the same point), so asking again draws the same cards.
    :data:`SEQ_KEYS`: by the log row. ``ValueError`` for another scheme.
    """
    if keys == POSITION_KEYS:
        return random.Random(f"{seed}:start")
    if keys == SEQ_KEYS:
        return table_rng(seed, seq)
    raise ValueError(f"unknown draw keys {keys!r}")
