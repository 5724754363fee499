"""Scripted Yellow & Yangtze games for the web and browser tests: found by seeded random play, replayed as payloads.

The games are played with a physical bag, so every draw is in the payload and
a script replays the same way on any install (no table RNG involved).
"""

from __future__ import annotations

import random
from typing import Any

from games.engines.base import SeatInfo
from shelf.yellow_yangtze import YellowYangtzeGame
from shelf.yellow_yangtze.rules.conflicts import war_strengths
from shelf.yellow_yangtze.state import War

Step = tuple[int, dict[str, Any]]


def game_for(names: list[str], options: dict[str, Any] | None = None) -> YellowYangtzeGame:
    """The engine for these seat names (practice board unless ``options`` name one)."""
    return YellowYangtzeGame({"components": "physical", **(options or {})},
                             [SeatInfo(i, n, "red") for i, n in enumerate(names)])


class StartWith(random.Random):
    """An RNG for ``setup`` whose one ``randrange`` (the start player, §1.3) answers ``start``."""

    def __init__(self, start: int) -> None:
        super().__init__(0)
        self.start = start

    def randrange(self, *args: Any, **kwargs: Any) -> int:  # type: ignore[override]
        return self.start


def tie_war_brink(names: list[str], start: int, seed: int, options: dict[str, Any] | None = None,
                  limit: int = 400) -> tuple[list[Step], Step, Any]:
    """Random play (seed ``seed``) up to a main step where the active player can start a war.

    Only a war whose warring states hold no red tiles is taken, so with nobody
    committing the sides tie and the unifier must choose the winner (§5.3).
    ``start`` is the start player the table drew (physical setup draws nothing
    else). Returns ``(steps before, the war-starting step, the state before it)``.
    """
    game = game_for(names, options)
    rng = random.Random(seed)
    state = game.setup(StartWith(start))
    steps: list[Step] = []
    for _ in range(limit):
        prompt = game.prompt(state)
        if not prompt.seats:
            break
        seat = prompt.seats[0]
        if prompt.step == "action" and state.actions_left == 2:
            for action in game.legal_actions(state, seat):
                if action["kind"] != "tile":
                    continue
                after = game.apply(state, seat, action)
                war = after.pending
                if isinstance(war, War) and war.stage == "support" and len(war.sides) == 2 and \
                        not any(war_strengths(after, war, with_leaders=False)):
                    return steps, (seat, action), state
        if prompt.step == "draw":
            action = game.fill_chance(state, seat, {"kind": "draw"}, rng)
        else:
            options_now = [a for a in game.legal_actions(state, seat) if a["kind"] not in ("swap",)]
            calm = [a for a in options_now if not isinstance(game.apply(state, seat, a).pending, War)]
            action = rng.choice(calm or options_now)
        steps.append((seat, action))
        state = game.apply(state, seat, action)
    raise AssertionError("no war brink within the limit")

