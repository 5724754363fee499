"""Roll and draw statistics beside what chance alone gives.

Counted from the log's counted moves (undone or dropped moves left out), for
the chance device each game's adapter declares (``WebAdapter.chance``): Catan
Junior's die faces (a fair die: 1/6 each), Sorry! cards drawn by value against
the deck's composition, Yellow & Yangtze tiles drawn by colour against the
bag's composition. Expected count of a value = draws × its share
of the deck or bag (each draw from a shuffled pile is a value with that
chance). A chi-square statistic compares the two, with the 95 % limit for its
degrees of freedom; with any expected count under 5 the verdict is "too few
draws to judge".

Secrecy: what the table screen may show is decided by what each game's view
already makes public (the device's ``hidden`` flag says so). Catan Junior rolls and classic Sorry! draws are seen by
everyone as they happen. A Sorry! points-mode draw goes into a hidden hand,
and so do Yellow & Yangtze tiles: counts of them, set against what was
played, would tell a player what the others hold. Those games' statistics
are shown only once the game is over (the seed is revealed then too), and
then only the draws that seed re-derives: a draw typed in by hand, or one a
correction changed, is not given by the seed and is left out (``entered``
says how many), since it would show another seat's hidden hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from games.engines import get_adapter
from games.models import Action, Table
from games.record.audit import check_draws, effective_actions

#: The 95 % point of the chi-square distribution for 1..12 degrees of freedom.
CHI2_95 = (3.841, 5.991, 7.815, 9.488, 11.070, 12.592, 14.067, 15.507, 16.919, 18.307, 19.675, 21.026)
MIN_EXPECTED = 5.0


def _outcomes(rows: Iterable[Action], field: str, kind: str) -> Counter[str]:
    seen: Counter[str] = Counter()
    for row in rows:
        if row.payload.get("kind") != kind or field not in row.payload:
            continue
        value = row.payload[field]
        for item in value if isinstance(value, list) else [value]:
            seen[str(item)] += 1
    return seen


def public_draws(table: Table, game: Any) -> bool:
    """True when ``game`` (of ``table``) has a die, deck or bag whose draws every phone sees as they happen: its
    statistics count every counted move (no seed check), so a move only adds its own draws to them."""
    device = get_adapter(table.slug).chance(game)
    return device is not None and not device.hidden


def reads_log(table: Table, game: Any) -> bool:
    """True when :func:`chance_stats` of ``table`` reads its log when no ``seen`` is given: there is a die, deck or
    bag, and its draws are not a hidden game's while it is played (those show nothing until the end)."""
    device = get_adapter(table.slug).chance(game)
    return device is not None and not (device.hidden and table.is_open)


def drawn(table: Table, game: Any, rows: Iterable[Action]) -> Counter[str]:
    """What the moves ``rows`` drew or rolled, by value, on ``game``'s chance device (empty without one).

    ``rows`` are counted moves (:func:`games.record.audit.effective_actions`): the whole counted log gives the
    ``seen`` of :func:`chance_stats`; one new move adds its own draws to it."""
    device = get_adapter(table.slug).chance(game)
    return Counter() if device is None else _outcomes(rows, device.field, device.kind)


def counted_draws(table: Table, game: Any) -> Counter[str]:
    """:func:`drawn` over the counted moves of ``table``'s whole log (one query)."""
    return drawn(table, game, effective_actions(table.actions.order_by("seq")))


def chance_stats(table: Table, game: Any, rows: Iterable[Action] | None = None,
                 seen: Counter[str] | None = None) -> dict[str, Any] | None:
    """The statistics the table screen shows, or ``None`` for a game without a die, deck or bag.

    Shape: ``{"what": "die"|"cards"|"tiles", "hidden": bool, "total": int, "rows": [{"value", "observed",
    "expected", "label"}], "chi2": float | None, "df": int, "limit": float | None, "verdict": "few"|"fair"|"unusual", "entered": int}``.
    ``hidden`` is true while the game is played and its draws are private: then nothing else is filled in.
    ``entered``: draws of a hidden-hand game left out once it is over because the seed does not give them.
    ``label``: the word of a value players name by a word (the adapter's ``value_words``), else ``""``.
    ``rows`` is the log in seq order (default: read from the database). ``seen``: the counted draws by value
    (:func:`counted_draws`), when the caller has them, for a game whose draws are public (:func:`public_draws`):
    then no log is read.
    """
    adapter = get_adapter(table.slug)
    device = adapter.chance(game)
    if device is None:
        return None
    what, field, kind, shares = device.what, device.field, device.kind, device.shares
    if table.is_open and device.hidden:
        return {"what": what, "hidden": True, "total": 0, "rows": [], "chi2": None, "df": 0, "limit": None,
                "verdict": "few", "entered": 0}

    entered = 0
    if seen is None or device.hidden:
        all_rows = list(rows) if rows is not None else list(table.actions.order_by("seq"))
        counted = effective_actions(all_rows)
        if device.hidden:
            counted, entered = _derivable(table, all_rows, counted, field, kind)
        seen = _outcomes(counted, field, kind)
    total = sum(seen.values())
    out_rows = [{"value": value, "label": adapter.value_words.get(value, ""), "observed": seen.get(value, 0),
                 "expected": round(total * share, 1)} for value, share in shares.items()]
    chi2 = None
    df = len([r for r in out_rows if r["expected"] > 0]) - 1
    if total:
        chi2 = round(sum((seen.get(v, 0) - total * s) ** 2 / (total * s) for v, s in shares.items() if s > 0), 2)
    limit = CHI2_95[df - 1] if 1 <= df <= len(CHI2_95) else None
    if not total or limit is None or min(total * s for s in shares.values() if s > 0) < MIN_EXPECTED:
        verdict = "few"
    elif chi2 is not None and chi2 <= limit:
        verdict = "fair"
    else:
        verdict = "unusual"
    return {"what": what, "hidden": False, "total": total, "rows": out_rows, "chi2": chi2, "df": df,
            "limit": limit, "verdict": verdict, "entered": entered}


def _derivable(table: Table, all_rows: list[Action], counted: list[Action], field: str,
               kind: str) -> tuple[list[Action], int]:
    """The counted draws of a hidden-hand game that the revealed seed re-derives, and how many others were left out.

    Only a digital draw (``audit.check_draws`` re-derived it, and no correction changed it since) is public
    at the end: a draw typed in by hand (physical components) or changed by a correction is not given by the
    seed, and counting it would tell every phone what went into another seat's hidden hand.
    """
    checked = set(check_draws(table).checked) if table.seed is not None else set()
    logged = {row.seq: row.payload for row in all_rows if row.kind == Action.Kind.GAME}
    kept = [row for row in counted if row.seq in checked and logged.get(row.seq) == row.payload]
    left_out = [row for row in counted if row not in kept]
    return kept, sum(_outcomes(left_out, field, kind).values())
