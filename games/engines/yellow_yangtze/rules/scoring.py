"""Final scoring (§7): yellow points as wild (water filling), lowest colour, tie-breaks."""

from __future__ import annotations

from typing import Any

from games.engines.base import gettext_noop

from ..state import COLOURS, Counts

FOUR = COLOURS[:4]


def allocate_yellow(points: Counts) -> tuple[dict[str, int], dict[str, int]]:
    """Spread the yellow points over black/red/blue/green to maximise the lowest total, then the next (§7).

    Returns ``(added per colour, totals per colour)``. One point at a time
    goes to the currently lowest colour (ties: black, red, blue, green order),
    which is the "water filling" of §7.
    """
    totals = {c: points[i] for i, c in enumerate(FOUR)}
    added = dict.fromkeys(FOUR, 0)
    for _ in range(points[4]):
        low = min(FOUR, key=lambda c: (totals[c], FOUR.index(c)))
        totals[low] += 1
        added[low] += 1
    return added, totals


def final_result(points: tuple[Counts, ...], names: list[str], ended_by: str) -> dict[str, Any]:
    """The result dict: winners, ranking (shared places on full ties, E8) and every step shown."""
    steps: list[dict[str, Any]] = [
        {"text": gettext_noop("The game ends: a tile had to be drawn from an empty bag (§7)."),
         "details": {"reason": ended_by}},
    ]
    rows = []
    for seat, pts in enumerate(points):
        raw = {c: pts[i] for i, c in enumerate(COLOURS)}
        steps.append({"text": gettext_noop("{name} lifts the screen: {points}."),
                      "details": {"seat": seat, "name": names[seat], "points": raw}})
        added, totals = allocate_yellow(pts)
        steps.append({"text": gettext_noop("{name} places {yellow} yellow points: {added}; totals {totals}."),
                      "details": {"seat": seat, "name": names[seat], "yellow": pts[4], "added": added,
                                  "totals": totals}})
        ordered = sorted(totals.values())
        steps.append({"text": gettext_noop("{name} scores {score}, the lowest colour; sorted totals {sorted}."),
                      "details": {"seat": seat, "name": names[seat], "score": ordered[0], "sorted": ordered}})
        rows.append({"seat": seat, "score": ordered[0], "sorted": ordered, "totals": totals, "points": raw,
                     "yellow_added": added})
    rows.sort(key=lambda r: [-v for v in r["sorted"]])
    place = 0
    for i, row in enumerate(rows):
        if i == 0 or row["sorted"] != rows[i - 1]["sorted"]:
            place = i + 1
        row["place"] = place
        if i > 0 and row["score"] == rows[i - 1]["score"]:
            steps.append({"text": gettext_noop(
                "{a} and {b} tie on the lowest colour; compare the next-lowest totals, then the next (§7, E8)."),
                "details": {"a": names[rows[i - 1]["seat"]], "b": names[row["seat"]],
                            "a_sorted": rows[i - 1]["sorted"], "b_sorted": row["sorted"]}})
    winners = [r["seat"] for r in rows if r["place"] == 1]
    steps.append({"text": gettext_noop("Winner(s): {names}."),
                  "details": {"names": [names[s] for s in winners], "seats": winners}})
    return {"winners": winners, "ranking": rows, "steps": steps}
