"""A tiny fixture game for platform tests (not a real game; registered only inside tests).

"Count to ten": a deck of cards 1, 2 and 3 (four of each). On a turn the
player draws a card into their secret hand (a chance action), then plays a
card from the hand to add it to their public total. The first to reach 10
wins. It has everything the platform must handle: turns, chance in digital
and physical mode, a hidden hand, a result.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from games.engines.base import Game, IllegalAction, LogLine, Prompt, action_kind, require
from games.engines.ranking import add_ranks, neighbour_ties

DECK = {"1": 4, "2": 4, "3": 4}


@dataclass(frozen=True)
class CountState:
    """deck: counts left; hands: one tuple of cards per seat; totals; turn; phase 'draw' or 'play'."""

    deck: tuple[tuple[str, int], ...]
    hands: tuple[tuple[str, ...], ...]
    totals: tuple[int, ...]
    turn: int = 0
    phase: str = "draw"


class CountingGame(Game):
    """Count to ten (fixture)."""

    slug = "counting"
    title = "Count to ten"
    min_seats = 2
    max_seats = 4
    chance_fields = {"draw": ("card",)}

    def setup(self, rng: random.Random) -> CountState:
        n = len(self.seats)
        return CountState(tuple(sorted(DECK.items())), tuple(() for _ in range(n)), tuple(0 for _ in range(n)))

    def prompt(self, state: CountState) -> Prompt:
        if self.result(state):
            return Prompt((), ())
        if state.phase == "draw":
            return Prompt((state.turn,), ("draw",), "{names} draws a card.", chance=True, step="draw")
        return Prompt((state.turn,), ("play",), "{names} plays a card.", step="play")

    def legal_actions(self, state: CountState, seat: int) -> list[dict[str, Any]]:
        if self.result(state) or seat != state.turn:
            return []
        if state.phase == "draw":
            if not self.physical:
                return [{"kind": "draw"}]
            return [{"kind": "draw", "card": c} for c, k in state.deck if k > 0]
        return [{"kind": "play", "card": c} for c in sorted(set(state.hands[seat]))]

    def fill_chance(self, state: CountState, seat: int, action: Mapping[str, Any], rng: random.Random):
        action = dict(action)
        if action.get("kind") == "draw" and "card" not in action:
            pool = [c for c, k in state.deck for _ in range(k)]
            action["card"] = rng.choice(pool)
        return action

    def apply(self, state: CountState, seat: int, action: Mapping[str, Any]) -> CountState:
        kind = action_kind(action)
        if kind not in ("draw", "play"):
            raise IllegalAction("bad_action", "Unknown action {kind}.", kind=kind)
        self.ensure_turn(state, seat, kind)
        card = require(action, "card", str)
        if kind == "draw":
            deck = dict(state.deck)
            if deck.get(card, 0) <= 0:
                raise IllegalAction("card_not_in_deck", "No {card} is left in the deck.", card=card)
            deck[card] -= 1
            if sum(deck.values()) == 0:
                deck = dict(DECK)
            hands = list(state.hands)
            hands[seat] = tuple(sorted(hands[seat] + (card,)))
            return replace(state, deck=tuple(sorted(deck.items())), hands=tuple(hands), phase="play")
        if card not in state.hands[seat]:
            raise IllegalAction("card_not_in_hand", "You hold no {card}.", card=card)
        hand = list(state.hands[seat])
        hand.remove(card)
        hands = list(state.hands)
        hands[seat] = tuple(hand)
        totals = list(state.totals)
        totals[seat] += int(card)
        return replace(state, hands=tuple(hands), totals=tuple(totals), phase="draw",
                       turn=(state.turn + 1) % len(self.seats))

    def view(self, state: CountState, seat: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {"totals": list(state.totals), "hand_sizes": [len(h) for h in state.hands],
                               "deck_left": sum(k for _, k in state.deck)}
        if seat is not None:
            out["private"] = {"hand": list(state.hands[seat])}
        return out

    def result(self, state: CountState) -> dict[str, Any] | None:
        winners = [i for i, t in enumerate(state.totals) if t >= 10]
        if not winners:
            return None
        ranking = sorted(range(len(state.totals)), key=lambda i: -state.totals[i])
        rows = [{"seat": s, "place": p + 1, "score": state.totals[s]} for p, s in enumerate(ranking)]
        add_ranks(rows, lambda r: -r["score"])
        ties = neighbour_ties(rows, [x.name for x in self.seats], lambda r: r["score"], [],
                              "{a} and {b} both have {score} and share rank {rank}.")
        return {"winners": winners, "steps": [{"text": "{who} reached 10.", "details": {"who": winners[0]}}, *ties],
                "ranking": rows, "ties": ties}

    def describe(self, seat: int, action: Mapping[str, Any], viewer: int | None) -> LogLine:
        if action.get("kind") == "draw":
            if viewer == seat and "card" in action:
                return LogLine("You drew a {card}.", {"card": action["card"]}, private=True)
            return LogLine("Drew a card.")
        return LogLine("Played a {card}.", {"card": action.get("card")})

    def label(self, seat: int, action: Mapping[str, Any]) -> LogLine:
        if action.get("kind") == "draw":
            return LogLine("Draw a card" if "card" not in action else "I drew a {card}", {"card": action.get("card")})
        return LogLine("Play your {card}", {"card": action.get("card")})

    def encode(self, state: CountState) -> dict[str, Any]:
        return {"deck": [list(x) for x in state.deck], "hands": [list(h) for h in state.hands],
                "totals": list(state.totals), "turn": state.turn, "phase": state.phase}

    def decode(self, data: Mapping[str, Any]) -> CountState:
        return CountState(tuple((c, k) for c, k in data["deck"]), tuple(tuple(h) for h in data["hands"]),
                          tuple(data["totals"]), data["turn"], data["phase"])
