"""Board data for both sides of the Catan Junior board (rules file section 2).

The two sides ship as JSON in ``boards/`` (copied from sections 2.2 and 2.3)
and are validated on load with the structural checks of section 2.1; the
derived check values of section 2.4 are unit tests of this data. A table may
pass its own board as the ``board`` option (same JSON shape); it goes through
the same validator and is refused with ``IllegalAction("bad_edition")``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from games.engines.base import IllegalAction, gettext_noop

#: The five resources, in the fixed order used by every count tuple in state.
RESOURCES: tuple[str, ...] = ("wood", "wool", "molasses", "cutlass", "gold")
#: The special lair site beside the castle (rule CA); touches nothing.
CASTLE = "CASTLE"
BOARD_DIR = Path(__file__).resolve().parent / "boards"
SIDE_FILES = {"2": "side_2.json", "3-4": "side_3_4.json"}


@dataclass(frozen=True)
class Island:
    """One resource island: ``id`` is ``"<resource>-<number>"``, ``x``/``y`` are drawing units (2.1)."""

    id: str
    resource: str
    number: int
    x: float
    y: float


@dataclass(frozen=True, eq=False)
class Board:
    """One validated board side.

    ``sites``/``routes`` are id tuples in file order (state stores owners
    aligned with them); ``site_islands`` maps a site to the islands it pays
    from; ``route_ends`` maps a route to its two sites; ``site_routes`` is the
    reverse; compared and hashed by identity (``eq=False``). ``starts`` maps a start-set name (``"start_kosmos"``) to
    ``{colour: (lairs, ships)}`` with ``lairs[i]`` an endpoint of ``ships[i]``.
    """

    side: str
    islands: tuple[Island, ...]
    sites: tuple[str, ...]
    site_islands: Mapping[str, tuple[str, ...]]
    site_xy: Mapping[str, tuple[float, float]]
    routes: tuple[str, ...]
    route_ends: Mapping[str, tuple[str, str]]
    site_routes: Mapping[str, tuple[str, ...]]
    castle_xy: tuple[float, float]
    starts: Mapping[str, Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]]]

    @property
    def island_ids(self) -> tuple[str, ...]:
        """Island ids in file order."""
        return tuple(island.id for island in self.islands)

    def island(self, island_id: str) -> Island:
        """The island called ``island_id`` (KeyError if unknown)."""
        for island in self.islands:
            if island.id == island_id:
                return island
        raise KeyError(island_id)

    def islands_numbered(self, number: int) -> tuple[Island, ...]:
        """The islands showing die number ``number`` (1-5)."""
        return tuple(island for island in self.islands if island.number == number)

    def island_sites(self, island_id: str) -> tuple[str, ...]:
        """The lair sites touching ``island_id``, in site order."""
        return tuple(site for site in self.sites if island_id in self.site_islands[site])


def _bad(message: str, **details: Any) -> IllegalAction:
    return IllegalAction("bad_edition", message, **details)


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _bad(gettext_noop("Rules 2.1: {what} needs numeric x and y."), what=what)
    return value


def validate_board(data: Any) -> Board:
    """Check one board side (rules file 2.1) and return it as a :class:`Board`.

    Checks: island ids are ``resource-number`` with a known resource and a
    number 1-5, each pair unique; every site touches 1-3 known islands with
    no repeated number or resource; every route joins two distinct known
    sites, no two routes join the same pair; start sets give each colour two
    lairs and two ships with ``lairs[i]`` an endpoint of ``ships[i]`` and no
    piece shared. Raises ``IllegalAction("bad_edition")``.
    """
    if not isinstance(data, Mapping):
        raise _bad(gettext_noop("Rules 2.1: a board is a JSON object."))
    raw_islands = data.get("islands")
    if not isinstance(raw_islands, list) or len(raw_islands) < 2:
        raise _bad(gettext_noop("Rules 2.1: a board needs at least two islands."))
    islands: list[Island] = []
    seen_pairs: set[tuple[str, int]] = set()
    for raw in raw_islands:
        if not isinstance(raw, Mapping):
            raise _bad(gettext_noop("Rules 2.1: an island is a JSON object."))
        resource, number, island_id = raw.get("resource"), raw.get("number"), raw.get("id")
        if resource not in RESOURCES or isinstance(number, bool) or number not in (1, 2, 3, 4, 5):
            raise _bad(gettext_noop("Rules 2.1: island {island} needs a resource and a number 1-5."), island=island_id)
        if island_id != f"{resource}-{number}" or (resource, number) in seen_pairs:
            raise _bad(
                gettext_noop("Rules 2.1: island ids are unique resource-number pairs ({island})."), island=island_id
            )
        seen_pairs.add((resource, number))
        islands.append(
            Island(island_id, resource, number, _number(raw.get("x"), island_id), _number(raw.get("y"), island_id))
        )
    by_id = {island.id: island for island in islands}

    raw_sites = data.get("sites")
    if not isinstance(raw_sites, Mapping) or not raw_sites:
        raise _bad(gettext_noop("Rules 2.1: a board needs lair sites."))
    site_islands: dict[str, tuple[str, ...]] = {}
    site_xy: dict[str, tuple[float, float]] = {}
    for site, raw in raw_sites.items():
        if site == CASTLE or not isinstance(raw, Mapping):
            raise _bad(gettext_noop("Rules 2.1: site {site} is malformed."), site=site)
        touched = raw.get("islands")
        if not isinstance(touched, list) or not 1 <= len(touched) <= 3 or any(i not in by_id for i in touched):
            raise _bad(gettext_noop("Rules 2.1: site {site} must touch 1 to 3 known islands."), site=site)
        if len({by_id[i].number for i in touched}) != len(touched) or len({by_id[i].resource for i in touched}) != len(
            touched
        ):
            raise _bad(
                gettext_noop("Rules 2.1: site {site} touches two islands with the same number or resource."), site=site
            )
        site_islands[site] = tuple(touched)
        site_xy[site] = (_number(raw.get("x"), site), _number(raw.get("y"), site))

    raw_routes = data.get("routes")
    if not isinstance(raw_routes, Mapping) or not raw_routes:
        raise _bad(gettext_noop("Rules 2.1: a board needs routes."))
    route_ends: dict[str, tuple[str, str]] = {}
    pairs: set[frozenset[str]] = set()
    for route, ends in raw_routes.items():
        if (
            not isinstance(ends, list)
            or len(ends) != 2
            or ends[0] == ends[1]
            or any(end not in site_islands for end in ends)
            or frozenset(ends) in pairs
        ):
            raise _bad(gettext_noop("Rules 2.1: route {route} must join two distinct known sites."), route=route)
        pairs.add(frozenset(ends))
        route_ends[route] = (ends[0], ends[1])
    site_routes = {site: tuple(r for r, ends in route_ends.items() if site in ends) for site in site_islands}

    castle = data.get("castle")
    if not isinstance(castle, Mapping):
        raise _bad(gettext_noop("Rules 2.1: a board needs a castle position."))
    if data.get("ghost_captain_start", "castle") != "castle":
        raise _bad(gettext_noop("The Ghost Captain starts on the castle."))

    starts: dict[str, dict[str, tuple[tuple[str, ...], tuple[str, ...]]]] = {}
    for key, raw_set in data.items():
        if not key.startswith("start_"):
            continue
        if not isinstance(raw_set, Mapping) or not raw_set:
            raise _bad(gettext_noop("Start set {name} is malformed."), name=key)
        used_sites: set[str] = set()
        used_routes: set[str] = set()
        colours: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
        for colour, raw in raw_set.items():
            lairs = raw.get("lairs") if isinstance(raw, Mapping) else None
            ships = raw.get("ships") if isinstance(raw, Mapping) else None
            if (
                not isinstance(lairs, list)
                or not isinstance(ships, list)
                or len(lairs) != 2
                or len(ships) != 2
                or any(s not in site_islands or s in used_sites for s in lairs)
                or any(r not in route_ends or r in used_routes for r in ships)
                or len(set(lairs)) != 2
                or len(set(ships)) != 2
                or any(lair not in route_ends[ship] for lair, ship in zip(lairs, ships, strict=True))
            ):
                raise _bad(
                    gettext_noop(
                        "{colour} in {name} needs two free lairs, each at the end of its start ship."
                    ),
                    colour=colour,
                    name=key,
                )
            used_sites.update(lairs)
            used_routes.update(ships)
            colours[colour] = (tuple(lairs), tuple(ships))
        starts[key] = colours
    if not starts:
        raise _bad(gettext_noop("A board needs at least one start set."))

    return Board(
        side=str(data.get("side", "")),
        islands=tuple(islands),
        sites=tuple(site_islands),
        site_islands=site_islands,
        site_xy=site_xy,
        routes=tuple(route_ends),
        route_ends=route_ends,
        site_routes=site_routes,
        castle_xy=(_number(castle.get("x"), "castle"), _number(castle.get("y"), "castle")),
        starts=starts,
    )


@cache
def shipped_board_json(side: str) -> str:
    """The shipped JSON text of ``side`` (``"2"`` or ``"3-4"``)."""
    return (BOARD_DIR / SIDE_FILES[side]).read_text(encoding="utf-8")


@cache
def shipped_board(side: str) -> Board:
    """The shipped, validated board of ``side`` (``"2"`` or ``"3-4"``), rule SU1."""
    return validate_board(json.loads(shipped_board_json(side)))


def side_for(player_count: int) -> str:
    """Rule SU1: 2 players use the 2-player side, 3 or 4 the 3-4 side."""
    return "2" if player_count == 2 else "3-4"
