"""Final scoring (§7): yellow points as wild (water filling), lowest colour, tie-breaks."""

from __future__ import annotations

from typing import Any

from games.engines.base import gettext_noop
from games.engines.ranking import add_ranks

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


def final_result(points: tuple[Counts, ...], names: list[str], ended_by: str, stopped: bool = False) -> dict[str, Any]:
    """The result dict: winners, ranking (shared places on full ties, E8) and every step shown.

    Each ranking row carries ``place`` and ``rank`` (the same: players equal
    on every total share it, §7 and E8); ``ties`` holds the sentence of each
    pair of neighbours level on score, naming the total that separated them.
    ``stopped``: the host ended the game before its end, and the screens are
    counted as they stand (the engine's ``standing``): the steps say so and
    name who is ahead, and there is no ``winners`` key.
    """
    opening = (gettext_noop("The host ended the game before its end: each screen is counted as it stands, "
                            "the way the final scoring counts it (§7).") if stopped
               else gettext_noop("The game ends: a tile had to be drawn from an empty bag (§7)."))
    steps: list[dict[str, Any]] = [{"text": opening, "details": {"reason": ended_by}}]
    rows = []
    for seat, pts in enumerate(points):
        raw = {c: pts[i] for i, c in enumerate(COLOURS)}
        steps.append({"text": gettext_noop(
            "{name} lifts the screen: black {black}, red {red}, blue {blue}, green {green}, yellow {yellow}."),
            "details": {"seat": seat, "name": names[seat], **raw, "points": raw}})
        added, totals = allocate_yellow(pts)
        steps.append({"text": gettext_noop(
            "{name} adds the yellow points ({yellow}): black +{add_black}, red +{add_red}, blue +{add_blue}, "
            "green +{add_green}; totals: black {black}, red {red}, blue {blue}, green {green}."),
            "details": {"seat": seat, "name": names[seat], "yellow": pts[4], **totals,
                        **{f"add_{c}": n for c, n in added.items()}, "added": added, "totals": totals}})
        ordered = sorted(totals.values())
        steps.append({"text": gettext_noop(
            "{name} scores {score}, the lowest colour (totals from low to high: {sorted})."),
            "details": {"seat": seat, "name": names[seat], "score": ordered[0], "sorted": ordered}})
        rows.append({"seat": seat, "score": ordered[0], "sorted": ordered, "totals": totals, "points": raw,
                     "yellow_added": added})
    rows.sort(key=lambda r: [-v for v in r["sorted"]])
    add_ranks(rows, lambda r: [-v for v in r["sorted"]])  # equal on every total, equal rank
    ties = []
    place = 0
    for i, row in enumerate(rows):
        if i == 0 or row["sorted"] != rows[i - 1]["sorted"]:
            place = i + 1
        row["place"] = place
        if i > 0 and row["score"] == rows[i - 1]["score"]:
            ties.append(tie_step(rows[i - 1], row, names))
    steps.extend(ties)
    winners = [r["seat"] for r in rows if r["place"] == 1]
    steps.append({"text": gettext_noop("Ahead when the game was stopped: {names}.") if stopped
                  else gettext_noop("Winner(s): {names}."),
                  "details": {"names": [names[s] for s in winners], "seats": winners}})
    if stopped:
        return {"ranking": rows, "steps": steps, "ties": ties}
    return {"winners": winners, "ranking": rows, "steps": steps, "ties": ties}


def tie_step(a: dict[str, Any], b: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """The tie-break of two players with the same lowest colour, with the totals that decide it (§7, E8)."""
    details = {"a": names[a["seat"]], "b": names[b["seat"]], "score": a["score"],
               "a_sorted": a["sorted"], "b_sorted": b["sorted"]}
    diff = next((k for k, (x, y) in enumerate(zip(a["sorted"], b["sorted"], strict=True)) if x != y), None)
    if diff is None:
        return {"text": gettext_noop(
            "{a} and {b} tie on every total ({a_sorted}) and share the place (§7)."), "details": details}
    details.update({"k": diff + 1, "va": a["sorted"][diff], "vb": b["sorted"][diff]})
    if diff == len(a["sorted"]) - 1:
        text = _TIE_DECIDED_BY["highest"]
    else:
        text = _TIE_DECIDED_BY.get(diff + 1, _TIE_DECIDED_BY["first_differing"])
    return {"text": text, "details": details}


# The tie sentence names the colour that decides by its place from the lowest (never "total 2", which reads like
# a sum): the lowest colours are equal, so the second-lowest decides first, then the third, then the highest.
_TIE_DECIDED_BY: dict[int | str, str] = {
    2: gettext_noop("{a} and {b} both score {score}; compared from low to high ({a}: {a_sorted}; {b}: {b_sorted}), "
                    "their second-lowest colour decides: {a} {va}, {b} {vb} (§7)."),
    3: gettext_noop("{a} and {b} both score {score}; compared from low to high ({a}: {a_sorted}; {b}: {b_sorted}), "
                    "their third-lowest colour decides: {a} {va}, {b} {vb} (§7)."),
    "highest": gettext_noop("{a} and {b} both score {score}; compared from low to high ({a}: {a_sorted}; "
                            "{b}: {b_sorted}), their highest colour decides: {a} {va}, {b} {vb} (§7)."),
    "first_differing": gettext_noop("{a} and {b} both score {score}; compared from low to high ({a}: {a_sorted}; "
                                    "{b}: {b_sorted}), the lowest colour that differs decides: {a} {va}, {b} {vb} (§7)."),
}
