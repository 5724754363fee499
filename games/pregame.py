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

The set-up walkthrough is a list of checkable steps per game, player count and options, with the
counts of the rules files (``shared/rules/<game>.md``) and edition data; which steps are checked is
kept on the table (``Table.pregame["walk"]``), so a reload loses nothing. It is public: every step
says what goes on the real table, never what a hidden hand or bag holds.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

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


@dataclass(frozen=True)
class Step:
    """One checkable set-up step: a stable ``id``, an English template with ``{placeholders}`` and its
    ``details``, and the rules-file section it comes from (``source``)."""

    id: str
    text: str
    details: Mapping[str, Any]
    source: str


def _sorry(game: Game, n: int) -> list[Step]:
    o = game.options
    fast = o.get("points_mode") or o.get("fast_start")
    deck = sum((o.get("deck_counts") or {}).values())
    steps = [Step("pawns", gettext_noop("Each player puts the {pawns} pawns of their colour in their START."),
                  {"pawns": o["pawns_per_colour"]}, "2.3")]
    if fast:
        steps.append(Step("fast", gettext_noop("Fast start: each player moves one pawn from START onto their start exit."),
                          {}, "2.3, 3.2"))
    if o.get("team_mode"):
        steps.append(Step("teams", gettext_noop("Partners: Red with Yellow, Blue with Green."), {}, "3.1"))
    if game.physical:
        steps.append(Step("deck", gettext_noop(
            "Shuffle the {cards} cards (no 6 or 9) and put them face down on the draw pile."), {"cards": deck}, "2.1"))
    else:
        steps.append(Step("deck", gettext_noop(
            "The app draws the {cards} cards: leave the deck in the box."), {"cards": deck}, "2.1"))
    if o.get("points_mode"):
        text = (gettext_noop("Deal {hand} cards to each player; each enters their own cards on their phone.")
                if game.physical else gettext_noop("The app deals {hand} cards to each phone."))
        steps.append(Step("hands", text, {"hand": o["points_hand_size"]}, "3.2"))
    return steps


def _yellow_yangtze(game: Game, n: int) -> list[Step]:
    o = game.options
    steps = [
        Step("capitals", gettext_noop("Put a black tile on each of the 7 capital hexes."), {}, "1.3 step 1"),
        Step("bag", gettext_noop("Put the other {tiles} tiles in the bag."),
             {"tiles": 131 if o.get("capitals_from_black", True) else 138}, "1.2, 1.3 step 2"),
    ]
    if o.get("short_game"):
        steps.append(Step("short", gettext_noop("Short game: take 24 tiles from the bag without looking and set them aside."),
                          {}, "1.3 step 3"))
    steps += [
        Step("supply", gettext_noop("Put the 9 pagodas, the score markers and the unification token beside the board."),
             {}, "1.2, 1.3 step 4"),
        Step("dynasty", gettext_noop("Each player takes a dynasty: its 5 leaders and a screen."), {}, "1.3 step 5"),
    ]
    if game.physical:
        steps += [
            Step("hands", gettext_noop("Each player draws 6 tiles in secret and enters them on their own phone."), {},
                 "1.3 step 6"),
            Step("market", gettext_noop("The start player draws 6 tiles face up for the market and enters them."), {},
                 "1.3 step 7"),
        ]
    else:
        steps += [
            Step("hands", gettext_noop("Each player takes from the bag the 6 tiles their phone shows, behind their screen."),
                 {}, "1.3 step 6"),
            Step("market", gettext_noop("Lay out the 6 market tiles the table screen shows, face up."), {}, "1.3 step 7"),
        ]
    return steps


def _amun_re(game: Game, n: int) -> list[Step]:
    return [
        Step("provinces", gettext_noop(
            "Sort the province cards by their back; for each Kingdom draw {cards} at random, put the rest back "
            "unseen, shuffle each Kingdom's cards and lay the three piles out in order 1, 2, 3."),
            {"cards": 3 * n}, "2.1 step 1"),
        Step("colours", gettext_noop(
            "Each player takes one colour: its 9 gold cards (0 to 8), its marker and a player aid; the unused "
            "colours go back in the box."), {}, "1.2, 2.1 step 2"),
        Step("supply", gettext_noop("Pyramids and honour tokens form a common supply."), {}, "2.1 step 3"),
        Step("box", gettext_noop(
            "Close and turn over the box: offering table and revenue track face up, the temple marker beside "
            "them, every marker on 0."), {}, "2.1 step 4"),
        Step("reveal", gettext_noop("Turn up {cards} Kingdom 1 province cards in a row."), {"cards": n}, "2.1 step 6"),
    ]


def _catan_junior(game: Game, n: int) -> list[Step]:
    english = game.options.get("edition") == "english"
    stock = {"lairs": 5, "ships": 6 if english else 5}
    if n == 2:
        # SU2, 2.3: the 2-player side prints only red and purple start sites; the seats take them in seat
        # order whatever colour their pieces are (engines/catan_junior TWO_PLAYER_START).
        pieces = Step("pieces", gettext_noop(
            "{first} puts 2 lairs on the red start sites and 2 ships on the red start routes, {second} on the "
            "purple ones, whatever colour your pieces are; each keeps {lairs} lairs and {ships} ships in front of "
            "them."), {"first": game.seats[0].name, "second": game.seats[1].name, **stock}, "SU2, SU3, 2.3")
    else:
        pieces = Step("pieces", gettext_noop(
            "Each player puts 2 lairs on the two start sites of their colour and 2 ships on the two start "
            "routes, and keeps {lairs} lairs and {ships} ships in front of them."), stock, "SU3")
    return [
        Step("side", gettext_noop("Lay out the board with its 2-player side up.") if n == 2 else
             gettext_noop("Lay out the board with its 3–4 player side up."), {}, "SU1"),
        pieces,
        Step("ghost", gettext_noop("Put the Ghost Captain on the castle; shuffle the 16 Coco tiles face down."), {},
             "SU4"),
        Step("market", gettext_noop(
            "Make a supply of 18 of each resource and put one of each on the 5 marketplace spaces."), {}, "SU5"),
        Step("resources", gettext_noop("Each player takes 1 wood and 1 molasses.") if english else
             gettext_noop("Each player takes 1 wood and 1 cutlass."), {}, "SU5"),
    ]


_STEPS = {"sorry": _sorry, "yellow_yangtze": _yellow_yangtze, "amun_re": _amun_re, "catan_junior": _catan_junior}


def walkthrough(game: Game) -> list[Step]:
    """The set-up steps of ``game`` for its player count and options, in table order.

    Counts come from the rules files (section in each ``Step.source``) and
    the table's options (pawns per colour, deck, hand size, edition). A game
    without a list has none.
    """
    make = _STEPS.get(game.slug)
    return make(game, len(game.seats)) if make else []


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
