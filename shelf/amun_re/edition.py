"""Edition profile: the printed tables as data (rules file 1.4-1.6, 6.2).

The offering table (box back), the pyramid price list (player aid) and the
bounds of what a province card may show are not known for certain, so they
are JSON data, not code. :func:`validate_edition` is the one gate every
profile passes through: the engine calls it when a table is created, and the
web layer's calibration screen calls it on what a group typed in.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from games.engines.base import IllegalAction, gettext_noop

DEFAULT_PATH = Path(__file__).with_name("editions") / "default.json"

#: Province fields a winner enters, in entry order, with the edition key of their bounds (1.4).
PROVINCE_FIELDS: tuple[str, ...] = ("farms", "caravans", "ankhs", "pyramid_spaces", "printed_pyramids")

#: Seed anchors (rules file 1.5, 1.6).
ANCHOR_TOTAL = 9  # a total offering of 9 selects column 2
ANCHOR_PYRAMIDS = 5  # five pyramids bought at once ...
ANCHOR_PRICE = 21  # ... cost 21 gold
MAX_BOUND = 20  # a sanity cap on any icon count typed into a profile


@dataclass(frozen=True)
class OfferingColumn:
    """One column of the offering table (1.5): totals ``min_total..max_total`` inclusive.

    ``max_total`` is ``None`` for the open-ended top column; rates are gold per
    farm and per caravan on the current Kingdom's provinces.
    """

    min_total: int
    max_total: int | None
    gold_per_farm: int
    gold_per_caravan: int


@dataclass(frozen=True)
class Edition:
    """A validated edition profile.

    ``columns``: offering table, lowest totals first. ``pyramid_cost[k - 1]``
    is the price of buying ``k`` pyramids in one building step (1.6).
    ``bounds``: ``(field, low, high)`` for each of :data:`PROVINCE_FIELDS` (1.4).
    """

    name: str
    verified: bool
    columns: tuple[OfferingColumn, ...]
    pyramid_cost: tuple[int, ...]
    bounds: tuple[tuple[str, int, int], ...]

    def column_for(self, total: int) -> int:
        """Return the 1-based column index whose range holds ``total`` (1.5)."""
        for index, column in enumerate(self.columns, start=1):
            if total >= column.min_total and (column.max_total is None or total <= column.max_total):
                return index
        raise ValueError(total)  # unreachable for a validated edition: ranges cover 0..infinity

    def bound(self, field: str) -> tuple[int, int]:
        """Return ``(low, high)`` for a province field."""
        for name, low, high in self.bounds:
            if name == field:
                return low, high
        raise KeyError(field)

    @property
    def max_purchase(self) -> int:
        """The largest number of pyramids the price list prices (1.6)."""
        return len(self.pyramid_cost)

    def cost(self, count: int) -> int:
        """Gold for buying ``count`` pyramids at once; 0 for none."""
        return 0 if count == 0 else self.pyramid_cost[count - 1]


def _bad(message: str, **details: Any) -> IllegalAction:
    return IllegalAction("bad_edition", message, **details)


def _int(value: Any, where: str, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise _bad(
            gettext_noop("Edition: {where} must be a whole number of at least {low} (rules 1.5-1.6)."),
            where=where,
            low=low,
        )
    return value


def validate_edition(data: Any) -> Edition:
    """Check an edition profile dict and return it as an :class:`Edition`.

    Shape (JSON)::

        {"name": str (non-empty), "verified": bool, "note": str (optional),
         "offering_table": [{"min_total": int, "max_total": int | null,
                             "gold_per_farm": int, "gold_per_caravan": int}, ...],
         "pyramid_cost": {"1": int, "2": int, ..., "N": int},
         "province_bounds": {"farms": [lo, hi], "caravans": [lo, hi], "ankhs": [lo, hi],
                             "pyramid_spaces": [lo, hi], "printed_pyramids": [lo, hi] (optional, default [0, 0])}}

    Hard constraints (each raises ``IllegalAction("bad_edition", ...)`` with a
    ``where`` detail naming the offending key):

    * rules 1.5: at least 3 columns; ranges contiguous, the first starts at 0,
      no overlap (each ``min_total`` is the previous ``max_total`` + 1), only
      the last column is open-ended (``max_total`` null) and it must be;
      rates are whole numbers >= 0; seed anchors: a total of 9 falls in
      column 2, column 2 pays 2 gold per farm, column 3 pays 3 gold per farm.
    * rules 1.6: prices for 1..N pyramids with keys exactly "1".."N", N >= 5,
      each price >= 1, strictly increasing, and 5 pyramids cost 21.
    * rules 1.4: each bound a pair of whole numbers 0 <= lo <= hi <= 20;
      pyramid spaces allow at least 1; printed pyramids never exceed spaces.

    Soft checks (monotone rates, the suspicious "caravan x 10" of column 2)
    are returned by :func:`edition_warnings`, never raised.
    """
    if not isinstance(data, Mapping):
        raise _bad(gettext_noop("Edition: the profile must be a JSON object (rules 6.2)."), where="edition")
    allowed = {"name", "verified", "note", "offering_table", "pyramid_cost", "province_bounds"}
    unknown = sorted(str(k) for k in data if k not in allowed)
    if unknown:
        raise _bad(gettext_noop("Edition: unknown key {where} (rules 6.2)."), where=unknown[0])
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise _bad(gettext_noop("Edition: {where} must be a non-empty text (rules 6.2)."), where="name")
    verified = data.get("verified")
    if not isinstance(verified, bool):
        raise _bad(gettext_noop("Edition: {where} must be true or false (rules 6.2)."), where="verified")
    if "note" in data and not isinstance(data["note"], str):
        raise _bad(gettext_noop("Edition: {where} must be a text (rules 6.2)."), where="note")
    columns = _columns(data.get("offering_table"))
    costs = _costs(data.get("pyramid_cost"))
    bounds = _bounds(data.get("province_bounds"))
    return Edition(name=name, verified=verified, columns=columns, pyramid_cost=costs, bounds=bounds)


def _columns(raw: Any) -> tuple[OfferingColumn, ...]:
    if not isinstance(raw, list) or len(raw) < 3:
        raise _bad(gettext_noop("Edition: {where} must list at least 3 columns (rules 1.5)."), where="offering_table")
    columns = []
    expected_min = 0
    for index, item in enumerate(raw, start=1):
        where = f"offering_table[{index}]"
        if not isinstance(item, Mapping) or set(item) - {
            "index",
            "min_total",
            "max_total",
            "gold_per_farm",
            "gold_per_caravan",
        }:
            raise _bad(
                gettext_noop(
                    "Edition: {where} must be an object with min_total, max_total, gold_per_farm, gold_per_caravan (rules 1.5)."
                ),
                where=where,
            )
        if "index" in item and item["index"] != index:
            raise _bad(
                gettext_noop("Edition: {where} has the wrong index; columns are listed in order (rules 1.5)."),
                where=where,
            )
        low = _int(item.get("min_total"), where + ".min_total")
        if low != expected_min:
            raise _bad(
                gettext_noop(
                    "Edition: {where} must start at {expected}: ranges start at 0 and are contiguous without overlap (rules 1.5)."
                ),
                where=where + ".min_total",
                expected=expected_min,
            )
        high_raw = item.get("max_total")
        last = index == len(raw)
        if high_raw is None:
            if not last:
                raise _bad(
                    gettext_noop("Edition: only the last column may be open-ended ({where}) (rules 1.5)."),
                    where=where + ".max_total",
                )
            high = None
        else:
            if last:
                raise _bad(
                    gettext_noop(
                        "Edition: the last column must be open-ended (max_total null) so every total has a column ({where}) (rules 1.5)."
                    ),
                    where=where + ".max_total",
                )
            high = _int(high_raw, where + ".max_total")
            if high < low:
                raise _bad(
                    gettext_noop("Edition: {where} ends before it starts (rules 1.5)."), where=where + ".max_total"
                )
            expected_min = high + 1
        farm = _int(item.get("gold_per_farm"), where + ".gold_per_farm")
        caravan = _int(item.get("gold_per_caravan"), where + ".gold_per_caravan")
        columns.append(OfferingColumn(low, high, farm, caravan))
    second = columns[1]
    if not (second.min_total <= ANCHOR_TOTAL and (second.max_total is None or ANCHOR_TOTAL <= second.max_total)):
        raise _bad(
            gettext_noop("Edition: a total offering of 9 must fall in column 2 ({where}) (rules 1.5, seed anchor)."),
            where="offering_table[2]",
        )
    if second.gold_per_farm != 2:
        raise _bad(
            gettext_noop("Edition: column 2 pays 2 gold per farm ({where}) (rules 1.5, seed anchor)."),
            where="offering_table[2].gold_per_farm",
        )
    if columns[2].gold_per_farm != 3:
        raise _bad(
            gettext_noop("Edition: column 3 pays 3 gold per farm ({where}) (rules 1.5, seed anchor)."),
            where="offering_table[3].gold_per_farm",
        )
    return tuple(columns)


def _costs(raw: Any) -> tuple[int, ...]:
    if not isinstance(raw, Mapping) or not raw:
        raise _bad(
            gettext_noop("Edition: {where} must map pyramid counts to prices (rules 1.6)."), where="pyramid_cost"
        )
    n = len(raw)
    if {str(k) for k in raw} != {str(k) for k in range(1, n + 1)} or any(isinstance(k, bool) for k in raw):
        raise _bad(gettext_noop("Edition: {where} keys must be exactly 1..N (rules 1.6)."), where="pyramid_cost")
    if n < ANCHOR_PYRAMIDS:
        raise _bad(
            gettext_noop("Edition: {where} must price at least 1..5 pyramids (rules 1.6)."), where="pyramid_cost"
        )
    by_key = {str(k): v for k, v in raw.items()}
    costs = []
    for k in range(1, n + 1):
        price = _int(by_key[str(k)], f"pyramid_cost[{k}]", low=1)
        if costs and price <= costs[-1]:
            raise _bad(
                gettext_noop("Edition: prices must rise strictly with the number of pyramids ({where}) (rules 1.6)."),
                where=f"pyramid_cost[{k}]",
            )
        costs.append(price)
    if costs[ANCHOR_PYRAMIDS - 1] != ANCHOR_PRICE:
        raise _bad(
            gettext_noop("Edition: 5 pyramids cost 21 gold ({where}) (rules 1.6, seed anchor)."),
            where="pyramid_cost[5]",
        )
    return tuple(costs)


def _bounds(raw: Any) -> tuple[tuple[str, int, int], ...]:
    if not isinstance(raw, Mapping):
        raise _bad(gettext_noop("Edition: {where} must be an object (rules 1.4)."), where="province_bounds")
    unknown = sorted(str(k) for k in raw if k not in PROVINCE_FIELDS)
    if unknown:
        raise _bad(
            gettext_noop("Edition: unknown province field {where} (rules 1.4)."), where=f"province_bounds.{unknown[0]}"
        )
    bounds = []
    for field in PROVINCE_FIELDS:
        where = f"province_bounds.{field}"
        pair = raw.get(field, [0, 0] if field == "printed_pyramids" else None)
        if not isinstance(pair, list) or len(pair) != 2:
            raise _bad(gettext_noop("Edition: {where} must be a pair [low, high] (rules 1.4)."), where=where)
        low = _int(pair[0], where)
        high = _int(pair[1], where)
        if low > high or high > MAX_BOUND:
            raise _bad(gettext_noop("Edition: {where} needs 0 <= low <= high <= 20 (rules 1.4)."), where=where)
        bounds.append((field, low, high))
    spaces = bounds[3]
    printed = bounds[4]
    if spaces[2] < 1:
        raise _bad(
            gettext_noop("Edition: {where} must allow at least one space (rules 1.4)."),
            where="province_bounds.pyramid_spaces",
        )
    if printed[1] > spaces[2] or printed[2] > spaces[2]:
        raise _bad(
            gettext_noop("Edition: printed pyramids cannot exceed pyramid spaces ({where}) (rules 1.4)."),
            where="province_bounds.printed_pyramids",
        )
    return tuple(bounds)


def edition_warnings(edition: Edition) -> list[dict[str, Any]]:
    """Soft checks of a valid edition for the calibration screen (rules 1.5, 1.6, 6.2).

    Returns ``[{"code", "message", "details"}]`` (empty when nothing looks
    odd): farm rates should not fall and caravan rates should not rise from
    left to right; marginal pyramid prices should not fall; column 2's
    caravan rate of 10 (the seed's literal "x 10") needs explicit
    confirmation; three cards at the farm bound must reach the 9-farm bonus;
    and an unverified profile says so.
    """
    out: list[dict[str, Any]] = []

    def warn(code: str, message: str, **details: Any) -> None:
        out.append({"code": code, "message": message, "details": details})

    cols = edition.columns
    for i in range(1, len(cols)):
        if cols[i].gold_per_farm < cols[i - 1].gold_per_farm:
            warn("farm_rate_falls", gettext_noop("Farm rate falls from column {a} to {b} (rules 1.5)."), a=i, b=i + 1)
        if cols[i].gold_per_caravan > cols[i - 1].gold_per_caravan:
            warn(
                "caravan_rate_rises",
                gettext_noop("Caravan rate rises from column {a} to {b} (rules 1.5)."),
                a=i,
                b=i + 1,
            )
    if cols[1].gold_per_caravan == 10:
        warn(
            "caravan_times_ten",
            gettext_noop(
                "Column 2 pays 10 per caravan, as the seed literally says; confirm it against the box (rules 1.5)."
            ),
        )
    costs = edition.pyramid_cost
    for k in range(2, len(costs)):
        if costs[k] - costs[k - 1] < costs[k - 1] - costs[k - 2]:
            warn(
                "marginal_price_falls",
                gettext_noop("The price of pyramid {k} is lower than that of the one before (rules 1.6)."),
                k=k + 1,
            )
    if edition.bound("farms")[1] * 3 < 9:
        warn(
            "farm_bonus_unreachable",
            gettext_noop("With these bounds three provinces can never show 9 farms (rules 1.4, 2.7)."),
        )
    if not edition.verified:
        warn("unverified", gettext_noop("This profile is not verified against a physical copy (rules 6.2)."))
    return out


@cache
def _default_raw() -> str:
    return DEFAULT_PATH.read_text(encoding="utf-8")


def default_edition_data() -> dict[str, Any]:
    """A fresh copy of the shipped default profile (``editions/default.json``)."""
    return json.loads(_default_raw())


def load_edition(data: Mapping[str, Any] | None) -> Edition:
    """Validate ``data``, or the shipped default when ``data`` is ``None``."""
    return validate_edition(default_edition_data() if data is None else data)
