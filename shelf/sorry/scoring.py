"""Play-for-points scoring and the edition bonus table (rules file sorry.md, section 3.2).

The winner's bonus could not be verified (section 3.2, 6.1), so it is data:
``editions/points_bonus.json`` ships candidate A marked ``"verified": false``
and a host may pass another table as the ``points_table`` option. The table
is validated on load by :func:`validate_points_table`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from games.engines.base import IllegalAction, gettext_noop

TABLE_PATH = Path(__file__).with_name("editions") / "points_bonus.json"


def _bad(why: str) -> IllegalAction:
    return IllegalAction("bad_edition", gettext_noop("Section 3.2: the points bonus table is invalid: {why}."), why=why)


def _nonneg_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def validate_points_table(table: Any) -> dict[str, Any]:
    """Check a bonus table and return a clean copy; ``IllegalAction("bad_edition")`` otherwise.

    Shape: ``{"name": str, "verified": bool, "per_home_pawn": int >= 0,
    "winner_per_opponent_pawn_not_home": int >= 0, "shutout_tiers":
    [{"max_opponent_home": 0..3, "bonus": int >= 0}, ...] (distinct
    thresholds), "cumulative": bool}``; ``"source"`` is optional text.
    """
    if not isinstance(table, Mapping):
        raise _bad("not an object")
    if not isinstance(table.get("name"), str) or not table["name"]:
        raise _bad("name must be text")
    for key in ("verified", "cumulative"):
        if not isinstance(table.get(key), bool):
            raise _bad(f"{key} must be true or false")
    for key in ("per_home_pawn", "winner_per_opponent_pawn_not_home"):
        if not _nonneg_int(table.get(key)):
            raise _bad(f"{key} must be a whole number >= 0")
    tiers = table.get("shutout_tiers")
    if not isinstance(tiers, list):
        raise _bad("shutout_tiers must be a list")
    seen = set()
    clean_tiers = []
    for tier in tiers:
        if not isinstance(tier, Mapping) or set(tier) != {"max_opponent_home", "bonus"}:
            raise _bad("each tier is {max_opponent_home, bonus}")
        limit, bonus = tier["max_opponent_home"], tier["bonus"]
        if not _nonneg_int(limit) or limit > 3 or not _nonneg_int(bonus) or limit in seen:
            raise _bad("tier thresholds are distinct 0..3 and bonuses whole numbers >= 0")
        seen.add(limit)
        clean_tiers.append({"max_opponent_home": limit, "bonus": bonus})
    clean = {
        "name": table["name"],
        "verified": table["verified"],
        "per_home_pawn": table["per_home_pawn"],
        "winner_per_opponent_pawn_not_home": table["winner_per_opponent_pawn_not_home"],
        "shutout_tiers": clean_tiers,
        "cumulative": table["cumulative"],
    }
    if isinstance(table.get("source"), str):
        clean["source"] = table["source"]
    return clean


def load_points_table() -> dict[str, Any]:
    """The shipped default bonus table, validated."""
    return validate_points_table(json.loads(TABLE_PATH.read_text(encoding="utf-8")))


def points_scores(home: list[int], not_home: list[int], winner: int | None, table: Mapping[str, Any],
                  names: list[str] | None = None) -> tuple[list[int], list[dict]]:
    """Scores per seat and the tally steps (section 3.2).

    ``home[s]`` / ``not_home[s]``: pawns of seat ``s`` in / not in HOME;
    ``winner``: the seat that brought all its pawns HOME. Every seat scores
    ``per_home_pawn`` per HOME pawn; the winner adds the per-opponent-pawn
    bonus and the shut-out tier(s) met by the best opponent's HOME count.
    ``winner`` ``None`` (a game the host ended before anyone won): the HOME
    pawns alone, no bonus.
    """
    steps: list[dict] = []
    scores = []
    names = names or [f"#{seat + 1}" for seat in range(len(home))]
    for seat, n in enumerate(home):
        pts = n * table["per_home_pawn"]
        scores.append(pts)
        steps.append({"text": gettext_noop("{name}: pawns HOME {n} × {each} = {points}."),
                      "details": {"seat": seat, "name": names[seat], "n": n, "each": table["per_home_pawn"],
                                  "points": pts}})
    if winner is None:
        return scores, steps
    others = [s for s in range(len(home)) if s != winner]
    left = sum(not_home[s] for s in others)
    per = left * table["winner_per_opponent_pawn_not_home"]
    scores[winner] += per
    steps.append({"text": gettext_noop("{name} (winner): opponents' pawns not HOME {left} × {each} = {points}."),
                  "details": {"seat": winner, "name": names[winner], "left": left, "each": table["winner_per_opponent_pawn_not_home"], "points": per}})
    best = max((home[s] for s in others), default=0)
    met = [t["bonus"] for t in table["shutout_tiers"] if best <= t["max_opponent_home"]]
    bonus = (sum(met) if table["cumulative"] else max(met)) if met else 0
    scores[winner] += bonus
    steps.append({"text": gettext_noop("{name} (winner): the best opponent has pawns HOME: {best}; shut-out bonus {points}."),
                  "details": {"seat": winner, "name": names[winner], "best": best, "points": bonus}})
    return scores, steps
