"""Amun-Re: The Card Game (Knizia, 2017) as a referee engine.

Rules: shared/rules/amun_re.md (section numbers cited throughout). Three
Kingdoms of hand building, three auctions, a secret offering, income and
pyramid building, and honour scoring. Province cards are unknown to the
server (6.1): each winner enters what the won card shows, one number at a
time, so nothing in this game is drawn by the server and there is no chance
step in either component mode. Seat 0 is the oldest player and holds the Ankh
token in Kingdom 1 (2.1 step 5).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from typing import Any, ClassVar

from games.engines.base import COMPONENTS, Game, IllegalAction, LogLine, OptionSpec, Prompt, gettext_noop
from games.engines.ranking import add_ranks, neighbour_ties
from shelf.amun_re import actions as A
from shelf.amun_re.edition import Edition, edition_warnings, load_edition, validate_edition
from shelf.amun_re.rules.auction import (
    apply_bid,
    apply_place_province,
    apply_reveal,
    awaiting_column,
    field_range,
    free_columns,
    legal_bids,
    next_field,
    unusual_values,
)
from shelf.amun_re.rules.config import Config
from shelf.amun_re.rules.hand import apply_build, budget, hand_choices
from shelf.amun_re.rules.income import apply_buy, apply_place_pyramids, distributions, legal_buys
from shelf.amun_re.rules.offering import apply_offer, subset_sums
from shelf.amun_re.rules.scoring import final_order
from shelf.amun_re.rules.ties import seat_distance
from shelf.amun_re.state import (
    AUCTION,
    BUILD,
    INCOME,
    OFFER,
    OVER,
    REWARD,
    SETTLE,
    Player,
    State,
    decode_state,
    encode_state,
)
from shelf.amun_re.visibility import build_view

__all__ = ["AmunReGame", "validate_edition", "edition_warnings"]

_BOOL_OPTIONS = ("rebid_same_province", "ankh_after_each_auction", "allow_negative_vp")

_STEP_TEXT = {
    "weakest_column": gettext_noop(
        "Kingdom {kingdom}: {player} scores {points} for the weakest column ({value} pyramids)."
    ),
    "weakest_column_one": gettext_noop(
        "Kingdom {kingdom}: {player} scores {points} for the weakest column (1 pyramid)."
    ),
    "farms": gettext_noop("Kingdom {kingdom}: {player} scores {points} for {value} farms."),
    "ankh_holder": gettext_noop(
        "Kingdom {kingdom}: {player} holds the Ankh token, so ties on ankhs go to the seat nearest them (rules 2.7)."
    ),
    "most_ankhs": gettext_noop("Kingdom {kingdom}: {player} scores {points} for the most ankhs ({value})."),
    "fewest_ankhs": gettext_noop("Kingdom {kingdom}: {player} scores {points} for the fewest ankhs ({value})."),
}


# Button and log texts per province field, singular (value 1) then plural: "Enter 1 farm", "Enter 3 farms".
_REVEAL_LABEL = {
    "farms": (gettext_noop("Enter {value} farm"), gettext_noop("Enter {value} farms")),
    "caravans": (gettext_noop("Enter {value} caravan"), gettext_noop("Enter {value} caravans")),
    "ankhs": (gettext_noop("Enter {value} ankh"), gettext_noop("Enter {value} ankhs")),
    "pyramid_spaces": (gettext_noop("Enter {value} pyramid space"), gettext_noop("Enter {value} pyramid spaces")),
    "printed_pyramids": (
        gettext_noop("Enter {value} printed pyramid"),
        gettext_noop("Enter {value} printed pyramids"),
    ),
}

# A value outside the profile's bounds is entered on a second, explicit button (rules 1.4: warn, never refuse).
_CONFIRM_LABEL = {
    "farms": (
        gettext_noop("Yes, the card really shows {value} farm"),
        gettext_noop("Yes, the card really shows {value} farms"),
    ),
    "caravans": (
        gettext_noop("Yes, the card really shows {value} caravan"),
        gettext_noop("Yes, the card really shows {value} caravans"),
    ),
    "ankhs": (
        gettext_noop("Yes, the card really shows {value} ankh"),
        gettext_noop("Yes, the card really shows {value} ankhs"),
    ),
    "pyramid_spaces": (
        gettext_noop("Yes, the card really shows {value} pyramid space"),
        gettext_noop("Yes, the card really shows {value} pyramid spaces"),
    ),
    "printed_pyramids": (
        gettext_noop("Yes, the card really shows {value} printed pyramid"),
        gettext_noop("Yes, the card really shows {value} printed pyramids"),
    ),
}


_REVEAL_LOG = {
    "farms": (
        gettext_noop("{player}'s new province shows {value} farm."),
        gettext_noop("{player}'s new province shows {value} farms."),
    ),
    "caravans": (
        gettext_noop("{player}'s new province shows {value} caravan."),
        gettext_noop("{player}'s new province shows {value} caravans."),
    ),
    "ankhs": (
        gettext_noop("{player}'s new province shows {value} ankh."),
        gettext_noop("{player}'s new province shows {value} ankhs."),
    ),
    "pyramid_spaces": (
        gettext_noop("{player}'s new province has {value} pyramid space."),
        gettext_noop("{player}'s new province has {value} pyramid spaces."),
    ),
    "printed_pyramids": (
        gettext_noop("{player}'s new province has {value} printed pyramid."),
        gettext_noop("{player}'s new province has {value} printed pyramids."),
    ),
}


_WRONG_STEP = {
    "build_hand": gettext_noop("Rule 2.2: that move is not possible now: the Kingdom starts with hand building."),
    "auction": gettext_noop(
        "Rule 2.2: that move is not possible now: an auction is running (the offering comes after the three auctions)."
    ),
    "province": gettext_noop(
        "Rule 2.2: that move is not possible now: the auction's winners are entering their provinces."
    ),
    "offering": gettext_noop("Rule 2.2: that move is not possible now: everyone is choosing a secret offering."),
    "reward_pyramids": gettext_noop("Rule 2.2: that move is not possible now: reward pyramids are being placed."),
    "building": gettext_noop("Rule 2.2: that move is not possible now: players are buying and placing pyramids."),
}


def _count(forms: tuple[str, str], value: int) -> str:
    """The singular text for 1, else the plural one."""
    return forms[0] if value == 1 else forms[1]


class AmunReGame(Game):
    """The Amun-Re card game engine (2-5 players).

    State: :class:`shelf.amun_re.state.State`. Action payloads: see
    :mod:`shelf.amun_re.actions`. Prompt steps: ``build_hand``,
    ``auction``, ``province`` (winners enter their cards), ``offering``
    (every seat at once, secret), ``reward_pyramids``, ``building``, ``over``.
    """

    slug: ClassVar[str] = "amun_re"
    #: 2.4/6.1 a province card entered by its winner, 2.5 the sealed offering (the last one reveals them all):
    #: the table has seen these, so their player may not take them back.
    reveal_kinds: ClassVar[tuple[str, ...]] = ("reveal", "offer")
    title: ClassVar[str] = "Amun-Re: The Card Game"
    # Who starts: rules 2.1 step 5, the oldest player takes the Ankh token.
    start_rule: ClassVar[str] = "oldest"
    start_alternatives: ClassVar[tuple[str, ...]] = ()
    start_source: ClassVar[str] = gettext_noop("The oldest player takes the Ankh token and starts Kingdom 1; the turn passes clockwise.")  # Rules 2.1 step 5
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 5
    colours: ClassVar[tuple[str, ...]] = ("red", "blue", "yellow", "green", "purple")
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        COMPONENTS,
        OptionSpec(
            "hand_sum_mode",
            "exact",
            ("exact", "at_most"),
            gettext_noop(
                "Rules 2.3 [S!]: the kept gold cards add up exactly to the budget (three sources) or at most to it (the seed)."
            ),
        ),
        OptionSpec(
            "budget_over_36",
            "take_all_lose_rest",
            ("take_all_lose_rest", "take_all_keep_rest"),
            gettext_noop(
                "Rules 2.3 [U]: a budget above 36 takes all nine cards; the surplus is lost (default) or stays on the Revenue track. Verify this rule."
            ),
        ),
        OptionSpec(
            "rebid_same_province",
            True,
            (True, False),
            gettext_noop("Rules 2.4 [U]: an outbid player may bid again on the same province in that auction."),
        ),
        OptionSpec(
            "ankh_after_each_auction",
            True,
            (True, False),
            gettext_noop(
                "Rules 2.4 [S!]: the Ankh token goes to the player with the most visible ankhs after each auction (else only at Kingdom scoring)."
            ),
        ),
        OptionSpec(
            "visible_ankhs_mid_kingdom",
            "top_cards",
            ("top_cards", "current_kingdom"),
            gettext_noop(
                "Rules 2.4 [D]: mid-Kingdom ankhs are counted on the top card of each column, or on this Kingdom's cards only."
            ),
        ),
        OptionSpec(
            "allow_negative_vp",
            True,
            (True, False),
            gettext_noop("Rules 1.7 [U]: honour totals may go below 0 (else the fewest-ankhs penalty stops at 0)."),
        ),
        OptionSpec(
            "pyramid_supply",
            76,
            (76, 82),
            gettext_noop(
                "Rules 1.6, 6.3 [S!]: pyramid tokens in the box (76 or 82); reaching it only warns, never blocks."
            ),
        ),
        OptionSpec(
            "edition",
            None,
            (),
            gettext_noop(
                "Rules 1.4-1.6, 6.2: edition profile (offering table, pyramid prices, province bounds) as a JSON object; absent = the shipped unverified default."
            ),
        ),
    )

    def validate_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Defaults filled; booleans must be JSON booleans; ``edition`` passes :func:`validate_edition`."""
        result = super().validate_options(options)
        for name in _BOOL_OPTIONS:
            if not isinstance(result[name], bool):
                raise IllegalAction("bad_option", gettext_noop("Option {name} must be true or false."), name=name)
        if isinstance(result["pyramid_supply"], bool):
            raise IllegalAction("bad_option", gettext_noop("Option {name} must be a number."), name="pyramid_supply")
        self.edition: Edition = load_edition(result["edition"])
        self.cfg = Config(
            n=len(self.seats),
            edition=self.edition,
            hand_sum_mode=result["hand_sum_mode"],
            budget_over_36=result["budget_over_36"],
            rebid_same_province=result["rebid_same_province"],
            ankh_after_each_auction=result["ankh_after_each_auction"],
            visible_ankhs_mid_kingdom=result["visible_ankhs_mid_kingdom"],
            allow_negative_vp=result["allow_negative_vp"],
            pyramid_supply=result["pyramid_supply"],
        )
        return result

    # -- the contract --------------------------------------------------------

    def setup(self, rng: random.Random) -> State:
        """All markers at 0, every card available, seat 0 (the oldest) holds the Ankh (2.1). ``rng`` is unused."""
        return State(players=tuple(Player() for _ in self.seats))

    def with_start(self, state: State, seat: int) -> State:
        """Rules 2.1 step 5: ``seat`` holds the Ankh for Kingdom 1 and builds its hand first (2.3)."""
        seat = self.check_start_seat(seat)
        return dataclasses.replace(state, ankh=seat, kingdom_start=seat, turn=seat)

    def _name(self, seat: int) -> str:
        return self.seats[seat].name

    def prompt(self, state: State) -> Prompt:
        """Who acts now: one builder, one bidder, or every seat of a simultaneous step."""
        players = state.players
        k = state.kingdom
        if state.phase == OVER:
            return Prompt((), (), gettext_noop("The game is over."), step="over")
        if state.phase == BUILD:
            return Prompt(
                (state.turn,),
                ("build_hand",),
                gettext_noop("Kingdom {kingdom}: {player} keeps gold cards worth {budget}, the 0 card included."),
                step="build_hand",
                details={"kingdom": k, "player": self._name(state.turn), "budget": budget(state, state.turn)},
            )
        if state.phase == AUCTION:
            return Prompt(
                (state.turn,),
                ("bid",),
                gettext_noop("Kingdom {kingdom}, auction {auction}: {player} puts a gold card under a province."),
                step="auction",
                details={"kingdom": k, "auction": state.auction, "player": self._name(state.turn)},
            )
        if state.phase == SETTLE:
            seats = tuple(i for i, p in enumerate(players) if p.draft is not None)
            return Prompt(
                seats,
                ("reveal", "place_province"),
                gettext_noop("Winners: enter what your new province shows and lay it on a column."),
                step="province",
                details={"kingdom": k, "auction": state.auction},
            )
        if state.phase == OFFER:
            seats = tuple(i for i, p in enumerate(players) if p.offering is None)
            return Prompt(
                seats,
                ("offer",),
                gettext_noop("Kingdom {kingdom}: everyone chooses a secret offering to Amun."),
                step="offering",
                details={"kingdom": k},
            )
        if state.phase == REWARD:
            seats = tuple(i for i, p in enumerate(players) if p.pending > 0)
            return Prompt(
                seats,
                ("place_pyramids",),
                _count(
                    (
                        gettext_noop("Kingdom {kingdom}: {last} places their reward pyramids on empty spaces."),
                        gettext_noop(
                            "Kingdom {kingdom}: {others} and {last} place their reward pyramids on empty spaces."
                        ),
                    ),
                    len(seats),
                ),
                step="reward_pyramids",
                details={"kingdom": k, **self._names(list(seats))} if seats else {"kingdom": k},
            )
        assert state.phase == INCOME
        seats = tuple(i for i, p in enumerate(players) if not p.bought or p.pending > 0)
        return Prompt(
            seats,
            ("buy", "place_pyramids"),
            gettext_noop("Kingdom {kingdom}: buy pyramids once (or none) and place them."),
            step="building",
            details={"kingdom": k},
        )

    def _legal(self, state: State, seat: int) -> list[A.Action]:
        cfg = self.cfg
        if state.phase == OVER or seat not in self.prompt(state).seats:
            return []
        p = state.players[seat]
        if state.phase == BUILD:
            return [A.BuildHand(h) for h in hand_choices(budget(state, seat), cfg.hand_sum_mode)]
        if state.phase == AUCTION:
            return list(legal_bids(cfg, state, seat))
        if state.phase == SETTLE:
            field = next_field(cfg, state, seat)
            if field is not None:
                usual = [A.Reveal(field, v) for v in field_range(cfg, state, seat, field)]
                return usual + [A.Reveal(field, v, True) for v in unusual_values(cfg, state, seat, field)]
            if awaiting_column(cfg, state, seat):
                return [A.PlaceProvince(c) for c in free_columns(state, seat)]
            return []
        if state.phase == OFFER:
            return [A.Offer(g) for g in subset_sums(p.hand)]
        if p.pending > 0:
            return [A.PlacePyramids(d) for d in distributions(p.column_free(), p.pending)]
        if state.phase == INCOME and not p.bought:
            return [A.Buy(c) for c in legal_buys(cfg, p)]
        return []

    def _ensure_step(self, state: State, seat: int, kind: str) -> None:
        """Refuse a move of another step with what happens now, and a second offering as such (2.2, 2.5)."""
        if state.phase == OVER:
            return
        prompt = self.prompt(state)
        if kind not in prompt.kinds:
            raise IllegalAction("wrong_step", _WRONG_STEP[prompt.step], kind=kind, kinds=list(prompt.kinds))
        if kind == "offer" and state.players[seat].offering is not None:
            raise IllegalAction(
                "already_offered", gettext_noop("Rule 2.5: you already offered; waiting for the others.")
            )

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """Every legal payload of ``seat`` now (no chance steps in this game)."""
        return [A.to_payload(a) for a in self._legal(state, seat)]

    def apply(self, state: State, seat: int, action: Mapping[str, Any]) -> State:
        """Return the state after ``seat`` plays ``action``; raises :class:`IllegalAction`."""
        parsed = A.parse_action(action)
        kind = action["kind"]
        if not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise IllegalAction("no_such_seat", gettext_noop("There is no seat {seat}."), seat=seat)
        self._ensure_step(state, seat, kind)
        self.ensure_turn(state, seat, kind)
        cfg = self.cfg
        if isinstance(parsed, A.BuildHand):
            return apply_build(cfg, state, seat, parsed.cards)
        if isinstance(parsed, A.Bid):
            return apply_bid(cfg, state, seat, parsed)
        if isinstance(parsed, A.Reveal):
            return apply_reveal(cfg, state, seat, parsed.field, parsed.value, parsed.confirm)
        if isinstance(parsed, A.PlaceProvince):
            return apply_place_province(cfg, state, seat, parsed.column)
        if isinstance(parsed, A.Offer):
            return apply_offer(cfg, state, seat, parsed.gold)
        if isinstance(parsed, A.PlacePyramids):
            return apply_place_pyramids(cfg, state, seat, parsed.columns)
        if state.players[seat].pending > 0:
            raise IllegalAction("place_first", gettext_noop("Rule 2.6: place the pyramids you bought first."))
        return apply_buy(cfg, state, seat, parsed.count)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Public table plus, for a seat, its own hand, set-aside cards and sealed offering under ``private``."""
        return build_view(self.cfg, state, seat, holder=self)

    def result(self, state: State) -> dict[str, Any] | None:
        """``None`` until the third Kingdom is scored; then ranking by honour, pyramids, seat order (2.9)."""
        if state.phase != OVER:
            return None
        order = final_order(state)
        ranking = [
            {"seat": s, "place": place, "score": state.players[s].vp, "pyramids": state.players[s].total_pyramids()}
            for place, s in enumerate(order, start=1)
        ]
        steps = self._scoring_steps(state)
        steps.extend(self._final_ties(state, order))
        ties = self._rank_ties(state, ranking)
        return {"winners": [order[0]], "ranking": ranking, "steps": steps, "ties": ties}

    def standing(self, state: State) -> dict[str, Any] | None:
        """Honour as the Kingdoms scored so far gave it (rules 2.7), then pyramids (2.9), for a game the host ended.

        The last tie-break of 2.9 (the seat nearest the start player of Kingdom 3) belongs to the end of the
        game: players level on honour and pyramids share a rank here. Counts only what every phone sees.
        """
        players = state.players
        ranking = [{"seat": s, "score": players[s].vp, "pyramids": players[s].total_pyramids()}
                   for s in range(len(self.seats))]
        ranking.sort(key=lambda r: (-r["score"], -r["pyramids"], r["seat"]))
        add_ranks(ranking, lambda r: (-r["score"], -r["pyramids"]))
        for row in ranking:
            row["place"] = row["rank"]
        ties = neighbour_ties(
            ranking, [seat.name for seat in self.seats], lambda r: r["score"],
            [(gettext_noop("{a} and {b} both scored {score} honour; {a} ranks higher on pyramids ({va} to {vb}; "
                           "rules 2.9)."), lambda r: r["pyramids"])],
            gettext_noop("{a} and {b} both scored {score} honour and share rank {rank}."))
        opening = {"text": gettext_noop("The host ended the game in Kingdom {kingdom}: honour counts as the Kingdoms "
                                        "scored so far gave it, then pyramids (rules 2.7, 2.9)."),
                   "details": {"kingdom": state.kingdom}}
        return {"ranking": ranking, "steps": [opening, *self._scoring_steps(state), *ties], "ties": ties}

    def score_track(self, state: State) -> dict[str, Any] | None:
        """Honour as the Kingdoms scored so far gave it (rules 2.7): a step per Kingdom. Public."""
        return {"label": gettext_noop("honour"), "scores": [p.vp for p in state.players]}

    def _scoring_steps(self, state: State) -> list[dict[str, Any]]:
        """The honour scoring of every Kingdom scored so far, one step per award (rules 2.7)."""
        steps = []
        for st in state.steps:
            if st.reason == "ankh_holder" and not self._ankh_tie(state, st.kingdom):
                continue  # the holder only matters when ankhs tie (2.7 step 5)
            steps.append(
                {
                    "text": _STEP_TEXT["weakest_column_one"]
                    if st.reason == "weakest_column" and st.value == 1
                    else _STEP_TEXT[st.reason],
                    "details": {
                        "kingdom": st.kingdom,
                        "seat": st.seat,
                        "player": self._name(st.seat),
                        "points": st.points,
                        "value": st.value,
                    },
                }
            )
        return steps

    def _rank_ties(self, state: State, ranking: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Set ``rank`` on every row and name the tie-break between neighbours level on honour (2.9, 2.10).

        The full key is honour, then pyramids, then the seat distance from the
        start player of the last Kingdom; distances differ for every seat, so
        two players never share a rank in this game.
        """
        n = len(self.seats)
        start = state.kingdom_start
        add_ranks(ranking, lambda r: (-r["score"], -r["pyramids"], seat_distance(r["seat"], start, n)))
        return neighbour_ties(
            ranking, [seat.name for seat in self.seats], lambda r: r["score"],
            [(gettext_noop("{a} and {b} both scored {score} honour; {a} ranks higher on pyramids ({va} to {vb}; "
                           "rules 2.9)."), lambda r: r["pyramids"]),
             (gettext_noop("{a} and {b} both scored {score} honour and have as many pyramids; {a} sits nearer "
                           "{start}, who started Kingdom 3 (rules 2.9, 2.10)."),
              lambda r: seat_distance(r["seat"], start, n))],
            gettext_noop("{a} and {b} both scored {score} honour and share rank {rank}."),
            extra={"start": self._name(start)})

    def _names(self, seats: list[int]) -> dict[str, Any]:
        """``{"others": [...], "last": name}`` so "{others} and {last}" reads "Ann, Ben and Cal"."""
        names = [self._name(s) for s in seats]
        return {"others": names[:-1], "last": names[-1]}

    def _ankh_tie(self, state: State, kingdom: int) -> bool:
        """True when the most or the fewest ankhs of ``kingdom`` were shared (so the holder decided)."""
        ankhs = [sum(c.ankhs for c in p.kingdom_cards(kingdom)) for p in state.players]
        return ankhs.count(max(ankhs)) > 1 or ankhs.count(min(ankhs)) > 1

    def _final_ties(self, state: State, order: list[int]) -> list[dict[str, Any]]:
        """One sentence per group tied on honour at the end, with the values that decided it (2.9)."""
        out: list[dict[str, Any]] = []
        n = len(self.seats)
        players = state.players
        for vp in sorted({p.vp for p in players}, reverse=True):
            group = [s for s in order if players[s].vp == vp]
            if len(group) < 2:
                continue
            pyramids = [players[s].total_pyramids() for s in group]
            details = {**self._names(group), "score": vp, "start": self._name(state.kingdom_start)}
            if len(set(pyramids)) == len(pyramids):
                out.append(
                    {
                        "text": gettext_noop(
                            "{others} and {last} tie on {score} honour; pyramids decide the order: {pyramids} (rules 2.9)."
                        ),
                        "details": {
                            **details,
                            "pyramids": [f"{self._name(s)} {players[s].total_pyramids()}" for s in group],
                        },
                    }
                )
                continue
            distances = [f"{self._name(s)} {seat_distance(s, state.kingdom_start, n)}" for s in group]
            out.append(
                {
                    "text": gettext_noop(
                        "{others} and {last} tie on {score} honour; pyramids: {pyramids}. Where pyramids are equal too, "
                        "the seat nearest {start}, who started Kingdom 3, goes first (seats from {start}: {distances}; rules 2.9)."
                    ),
                    "details": {
                        **details,
                        "pyramids": [f"{self._name(s)} {players[s].total_pyramids()}" for s in group],
                        "distances": distances,
                    },
                }
            )
        if not out:
            out.append(
                {
                    "text": gettext_noop("No two players tie on honour, so no tie-break was needed (rules 2.9)."),
                    "details": {},
                }
            )
        return out

    def describe(self, seat: int, action: Mapping[str, Any], viewer: int | None) -> LogLine:
        """The log line; kept hands are public (2.3), an offering shows its gold to its own seat only (2.5)."""
        parsed = A.parse_action(action)
        me = viewer == seat
        who = {"player": self._name(seat)}
        if isinstance(parsed, A.BuildHand):
            details = {**who, "cards": list(parsed.cards), "total": sum(parsed.cards)}
            if me:
                return LogLine(gettext_noop("You keep {cards} (worth {total})."), details)
            return LogLine(gettext_noop("{player} keeps {cards} (worth {total})."), details)
        if isinstance(parsed, A.Offer):
            if me:
                return LogLine(gettext_noop("You offer {gold} gold."), {"gold": parsed.gold}, private=True)
            return LogLine(gettext_noop("{player} made a secret offering."), who)
        if isinstance(parsed, A.Bid):
            return LogLine(
                gettext_noop("{player} puts {card} under province {province}."),
                {**who, "card": parsed.card, "province": parsed.province + 1},
            )
        if isinstance(parsed, A.Reveal):
            text = _count(_REVEAL_LOG.get(parsed.field, _REVEAL_LOG["farms"]), parsed.value)
            return LogLine(text, {**who, "field": parsed.field, "value": parsed.value})
        if isinstance(parsed, A.PlaceProvince):
            return LogLine(
                gettext_noop("{player} lays the province on column {column}."), {**who, "column": parsed.column + 1}
            )
        if isinstance(parsed, A.PlacePyramids):
            a, b, c = parsed.columns
            return LogLine(
                gettext_noop("{player} places pyramids {a} / {b} / {c} on columns 1 / 2 / 3."),
                {**who, "a": a, "b": b, "c": c},
            )
        assert isinstance(parsed, A.Buy)
        if parsed.count == 0:
            return LogLine(gettext_noop("{player} buys no pyramids."), who)
        return LogLine(
            _count(
                (
                    gettext_noop("{player} buys 1 pyramid for {cost} gold."),
                    gettext_noop("{player} buys {count} pyramids for {cost} gold."),
                ),
                parsed.count,
            ),
            {
                **who,
                "count": parsed.count,
                "cost": self.edition.cost(parsed.count) if parsed.count <= self.edition.max_purchase else None,
            },
        )

    def label(self, seat: int, action: Mapping[str, Any]) -> LogLine:
        """The button text of a legal action, as an imperative ("Bid 5 on province 2", "Offer 7 gold")."""
        parsed = A.parse_action(action)
        if isinstance(parsed, A.BuildHand):
            return LogLine(
                gettext_noop("Keep {cards} (worth {total})"), {"cards": list(parsed.cards), "total": sum(parsed.cards)}
            )
        if isinstance(parsed, A.Bid):
            return LogLine(
                gettext_noop("Bid {card} on province {province}"),
                {"card": parsed.card, "province": parsed.province + 1},
            )
        if isinstance(parsed, A.Reveal):
            texts = _CONFIRM_LABEL if parsed.confirm else _REVEAL_LABEL
            return LogLine(_count(texts.get(parsed.field, texts["farms"]), parsed.value), {"value": parsed.value})
        if isinstance(parsed, A.PlaceProvince):
            return LogLine(gettext_noop("Lay it on column {column}"), {"column": parsed.column + 1})
        if isinstance(parsed, A.Offer):
            return LogLine(gettext_noop("Offer {gold} gold"), {"gold": parsed.gold})
        if isinstance(parsed, A.PlacePyramids):
            a, b, c = parsed.columns
            return LogLine(
                gettext_noop("Place pyramids {a} / {b} / {c} on columns 1 / 2 / 3"), {"a": a, "b": b, "c": c}
            )
        assert isinstance(parsed, A.Buy)
        if parsed.count == 0:
            return LogLine(gettext_noop("Buy no pyramids"))
        cost = self.edition.cost(parsed.count) if parsed.count <= self.edition.max_purchase else None
        text = _count(
            (gettext_noop("Buy 1 pyramid for {cost} gold"), gettext_noop("Buy {count} pyramids for {cost} gold")),
            parsed.count,
        )
        return LogLine(text, {"count": parsed.count, "cost": cost})

    def encode(self, state: State) -> dict[str, Any]:
        """Snapshot JSON (see :func:`shelf.amun_re.state.encode_state`)."""
        return encode_state(state)

    def decode(self, data: Mapping[str, Any]) -> State:
        """Inverse of :meth:`encode`."""
        return decode_state(data)
