"""Before the first move: who starts, and the physical set-up walked step by step.

Who starts is decided once per table, before the first move, by one of
:data:`games.engines.base.START_RULES`:

* ``youngest`` / ``oldest``: the app asks ("Who is the youngest?") and a phone taps a seat;
* ``highest_card``: every player turns up a card; ties draw again among the tied. In digital mode
  the app draws for each seat from ``start_rng`` (games/engines/chance.py: one key per table, so the
  host asking again turns up the same cards, and ``manage.py check_draws`` re-derives them); in physical mode a phone taps in what each real card showed, one round at a time;
* ``random``: one draw from ``start_rng`` when the table is created;
* ``chosen``: the host picked the seat when creating the table;
* ``winner``: a next game of a game whose rulebook says the winner starts (Sorry!).

Each decision is a ``start`` log row (:class:`games.models.Action`); every replay applies the last
one that names a seat to the opening position (:meth:`Game.with_start`). Seat indexes run clockwise
round the real table, so "clockwise from the start player" needs no reseating.

The set-up walkthrough is a list of checkable steps per game, player count and options, declared by
each game's adapter with the counts of its rules file (``shared/rules/<game>.md``) and edition data; which steps are checked is
kept on the table (``Table.pregame["walk"]``), so a reload loses nothing. It is public: every step
says what goes on the real table, never what a hidden hand or bag holds.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.engines import get_adapter
from games.engines.adapter import Step
from games.engines.base import START_RULES, Game, IllegalAction, gettext_noop

#: Upper bound of redraw rounds of one digital "highest card" draw (a tie of every seat 20 times running
#: has a probability far below 1e-12 with a 45-card deck).
MAX_ROUNDS = 20

RULE_NAMES = {
    "youngest": gettext_noop("the youngest player starts"),
    "oldest": gettext_noop("the oldest player starts"),
    "highest_card": gettext_noop("the highest card drawn starts"),
    "random": gettext_noop("a random player starts"),
    "chosen": gettext_noop("the host picks who starts"),
    "winner": gettext_noop("the winner of the last game starts"),
}


def printed_rule(cls: type[Game]) -> str:
    """The rule the game's rulebook prints (``Game.start_rule``)."""
    return cls.start_rule


def start_choices(cls: type[Game]) -> list[str]:
    """The start rules offered for game ``cls`` at table creation: the printed rule first, then the
    rulebook's alternatives, ``random`` and ``chosen``."""
    out = [cls.start_rule, *cls.start_alternatives, "random", "chosen"]
    return [r for i, r in enumerate(out) if r not in out[:i]]


def check_rule(game: Game, rule: str, seat: Any = None) -> tuple[str, int | None]:
    """``(rule, seat)`` checked for ``game``: ``IllegalAction("bad_start")`` for an unknown rule, a
    "highest card" start in a game without cards, or a ``chosen``/``winner`` start without a seat."""
    if rule not in START_RULES:
        raise IllegalAction("bad_start", gettext_noop("Who starts must be one of {rules}."), rules=list(START_RULES))
    if rule == "highest_card" and game.start_cards() is None:
        raise IllegalAction("bad_start", gettext_noop("This game has no deck to draw the start player from."))
    if rule in ("chosen", "winner"):
        return rule, game.check_start_seat(seat)
    return rule, None


# -- the highest card ------------------------------------------------------------------------------


def _rank(game: Game, round_: Mapping[str, str]) -> list[int]:
    """The seats of one round that drew the highest card (several when tied)."""
    ranks = {int(s): game.start_card_rank(card) for s, card in round_.items()}
    top = max(ranks.values())
    return sorted(s for s, r in ranks.items() if r == top)


def draw_highest(game: Game, seats: list[int], rng: random.Random) -> tuple[list[dict[str, str]], int]:
    """A digital "highest card" start among ``seats``: ``(rounds, winner)``.

    Each round every seat still in turns up one card from the full deck
    (:meth:`Game.start_cards`, drawn without replacement within the round and
    returned after it); the highest card starts, and the seats tied on it
    draw again. ``rounds`` is ``[{"<seat>": card}, ...]``.
    Deterministic for a given ``rng`` state, so the log replays and
    ``check_draws`` re-derives it.
    """
    deck = game.start_cards() or {}
    pool = [card for card, n in sorted(deck.items()) for _ in range(n)]
    rounds: list[dict[str, str]] = []
    tied = sorted(seats)
    for _ in range(MAX_ROUNDS):
        cards = rng.sample(pool, len(tied))
        round_ = {str(s): c for s, c in zip(tied, cards, strict=True)}
        rounds.append(round_)
        tied = _rank(game, round_)
        if len(tied) == 1:
            return rounds, tied[0]
    return rounds, tied[0]  # practically unreachable; the lowest tied seat, and the rounds say so


def tapped_round(game: Game, seats: list[int], cards: Mapping[Any, Any]) -> tuple[dict[str, str], list[int]]:
    """One physical round of a "highest card" start: ``(round, seats that drew the highest)``.

    ``cards`` maps each seat of ``seats`` (int or its decimal text) to the
    card its real card showed. Raises ``IllegalAction("bad_start_cards")``
    when a seat is missing or extra, a card is not in the deck, or the round
    asks for more copies of a card than the deck has.
    """
    deck = game.start_cards() or {}
    if not isinstance(cards, Mapping):
        raise IllegalAction("bad_start_cards", gettext_noop("Enter one card for each player who draws."))
    round_: dict[str, str] = {}
    for key, card in cards.items():
        try:
            seat = int(key)
        except (TypeError, ValueError):
            raise IllegalAction("bad_start_cards", gettext_noop("Enter one card for each player who draws.")) from None
        round_[str(seat)] = card
    if sorted(int(s) for s in round_) != sorted(seats):
        raise IllegalAction("bad_start_cards", gettext_noop("Enter one card for each player who draws."))
    used: dict[str, int] = {}
    for card in round_.values():
        if not isinstance(card, str) or card not in deck:
            raise IllegalAction("bad_start_cards", gettext_noop("That card is not in this game's deck."))
        used[card] = used.get(card, 0) + 1
        if used[card] > deck[card]:
            raise IllegalAction("bad_start_cards", gettext_noop(
                "The deck has only {n} of the card {card}; one round cannot show more."), n=deck[card], card=card)
    return round_, _rank(game, round_)


def still_drawing(rows: list[Any], n: int) -> list[int]:
    """The seats that still turn up a card: everyone, or those tied in the last undecided ``start`` row."""
    last = next((r for r in reversed(rows) if r.kind == "start"), None)
    if last is not None and last.payload.get("seat") is None and last.payload.get("tied"):
        return list(last.payload["tied"])
    return list(range(n))


# -- the set-up walkthrough ------------------------------------------------------------------------


def walkthrough(game: Game) -> list[Step]:
    """The set-up steps of ``game`` for its player count and options, in table order.

    The game's adapter declares them (``WebAdapter.walkthrough``), with the counts of its rules files
    (section in each ``Step.source``) and the table's options; a game without a walkthrough has none.
    """
    return get_adapter(game.slug).walkthrough(game, len(game.seats))


def walk_state(pregame: Mapping[str, Any]) -> dict[str, Any]:
    """``{"checked": [ids], "skipped": bool, "on": bool}`` of a table's walkthrough (``on``: it has one)."""
    walk = pregame.get("walk")
    if not isinstance(walk, Mapping):
        return {"checked": [], "skipped": False, "on": False}
    return {"checked": list(walk.get("checked") or []), "skipped": bool(walk.get("skipped")), "on": True}


def start_state(pregame: Mapping[str, Any]) -> dict[str, Any] | None:
    """The table's start decision ``{"rule", "seat", "tied"}``, or ``None`` for a table made without one."""
    start = pregame.get("start")
    return dict(start) if isinstance(start, Mapping) else None


def start_pending(pregame: Mapping[str, Any]) -> bool:
    """True while the table has still to decide who starts (no move may be played yet)."""
    start = start_state(pregame)
    return start is not None and start.get("seat") is None
