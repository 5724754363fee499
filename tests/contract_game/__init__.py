"""Tile duel: the contract game, a tiny game that exists only in the tests.

It holds what a newcomer writes for a new game (games/engines/README.md), no more, in one folder shaped as a
shipped game's (``shelf/<slug>/``): this engine, the payload shapes (``actions.py``), the web adapter
(``web.py``), the board templates (``templates/contract/``), the rules at hand per language
(``rules_at_hand/``), its translations (``locale/``); and one registry line (``tests/registry.py``). It is
an installed app of the test session (``tests/settings.py``), found as a shipped game is.
The shared suites run it beside the real games, so a platform change that only works for them fails here.

Rules (numbers are the sections of the rules at hand):

1. A bag holds nine tiles, three each of 1, 2 and 3. The youngest player starts; play passes to the left.
2. On your turn draw tiles from the bag into your hidden hand until you hold two (or the bag is empty),
   then attack with one tile from your hand (it is laid face up).
3. Conflict: the next player to the left answers: defend with a tile from their hand, or yield. A defence
   as high as the attack or higher wins the defender 1 point; otherwise the attacker scores the attack
   tile's value. Both tiles go to the discard pile, face up.
4. When a turn should start and the bag is empty, the game ends: most points wins; equal points share a rank.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from games.engines.base import Game, IllegalAction, LogLine, Prompt, action_kind, gettext_noop, require
from games.engines.ranking import add_ranks, neighbour_ties

#: Rule 1: the tiles in the box, tile -> copies.
TILES: dict[str, int] = {"1": 3, "2": 3, "3": 3}
#: Rule 2: a player draws until their hand holds this many tiles.
HAND = 2


@dataclass(frozen=True)
class DuelState:
    """``bag``: (tile, copies left) pairs; ``hands``: each seat's hidden tiles; ``discard``: tiles laid face up;
    ``scores``; ``turn``: the attacker; ``phase``: ``draw``, ``attack`` or ``defend``; ``attack``: the tile
    being answered (``defend`` only)."""

    bag: tuple[tuple[str, int], ...]
    hands: tuple[tuple[str, ...], ...]
    scores: tuple[int, ...]
    discard: tuple[str, ...] = ()
    turn: int = 0
    phase: str = "draw"
    attack: str | None = None


class ContractGame(Game):
    """Tile duel (the contract game of the tests): a bag, a hidden hand, one conflict step, a score."""

    slug = "contract"
    title = gettext_noop("Tile duel")
    min_seats = 2
    max_seats = 3
    chance_fields: ClassVar[Mapping[str, tuple[str, ...]]] = {"draw": ("tile",)}
    hidden_refusals: ClassVar[tuple[str, ...]] = ("tile_not_in_bag",)
    start_rule: ClassVar[str] = "youngest"
    start_source: ClassVar[str] = gettext_noop("The youngest player starts; play passes to the left.")

    def setup(self, rng: random.Random) -> DuelState:
        n = len(self.seats)
        return DuelState(tuple(sorted(TILES.items())), tuple(() for _ in range(n)), tuple(0 for _ in range(n)))

    def with_start(self, state: DuelState, seat: int) -> DuelState:
        """Rule 1: ``seat`` takes the first turn."""
        return replace(state, turn=self.check_start_seat(seat))

    def _defender(self, state: DuelState) -> int:
        return (state.turn + 1) % len(self.seats)

    def prompt(self, state: DuelState) -> Prompt:
        if self.result(state) is not None:
            return Prompt((), ())
        if state.phase == "draw":
            return Prompt((state.turn,), ("draw",), gettext_noop("{names} draws a tile."), chance=True, step="draw")
        if state.phase == "attack":
            return Prompt((state.turn,), ("attack",), gettext_noop("{names} attacks with a tile."), step="attack")
        return Prompt((self._defender(state),), ("defend", "yield"),
                      gettext_noop("{names} answers the attack of {tile}."), step="defend",
                      details={"tile": state.attack})

    def legal_actions(self, state: DuelState, seat: int) -> list[dict[str, Any]]:
        prompt = self.prompt(state)
        if seat not in prompt.seats:
            return []
        hand = sorted(set(state.hands[seat]))
        if state.phase == "draw":
            if not self.physical:
                return [{"kind": "draw"}]
            return [{"kind": "draw", "tile": t} for t in self._unseen_by(state, seat)]
        if state.phase == "attack":
            return [{"kind": "attack", "tile": t} for t in hand]
        return [*({"kind": "defend", "tile": t} for t in hand), {"kind": "yield"}]

    def _unseen_by(self, state: DuelState, seat: int) -> list[str]:
        """Rules README: the tiles ``seat`` cannot rule out (the box less the discard and its own hand)."""
        seen = [*state.discard, *state.hands[seat]]
        return [t for t, n in sorted(TILES.items()) if n - seen.count(t) > 0]

    def fill_chance(self, state: DuelState, seat: int, action: Mapping[str, Any], rng: random.Random):
        action = dict(action)
        if action.get("kind") == "draw" and "tile" not in action:
            action["tile"] = rng.choice([t for t, n in state.bag for _ in range(n)])
        return action

    def apply(self, state: DuelState, seat: int, action: Mapping[str, Any]) -> DuelState:
        kind = action_kind(action)
        if kind not in ("draw", "attack", "defend", "yield"):
            raise IllegalAction("bad_action", gettext_noop("Unknown action {kind}."), kind=kind)
        self.ensure_turn(state, seat, kind)
        if kind == "yield":
            return self._resolve(state, None)
        tile = require(action, "tile", str)
        if kind == "draw":
            bag = dict(state.bag)
            if bag.get(tile, 0) <= 0:
                if tile in TILES and self.physical:
                    raise IllegalAction("tile_not_in_bag", gettext_noop(
                        "The record says that tile cannot be in the bag: compare the table with the app."))
                raise IllegalAction("no_such_tile", gettext_noop("Rule 1: no {tile} is left in the bag."), tile=tile)
            bag[tile] -= 1
            hands = _with(state.hands, seat, tile)
            full = len(hands[seat]) >= HAND or not any(bag.values())
            return replace(state, bag=tuple(sorted(bag.items())), hands=hands, phase="attack" if full else "draw")
        if tile not in state.hands[seat]:
            raise IllegalAction("tile_not_in_hand", gettext_noop("Rule 2: you hold no {tile}."), tile=tile)
        hands = _without(state.hands, seat, tile)
        if kind == "attack":
            return replace(state, hands=hands, phase="defend", attack=tile)
        return self._resolve(replace(state, hands=hands), tile)

    def _resolve(self, state: DuelState, defence: str | None) -> DuelState:
        """Rule 3: score the conflict, discard both tiles, pass the turn to the left."""
        scores = list(state.scores)
        attack = state.attack or "0"
        if defence is not None and int(defence) >= int(attack):
            scores[self._defender(state)] += 1
        else:
            scores[state.turn] += int(attack)
        laid = (attack,) if defence is None else (attack, defence)
        return replace(state, scores=tuple(scores), discard=tuple(sorted(state.discard + laid)),
                       turn=self._defender(state), phase="draw", attack=None)

    def view(self, state: DuelState, seat: int | None) -> dict[str, Any]:
        """Public: scores, hand sizes, tiles left in the bag, the discard, the attack; ``private``: own hand."""
        out: dict[str, Any] = {"scores": list(state.scores), "hand_sizes": [len(h) for h in state.hands],
                               "bag_left": sum(n for _, n in state.bag), "discard": list(state.discard),
                               "turn": state.turn, "phase": state.phase, "attack": state.attack}
        if seat is not None:
            out["private"] = {"hand": list(state.hands[seat])}
        return out

    def result(self, state: DuelState) -> dict[str, Any] | None:
        """Rule 4: once the bag is empty at the start of a turn, rank by points (equal points share a rank)."""
        if state.phase != "draw" or any(n for _, n in state.bag):
            return None
        rows = [{"seat": s, "score": state.scores[s]} for s in sorted(range(len(state.scores)),
                                                                      key=lambda s: -state.scores[s])]
        for place, row in enumerate(rows, 1):
            row["place"] = place
        add_ranks(rows, lambda r: -r["score"])
        ties = neighbour_ties(rows, [x.name for x in self.seats], lambda r: r["score"], [],
                              gettext_noop("{a} and {b} both have {score} points and share rank {rank}."))
        best = rows[0]["score"]
        steps = [{"text": gettext_noop("{who} scored {score} points."),
                  "details": {"who": self.seats[r["seat"]].name, "score": r["score"]}} for r in rows]
        return {"winners": [r["seat"] for r in rows if r["score"] == best], "ranking": rows,
                "steps": [*steps, *ties], "ties": ties}

    def describe(self, seat: int, action: Mapping[str, Any], viewer: int | None) -> LogLine:
        kind, tile = action.get("kind"), action.get("tile")
        if kind == "draw":
            if viewer == seat and tile is not None:
                return LogLine(gettext_noop("You drew a {tile}."), {"tile": tile}, private=True)
            return LogLine(gettext_noop("Drew a tile."))
        if kind == "attack":
            return LogLine(gettext_noop("Attacked with a {tile}."), {"tile": tile})
        if kind == "defend":
            return LogLine(gettext_noop("Defended with a {tile}."), {"tile": tile})
        return LogLine(gettext_noop("Yielded."))

    def label(self, seat: int, action: Mapping[str, Any]) -> LogLine:
        kind, tile = action.get("kind"), action.get("tile")
        if kind == "draw":
            if tile is None:
                return LogLine(gettext_noop("Draw a tile"))
            return LogLine(gettext_noop("I drew a {tile}"), {"tile": tile})
        if kind == "attack":
            return LogLine(gettext_noop("Attack with your {tile}"), {"tile": tile})
        if kind == "defend":
            return LogLine(gettext_noop("Defend with your {tile}"), {"tile": tile})
        return LogLine(gettext_noop("Yield"))

    def encode(self, state: DuelState) -> dict[str, Any]:
        return {"bag": [list(x) for x in state.bag], "hands": [list(h) for h in state.hands],
                "scores": list(state.scores), "discard": list(state.discard), "turn": state.turn,
                "phase": state.phase, "attack": state.attack}

    def decode(self, data: Mapping[str, Any]) -> DuelState:
        return DuelState(tuple((t, n) for t, n in data["bag"]), tuple(tuple(h) for h in data["hands"]),
                         tuple(data["scores"]), tuple(data["discard"]), data["turn"], data["phase"], data["attack"])


def _with(hands: tuple[tuple[str, ...], ...], seat: int, tile: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(sorted((*h, tile))) if i == seat else h for i, h in enumerate(hands))


def _without(hands: tuple[tuple[str, ...], ...], seat: int, tile: str) -> tuple[tuple[str, ...], ...]:
    def drop(hand: tuple[str, ...]) -> tuple[str, ...]:
        i = hand.index(tile)
        return hand[:i] + hand[i + 1:]
    return tuple(drop(h) if i == seat else h for i, h in enumerate(hands))
