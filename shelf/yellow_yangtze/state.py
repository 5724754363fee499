"""Frozen state of one Yellow & Yangtze playthrough, and its JSON form.

Counts of tiles (bag, box, hands, market, pagoda supply, points) are 5-tuples
in :data:`COLOURS` order. Hexes are axial ``(q, r)`` tuples (§3.3).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Hex = tuple[int, int]
Counts = tuple[int, int, int, int, int]

COLOURS = ("black", "red", "blue", "green", "yellow")
CI = {c: i for i, c in enumerate(COLOURS)}
DYNASTIES = ("lion", "bow", "jar", "bull")
ZERO: Counts = (0, 0, 0, 0, 0)


def add(counts: Counts, colour: str, n: int = 1) -> Counts:
    """``counts`` with ``n`` more (or fewer, if negative) of ``colour``."""
    i = CI[colour]
    return counts[:i] + (counts[i] + n,) + counts[i + 1 :]  # type: ignore[return-value]


def plus(a: Counts, b: Counts, sign: int = 1) -> Counts:
    """Element-wise ``a + sign * b``."""
    return tuple(x + sign * y for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def counts_of(colours: list[str] | tuple[str, ...]) -> Counts:
    """The multiset of a list of colour names as counts."""
    out = ZERO
    for c in colours:
        out = add(out, c)
    return out


def as_dict(counts: Counts) -> dict[str, int]:
    """``{"black": n, ...}`` for the view."""
    return {c: counts[i] for i, c in enumerate(COLOURS)}


@dataclass(frozen=True)
class DrawStep:
    """Pending draws (§6 steps 2-4, §4.7 swap, §1.3 deal), one chance action each.

    ``queue``: ``((seat, target, n), ...)`` where target is ``"hand"``,
    ``"market"`` or ``"swap"`` and ``n`` the tiles wanted; the head is drawn
    next by ``seat``. ``then``: what follows the last draw: ``"play"`` (the
    deal is done), ``"action"`` (the swap action ends) or ``"turn"`` (next
    player's turn).
    """

    queue: tuple[tuple[int, str, int], ...]
    then: str


@dataclass(frozen=True)
class FollowUp:
    """Optional steps after a scored tile placement (§4.2 steps 4-5, §4.3, §4.6).

    ``stage``: ``"market"`` (green: take a market tile), ``"pagoda"`` (build
    on a triangle made by the tile) or ``"chain"`` (place another blue next to
    ``hex``). ``pagoda_declined``: a triangle was offered and refused.
    """

    hex: Hex
    colour: str
    stage: str
    pagoda_declined: bool = False


@dataclass(frozen=True)
class Revolt:
    """A revolt in progress (§5.2): ``stage`` is ``"attacker"`` then ``"defender"``.

    ``attacker_tiles`` is the attacker's committed black tile count (public
    once committed).
    """

    colour: str
    attacker: int
    defender: int
    attacker_hex: Hex
    defender_hex: Hex
    stage: str
    attacker_tiles: int = 0


@dataclass(frozen=True)
class Outcome:
    """A settled conflict (§5.2, §5.3), public: shown until the next conflict and named in the log.

    ``kind``: ``"revolt"`` or ``"war"``. ``sides``: the seats named for each
    side (revolt: attacker, defender; war: the owners of the leaders at
    stake). ``strengths``: each side's final strength. ``winner``: the
    winning side's index; ``tie``: the winner was decided by a tie rule
    (defender, or the unifier's pick). ``leaders``: ``((seat, colour, hex),
    ...)`` sent home; ``tiles``: ``((hex, colour), ...)`` taken off the board;
    ``burned``: committed tiles of the winner burned for attrition;
    ``points``: ``((seat, colour, n), ...)`` scored; ``turn``: when it happened.
    """

    kind: str
    sides: tuple[tuple[int, ...], ...]
    strengths: tuple[int, ...]
    winner: int
    tie: bool = False
    leaders: tuple[tuple[int, str, Hex], ...] = ()
    tiles: tuple[tuple[Hex, str], ...] = ()
    burned: int = 0
    points: tuple[tuple[int, str, int], ...] = ()
    turn: int = 0


@dataclass(frozen=True)
class War:
    """A war in progress (§5.3).

    ``hex``: the unifying tile (carries the unification token). ``sides``:
    the hexes of each warring state before the tile joined them, side index =
    position. ``order``: seats still to commit, the unifier last.
    ``commits``: ``((seat, side, red tiles, used red leader), ...)`` with
    side ``-1`` for an abstention. ``stage``: ``"support"``, ``"winner"``
    (unifier breaks a tie among ``tied``), ``"burn"`` (unifier picks whose
    committed tiles burn, ``burn_left`` more) or ``"attrition"`` (unifier
    removes ``remove_left`` more red tiles of the winning state). ``outcome``:
    the result so far, once the winner is known (attrition adds its tiles).
    """

    unifier: int
    hex: Hex
    sides: tuple[tuple[Hex, ...], ...]
    order: tuple[int, ...]
    commits: tuple[tuple[int, int, int, bool], ...]
    stage: str
    tied: tuple[int, ...] = ()
    winner: int = -1
    burn_left: int = 0
    remove_left: int = 0
    outcome: Outcome | None = None


Pending = DrawStep | FollowUp | Revolt | War


@dataclass(frozen=True)
class State:
    """One moment of a game.

    ``phase``: ``"deal"``, ``"play"`` or ``"over"``. ``bag`` counts every tile
    not yet drawn, including the ``set_aside`` unseen tiles of the short game
    (§1.3 step 3), which are modelled as the last ``set_aside`` tiles of the
    bag: the bag is "empty" when ``sum(bag) == set_aside``. ``box``: discards
    (face down; only the count is public). ``tiles``: ``((hex, colour), ...)``
    sorted. ``leaders``: ``((seat, colour, hex), ...)`` sorted; a leader not
    listed is in its owner's hand. ``pagodas``: ``((colour, triangle), ...)``.
    ``points``: per seat, points by colour (hidden behind the screen).
    ``last_conflict``: the most recently settled revolt or war.
    """

    phase: str
    start: int
    active: int
    actions_left: int
    bag: Counts
    set_aside: int
    box: Counts
    market: Counts
    hands: tuple[Counts, ...]
    points: tuple[Counts, ...]
    tiles: tuple[tuple[Hex, str], ...]
    leaders: tuple[tuple[int, str, Hex], ...]
    pagodas: tuple[tuple[str, tuple[Hex, Hex, Hex]], ...]
    pagoda_supply: Counts
    pending: Pending | None = None
    ended_by: str = ""
    turn: int = 0
    last_conflict: Outcome | None = None

    @property
    def bag_left(self) -> int:
        """Tiles that can still be drawn (§7)."""
        return sum(self.bag) - self.set_aside


# -- JSON ---------------------------------------------------------------------


def _hex(h: Any) -> Hex:
    return (int(h[0]), int(h[1]))


def _counts(c: Any) -> Counts:
    return tuple(int(x) for x in c)  # type: ignore[return-value]


def encode_outcome(o: Outcome | None) -> Any:
    """An :class:`Outcome` as JSON (also the ``outcome`` field of a resolving action's payload)."""
    if o is None:
        return None
    return {"kind": o.kind, "sides": [list(x) for x in o.sides], "strengths": list(o.strengths), "winner": o.winner,
            "tie": o.tie, "leaders": [[st, c, list(h)] for st, c, h in o.leaders],
            "tiles": [[list(h), c] for h, c in o.tiles], "burned": o.burned,
            "points": [list(x) for x in o.points], "turn": o.turn}


def decode_outcome(d: Any) -> Outcome | None:
    """Inverse of :func:`encode_outcome`."""
    if d is None:
        return None
    return Outcome(str(d["kind"]), tuple(tuple(int(x) for x in side) for side in d["sides"]),
                   tuple(int(x) for x in d["strengths"]), int(d["winner"]), bool(d["tie"]),
                   tuple((int(st), str(c), _hex(h)) for st, c, h in d["leaders"]),
                   tuple((_hex(h), str(c)) for h, c in d["tiles"]), int(d["burned"]),
                   tuple((int(st), str(c), int(n)) for st, c, n in d["points"]), int(d["turn"]))


def encode_pending(p: Pending | None) -> Any:
    """The pending step as JSON (``None`` when nothing is pending)."""
    if p is None:
        return None
    if isinstance(p, DrawStep):
        return {"type": "draws", "queue": [list(x) for x in p.queue], "then": p.then}
    if isinstance(p, FollowUp):
        return {"type": "followup", "hex": list(p.hex), "colour": p.colour, "stage": p.stage,
                "pagoda_declined": p.pagoda_declined}
    if isinstance(p, Revolt):
        return {"type": "revolt", "colour": p.colour, "attacker": p.attacker, "defender": p.defender,
                "attacker_hex": list(p.attacker_hex), "defender_hex": list(p.defender_hex), "stage": p.stage,
                "attacker_tiles": p.attacker_tiles}
    return {"type": "war", "unifier": p.unifier, "hex": list(p.hex), "sides": [[list(h) for h in s] for s in p.sides],
            "order": list(p.order), "commits": [list(c) for c in p.commits], "stage": p.stage, "tied": list(p.tied),
            "winner": p.winner, "burn_left": p.burn_left, "remove_left": p.remove_left,
            "outcome": encode_outcome(p.outcome)}


def decode_pending(d: Any) -> Pending | None:
    """Inverse of :func:`encode_pending`."""
    if d is None:
        return None
    t = d["type"]
    if t == "draws":
        return DrawStep(tuple((int(a), str(b), int(c)) for a, b, c in d["queue"]), d["then"])
    if t == "followup":
        return FollowUp(_hex(d["hex"]), d["colour"], d["stage"], bool(d["pagoda_declined"]))
    if t == "revolt":
        return Revolt(d["colour"], d["attacker"], d["defender"], _hex(d["attacker_hex"]), _hex(d["defender_hex"]),
                      d["stage"], d["attacker_tiles"])
    return War(d["unifier"], _hex(d["hex"]), tuple(tuple(_hex(h) for h in s) for s in d["sides"]),
               tuple(d["order"]), tuple((int(a), int(b), int(c), bool(e)) for a, b, c, e in d["commits"]),
               d["stage"], tuple(d["tied"]), d["winner"], d["burn_left"], d["remove_left"],
               decode_outcome(d.get("outcome")))


def encode_state(s: State) -> dict[str, Any]:
    """The snapshot JSON of ``s``; :func:`decode_state` inverts it exactly."""
    return {
        "phase": s.phase, "start": s.start, "active": s.active, "actions_left": s.actions_left,
        "bag": list(s.bag), "set_aside": s.set_aside, "box": list(s.box), "market": list(s.market),
        "hands": [list(h) for h in s.hands], "points": [list(p) for p in s.points],
        "tiles": [[list(h), c] for h, c in s.tiles],
        "leaders": [[seat, c, list(h)] for seat, c, h in s.leaders],
        "pagodas": [[c, [list(h) for h in tri]] for c, tri in s.pagodas],
        "pagoda_supply": list(s.pagoda_supply), "pending": encode_pending(s.pending),
        "ended_by": s.ended_by, "turn": s.turn, "last_conflict": encode_outcome(s.last_conflict),
    }


def decode_state(d: dict[str, Any]) -> State:
    """Rebuild a :class:`State` from :func:`encode_state` output."""
    return State(
        phase=d["phase"], start=d["start"], active=d["active"], actions_left=d["actions_left"],
        bag=_counts(d["bag"]), set_aside=d["set_aside"], box=_counts(d["box"]), market=_counts(d["market"]),
        hands=tuple(_counts(h) for h in d["hands"]), points=tuple(_counts(p) for p in d["points"]),
        tiles=tuple((_hex(h), str(c)) for h, c in d["tiles"]),
        leaders=tuple((int(seat), str(c), _hex(h)) for seat, c, h in d["leaders"]),
        pagodas=tuple((str(c), tuple(_hex(h) for h in tri)) for c, tri in d["pagodas"]),  # type: ignore[misc]
        pagoda_supply=_counts(d["pagoda_supply"]), pending=decode_pending(d["pending"]),
        ended_by=d["ended_by"], turn=d["turn"], last_conflict=decode_outcome(d.get("last_conflict")),
    )
