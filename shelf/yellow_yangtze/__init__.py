"""Yellow & Yangtze (Reiner Knizia, 2018) as a referee engine.

Rules: /shared/rules/yellow_yangtze.md (section numbers cited as §). The map
is edition data: option ``board`` (a board profile dict, see
:mod:`.board`); absent means the shipped practice board.

Physical bag (§1.2, §1.3, §6): the drawer types in the colours drawn. The
choices offered are every draw the tiles the drawer cannot see could give
(bag, box and the other hands), never the real bag, whose gaps would tell the
drawer who holds which colours. A typed-in draw the real bag cannot give is a
discrepancy between the record and the table: it is refused with one message
that names no colour or seat, nothing is written (tiles stay conserved), and
the table settles it with a correction ("The board says otherwise").
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.engines.base import (
    COMPONENTS,
    Game,
    IllegalAction,
    LogLine,
    OptionSpec,
    Prompt,
    SeatInfo,
    action_kind,
    gettext_noop,
)

from . import actions as A
from .board import Board, load_board, validate_board
from .rules import conflicts, placement, turn
from .rules.common import Ctx
from .rules.scoring import allocate_yellow, final_result
from .state import (
    CI,
    COLOURS,
    ZERO,
    DrawStep,
    FollowUp,
    Revolt,
    State,
    War,
    decode_outcome,
    decode_state,
    encode_outcome,
    encode_state,
)
from .visibility import build_view

__all__ = ["YellowYangtzeGame", "validate_board", "Board"]

MAIN_KINDS = ("leader", "withdraw", "tile", "peasants", "build_pagoda", "swap", "pass")


def _opt(name: str, default: Any, choices: tuple[Any, ...], help_text: str) -> OptionSpec:
    return OptionSpec(name, default, choices, help_text)


OPTIONS = (
    COMPONENTS,
    OptionSpec("board", None, (), gettext_noop(
        "Rules §3.4: the map as a board profile (JSON object); empty means the invented practice board.")),
    _opt("short_game", False, (False, True), gettext_noop(
        "Rules §1.3 step 3: set 24 unseen tiles aside (recommended for 2 players).")),
    _opt("capitals_from_black", True, (True, False), gettext_noop(
        "Rules §1.2 [U]: the 7 capitals are part of the 42 black tiles (35 go in the bag); off: 42 in the bag.")),
    _opt("leader_join_own_colour", "forbidden", ("forbidden", "revolt"), gettext_noop(
        "Rules §4.1 [U]: a leader joining states where its own colour already stands is forbidden; "
        "'revolt': allowed and starts a revolt.")),
    _opt("chain_after_declined_pagoda", "continue", ("continue", "stop"), gettext_noop(
        "Rules §4.3 [U], E15: after declining a pagoda the blue chain may go on; 'stop' ends it.")),
    _opt("red_under_pagoda", "removed", ("removed", "stays"), gettext_noop(
        "Rules §4.6 [U]: red tiles under a pagoda in a losing state are removed (pagoda to supply); "
        "'stays' protects them.")),
    _opt("who_fights", "involved", ("involved", "all"), gettext_noop(
        "Rules §5.3 [U]: only joined states holding a shared leader colour fight; 'all': every joined state.")),
    _opt("attrition", "highest", ("highest", "sum"), gettext_noop(
        "Rules §5.3 step 5 [U]: with several losers the winner loses the highest losing strength; or the sum.")),
    _opt("attrition_counts_leader", True, (True, False), gettext_noop(
        "Rules §5.3 step 5 [U]: the loser's strength for attrition includes an off-board red leader's +1.")),
    _opt("war_surplus", "return", ("return", "box"), gettext_noop(
        "Rules §5.3 step 5 [U]: committed red tiles beyond attrition go back to their owners' hands; "
        "or to the box.")),
    _opt("red_leader_any_side", True, (True, False), gettext_noop(
        "Rules §1.1 [U]: an off-board red leader may add +1 to a side where its owner has no leader.")),
)

BAG = {"black": 42, "red": 36, "blue": 24, "green": 24, "yellow": 12}
PAGODAS = (2, 2, 2, 2, 1)
SHORT_GAME_ASIDE = 24


def by_hex_first(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The actions with a ``hex`` first, grouped by hex (so a phone draws one target per hex), then the rest."""
    by_hex: dict[tuple[int, ...], list[dict[str, Any]]] = {}
    rest: list[dict[str, Any]] = []
    for a in actions:
        if "hex" in a:
            by_hex.setdefault(tuple(a["hex"]), []).append(a)
        else:
            rest.append(a)
    return [a for key in sorted(by_hex) for a in by_hex[key]] + rest  # a hex's actions keep their order


class YellowYangtzeGame(Game):
    """Yellow & Yangtze for 2-4 players (rules file sections cited as §)."""

    slug = "yellow_yangtze"
    terms = {**{name: name for name in (gettext_noop("Qin"), gettext_noop("Chu"), gettext_noop("Qi"), gettext_noop("Yan"),
                                        gettext_noop("Han"), gettext_noop("Wei"), gettext_noop("Zhao"))},
             "hand": gettext_noop("hand"), "market": gettext_noop("market"), "swap": gettext_noop("swap")}
    title = "Yellow & Yangtze"
    min_seats = 2
    max_seats = 4
    chance_fields = {"draw": ("tiles",)}
    # §1.2: the bag is every tile less the board, the box and every hand; a draw the drawer cannot rule out
    # is refused only because of the others' hidden hands (or the face-down box).
    hidden_refusals = ("tile_not_in_bag",)
    option_specs = OPTIONS
    # Who starts: §1.3 step 8, "Choose a start player at random; play goes clockwise".
    start_rule = "random"
    start_alternatives = ()
    start_source = gettext_noop("Choose a start player at random; play goes clockwise.")  # Rules §1.3 step 8

    def __init__(self, options: Mapping[str, Any] | None, seats: Sequence[SeatInfo]) -> None:
        super().__init__(options, seats)
        self.board = load_board(self.options["board"])
        self.ctx = Ctx(self.board, len(self.seats), self.options)

    def validate_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Defaults filled; the board profile checked with :func:`validate_board` (``bad_board``)."""
        result = super().validate_options(options)
        if result["board"] is not None:
            validate_board(result["board"])
        return result

    # -- setup -------------------------------------------------------------------

    def setup(self, rng: random.Random) -> State:
        """§1.3: capitals, bag, a random start player, then the deal (6 tiles each, 6 market tiles).

        The deal is a queue of draw steps; in digital mode they are drawn here
        with ``rng``, in physical mode each seat enters its own hand and the
        start player the market.
        """
        n = len(self.seats)
        bag = dict(BAG)
        if self.options["capitals_from_black"]:
            bag["black"] -= 7
        start = rng.randrange(n)
        queue = tuple((( start + i) % n, "hand", turn.HAND_SIZE) for i in range(n)) + ((start, "market", 6),)
        s = State(
            phase="deal", start=start, active=start, actions_left=2,
            bag=tuple(bag[c] for c in COLOURS),  # type: ignore[arg-type]
            set_aside=SHORT_GAME_ASIDE if self.options["short_game"] else 0,
            box=ZERO, market=ZERO, hands=tuple(ZERO for _ in range(n)), points=tuple(ZERO for _ in range(n)),
            tiles=tuple(sorted((h, "black") for _, h in self.board.capitals)), leaders=(), pagodas=(),
            pagoda_supply=PAGODAS, pending=DrawStep(queue, "play"),
        )
        if not self.physical:
            while s.phase == "deal":
                seat = s.pending.queue[0][0]  # type: ignore[union-attr]
                s = self.settle(s, seat, self.fill_chance(s, seat, {"kind": "draw"}, rng))
        return s

    def setup_start(self, state: State) -> int | None:
        """§1.3: the set-up draws the start player at random (``state.start``)."""
        return state.start

    def with_start(self, state: State, seat: int) -> State:
        """§1.3 step 8: ``seat`` starts; the deal still pending (physical mode) goes round from it, and the
        start player lays out the market. Once the deal is drawn only the start player changes."""
        seat = self.check_start_seat(seat)
        n = len(self.seats)
        pending = state.pending
        if state.phase == "deal" and isinstance(pending, DrawStep):
            targets = [t for t in pending.queue if t[1] == "hand"]
            if len(targets) == n and pending.queue[-1][1] == "market":  # nothing drawn yet
                queue = tuple(((seat + i) % n, "hand", t[2]) for i, t in enumerate(targets))
                pending = DrawStep(queue + ((seat, "market", pending.queue[-1][2]),), pending.then)
        active = seat if state.phase in ("deal", "play") else state.active
        return dataclasses.replace(state, start=seat, active=active, pending=pending)

    # -- prompt & legal ----------------------------------------------------------

    def prompt(self, state: State) -> Prompt:
        """Who decides now: the drawing seat, the active player, a revolt side, or a war supporter/unifier."""
        s = state
        p = s.pending
        if s.phase == "over":
            return Prompt((), (), gettext_noop("The game is over."), step="over")
        if isinstance(p, DrawStep):
            seat, target, n = p.queue[0]
            # One template per target: a placeholder filled with the English word "hand" or "market"
            # would stay English on a fa/az/ps phone.
            text = {"market": gettext_noop("{name} draws tiles for the market: {n}."),
                    "swap": gettext_noop("{name} draws tiles for the swap: {n}.")}.get(
                        target, gettext_noop("{name} draws tiles for the hand: {n}."))
            return Prompt((seat,), ("draw",), text, chance=True,
                          step="draw", details={"name": self.seats[seat].name, "n": min(n, s.bag_left),
                                                "target": target})
        if isinstance(p, FollowUp):
            kinds = {"market": ("take_market", "decline"), "pagoda": ("pagoda", "decline"),
                     "chain": ("tile", "decline")}[p.stage]
            texts = {"market": gettext_noop("{name} may take a market tile."),
                     "pagoda": gettext_noop("{name} may build a pagoda."),
                     "chain": gettext_noop("{name} may place another blue tile.")}
            return Prompt((s.active,), kinds, texts[p.stage], step=p.stage,
                          details={"name": self.seats[s.active].name})
        if isinstance(p, Revolt):
            seat = p.attacker if p.stage == "attacker" else p.defender
            return Prompt((seat,), ("commit",), gettext_noop("Revolt: {name} commits black tiles."),
                          step="revolt_" + p.stage, details={"name": self.seats[seat].name, "colour": p.colour})
        if isinstance(p, War):
            if p.stage == "support":
                seat = p.order[0]
                return Prompt((seat,), ("commit", "abstain"), gettext_noop("War: {name} may commit red tiles."),
                              step="war_support", details={"name": self.seats[seat].name})
            kinds = {"winner": ("choose_winner",), "burn": ("burn",), "attrition": ("remove_red",)}[p.stage]
            texts = {"winner": gettext_noop("War: {name} breaks the tie."),
                     "burn": gettext_noop("War: {name} picks whose committed red tiles burn."),
                     "attrition": gettext_noop("War: {name} removes red tiles from the winning state.")}
            return Prompt((p.unifier,), kinds, texts[p.stage], step="war_" + p.stage,
                          details={"name": self.seats[p.unifier].name})
        return Prompt((s.active,), MAIN_KINDS, gettext_noop("{name}: action {k} of 2."), step="action",
                      details={"name": self.seats[s.active].name, "k": 3 - s.actions_left})

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """Every legal payload of ``seat`` now (physical draws: one per outcome the drawer cannot rule out).

        A physical draw lists every multiset of colours that the tiles the
        drawer cannot see could give (:func:`turn.unseen_by`: bag, box and the
        other hands, §1.2), never the real bag, which would tell the drawer
        what the others hold; ``apply`` still refuses a draw the real bag
        cannot give, with a message that does not say why.
        """
        s = state
        if s.phase == "over" or seat not in self.prompt(s).seats:
            return []
        p = s.pending
        ctx = self.ctx
        if isinstance(p, DrawStep):
            if not self.physical:
                return [{"kind": "draw"}]
            return [{"kind": "draw", "tiles": t} for t in turn.outcomes(turn.unseen_by(s, seat), turn.draw_size(s))]
        if isinstance(p, FollowUp):
            return placement.followup_actions(ctx, s)
        if isinstance(p, Revolt):
            commits = [{"kind": "commit", "tiles": t} for t in range(s.hands[seat][CI["black"]] + 1)]
            return self.with_outcomes(s, seat, commits) if p.stage == "defender" else commits
        if isinstance(p, War):
            owners = [conflicts.stakes(s, p, i) for i in range(len(p.sides))]
            out: list[dict[str, Any]] = []
            if p.stage == "support":
                reds = s.hands[seat][CI["red"]]
                for side in range(len(p.sides)):
                    leaders = [False, True] if conflicts.may_use_red_leader(ctx, s, seat, p, side) else [False]
                    for t in range(reds + 1):
                        for lead in leaders:
                            if t or lead:
                                out.append({"kind": "commit", "side": side, "tiles": t, "leader": lead,
                                            "owners": owners[side]})
                out.append({"kind": "abstain"})
            elif p.stage == "winner":
                out = [{"kind": "choose_winner", "side": i, "owners": owners[i]} for i in p.tied]
            elif p.stage == "burn":
                seats = sorted({st for st, side, t, _l in p.commits if side == p.winner and t > 0})
                out = [{"kind": "burn", "seat": st} for st in seats]
            else:
                out = [{"kind": "remove_red", "hex": list(h)} for h in conflicts.winner_reds(s, p)]
            return self.with_outcomes(s, seat, out) if p.stage != "support" or len(p.order) == 1 else out
        return by_hex_first(placement.main_actions(ctx, s, seat))

    def with_outcomes(self, s: State, seat: int, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Each payload that settles the conflict gets the ``outcome`` it leads to, so its log line can state it."""
        out = []
        for a in actions:
            after = self.settle(s, seat, a)
            out.append({**a, "outcome": encode_outcome(after.last_conflict)}
                       if after.last_conflict is not s.last_conflict else a)
        return out

    # -- apply ---------------------------------------------------------------------

    def apply(self, state: State, seat: int, action: Mapping[str, Any]) -> State:
        """Return the state after ``seat`` plays ``action`` (see :mod:`.actions` for payloads).

        The optional fields a listed payload carries for its log line are
        checked, never trusted: ``owners`` (a war side's stake holders) and
        ``outcome`` (the conflict this action settles; ``null``: none).
        """
        action_kind(action)
        bare = {k: v for k, v in action.items() if k not in ("owners", "outcome")}
        if "owners" in action:
            p = state.pending
            side = action.get("side")
            ok = (isinstance(p, War) and isinstance(side, int) and not isinstance(side, bool)
                  and 0 <= side < len(p.sides) and action["owners"] == conflicts.stakes(state, p, side))
            if not ok:
                raise IllegalAction("owners_mismatch", gettext_noop(
                    "Rules §5.3: the side named is not the one whose leaders are at stake there."))
        after = self.settle(state, seat, bare)
        if "outcome" in action:
            settled = encode_outcome(after.last_conflict) if after.last_conflict is not state.last_conflict else None
            if action["outcome"] != settled:
                raise IllegalAction("outcome_mismatch", gettext_noop(
                    "Rules §5: this action does not settle the conflict the way it claims."))
        return after

    def canonical(self, state: State, seat: int, action: Mapping[str, Any]) -> dict[str, Any]:
        """``action`` as stored: the log fields :meth:`legal_actions` lists, filled in from the rules when left out.

        During a revolt or war (§5), a war ``commit``/``choose_winner`` gets
        its side's ``owners`` (:func:`.rules.conflicts.stakes`) and the action
        that settles the conflict gets its ``outcome``
        (:func:`.state.encode_outcome` of what it leads to); an ``outcome:
        null`` on an action that settles nothing is dropped, as the listing
        has none. So the log line states the outcome whether or not the phone
        sent it. Fields the phone did send are kept for :meth:`apply` to
        check (a forged one is refused there, ``owners_mismatch`` /
        ``outcome_mismatch``); an illegal action comes back as posted.
        """
        out = dict(action)
        p = state.pending
        if not isinstance(p, (Revolt, War)):
            return out
        side = out.get("side")
        if (isinstance(p, War) and out.get("kind") in ("commit", "choose_winner") and "owners" not in out
                and isinstance(side, int) and not isinstance(side, bool) and 0 <= side < len(p.sides)):
            out["owners"] = conflicts.stakes(state, p, side)
        if out.get("outcome") is None:
            try:
                after = self.settle(state, seat, {k: v for k, v in out.items() if k not in ("owners", "outcome")})
            except IllegalAction:
                return dict(action)
            if after.last_conflict is not state.last_conflict:
                out.setdefault("outcome", encode_outcome(after.last_conflict))
            else:
                out.pop("outcome", None)
        return out

    def settle(self, state: State, seat: int, action: Mapping[str, Any]) -> State:
        """:meth:`apply` without the checked log fields."""
        kind = action_kind(action)
        if kind not in A.KINDS:
            raise IllegalAction("bad_action", gettext_noop("Unknown action kind {kind}."), kind=kind)
        if not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise IllegalAction("bad_seat", gettext_noop("No such seat."))
        self.ensure_turn(state, seat, kind)
        s, ctx, p = state, self.ctx, state.pending
        if kind == "draw":
            if "tiles" not in action:
                raise A.bad("tiles")
            return turn.apply_draw(ctx, s, seat, A.colours(action))
        if isinstance(p, FollowUp):
            if kind == "decline":
                return placement.decline(ctx, s)
            if kind == "take_market":
                return placement.take_market(ctx, s, seat, A.colour(action))
            if kind == "pagoda":
                tri = A.triangle(action)
                if tri is None:
                    raise A.bad("triangle")
                return placement.followup_pagoda(ctx, s, tri, A.triangle(action, "from"))
            return placement.chain_tile(ctx, s, seat, A.colour(action), A.hexfield(action))
        if isinstance(p, Revolt):
            return conflicts.commit_revolt(ctx, s, seat, A.integer(action, "tiles", 0, 200))
        if isinstance(p, War):
            if kind == "abstain":
                return conflicts.commit_war(ctx, s, seat, -1, 0, False)
            if kind == "commit":
                return conflicts.commit_war(ctx, s, seat, A.integer(action, "side", 0, 10),
                                            A.integer(action, "tiles", 0, 200), A.flag(action, "leader"))
            if kind == "choose_winner":
                return conflicts.choose_winner(ctx, s, A.integer(action, "side", 0, 10))
            if kind == "burn":
                return conflicts.burn(ctx, s, A.integer(action, "seat", 0, len(self.seats) - 1))
            return conflicts.remove_red(ctx, s, A.hexfield(action))
        # main step
        if kind == "leader":
            return placement.position_leader(ctx, s, seat, A.colour(action), A.hexfield(action))
        if kind == "withdraw":
            return placement.withdraw_leader(ctx, s, seat, A.colour(action))
        if kind == "tile":
            return placement.place_tile(ctx, s, seat, A.colour(action), A.hexfield(action))
        if kind == "peasants":
            return placement.peasants(ctx, s, seat, A.hexfield(action), A.flag(action, "leader"))
        if kind == "build_pagoda":
            tri = A.triangle(action)
            if tri is None:
                raise A.bad("triangle")
            return placement.build_pagoda(ctx, s, seat, tri, A.flag(action, "leader"), A.triangle(action, "from"))
        if kind == "swap":
            return placement.swap(ctx, s, seat, A.colours(action))
        # pass: only when nothing else is possible
        others = placement.main_actions(ctx, s, seat)
        if others != [{"kind": "pass"}]:
            raise IllegalAction("pass_not_allowed", gettext_noop(
                "Rules §4: a turn is two actions; passing is only allowed when no action is possible."))
        return turn.finish_action(ctx, s)

    def fill_chance(self, state: State, seat: int, action: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
        """Fill a ``draw`` without ``tiles`` with colours drawn uniformly from the bag (digital mode)."""
        out = dict(action)
        if out.get("kind") == "draw" and "tiles" not in out and isinstance(state.pending, DrawStep):
            out["tiles"] = turn.random_draw(state.bag, state.set_aside, turn.draw_size(state), rng)
        return out

    # -- views, log, result ----------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """See :mod:`.visibility`."""
        return build_view(self.ctx, state, seat, [x.name for x in self.seats], holder=self)

    def result(self, state: State) -> dict[str, Any] | None:
        """``None`` while running; then the §7 scoring with every step (yellow allocation included)."""
        if state.phase != "over":
            return None
        return final_result(state.points, [x.name for x in self.seats], state.ended_by)

    def standing(self, state: State) -> dict[str, Any] | None:
        """The §7 scoring of the screens as they stand (yellow allocation included), for a game the host ended."""
        return final_result(state.points, [x.name for x in self.seats], "host", stopped=True)

    def score_track(self, state: State) -> dict[str, Any] | None:
        """Each seat's score as §7 counts it now: the lowest colour once the yellow points are spread. Read from
        the screens, so the platform shows it only once the game is over and every screen is lifted (§7)."""
        return {"label": gettext_noop("score (the lowest colour)"),
                "scores": [min(allocate_yellow(points)[1].values()) for points in state.points]}

    def ended_view(self, state: State, seat: int | None) -> dict[str, Any]:
        """:meth:`view` with every screen lifted (``view["final"]``), as the end of the game lifts them (§7)."""
        return build_view(self.ctx, state, seat, [x.name for x in self.seats], lifted=True, holder=self)

    # -- hexes, sides and outcomes as players read them ---------------------------------

    def hex_name(self, value: Any) -> str:
        """A payload hex ``[q, r]`` as its board label ("C4"), or ``"?"``."""
        if (isinstance(value, (list, tuple)) and len(value) == 2
                and all(isinstance(x, int) and not isinstance(x, bool) for x in value)):
            return self.board.label((value[0], value[1]))
        return "?"

    def seat_name(self, seat: Any) -> str:
        """The name of ``seat``, or ``"?"``."""
        return self.seats[seat].name if isinstance(seat, int) and 0 <= seat < len(self.seats) else "?"

    def owners_names(self, action: Mapping[str, Any]) -> str:
        """The names in a war payload's ``owners`` (the seats whose leaders are at stake on that side), or ``""``."""
        owners = action.get("owners")
        if not isinstance(owners, list):
            return ""
        return ", ".join(self.seat_name(x) for x in owners)

    def outcome_details(self, data: Any) -> dict[str, Any]:
        """The placeholders of a settled conflict (payload ``outcome``): winner, strengths, leaders, tiles, points."""
        try:
            o = decode_outcome(data)
        except (KeyError, TypeError, ValueError, IndexError):
            o = None
        if o is None:
            return {"winner": "?", "strengths": "?", "leaders": "-", "tiles_off": "-", "points": "-"}
        names = [", ".join(self.seat_name(x) for x in side) for side in o.sides]
        winner = names[o.winner] if 0 <= o.winner < len(names) and names[o.winner] else str(o.winner + 1)
        return {
            "winner": winner,
            "strengths": " : ".join(str(x) for x in o.strengths),
            # Parts of sentences (LogLine): the colours are terms the web layer shows in the reader's words.
            "leaders": _joined("; ", [LogLine("{who} {colour} ({hex})", {"who": self.seat_name(st), "colour": c,
                                                                        "hex": self.board.label(h)})
                                      for st, c, h in o.leaders]),
            "tiles_off": [LogLine("{colour} {hex}", {"colour": c, "hex": self.board.label(h)}) for h, c in o.tiles] or "-",
            "points": _joined("; ", [LogLine("{who} +{n} {colour}", {"who": self.seat_name(st), "n": n, "colour": c})
                                     for st, c, n in o.points]),
        }

    def describe(self, seat: int, action: Mapping[str, Any], viewer: int | None) -> LogLine:
        """The log line; another seat's drawn or swapped colours are hidden.

        Hexes are named as drawn along the board's edges ("C4"); war sides by
        the players whose leaders are at stake ("Ann's side", as on the
        buttons); the action that settles a conflict carries its ``outcome``
        and its line states it (winner, leaders and tiles off the board, points).
        """
        name = self.seat_name(seat)
        kind = action.get("kind") if isinstance(action, Mapping) else None
        own = viewer == seat
        d: dict[str, Any] = {"name": name, **{k: v for k, v in action.items() if k not in ("kind", "outcome")}}
        if "hex" in action:
            d["hex"] = self.hex_name(action["hex"])
        if isinstance(action.get("triangle"), list):
            d["triangle"] = ", ".join(self.hex_name(h) for h in action["triangle"])
        if kind == "draw":
            tiles = action.get("tiles")
            if tiles is None:
                return LogLine(gettext_noop("Draw tiles"), {"name": name})
            if own:
                return LogLine(gettext_noop("{name} drew {tiles}."), {"name": name, "tiles": ", ".join(tiles)},
                               private=True)
            return LogLine(gettext_noop("{name} drew tiles: {n}."), {"name": name, "n": len(tiles)})
        if kind == "swap":
            tiles = action.get("tiles") or []
            if own:
                return LogLine(gettext_noop("{name} swapped {tiles}."), {"name": name, "tiles": ", ".join(tiles)},
                               private=True)
            return LogLine(gettext_noop("{name} swapped tiles: {n}."), {"name": name, "n": len(tiles)})
        settled = "outcome" in action and action["outcome"] is not None
        if settled:
            d.update(self.outcome_details(action["outcome"]))
        if kind in ("commit", "choose_winner") and "side" in action:
            d["side"] = action["side"] + 1 if isinstance(action.get("side"), int) else "?"
            d["owners"] = self.owners_names(action)
        if kind == "commit" and "side" in action:
            lead = bool(action.get("leader"))
            if d["owners"]:
                texts = {
                    (False, False): gettext_noop("{name} commits red tiles: {tiles}, to {owners}'s side."),
                    (True, False): gettext_noop(
                        "{name} commits red tiles: {tiles}, and the red leader, to {owners}'s side."),
                    (False, True): gettext_noop(
                        "{name} commits red tiles: {tiles}, to {owners}'s side. War over ({strengths}): {winner} "
                        "wins. Leaders home: {leaders}. Tiles off the board: {tiles_off}. Points: {points}."),
                    (True, True): gettext_noop(
                        "{name} commits red tiles: {tiles}, and the red leader, to {owners}'s side. War over "
                        "({strengths}): {winner} wins. Leaders home: {leaders}. Tiles off the board: {tiles_off}. "
                        "Points: {points}."),
                }
            else:
                texts = {
                    (False, False): gettext_noop("{name} commits red tiles: {tiles}, to side {side}."),
                    (True, False): gettext_noop(
                        "{name} commits red tiles: {tiles}, and the red leader, to side {side}."),
                    (False, True): gettext_noop(
                        "{name} commits red tiles: {tiles}, to side {side}. War over ({strengths}): {winner} "
                        "wins. Leaders home: {leaders}. Tiles off the board: {tiles_off}. Points: {points}."),
                    (True, True): gettext_noop(
                        "{name} commits red tiles: {tiles}, and the red leader, to side {side}. War over "
                        "({strengths}): {winner} wins. Leaders home: {leaders}. Tiles off the board: {tiles_off}. "
                        "Points: {points}."),
                }
            return LogLine(texts[(lead, settled)], d)
        if kind == "burn":
            d["seat"] = self.seat_name(action.get("seat"))
        texts = {
            "leader": gettext_noop("{name} positions the {colour} leader at {hex}."),
            "withdraw": gettext_noop("{name} withdraws the {colour} leader."),
            "tile": gettext_noop("{name} places a {colour} tile at {hex}."),
            "peasants": gettext_noop("{name} leads a Peasants' Revolt against the tile at {hex}."),
            "build_pagoda": gettext_noop("{name} discards green to build a pagoda on {triangle}."),
            "pass": gettext_noop("{name} cannot act and passes."),
            "take_market": gettext_noop("{name} takes the {colour} market tile."),
            "pagoda": gettext_noop("{name} builds a pagoda on {triangle}."),
            "decline": gettext_noop("{name} declines."),
            "commit": gettext_noop("{name} commits black tiles: {tiles}."),
            "abstain": gettext_noop("{name} commits nothing."),
            "choose_winner": gettext_noop("{name} declares {owners}'s side the winner.") if d.get("owners")
            else gettext_noop("{name} declares side {side} the winner."),
            "burn": gettext_noop("{name} burns a red tile {seat} committed."),
            "remove_red": gettext_noop("{name} removes the red tile at {hex}."),
        }
        if settled:
            texts.update({
                "commit": gettext_noop(
                    "{name} commits black tiles: {tiles}. Revolt over ({strengths}): {winner} wins. "
                    "Leader home: {leaders}. Points: {points}."),
                "abstain": gettext_noop(
                    "{name} commits nothing. War over ({strengths}): {winner} wins. Leaders home: {leaders}. "
                    "Tiles off the board: {tiles_off}. Points: {points}."),
                "choose_winner": gettext_noop(
                    "{name} breaks the tie. War over ({strengths}): {winner} wins. Leaders home: {leaders}. "
                    "Tiles off the board: {tiles_off}. Points: {points}."),
                "burn": gettext_noop(
                    "{name} burns a red tile {seat} committed. War over ({strengths}): {winner} wins. Leaders "
                    "home: {leaders}. Tiles off the board: {tiles_off}. Points: {points}."),
                "remove_red": gettext_noop(
                    "{name} removes the red tile at {hex}. War over ({strengths}): {winner} wins. Leaders home: "
                    "{leaders}. Tiles off the board: {tiles_off}. Points: {points}."),
            })
        return LogLine(texts.get(str(kind), gettext_noop("{name} acts.")), d)

    def label(self, seat: int, action: Mapping[str, Any]) -> LogLine:
        """The button text of a legal action: a short imperative ("Place red on C4").

        War sides are named after the players whose leaders are at stake, as in the log.
        """
        kind = action.get("kind") if isinstance(action, Mapping) else None
        d: dict[str, Any] = {k: v for k, v in action.items() if k not in ("kind", "outcome")}
        if "hex" in action:
            d["hex"] = self.hex_name(action["hex"])
        if isinstance(action.get("triangle"), list):
            d["triangle"] = ", ".join(self.hex_name(h) for h in action["triangle"])
        if kind == "draw":
            tiles = action.get("tiles")
            if tiles is None:
                return LogLine(gettext_noop("Draw tiles"), {})
            return LogLine(gettext_noop("Drew {tiles}"), {"tiles": ", ".join(tiles)})
        if kind == "swap":
            return LogLine(gettext_noop("Swap {tiles}"), {"tiles": ", ".join(action.get("tiles") or [])})
        if kind in ("commit", "choose_winner") and "side" in action:
            d["side"] = int(action.get("side", 0)) + 1
            d["owners"] = self.owners_names(action)
        if kind == "commit" and "side" in action:
            if d["owners"]:
                if action.get("leader"):
                    return LogLine(gettext_noop("Red tiles: {tiles}, and the red leader, to {owners}'s side"), d)
                return LogLine(gettext_noop("Red tiles: {tiles}, to {owners}'s side"), d)
            if action.get("leader"):
                return LogLine(gettext_noop("Red tiles: {tiles}, and the red leader, to side {side}"), d)
            return LogLine(gettext_noop("Red tiles: {tiles}, to side {side}"), d)
        if kind == "burn":
            d["who"] = self.seat_name(action.get("seat"))
        if kind == "peasants" and action.get("leader"):
            return LogLine(gettext_noop("Peasants' Revolt on {hex} (1 blue + blue leader)"), d)
        if kind == "build_pagoda" and action.get("leader"):
            return LogLine(gettext_noop("Build a pagoda on {triangle} (1 green + green leader)"), d)
        texts = {
            "leader": gettext_noop("Put the {colour} leader on {hex}"),
            "withdraw": gettext_noop("Withdraw the {colour} leader"),
            "tile": gettext_noop("Place {colour} on {hex}"),
            "peasants": gettext_noop("Peasants' Revolt on {hex} (2 blue)"),
            "build_pagoda": gettext_noop("Build a pagoda on {triangle} (2 green)"),
            "pass": gettext_noop("Pass (no action is possible)"),
            "take_market": gettext_noop("Take the {colour} market tile"),
            "pagoda": gettext_noop("Build a pagoda on {triangle}"),
            "decline": gettext_noop("No, thanks"),
            "commit": gettext_noop("Black tiles: {tiles}"),
            "abstain": gettext_noop("Commit nothing"),
            "choose_winner": gettext_noop("{owners}'s side wins") if d.get("owners")
            else gettext_noop("Make side {side} the winner"),
            "burn": gettext_noop("Burn a red tile {who} committed"),
            "remove_red": gettext_noop("Remove the red tile on {hex}"),
        }
        return LogLine(texts.get(str(kind), gettext_noop("Act")), d)

    def encode(self, state: State) -> dict[str, Any]:
        """Snapshot JSON (see :func:`.state.encode_state`)."""
        return encode_state(state)

    def decode(self, data: dict[str, Any]) -> State:
        """Inverse of :meth:`encode`."""
        return decode_state(json.loads(json.dumps(data)))


def _joined(separator: str, parts: list[LogLine]) -> LogLine | str:
    """``parts`` as one sentence part joined by ``separator`` (``"-"`` when there are none)."""
    if not parts:
        return "-"
    return LogLine(separator.join("{p" + str(i) + "}" for i in range(len(parts))),
                   {f"p{i}": part for i, part in enumerate(parts)})
