"""Shared ranks and tie sentences of a final result.

Every engine's ``result()`` orders the seats by the game's full ordering key
(score, then the tie-breaks its rulebook names). Equal keys share a rank
(1, 1, 3); players level on score but separated by a tie-break get
different ranks, and a sentence names the tie-break that separated them (or
says that none did). No Django here (shared/STYLE.md principle 1).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

Row = dict[str, Any]


def add_ranks(rows: Sequence[Row], key: Callable[[Row], Any]) -> None:
    """Set ``row["rank"]`` on every row: 1 + the number of rows whose ``key`` is strictly better (smaller).

    ``key`` is the game's full ordering key, smaller first; equal keys share a
    rank and the next rank skips (1, 1, 3). Mutates ``rows``.
    """
    keys = [key(row) for row in rows]
    for row, mine in zip(rows, keys, strict=True):
        row["rank"] = 1 + sum(1 for other in keys if other < mine)


def neighbour_ties(
    rows: Sequence[Row],
    names: Sequence[str],
    score: Callable[[Row], Any],
    breaks: Sequence[tuple[str, Callable[[Row], Any]]],
    shared: str,
    extra: Mapping[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """One ``{"text", "details"}`` per pair of neighbours (``rows`` best first) level on ``score``.

    ``breaks`` lists the tie-breaks in the order the rules apply them, each
    ``(text, value)``: the first whose values differ names why the upper row
    ranks higher (details ``a``, ``b``, ``score``, ``va``, ``vb``); when none
    differs, ``shared`` says they share ``rank``. ``extra`` adds details
    (for instance the start player). ``rows`` carry ``seat`` and ``rank``.
    """
    out = []
    for upper, lower in zip(rows, rows[1:], strict=False):
        if score(upper) != score(lower):
            continue
        details: dict[str, Any] = {"a": names[upper["seat"]], "b": names[lower["seat"]], "score": score(upper),
                                   "rank": upper["rank"], "seats": [upper["seat"], lower["seat"]], **(extra or {})}
        for text, value in breaks:
            va, vb = value(upper), value(lower)
            if va != vb:
                out.append({"text": text, "details": {**details, "va": va, "vb": vb}})
                break
        else:
            out.append({"text": shared, "details": details})
    return out
