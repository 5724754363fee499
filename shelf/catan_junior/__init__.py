"""Catan Junior (Klaus Teuber; Kosmos / Mayfair): the referee engine.

Implements shared/rules/catan_junior.md: both board sides (2.2, 2.3), set-up
(SU), roll and production (TU, PR), the Ghost Captain (GC), building (BU),
Coco tiles (CO) and the castle lair (CA), trading (TR), supply shortage (SH)
and the immediate seven-lair win (EN). Action payloads are listed in
:mod:`.actions`. All information is public (no hands are hidden: tokens lie
face up in front of each player, Coco tiles are face up once bought, and the
Coco stack is a multiset, never an order).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games.engines.base import (
    COMPONENTS,
    JSON,
    Game,
    IllegalAction,
    LogLine,
    OptionSpec,
    Prompt,
    SeatInfo,
    action_kind,
    gettext_noop,
)
from games.engines.ranking import add_ranks, neighbour_ties
from shelf.catan_junior import actions as act
from shelf.catan_junior.board import CASTLE as CASTLE_SITE
from shelf.catan_junior.board import RESOURCES, Board, shipped_board, side_for, validate_board
from shelf.catan_junior.editions import CocoDeck, shipped_coco_deck, validate_coco_deck
from shelf.catan_junior.rules import Ruleset, building, coco, production, setup, trading
from shelf.catan_junior.state import (
    COCO_BUILD,
    COCO_GHOST,
    GHOST,
    OVER,
    ROLL,
    TRADE,
    State,
    counts_to_dict,
    decode_state,
    encode_state,
)
from shelf.catan_junior.visibility import build_view, route_islands

#: 0.3/SU2: colours per edition, and which ones a 3-player table uses (English: white is left out).
EDITION_COLOURS = {"kosmos": ("red", "purple", "yellow", "blue"), "english": ("red", "blue", "white", "orange")}
THREE_PLAYER_COLOURS = {"kosmos": ("red", "purple", "yellow", "blue"), "english": ("red", "blue", "orange")}
#: The 2-player board's two start positions are printed red and purple (2.3); English 2-player starts are
#: unknown (5.3 [U]). Seats take them in seat order, whatever colour their pieces are.
TWO_PLAYER_START = ("red", "purple")


class CatanJuniorGame(Game):
    """Catan Junior for 2-4 players (rules file shared/rules/catan_junior.md)."""

    slug: ClassVar[str] = "catan_junior"
    title: ClassVar[str] = "Catan Junior"
    # Who starts: SU6, the youngest player starts; play passes to the left.
    start_rule: ClassVar[str] = "youngest"
    start_alternatives: ClassVar[tuple[str, ...]] = ()
    start_source: ClassVar[str] = gettext_noop("The youngest player starts; play passes to the left.")  # Rules SU6
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    # Resources in sentences ("2 cutlass for 1 molasses"), shown in the reader's words (games/text/words.py).
    terms: ClassVar[Mapping[str, str]] = {"wood": gettext_noop("wood"), "wool": gettext_noop("wool"),
                                          "molasses": gettext_noop("molasses"), "cutlass": gettext_noop("cutlass"),
                                          "gold": gettext_noop("gold")}
    colours: ClassVar[tuple[str, ...]] = EDITION_COLOURS["kosmos"]
    chance_fields = {"roll": ("value",), "buy_coco": ("tile",)}
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        COMPONENTS,
        OptionSpec(
            "edition",
            "kosmos",
            ("kosmos", "english"),
            gettext_noop(
                "Rules 0.3: kosmos (red/purple/yellow/blue, 7 ships, start wood + cutlass) or english "
                "(red/blue/white/orange, 8 ships, start wood + molasses, English start ships [S!]; "
                "2-player English starts unknown, Kosmos positions used [U]). A colour the edition lacks "
                "becomes one of its spare colours; 2 players take the two start positions in seat order"
            ),
        ),
        OptionSpec(
            "player_trades",
            False,
            (False, True),
            gettext_noop("Rule TR4: advanced rule, the active player may trade with other players (off by default)"),
        ),
        OptionSpec(
            "balanced_die",
            False,
            (False, True),
            gettext_noop("Balanced die: the six faces are dealt from a shuffled deck of six, refilled when empty"),
        ),
        OptionSpec(
            "shortage_trigger",
            "not_enough",
            ("not_enough", "none_left"),
            gettext_noop(
                "Rule SH3 [S!]: not_enough = shortage when a payout needs more than the supply holds; "
                "none_left = also when it would take the last token"
            ),
        ),
        OptionSpec(
            "shortage_freeze",
            True,
            (True, False),
            gettext_noop(
                "Rule SH2 [D]: after a shortage of a resource, the supply pays none of it until the next turn"
            ),
        ),
        OptionSpec(
            "ghost_to_castle",
            False,
            (False, True),
            gettext_noop("Rule GC3 [D]: allow moving the Ghost Captain back to the castle (no reward)"),
        ),
        OptionSpec(
            "coco_deck",
            None,
            (),
            gettext_noop(
                "Rules 2.5 [U]: Coco tile deck as JSON edition data; empty = shipped Kosmos 7/5/2/2 (unverified)"
            ),
        ),
        OptionSpec(
            "board",
            None,
            (),
            gettext_noop("Rules 2.2/2.3: board side as JSON edition data; empty = shipped side for the player count"),
        ),
    )

    def __init__(self, options: Mapping[str, Any] | None, seats: Sequence[SeatInfo]) -> None:
        super().__init__(options, seats)
        self.rules = self._ruleset()

    # -- options -----------------------------------------------------------

    def validate_options(self, options: Mapping[str, Any]) -> JSON:
        """Defaults filled; the ``coco_deck`` and ``board`` edition data validated (``bad_edition``)."""
        result = super().validate_options(options)
        deck = result["coco_deck"]
        board = result["board"]
        self._deck: CocoDeck = shipped_coco_deck() if deck is None else validate_coco_deck(deck)
        n = len(self.seats)
        self._board: Board = shipped_board(side_for(n)) if board is None else validate_board(board)
        edition = result["edition"]
        start_set = "start_english_mayfair" if edition == "english" and n > 2 else "start_kosmos"
        if start_set not in self._board.starts:
            raise IllegalAction(
                "bad_edition", gettext_noop("The board has no start set {name}."), name=start_set
            )
        colours = self._seat_colours(edition)
        starts = self._board.starts[start_set]
        start_colours = TWO_PLAYER_START if n == 2 else colours
        if any(c not in starts for c in start_colours):
            raise IllegalAction(
                "bad_edition", gettext_noop("The board has no start position for every colour.")
            )
        self._colours = colours
        self._start = (start_set, start_colours)
        return result

    def _seat_colours(self, edition: str) -> tuple[str, ...]:
        """SU2: each seat keeps the colour chosen in the lobby when the edition has it.

        The others take the edition's unused colours in order. Two players may
        use any two colours of the box: their pieces go on the board's two
        start positions in seat order (2.3). Three English players leave white
        out (SU2).
        """
        allowed = THREE_PLAYER_COLOURS[edition] if len(self.seats) == 3 else EDITION_COLOURS[edition]
        out: list[str | None] = []
        for seat in self.seats:
            out.append(seat.colour if seat.colour in allowed and seat.colour not in out else None)
        spare = iter(c for c in allowed if c not in out)
        return tuple(c if c is not None else next(spare) for c in out)

    def seat_colours(self) -> list[str]:
        """The colour each seat's pieces really are (SU2, 0.3): the web layer stores these on the seats."""
        return list(self._colours)

    def _ruleset(self) -> Ruleset:
        english = self.options["edition"] == "english"
        return Ruleset(
            board=self._board,
            deck=self._deck,
            seat_count=len(self.seats),
            colours=self._colours,
            start_set=self._start[0],
            start_colours=self._start[1],
            ships_per_colour=8 if english else 7,
            start_hand=tuple(1 if r in ("wood", "molasses" if english else "cutlass") else 0 for r in RESOURCES),
            shortage=self.options["shortage_trigger"],
            freeze=bool(self.options["shortage_freeze"]),
            ghost_to_castle=bool(self.options["ghost_to_castle"]),
            balanced_die=bool(self.options["balanced_die"]),
            player_trades=bool(self.options["player_trades"]),
            physical=self.physical,
        )

    # -- the contract ------------------------------------------------------

    def setup(self, rng: random.Random) -> State:
        """SU1-SU6: the opening state (needs no randomness; ``rng`` is unused)."""
        return setup.opening_state(self._live_rules())

    def with_start(self, state: State, seat: int) -> State:
        """SU6: ``seat`` rolls first; play passes to the left (TU1)."""
        seat = self.check_start_seat(seat)
        return dataclasses.replace(state, active=seat)

    def _live_rules(self) -> Ruleset:
        # ``components`` may switch between digital and physical during a table's life.
        if self.rules.physical != self.physical:
            self.rules = self._ruleset()
        return self.rules

    def prompt(self, state: State) -> Prompt:
        """Who acts now: the active player, or the target of a pending trade offer (TR4)."""
        name = self.seats[state.active].name
        if state.phase == OVER:
            return Prompt((), (), gettext_noop("The game is over."), step="over")
        if state.phase == ROLL:
            return Prompt(
                (state.active,), ("roll",), gettext_noop("{name}: roll the die."), True, "roll", {"name": name}
            )
        if state.phase in (GHOST, COCO_GHOST):
            return Prompt(
                (state.active,),
                ("move_ghost",),
                gettext_noop("{name}: move the Ghost Captain to another island."),
                False,
                state.phase,
                {"name": name},
            )
        if state.phase == COCO_BUILD:
            return Prompt(
                (state.active,),
                ("build_lair", "build_ship"),
                gettext_noop("{name}: build one lair or one ship for free."),
                False,
                "coco_build",
                {"name": name},
            )
        if state.phase == TRADE:
            # The offerer may withdraw (``withdraw_trade``) but is not prompted: only the target must answer.
            offer = state.offer
            assert offer is not None
            return Prompt(
                (offer.target,),
                ("accept_trade", "decline_trade"),
                gettext_noop("{name} offers {target} {give} for {get}."),
                False,
                "trade",
                {
                    "name": name,
                    "target": self.seats[offer.target].name,
                    "give": _bundle_text(counts_to_dict(offer.give)),
                    "get": _bundle_text(counts_to_dict(offer.get)),
                },
            )
        kinds = ["build_lair", "build_ship", "buy_coco", "market_swap", "supply_trade"]
        if self.rules.player_trades:
            kinds.append("offer_trade")
        kinds.append("end_turn")
        return Prompt(
            (state.active,),
            tuple(kinds),
            gettext_noop("{name}: build, buy a Coco tile, trade, or end your turn."),
            False,
            "main",
            {"name": name},
        )

    def legal_actions(self, state: State, seat: int) -> list[JSON]:
        """Every legal payload of ``seat`` now (one per chance outcome in physical mode).

        Player-trade offers are listed as 1-for-1 swaps only; ``apply``
        accepts any bundle the two players agree on (TR4; the phone's picker
        builds them). While an offer waits, its offerer (not prompted) may
        ``withdraw_trade``.
        """
        rs = self._live_rules()
        if state.phase == TRADE and state.offer is not None and seat == state.offer.offerer:
            return [{"kind": "withdraw_trade"}]
        if state.phase == OVER or seat not in self.prompt(state).seats:
            return []
        if state.phase == ROLL:
            if rs.physical:
                return [{"kind": "roll", "value": v} for v in production.roll_faces(rs, state)]
            return [{"kind": "roll"}]
        if state.phase in (GHOST, COCO_GHOST):
            return [{"kind": "move_ghost", "island": i} for i in production.ghost_targets(rs, state)]
        if state.phase == TRADE:
            return [{"kind": "accept_trade"}, {"kind": "decline_trade"}]
        free = state.phase == COCO_BUILD
        out: list[JSON] = []
        if building.can_build_lair(rs, state, seat, free=free):
            out += [{"kind": "build_lair", "site": s} for s in building.lair_sites(rs, state, seat)]
        if building.can_build_ship(rs, state, seat, free=free):
            out += [{"kind": "build_ship", "route": r} for r in building.ship_routes(rs, state, seat)]
        if free:
            return out
        hand = state.hands[seat]
        if coco.can_buy(state, seat):
            if rs.physical:
                out += [{"kind": "buy_coco", "tile": t} for t in coco.kinds_in_stack(rs, state)]
            else:
                out.append({"kind": "buy_coco"})
        if not state.swapped:
            for space, there in enumerate(state.market):
                for i, give in enumerate(RESOURCES):
                    if hand[i] > 0 and give != there:
                        out.append({"kind": "market_swap", "space": space, "give": give, "take": there})
        for i, give in enumerate(RESOURCES):
            if hand[i] >= 2:
                for take in RESOURCES:
                    if take != give and not (rs.freeze and take in state.frozen):
                        out.append({"kind": "supply_trade", "give": give, "take": take})
        if rs.player_trades:
            for other in range(rs.seat_count):
                if other == seat:
                    continue
                for i, give in enumerate(RESOURCES):
                    for j, get in enumerate(RESOURCES):
                        if i != j and hand[i] > 0 and state.hands[other][j] > 0:
                            out.append({"kind": "offer_trade", "to": other, "give": {give: 1}, "get": {get: 1}})
        out.append({"kind": "end_turn"})
        return out

    def fill_chance(self, state: State, seat: int, action: Mapping[str, Any], rng: random.Random) -> JSON:
        """Digital mode: fill the die ``value`` of a roll, or the drawn ``tile`` of a Coco purchase."""
        filled = dict(action)
        rs = self._live_rules()
        if filled.get("kind") == "roll" and "value" not in filled:
            filled["value"] = production.fill_roll(rs, state, rng)
        elif filled.get("kind") == "buy_coco" and "tile" not in filled:
            tile = coco.fill_tile(rs, state, rng)
            if tile is not None:
                filled["tile"] = tile
        return filled

    def apply(self, state: State, seat: int, action: Mapping[str, Any]) -> State:
        """Return the state after ``seat`` plays ``action`` (see :mod:`.actions` for shapes).

        Refusals: ``game_over``, ``not_your_turn``, ``wrong_step``,
        ``bad_action`` and the rule codes of the rules modules.
        """
        rs = self._live_rules()
        if not isinstance(action, Mapping):
            raise IllegalAction("bad_action", gettext_noop("An action is a JSON object."))
        kind = action_kind(action)
        if kind not in act.KINDS:
            raise IllegalAction("bad_action", gettext_noop("Unknown action kind {kind}."), kind=kind)
        if kind == "withdraw_trade":
            # TR4: the offerer is not the prompted seat while the offer waits, yet may take it back.
            if self.is_over(state):
                raise IllegalAction("game_over", gettext_noop("The game is over."))
            return trading.withdraw_trade(state, seat)
        self.ensure_turn(state, seat, kind)
        if kind == "buy_coco" and coco.tiles_left(state) == 0:
            # Checked before parsing: a digital fill on an empty stack leaves no tile to name.
            raise IllegalAction("coco_stack_empty", gettext_noop("There are no Coco tiles left."))
        parsed = act.parse(action)
        if isinstance(parsed, act.Roll):
            return production.roll(rs, state, parsed.value)
        if isinstance(parsed, act.MoveGhost):
            return production.move_ghost(rs, state, parsed.island)
        if isinstance(parsed, act.BuildLair):
            return building.build_lair(rs, state, seat, parsed.site)
        if isinstance(parsed, act.BuildShip):
            return building.build_ship(rs, state, seat, parsed.route)
        if isinstance(parsed, act.BuyCoco):
            return coco.buy_coco(rs, state, seat, parsed.tile)
        if isinstance(parsed, act.MarketSwap):
            return trading.market_swap(rs, state, seat, parsed.space, parsed.give, parsed.take)
        if isinstance(parsed, act.SupplyTrade):
            return trading.supply_trade(rs, state, seat, parsed.give, parsed.take)
        if isinstance(parsed, act.OfferTrade):
            return trading.offer_trade(rs, state, seat, parsed.to, parsed.give, parsed.get)
        if isinstance(parsed, act.AnswerTrade):
            return trading.answer_trade(state, seat, parsed.accept)
        return setup.end_turn(rs, state)

    def view(self, state: State, seat: int | None) -> JSON:
        """Everything is public in Catan Junior; see :func:`.visibility.build_view`."""
        return build_view(self, state, seat)

    def result(self, state: State) -> JSON | None:
        """``None`` while running; then the seven-lair winner (EN1) and the others by lairs on the board.

        Every ranking row carries ``rank`` (equal lairs share it: EN1 names no
        order among the others) and ``ties`` names each pair level on lairs.
        """
        if state.winner is None:
            return None
        scores = [state.lair_count(s) for s in range(len(self.seats))]
        order = sorted(range(len(self.seats)), key=lambda s: (s != state.winner, -scores[s], s))
        ranking = []
        for s in order:
            place = 1 if s == state.winner else 2 + sum(1 for o in order if o != state.winner and scores[o] > scores[s])
            ranking.append(
                {
                    "seat": s,
                    "place": place,
                    "score": scores[s],
                    "lairs": scores[s],
                    "ships": state.ship_count(s),
                    "coco": sum(state.coco_taken[s]),
                }
            )
        steps = [
            {
                "text": gettext_noop("{name} wins with 7 lairs!"),
                "details": {"name": self.seats[state.winner].name},
            }
        ] + [
            {
                "text": gettext_noop("{name} has {lairs} lairs on the board."),
                "details": {"name": self.seats[s].name, "lairs": scores[s]},
            }
            for s in order
            if s != state.winner
        ]
        # EN1 names only the winner; the others rank by lairs on the board and,
        # with no tie-break in the rules, equal lairs share a rank.
        add_ranks(ranking, lambda row: (row["seat"] != state.winner, -row["lairs"]))
        ties = neighbour_ties(ranking, [seat.name for seat in self.seats], lambda r: r["lairs"], [], gettext_noop(
            "{a} and {b} both have {score} lairs on the board; only the winner is named, so they share rank {rank}."))
        return {"winners": [state.winner], "ranking": ranking, "steps": steps + ties, "ties": ties}

    def standing(self, state: State) -> JSON | None:
        """Lairs on the board as they stand (the count the seven-lair goal is measured by, EN1), for a game the
        host ended before anyone built seven; equal lairs share a rank. Everything here is public."""
        scores = [state.lair_count(s) for s in range(len(self.seats))]
        ranking = [{"seat": s, "score": scores[s], "lairs": scores[s], "ships": state.ship_count(s),
                    "coco": sum(state.coco_taken[s])}
                   for s in sorted(range(len(self.seats)), key=lambda s: (-scores[s], s))]
        add_ranks(ranking, lambda row: -row["lairs"])
        for row in ranking:
            row["place"] = row["rank"]
        ties = neighbour_ties(ranking, [seat.name for seat in self.seats], lambda r: r["lairs"], [], gettext_noop(
            "{a} and {b} both have {score} lairs on the board and share rank {rank}."))
        steps = [{"text": gettext_noop("The host ended the game before anyone built 7 lairs: lairs on the board count "
                                       "as they stand."), "details": {}}]
        steps += [{"text": gettext_noop("{name} has {lairs} lairs on the board."),
                   "details": {"name": self.seats[row["seat"]].name, "lairs": row["lairs"]}} for row in ranking]
        return {"ranking": ranking, "steps": steps + ties, "ties": ties}

    def score_track(self, state: State) -> JSON | None:
        """Lairs on the board, the count the seven-lair goal is measured by (EN1). Public."""
        return {"label": gettext_noop("lairs"), "scores": [state.lair_count(s) for s in range(len(self.seats))]}

    def describe(self, seat: int, action: Mapping[str, Any], viewer: int | None) -> LogLine:
        """The log line (and button label) for ``action``; nothing in this game is private."""
        name = self.seats[seat].name  # a name, not "You": details are not translated, names need no translation
        kind = action.get("kind")
        d: dict[str, Any] = {"name": name}
        if kind == "roll":
            if "value" in action:
                d["value"] = action["value"]
                return LogLine(gettext_noop("{name} rolled {value}."), d)
            return LogLine(gettext_noop("{name}: roll the die"), d)
        if kind == "move_ghost":
            d["island"] = self._island_name(action.get("island"))
            return LogLine(gettext_noop("{name} moved the Ghost Captain to {island}."), d)
        if kind == "build_lair":
            d["site"] = self._site_place(action.get("site"))
            return LogLine(gettext_noop("{name} built a lair at {site}."), d)
        if kind == "build_ship":
            d["route"] = self._route_place(action.get("route"))
            return LogLine(gettext_noop("{name} built a ship at {route}."), d)
        if kind == "buy_coco":
            if "tile" in action:
                return self._coco_line(action["tile"], d)
            return LogLine(gettext_noop("{name}: buy a Coco tile"), d)
        if kind == "market_swap":
            if "take" in action:
                d.update(give=action.get("give"), take=action.get("take"))
                return LogLine(gettext_noop("{name} swapped {give} for {take} at the marketplace."), d)
            d.update(space=action.get("space"), give=action.get("give"))
            return LogLine(gettext_noop("{name} swapped {give} at marketplace space {space}."), d)
        if kind == "supply_trade":
            d.update(give=action.get("give"), take=action.get("take"))
            return LogLine(gettext_noop("{name} traded 2 {give} for 1 {take}."), d)
        if kind == "offer_trade":
            to = action.get("to")
            d.update(
                target=self.seats[to].name if isinstance(to, int) and 0 <= to < len(self.seats) else to,
                give=_bundle_text(action.get("give")),
                get=_bundle_text(action.get("get")),
            )
            return LogLine(gettext_noop("{name} offered {target} {give} for {get}."), d)
        if kind == "accept_trade":
            return LogLine(gettext_noop("{name} accepted the trade."), d)
        if kind == "decline_trade":
            return LogLine(gettext_noop("{name} declined the trade."), d)
        if kind == "withdraw_trade":
            return LogLine(gettext_noop("{name} withdrew the trade offer."), d)
        if kind == "end_turn":
            return LogLine(gettext_noop("{name} ended the turn."), d)
        return LogLine(gettext_noop("{name}: {action}"), {**d, "action": act.notation(action)})

    def label(self, seat: int, action: Mapping[str, Any]) -> LogLine:
        """The button text of a legal action: a short imperative a child can follow ("Roll the die").

        Places are named by the islands they touch ("wood 1 + gold 5"), never by
        site or route ids; a physical outcome reads as what the player saw.
        """
        kind = action.get("kind")
        if kind == "roll":
            if action.get("value") == 6:
                return LogLine(gettext_noop("The die shows the Ghost Captain"))
            if "value" in action:
                return LogLine(gettext_noop("The die shows {value}"), {"value": action["value"]})
            return LogLine(gettext_noop("Roll the die"))
        if kind == "move_ghost":
            if action.get("island") == "castle":
                return LogLine(gettext_noop("Send the Ghost Captain to the castle"))
            return LogLine(
                gettext_noop("Send the Ghost Captain to {island}"), {"island": self._island_name(action.get("island"))}
            )
        if kind == "build_lair":
            return LogLine(gettext_noop("Build a lair at {place}"), {"place": self._site_place(action.get("site"))})
        if kind == "build_ship":
            return LogLine(gettext_noop("Build a ship at {place}"), {"place": self._route_place(action.get("route"))})
        if kind == "buy_coco":
            return self._coco_label(action.get("tile"))
        if kind == "market_swap":
            if "take" in action:
                return LogLine(
                    gettext_noop("Swap {give} for {take}"), {"give": action.get("give"), "take": action.get("take")}
                )
            return LogLine(
                gettext_noop("Put {give} on marketplace space {space}"),
                {"give": action.get("give"), "space": action.get("space")},
            )
        if kind == "supply_trade":
            return LogLine(
                gettext_noop("Trade 2 {give} for 1 {take}"), {"give": action.get("give"), "take": action.get("take")}
            )
        if kind == "offer_trade":
            to = action.get("to")
            return LogLine(
                gettext_noop("Offer {target} {give} for {get}"),
                {
                    "target": self.seats[to].name if isinstance(to, int) and 0 <= to < len(self.seats) else to,
                    "give": _bundle_text(action.get("give")),
                    "get": _bundle_text(action.get("get")),
                },
            )
        if kind == "accept_trade":
            return LogLine(gettext_noop("Accept the trade"))
        if kind == "decline_trade":
            return LogLine(gettext_noop("Say no to the trade"))
        if kind == "withdraw_trade":
            return LogLine(gettext_noop("Take my offer back"))
        if kind == "end_turn":
            return LogLine(gettext_noop("End my turn"))
        return self.describe(seat, action, seat)

    def _island_name(self, island_id: Any) -> LogLine | str:
        """An island as players name it: its resource (a term, shown in the reader's words) and its number."""
        try:
            island = self.rules.board.island(island_id)
        except KeyError:
            return str(island_id)
        return LogLine("{resource} {n}", {"resource": island.resource, "n": island.number})

    def _joined(self, islands: Sequence[Any]) -> LogLine:
        names = {f"i{k}": self._island_name(i) for k, i in enumerate(islands)}
        return LogLine(" + ".join("{" + key + "}" for key in names), names)

    def _site_place(self, site: Any) -> LogLine | str:
        islands = self.rules.board.site_islands.get(site) if isinstance(site, str) else None
        if site == CASTLE_SITE or not islands:
            return str(site)
        return self._joined(islands)

    def _route_place(self, route: Any) -> LogLine | str:
        ends = self.rules.board.route_ends.get(route) if isinstance(route, str) else None
        if not ends:
            return str(route)
        return self._joined(route_islands(self.rules.board, *ends))

    def _coco_line(self, tile: Any, d: dict[str, Any]) -> LogLine:
        """CO2: the log line of a drawn Coco tile, in words ("drew a Coco tile: 2 molasses and 2 wood")."""
        names = self.rules.deck.names
        if tile not in names:
            return LogLine(gettext_noop("{name} drew a Coco tile: {tile}."), {**d, "tile": tile})
        kind = self.rules.deck.kinds[names.index(tile)]
        if kind.effect == "ghost":
            return LogLine(gettext_noop("{name} drew a Coco tile: the Ghost Captain."), d)
        if kind.effect == "build":
            return LogLine(gettext_noop("{name} drew a Coco tile: a free lair or ship."), d)
        return LogLine(
            gettext_noop("{name} drew a Coco tile: {take}."), {**d, "take": _bundle_text(counts_to_dict(kind.take))}
        )

    def _coco_label(self, tile: Any) -> LogLine:
        if tile is None:
            return LogLine(gettext_noop("Buy a Coco tile"))
        names = self.rules.deck.names
        if tile not in names:
            return LogLine(gettext_noop("I drew a Coco tile: {tile}"), {"tile": tile})
        kind = self.rules.deck.kinds[names.index(tile)]
        if kind.effect == "ghost":
            return LogLine(gettext_noop("I drew a Coco tile: the Ghost Captain"))
        if kind.effect == "build":
            return LogLine(gettext_noop("I drew a Coco tile: build for free"))
        return LogLine(gettext_noop("I drew a Coco tile: {take}"), {"take": _bundle_text(counts_to_dict(kind.take))})

    def encode(self, state: State) -> JSON:
        """The state as a JSON dict (ids, not indexes)."""
        return encode_state(state, self.rules.board, self.rules.deck.names)

    def decode(self, data: Mapping[str, Any]) -> State:
        """The inverse of :meth:`encode`."""
        return decode_state(data, self.rules.board, self.rules.deck.names)


def _bundle_text(bundle: Any) -> dict[str, int] | str:
    """``{"gold": 1, "wood": 2}`` in resource order without zero counts (``{"wood": 2, "gold": 1}``).

    A sentence shows it as "2 wood and 1 gold" (:func:`games.engines.base.fill`), each
    resource in the reader's words; it stays plain JSON inside a prompt's details.
    """
    if not isinstance(bundle, Mapping):
        return str(bundle)
    return {r: bundle[r] for r in RESOURCES if isinstance(bundle.get(r), int) and bundle[r] > 0}


__all__ = ["CatanJuniorGame"]
