"""Frozen state of an Amun-Re card game and its JSON form (rules file 2.x).

Gold cards are values 0..8, one of each per player (1.2). Every card of a
player is always in exactly one place: ``hand`` (picked for this Kingdom and
not spent), ``set_aside`` (not picked this Kingdom, 2.3), ``discard`` (spent
this Kingdom) or under a province of the running auction (``slots``). Hands
are kept sorted so equal states compare equal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

GOLD_VALUES: tuple[int, ...] = tuple(range(9))  # 0..8, rules 1.2
COLUMNS = 3  # three provinces side by side, one column each (2.4)
KINGDOMS = 3  # 2.2

# Phases, in the order a Kingdom runs through them (2.2).
BUILD = "build"  # hand building, one seat after the other from the start player (2.3)
AUCTION = "auction"  # one bid at a time (2.4)
SETTLE = "settle"  # winners enter their province card and lay it on a column (2.4, 6.1)
OFFER = "offer"  # every seat offers in secret at once (2.5)
REWARD = "reward"  # reward pyramids are placed (2.5)
INCOME = "income"  # buy pyramids once and place them (2.6)
OVER = "over"  # after the third Kingdom's honour scoring (2.9)
PHASES = (BUILD, AUCTION, SETTLE, OFFER, REWARD, INCOME, OVER)


@dataclass(frozen=True)
class Province:
    """A won province card as its winner entered it (1.4, 6.1).

    ``kingdom``: 1..3 (card back). ``farms``, ``caravans``, ``ankhs``: icons.
    ``spaces``: pyramid spaces; ``printed``: pre-printed pyramids (they fill
    spaces); ``pyramids``: pyramids placed on it during play.
    """

    kingdom: int
    farms: int
    caravans: int
    ankhs: int
    spaces: int
    printed: int = 0
    pyramids: int = 0

    @property
    def free(self) -> int:
        """Empty pyramid spaces left on this card."""
        return self.spaces - self.printed - self.pyramids

    @property
    def pyramid_count(self) -> int:
        """Pyramids on this card that count for scoring."""
        return self.printed + self.pyramids


Column = tuple[Province, ...]  # bottom (Kingdom 1) first, top card last


@dataclass(frozen=True)
class Player:
    """One seat's belongings.

    ``marker``: Revenue track value (gold). ``vp``: honour. ``built``: hand
    built this Kingdom. ``offering``: sealed offering (gold) or ``None`` before
    offering. ``draft``: values entered so far for a province just won (in
    :data:`edition.PROVINCE_FIELDS` order), ``None`` when nothing is being
    entered. ``pending``: pyramids still to place. ``bought``: the once-per-
    Kingdom purchase step is done (2.6). ``displaced``: provinces this seat was
    outbid on in the running auction (for ``rebid_same_province``).
    """

    hand: tuple[int, ...] = ()
    set_aside: tuple[int, ...] = GOLD_VALUES
    discard: tuple[int, ...] = ()
    columns: tuple[Column, ...] = ((), (), ())
    marker: int = 0
    vp: int = 0
    built: bool = False
    offering: int | None = None
    draft: tuple[int, ...] | None = None
    pending: int = 0
    bought: bool = False
    displaced: frozenset[int] = frozenset()

    def top_cards(self) -> tuple[Province, ...]:
        """The top card of each non-empty column."""
        return tuple(col[-1] for col in self.columns if col)

    def kingdom_cards(self, kingdom: int) -> tuple[Province, ...]:
        """The cards won in ``kingdom``."""
        return tuple(card for col in self.columns for card in col if card.kingdom == kingdom)

    def column_pyramids(self) -> tuple[int, ...]:
        """Pyramids per column (all cards of the column, covered or not, 2.7)."""
        return tuple(sum(card.pyramid_count for card in col) for col in self.columns)

    def column_free(self) -> tuple[int, ...]:
        """Empty pyramid spaces per column (2.6: any card of the column with space)."""
        return tuple(sum(card.free for card in col) for col in self.columns)

    def total_pyramids(self) -> int:
        """All pyramids on this seat's provinces (2.9 tie-break)."""
        return sum(self.column_pyramids())


@dataclass(frozen=True)
class ScoreStep:
    """One honour change at a Kingdom's scoring (2.7), kept for the result.

    ``ankh_holder`` (0 points) records who held the Ankh token when the
    Kingdom was scored: ties on ankhs go to the seat nearest them (2.7 step 5).
    """

    kingdom: int
    seat: int
    reason: str  # "weakest_column" | "farms" | "ankh_holder" | "most_ankhs" | "fewest_ankhs"
    points: int
    value: int  # what was counted (pyramids, farms, ankhs)


@dataclass(frozen=True)
class Offerings:
    """The revealed offering of a Kingdom (2.5): amounts, rewards and the temple column."""

    amounts: tuple[int, ...]
    rewards: tuple[int, ...]
    total: int
    column: int


@dataclass(frozen=True)
class State:
    """One moment of a game.

    ``ankh``: seat holding the Ankh token now; ``kingdom_start``: who held it
    when the Kingdom began (2.9 tie-break). ``turn``: seat to bid (auction) or
    to build its hand (build). ``slots``: the running auction, one entry per
    province: ``(owner, card)`` or ``None`` when empty (2.4).
    ``offerings``: set once every seat has offered and the offering is revealed.
    ``ankh_note``: the last automatic Ankh move after an auction (2.4) as
    ``(auction, from_seat, to_seat, visible ankhs per seat)``; ``income``:
    per seat ``(unspent gold, farms, caravans, gold earned)`` once income is
    counted (2.6). Both explain the referee's automatic steps and reset with
    the Kingdom.
    ``returned``: the last bid's displaced card as ``(owner, card, province)``
    (it went back to its owner's hand, 2.4), ``None`` when the last bid
    displaced nothing or no bid is made yet in this auction.
    """

    players: tuple[Player, ...]
    kingdom: int = 1
    auction: int = 1
    phase: str = BUILD
    ankh: int = 0
    kingdom_start: int = 0
    turn: int = 0
    slots: tuple[tuple[int, int] | None, ...] = ()
    offerings: Offerings | None = None
    steps: tuple[ScoreStep, ...] = field(default=())
    returned: tuple[int, int, int] | None = None
    ankh_note: tuple[int, int, int, tuple[int, ...]] | None = None
    income: tuple[tuple[int, int, int, int], ...] | None = None


# -- JSON --------------------------------------------------------------------


def _province_json(card: Province) -> list[int]:
    return [card.kingdom, card.farms, card.caravans, card.ankhs, card.spaces, card.printed, card.pyramids]


def _player_json(p: Player) -> dict[str, Any]:
    return {
        "hand": list(p.hand),
        "set_aside": list(p.set_aside),
        "discard": list(p.discard),
        "columns": [[_province_json(c) for c in col] for col in p.columns],
        "marker": p.marker,
        "vp": p.vp,
        "built": p.built,
        "offering": p.offering,
        "draft": None if p.draft is None else list(p.draft),
        "pending": p.pending,
        "bought": p.bought,
        "displaced": sorted(p.displaced),
    }


def encode_state(s: State) -> dict[str, Any]:
    """The state as a JSON-serialisable dict (snapshot format)."""
    return {
        "players": [_player_json(p) for p in s.players],
        "kingdom": s.kingdom,
        "auction": s.auction,
        "phase": s.phase,
        "ankh": s.ankh,
        "kingdom_start": s.kingdom_start,
        "turn": s.turn,
        "slots": [None if slot is None else list(slot) for slot in s.slots],
        "offerings": None
        if s.offerings is None
        else {
            "amounts": list(s.offerings.amounts),
            "rewards": list(s.offerings.rewards),
            "total": s.offerings.total,
            "column": s.offerings.column,
        },
        "steps": [[st.kingdom, st.seat, st.reason, st.points, st.value] for st in s.steps],
        "returned": None if s.returned is None else list(s.returned),
        "ankh_note": None
        if s.ankh_note is None
        else [s.ankh_note[0], s.ankh_note[1], s.ankh_note[2], list(s.ankh_note[3])],
        "income": None if s.income is None else [list(row) for row in s.income],
    }


def _player_from(d: Mapping[str, Any]) -> Player:
    return Player(
        hand=tuple(d["hand"]),
        set_aside=tuple(d["set_aside"]),
        discard=tuple(d["discard"]),
        columns=tuple(tuple(Province(*c) for c in col) for col in d["columns"]),
        marker=d["marker"],
        vp=d["vp"],
        built=d["built"],
        offering=d["offering"],
        draft=None if d["draft"] is None else tuple(d["draft"]),
        pending=d["pending"],
        bought=d["bought"],
        displaced=frozenset(d["displaced"]),
    )


def decode_state(d: Mapping[str, Any]) -> State:
    """The inverse of :func:`encode_state`."""
    offerings = d["offerings"]
    return State(
        players=tuple(_player_from(p) for p in d["players"]),
        kingdom=d["kingdom"],
        auction=d["auction"],
        phase=d["phase"],
        ankh=d["ankh"],
        kingdom_start=d["kingdom_start"],
        turn=d["turn"],
        slots=tuple(None if slot is None else (slot[0], slot[1]) for slot in d["slots"]),
        offerings=None
        if offerings is None
        else Offerings(
            tuple(offerings["amounts"]), tuple(offerings["rewards"]), offerings["total"], offerings["column"]
        ),
        steps=tuple(ScoreStep(*st) for st in d["steps"]),
        returned=None if d.get("returned") is None else (d["returned"][0], d["returned"][1], d["returned"][2]),
        ankh_note=None
        if d.get("ankh_note") is None
        else (d["ankh_note"][0], d["ankh_note"][1], d["ankh_note"][2], tuple(d["ankh_note"][3])),
        income=None if d.get("income") is None else tuple((r[0], r[1], r[2], r[3]) for r in d["income"]),
    )
