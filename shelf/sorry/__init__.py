"""Sorry! (Hasbro 2005 classic rules, with team and play-for-points variants).

Rules file: shared/rules/sorry.md. The engine object is :class:`SorryGame`.

Turn shape, standard game (sections 2.2-2.3):

1. ``{"kind": "draw"}`` (digital; the server fills ``"card"``) or
   ``{"kind": "draw", "card": "7"}`` (physical: the card the player turned up).
2. one ``move`` from :meth:`SorryGame.legal_actions`, or ``{"kind": "pass"}``
   when the card gives no legal move (turn lost) or to decline an 11 that
   can only swap. After a 2 the same seat draws again.

Play for points (section 3.2): a ``deal`` phase of ``draw`` actions fills
every hand; then each turn is a ``move`` (with a card from the hand), a
``{"kind": "discard", "card": c}`` when no card in the hand can move, or
``{"kind": "pass", "card": "11"}`` to decline an 11 that can only swap;
then one ``draw`` refills the hand (secret to the other seats).

Move payloads (every one in ``legal_actions`` is ready to post; ``to`` is
the landing square before any slide, checked when present):

* count: ``{"kind": "move", "card": "5", "pawn": "R1", "steps": 5, "to": "T9"}``
  (``steps`` negative for 4 and the 10's back one: ``-4``, ``-1``);
* start (1 or 2): ``{"kind": "move", "card": "1", "pawn": "R2", "to": "T4"}``;
* 11 swap: ``{"kind": "move", "card": "11", "pawn": "R0", "target": "B1", "to": "T20"}``;
* Sorry!: ``{"kind": "move", "card": "sorry", "pawn": "R3", "target": "B1", "to": "T20"}``;
* split 7: ``{"kind": "move", "card": "7", "pawn": "R0", "steps": 4, "to": "T10",
  "then": {"pawn": "R1", "steps": 3, "to": "T12"}}`` (legs in order, section 2.5).
"""

from __future__ import annotations

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
    require,
)
from games.engines.ranking import add_ranks, neighbour_ties
from shelf.sorry import visibility
from shelf.sorry.board import COLOURS, HOME, LETTERS, PARTNER, START, distance_to_home, start_exit
from shelf.sorry.notation import (
    bad_position,
    move_text,
    parse_pawn_id,
    parse_position,
    pawn_id,
    side_effects,
)
from shelf.sorry.rules import (
    REASONS,
    Flags,
    Move,
    Pawns,
    eleven_may_decline,
    landing,
    moves_for_card,
    perform,
)
from shelf.sorry.scoring import load_points_table, points_scores, validate_points_table
from shelf.sorry.state import (
    CARD_INDEX,
    CARDS,
    DEAL,
    DECK_2005,
    DRAW,
    MOVE,
    OVER,
    SorryState,
    counts_of,
    decode_state,
    encode_state,
    loc_text,
)

__all__ = ["SorryGame", "SorryState"]


#: Points mode, physical deck: the one message of a refused draw. It names no card and no reason, since the
#: drawer was offered every card they cannot rule out, and only the others' secret hands rule this one out (3.2).
DRAW_REFUSED = gettext_noop(
    "Section 2.1: the table's record of the draw pile cannot give this card. Check the card drawn; "
    "if an earlier move was entered wrongly, propose a correction."
)


def _flag(name: str, default: bool, help_text: str) -> OptionSpec:
    return OptionSpec(name, default, (True, False), help_text)


def _add(counts: tuple[int, ...], card: str, n: int = 1) -> tuple[int, ...]:
    i = CARD_INDEX[card]
    return counts[:i] + (counts[i] + n,) + counts[i + 1:]


#: The Sorry! card's word for people: the catalogue's "Sorry!" in the context "card" (templates/sorry/card.jinja and hand.jinja).
CARD_WORD = "card\x04Sorry!"


class SorryGame(Game):
    """The Sorry! referee: options fixed per table, state passed in (see the module docstring)."""

    slug = "sorry"
    title = "Sorry!"
    # The card "Sorry!" (card_name) is written in the seeds' word for the card (sorry.az.txt "Bağışlayın!", sorry.ps.txt
    # "بخښنه!"): the catalogue's entry "Sorry!" in the context "card" (context and message joined by \x04, as
    # gettext stores them), apart from the game's title, which keeps the box's printed name.
    terms: ClassVar[Mapping[str, str]] = {"Sorry!": CARD_WORD}
    min_seats = 2
    max_seats = 4
    colours = COLOURS
    chance_fields = {"draw": ("card",)}
    # Section 3.2: in points mode the pile is the deck less the discard and every secret hand.
    hidden_refusals = ("card_not_in_deck",)
    # Who starts (the rules file has no such section, so the notes live here). The seeds
    # (sorry.az.txt, sorry.ps.txt, "Sorry!" set-up paragraph) say: choose a player to begin — the highest
    # card drawn, the youngest player, etc. — and play passes to the left (section 1.1); under "Winning"
    # (section 2.3, "The winner starts the next game", H1): if you play again, the winner goes first.
    start_rule = "highest_card"
    start_alternatives = ("youngest",)
    start_source = gettext_noop("The highest card drawn (or the youngest player) starts; play passes to the left. The winner starts the next game.")  # seeds, set-up; rules 2.3
    next_game_start = "winner"
    option_specs = (
        COMPONENTS,
        _flag("team_mode", False, gettext_noop("Section 3.1: team rules, Red+Yellow against Blue+Green (4 players); move either partner's pawns.")),
        _flag("points_mode", False, gettext_noop("Section 3.2: play for points with 5-card hands, fast start and the winner's bonus table.")),
        OptionSpec("pawns_per_colour", 4, (3, 4), gettext_noop("Section 3.4: pawns per colour (4 classic; 3 in the 2013 print).")),
        _flag("fast_start", False, gettext_noop("Section 2.3 / 3.4: start with one pawn already on the start exit (always on in points mode).")),
        _flag("two_draws_again", True, gettext_noop("Section 2.2 / D07: a 2 draws again, even when it could not be used (off in the 2013 print).")),
        _flag("sorry_forward4_option", False, gettext_noop("Section 2.2 / 3.4 / D12: the Sorry! card may instead move a pawn 4 forward (2013 print).")),
        _flag("eleven_swap_may_decline", True, gettext_noop("Section 2.2 / 2.3: with an 11 and no 11-forward move, a player may end the turn instead of swapping.")),
        _flag("swapped_opponent_slides", True, gettext_noop("Section 6.2 / D05: an opponent put on a foreign slide triangle by an 11 swap slides too.")),
        _flag("slide_on_own_colour", False, gettext_noop("Section 2.4 / D08: house rule: pawns also slide on their own colour's slides.")),
        _flag("team_swap_with_partner", False, gettext_noop("Section 3.1 / 6.5: in team play the 11 may swap with the partner's pawn when no opponent pawn is on the track.")),
        _flag("points_two_plays_again", True, gettext_noop("Section 3.2 / 6.4: in points mode a 2 played from the hand gives another play.")),
        OptionSpec("points_hand_size", 5, (4, 5, 6, 7), gettext_noop("Section 3.2: cards in hand in points mode (5 on the sheet).")),
        OptionSpec("points_table", None, (), gettext_noop("Section 3.2 / 6.1: the winner's bonus table as JSON; empty = shipped table, unverified.")),
        OptionSpec("deck_counts", None, (), gettext_noop("Section 2.1: cards per value as JSON, e.g. the 1934 deck of 44; empty = the 45-card 2005 deck.")),
    )

    def __init__(self, options: Mapping[str, Any] | None, seats: Sequence[SeatInfo]) -> None:
        super().__init__(options, seats)
        names = [seat.colour for seat in self.seats]
        if any(name not in COLOURS for name in names) or len(set(names)) != len(names):
            raise IllegalAction("bad_seats", gettext_noop("Section 1.1: each seat takes a different colour of red, blue, yellow, green."))
        self.seat_colour: tuple[int, ...] = tuple(COLOURS.index(name) for name in names)
        self.colour_seat = {c: s for s, c in enumerate(self.seat_colour)}
        if self.options["team_mode"]:
            if len(self.seats) != 4:
                raise IllegalAction("bad_option", gettext_noop("Section 3.1: team rules need four players."))
            self.mine = tuple((c, PARTNER[c]) for c in self.seat_colour)
        else:
            self.mine = tuple((c,) for c in self.seat_colour)
        self.flags = Flags(
            slide_on_own_colour=self.options["slide_on_own_colour"],
            swapped_opponent_slides=self.options["swapped_opponent_slides"],
            sorry_forward4_option=self.options["sorry_forward4_option"],
            team_mode=self.options["team_mode"],
            team_swap_with_partner=self.options["team_swap_with_partner"],
        )
        self.points = bool(self.options["points_mode"])
        self.deck_total = sum(self.options["deck_counts"].values())

    # -- options -----------------------------------------------------------

    def validate_options(self, options: Mapping[str, Any]) -> JSON:
        """Fill defaults, load and check the edition data; cross-option checks (sections 2.1, 3.1, 3.2)."""
        result = super().validate_options(options)
        if result["team_mode"] and result["points_mode"]:
            raise IllegalAction("bad_option", gettext_noop("Sections 3.1 and 3.2: team rules and play for points do not combine."))
        table = result["points_table"]
        result["points_table"] = load_points_table() if table is None else validate_points_table(table)
        deck = result["deck_counts"]
        if deck is None:
            deck = dict(DECK_2005)
        if (
            not isinstance(deck, Mapping)
            or set(deck) - set(CARDS)
            or any(not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 20 for n in deck.values())
        ):
            raise IllegalAction("bad_edition", gettext_noop("Section 2.1: deck_counts maps card values (1..12 without 6 and 9, sorry) to counts 0..20."))
        deck = {card: int(deck.get(card, 0)) for card in CARDS}
        if deck["1"] + deck["2"] == 0 or sum(deck.values()) < 4 * result["points_hand_size"] + 4:
            raise IllegalAction("bad_edition", gettext_noop("Section 2.1: the deck needs 1s or 2s to start pawns and enough cards for every hand."))
        result["deck_counts"] = deck
        return result

    # -- set-up and turn order ---------------------------------------------

    def setup(self, rng: random.Random) -> SorryState:
        """Opening state: pawns in START (fast start: pawn 0 on the start exit), full deck (sections 2.3, 3.2).

        No randomness is used here: every card comes from a ``draw`` action.
        """
        per = self.options["pawns_per_colour"]
        fast = self.points or self.options["fast_start"]
        pawns = tuple(
            ((start_exit(c),) + (START,) * (per - 1) if fast else (START,) * per) if c in self.seat_colour else ()
            for c in range(4)
        )
        deck = counts_of(self.options["deck_counts"])
        if self.points:
            empty = (0,) * len(CARDS)
            return SorryState(pawns, 0, DEAL, None, deck, empty, tuple(empty for _ in self.seats))
        return SorryState(pawns, 0, DRAW, None, deck, (0,) * len(CARDS))

    def state_from_position(
        self, position_text: str, card: str | None = None, hands: Mapping[int, Sequence[str]] | None = None
    ) -> SorryState:
        """A state from section 5 notation (grammar in :mod:`shelf.sorry.notation`).

        The mover's seat is in turn. With ``card`` (standard game) it has just
        drawn that card (step ``move``); without, it is about to draw. In
        points mode ``hands`` gives each seat's cards (seat -> list) and the
        mover is about to play. Seated colours absent from the text have every
        pawn HOME; a colour in the text without a seat is ``bad_position``.
        The deck holds every card not in a hand or drawn; the discard is empty.
        """
        position = parse_position(position_text, self.options["pawns_per_colour"])
        for c in position.colours:
            if c not in self.seat_colour:
                raise bad_position("no seat plays {colour}", colour=COLOURS[c])
        per = self.options["pawns_per_colour"]
        pawns = tuple(
            (position.pawns[c] or (HOME,) * per) if c in self.seat_colour else () for c in range(4)
        )
        seat = self.colour_seat[position.mover]
        deck = counts_of(self.options["deck_counts"])
        empty = (0,) * len(CARDS)
        taken: list[str] = []
        if card is not None:
            self._check_card(card)
            taken.append(card)
        hand_counts: list[tuple[int, ...]] = [empty for _ in self.seats] if self.points else []
        for s, cards in (hands or {}).items():
            if not self.points or not isinstance(s, int) or not 0 <= s < len(self.seats):
                raise bad_position("hands are given per seat index, in points mode only")
            for c in cards:
                self._check_card(c)
                hand_counts[s] = _add(hand_counts[s], c)
                taken.append(c)
        for c in taken:
            deck = _add(deck, c, -1)
            if deck[CARD_INDEX[c]] < 0:
                raise bad_position("more {card} cards than the deck holds", card=c)
        step = MOVE if (card is not None or self.points) else DRAW
        return SorryState(pawns, seat, step, None if self.points else card, deck, empty, tuple(hand_counts))

    def with_start(self, state: SorryState, seat: int) -> SorryState:
        """The opening with ``seat`` to draw (or to be dealt first, points mode): play then passes left (1.1)."""
        seat = self.check_start_seat(seat)
        return SorryState(state.pawns, seat, state.step, state.card, state.deck, state.discard, state.hands,
                          state.again, state.winner)

    def start_cards(self) -> dict[str, int]:
        """The table's own deck (``deck_counts``, section 2.1): each player turns up one card for the start."""
        return dict(self.options["deck_counts"])

    def start_card_rank(self, card: str) -> int:
        """Numbers count their value; a Sorry! card, which has none, counts above 12 [D: our reading of
        "the highest card"]."""
        return 13 if card == "sorry" else int(card)

    def next_seat(self, seat: int) -> int:
        """Play passes to the left: the next seat index, wrapping (section 1.1)."""
        return (seat + 1) % len(self.seats)

    # -- prompt and legal actions ------------------------------------------

    def prompt(self, state: SorryState) -> Prompt:
        """Who acts now: the seat in turn; draw steps are chance steps."""
        if state.step == OVER:
            return Prompt((), (), gettext_noop("The game is over."), step=OVER)
        details = {"seat": state.turn, "colour": COLOURS[self.seat_colour[state.turn]],
                   "name": self.seats[state.turn].name}
        if state.step in (DEAL, DRAW):
            text = gettext_noop("Deal a card to {name}.") if state.step == DEAL else gettext_noop("{name}: draw a card.")
            return Prompt((state.turn,), ("draw",), text, chance=True, step=state.step, details=details)
        if self.points:
            return Prompt((state.turn,), ("move", "pass", "discard"), gettext_noop("{name}: play a card from your hand."),
                          step=MOVE, details=details)
        return Prompt((state.turn,), ("move", "pass"), gettext_noop("{name}: use the {card}."), step=MOVE,
                      details={**details, "card": card_name(state.card)})

    def _pile(self, state: SorryState) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Draw pile and discard, reshuffling the discard when the pile is empty (section 2.3)."""
        if sum(state.deck) == 0:
            return state.discard, (0,) * len(CARDS)
        return state.deck, state.discard

    def refusal_is_hidden(self, exc: IllegalAction) -> bool:
        """Points mode only: there the pile hides the others' secret hands (3.2); a standard pile is public."""
        return self.points and super().refusal_is_hidden(exc)

    def drawable(self, state: SorryState, seat: int) -> list[str]:
        """Card values the seat may enter as drawn (physical mode).

        Standard game: the cards still in the draw pile. Points mode: every
        value that could be in the pile as far as this seat knows (the
        others' hands are secret, section 3.2): the deck less the face-up
        discard (none once the pile ran out and the discard is the new pile,
        section 2.3) and the seat's own hand, so the list leaks nothing;
        ``apply`` still refuses a card that is not really there, with a
        message that does not say why (:data:`DRAW_REFUSED`).
        """
        if self.points:
            _pile, discard = self._pile(state)
            known = [
                n - discard[i] - state.hands[seat][i] for i, n in enumerate(counts_of(self.options["deck_counts"]))
            ]
            return [card for card, n in zip(CARDS, known, strict=True) if n > 0]
        deck, _ = self._pile(state)
        return [card for card, n in zip(CARDS, deck, strict=True) if n > 0]

    def _moves(self, state: SorryState, card: str) -> list[tuple[Move, Pawns]]:
        return moves_for_card(state.pawns, card, self.mine[state.turn], self.flags)

    def legal_actions(self, state: SorryState, seat: int) -> list[JSON]:
        """Every legal action of ``seat`` as a ready-to-post payload (shapes in the module docstring)."""
        if state.step == OVER or seat != state.turn:
            return []
        if state.step in (DEAL, DRAW):
            if not self.physical:
                return [{"kind": "draw"}]
            return [{"kind": "draw", "card": card} for card in self.drawable(state, seat)]
        if not self.points:
            moves = self._moves(state, state.card)
            out = [self._payload(state.pawns, move, self.mine[seat]) for move, _ in moves]
            if not moves or (state.card == "11" and eleven_may_decline(moves, self.options["eleven_swap_may_decline"])):
                out.append({"kind": "pass"})
            return out
        out = []
        for card in self._hand_cards(state, seat):
            moves = self._moves(state, card)
            out.extend(self._payload(state.pawns, move, self.mine[seat]) for move, _ in moves)
            if card == "11" and moves and eleven_may_decline(moves, self.options["eleven_swap_may_decline"]):
                out.append({"kind": "pass", "card": "11"})
        if not out:
            out = [{"kind": "discard", "card": card} for card in self._hand_cards(state, seat)]
        out.sort(key=lambda p: p.get("pawn", "~"))  # grouped by pawn for the phone's two-step choice
        return out

    def _hand_cards(self, state: SorryState, seat: int) -> list[str]:
        return [card for card, n in zip(CARDS, state.hands[seat], strict=True) if n]

    def _payload(self, pawns: Pawns, move: Move, mine: Any = None) -> JSON:
        """The ready-to-post payload of ``move`` (module docstring shapes).

        With ``mine`` (the mover's colours) the payload also says what the
        move does beyond its landing squares: ``"effects": [{"pawn", "to"}]``
        for slides and bumps (sections 2.3, 2.4), so a phone and the log can
        tell the table "G0 slides to T4, B1 goes back to START".
        """
        c, i = move.pawn
        payload: JSON = {"kind": "move", "card": move.card, "pawn": pawn_id(c, i)}
        if move.how in ("count", "split"):
            payload["steps"] = move.steps
        if move.target is not None:
            payload["target"] = pawn_id(*move.target)
        payload["to"] = loc_text(landing(pawns, move))  # type: ignore[arg-type]
        if move.how == "split" and move.then_pawn is not None:
            then = Move(move.card, "count", move.then_pawn, move.then_steps)
            payload["then"] = {"pawn": pawn_id(*move.then_pawn), "steps": move.then_steps,
                               "to": loc_text(landing(pawns, then))}  # type: ignore[arg-type]
        if mine is not None:
            after = perform(pawns, move, mine, self.flags)
            effects = [] if isinstance(after, str) else side_effects(pawns, move, after)
            if effects:
                payload["effects"] = effects
        return payload

    # -- apply ----------------------------------------------------------------

    def fill_chance(self, state: SorryState, seat: int, action: Mapping[str, Any], rng: random.Random) -> JSON:
        """Fill a ``draw`` without ``card`` by picking uniformly from the draw pile (section 2.1 multiset)."""
        out = dict(action)
        if out.get("kind") != "draw" or "card" in out or state.step not in (DEAL, DRAW):
            return out
        deck, _ = self._pile(state)
        total = sum(deck)
        if total == 0:
            return out
        pick = rng.randrange(total)
        for card, n in zip(CARDS, deck, strict=True):
            if pick < n:
                out["card"] = card
                break
            pick -= n
        return out

    def _check_card(self, card: Any) -> str:
        if not isinstance(card, str) or card not in CARD_INDEX:
            raise IllegalAction("bad_card", gettext_noop("Section 2.1: {card} is not a Sorry! card (1, 2, 3, 4, 5, 7, 8, 10, 11, 12, sorry)."), card=str(card))
        return card

    def apply(self, state: SorryState, seat: int, action: Mapping[str, Any]) -> SorryState:
        """Play ``action`` for ``seat``; a new state or ``IllegalAction`` (sections 2-3)."""
        kind = action_kind(action)
        if kind not in ("draw", "move", "pass", "discard"):
            raise IllegalAction("bad_action", gettext_noop("Unknown action kind {kind}."), kind=kind)
        self.ensure_turn(state, seat, kind)
        if kind == "draw":
            return self._apply_draw(state, seat, action)
        if not self.points:
            card = state.card
            assert card is not None
            if kind == "discard":
                raise IllegalAction("no_discard", gettext_noop("Section 2.3: in the standard game the drawn card is used or the turn is lost (pass)."))
            if "card" in action and action["card"] != card:
                raise IllegalAction("not_drawn_card", gettext_noop("Section 2.2: you drew the {card}; use that card."), card=card)
            if kind == "pass":
                moves = self._moves(state, card)
                if moves and not (card == "11" and eleven_may_decline(moves, self.options["eleven_swap_may_decline"])):
                    raise IllegalAction("move_available", gettext_noop("Section 2.3: the card allows a legal move, so you must make one."))
                return self._end_standard(state, state.pawns, card)
            pawns = self._apply_move(state, action, card)
            return self._end_standard(state, pawns, card)
        card = self._check_card(require(action, "card", str))
        if not state.hands[seat][CARD_INDEX[card]]:
            raise IllegalAction("card_not_in_hand", gettext_noop("Section 3.2: the {card} is not in your hand."), card=card)
        if kind == "discard":
            if any(self._moves(state, c) for c in self._hand_cards(state, seat)):
                raise IllegalAction("move_available", gettext_noop("Section 3.2: a card in your hand gives a legal move, so you must play one."))
            return self._end_points(state, state.pawns, card, moved=False)
        if kind == "pass":
            moves = self._moves(state, card)
            if card != "11" or not moves or not eleven_may_decline(moves, self.options["eleven_swap_may_decline"]):
                raise IllegalAction("move_available", gettext_noop("Section 2.2: only an 11 that can only swap may be declined; otherwise play or discard."))
            return self._end_points(state, state.pawns, card, moved=False)
        return self._end_points(state, self._apply_move(state, action, card), card, moved=True)

    def _apply_draw(self, state: SorryState, seat: int, action: Mapping[str, Any]) -> SorryState:
        if "card" not in action:
            raise IllegalAction("card_missing", gettext_noop("Section 2.1: say which card was drawn."))
        card = self._check_card(action["card"])
        deck, discard = self._pile(state)
        i = CARD_INDEX[card]
        if deck[i] <= 0:
            if self.points:  # saying "no 7 is left" would tell the drawer the others hold the 7s (section 3.2)
                raise IllegalAction("card_not_in_deck", DRAW_REFUSED)
            raise IllegalAction("card_not_in_deck", gettext_noop("Section 2.1: no {card} can still be in the draw pile."), card=card)
        deck = _add(deck, card, -1)
        if state.step == DRAW and not self.points:
            return SorryState(state.pawns, seat, MOVE, card, deck, discard, state.hands, False, None)
        hands = state.hands[:seat] + (_add(state.hands[seat], card),) + state.hands[seat + 1:]
        if state.step == DEAL:
            size = self.options["points_hand_size"]
            nxt = self.next_seat(seat)
            if sum(hands[nxt]) >= size:  # round the table: back at the first seat dealt, the start player
                return SorryState(state.pawns, nxt, MOVE, None, deck, discard, hands)
            return SorryState(state.pawns, nxt, DEAL, None, deck, discard, hands)
        turn = seat if state.again else self.next_seat(seat)
        return SorryState(state.pawns, turn, MOVE, None, deck, discard, hands)

    def _parse_move(self, state: SorryState, action: Mapping[str, Any], card: str) -> Move:
        """Payload -> :class:`Move`, checking field types and pawn ownership (section 5 ids)."""
        pawn = self._own_pawn(state, require(action, "pawn", str))
        if "then" in action:
            then = require(action, "then", dict)
            steps = require(action, "steps", int)
            then_pawn = self._own_pawn(state, require(then, "pawn", str))
            return Move(card, "split", pawn, steps, then_pawn=then_pawn, then_steps=require(then, "steps", int))
        if "target" in action:
            tc, ti = parse_pawn_id(require(action, "target", str))
            if not ti < len(state.pawns[tc]):
                raise IllegalAction("bad_pawn", gettext_noop("Section 5: there is no pawn {pawn} in this game."), pawn=action["target"])
            if card not in ("11", "sorry"):
                raise IllegalAction("card_cannot_swap", REASONS["card_cannot_swap"])
            return Move(card, "swap" if card == "11" else "sorry", pawn, target=(tc, ti))
        if "steps" in action:
            return Move(card, "count", pawn, require(action, "steps", int))
        if state.pawns[pawn[0]][pawn[1]] != START:
            raise IllegalAction("bad_action", gettext_noop("The action lacks the field {name}."), name="steps")
        return Move(card, "start", pawn)

    def _own_pawn(self, state: SorryState, text: str) -> tuple[int, int]:
        c, i = parse_pawn_id(text)
        if c not in self.mine[state.turn] or i >= len(state.pawns[c]):
            raise IllegalAction("not_your_pawn", gettext_noop("Section 2.2 / 3.1: {pawn} is not a pawn you may move."), pawn=text)
        return c, i

    def _apply_move(self, state: SorryState, action: Mapping[str, Any], card: str) -> Pawns:
        move = self._parse_move(state, action, card)
        mine = self.mine[state.turn]
        result = perform(state.pawns, move, mine, self.flags)
        if isinstance(result, str) and move.how == "split" and move.then_pawn is not None:
            # Section 2.5: an unstated order is accepted when the other order is legal.
            other = Move(card, "split", move.then_pawn, move.then_steps, then_pawn=move.pawn, then_steps=move.steps)
            swapped = perform(state.pawns, other, mine, self.flags)
            if not isinstance(swapped, str):
                move, result = other, swapped
        if isinstance(result, str):
            raise IllegalAction(result, REASONS[result], steps=move.steps)
        expected = self._payload(state.pawns, move, mine)
        if "effects" in action and action["effects"] != expected.get("effects", []):
            raise IllegalAction("wrong_effects", gettext_noop("Sections 2.3-2.4: this move ends with {effects}."),
                                effects=", ".join(f"{e['pawn']}@{e['to']}" for e in expected.get("effects", [])) or "-")
        landings = {expected["pawn"]: expected["to"]}
        if "then" in expected:
            landings[expected["then"]["pawn"]] = expected["then"]["to"]
        then = action.get("then")
        for leg in (action, then if isinstance(then, Mapping) else {}):
            if "to" in leg and leg["to"] != landings.get(leg.get("pawn")):
                raise IllegalAction("wrong_destination", gettext_noop("Section 1.4: {pawn} lands on {to}, not {given}."),
                                    pawn=str(leg.get("pawn")), to=landings.get(leg.get("pawn")), given=str(leg["to"]))
        return result

    def _won(self, pawns: Pawns, seat: int) -> bool:
        return all(loc == HOME for c in self.mine[seat] for loc in pawns[c])

    def _end_standard(self, state: SorryState, pawns: Pawns, card: str) -> SorryState:
        """Discard the card, then: win, draw again after a 2 (D07), or pass to the left (sections 2.2, 2.3)."""
        discard = _add(state.discard, card)
        deck = state.deck
        if self._won(pawns, state.turn):
            return SorryState(pawns, state.turn, OVER, None, deck, discard, state.hands, False, state.turn)
        turn = state.turn if (card == "2" and self.options["two_draws_again"]) else self.next_seat(state.turn)
        return SorryState(pawns, turn, DRAW, None, deck, discard, state.hands, False, None)

    def _end_points(self, state: SorryState, pawns: Pawns, card: str, moved: bool) -> SorryState:
        """Points mode: the card leaves the hand for the discard; win, else refill one card (section 3.2)."""
        seat = state.turn
        hands = state.hands[:seat] + (_add(state.hands[seat], card, -1),) + state.hands[seat + 1:]
        discard = _add(state.discard, card)
        if self._won(pawns, seat):
            return SorryState(pawns, seat, OVER, None, state.deck, discard, hands, False, seat)
        again = moved and card == "2" and self.options["points_two_plays_again"]
        return SorryState(pawns, seat, DRAW, None, state.deck, discard, hands, again, None)

    # -- result, view, log ------------------------------------------------

    def result(self, state: SorryState) -> JSON | None:
        """``None`` while running; then winners, ranking and tally steps (sections 2.3, 3.1, 3.2)."""
        if state.step != OVER or state.winner is None:
            return None
        ranking, steps, ties = self._tally(state, state.winner)
        winners = sorted(self._team_of(state.winner)) if not self.points else [r["seat"] for r in ranking if r["place"] == 1]
        return {"winners": winners, "ranking": ranking, "steps": steps + ties, "ties": ties}

    def standing(self, state: SorryState) -> JSON | None:
        """Pawns HOME as they stand (points: ``per_home_pawn`` each, no winner's bonus), for a game the host
        ended before anyone won; the others' order as :meth:`result` ranks everyone but the winner."""
        ranking, steps, ties = self._tally(state, None)
        opening = {"text": gettext_noop("The host ended the game before anyone won: pawns HOME count as they "
                                        "stand, with no winner's bonus."), "details": {}}
        return {"ranking": ranking, "steps": [opening, *steps, *ties], "ties": ties}

    def score_track(self, state: SorryState) -> JSON | None:
        """Each seat's count as the tally counts it (section 3.2): points in the points game (the winner's bonus
        once somebody won), else pawns HOME of the seat's side (team: both colours). Everything here is public."""
        ranking = self._tally(state, state.winner if state.step == OVER else None)[0]
        by_seat = {row["seat"]: row["score"] for row in ranking}
        return {"label": gettext_noop("points") if self.points else gettext_noop("pawns HOME"),
                "scores": [by_seat[s] for s in range(len(self.seats))]}

    def _tally(self, state: SorryState, winner: int | None) -> tuple[list[dict], list[dict], list[dict]]:
        """``(ranking, steps, ties)`` of the position: ranked by the winner's side first (none for ``None``),
        then pawns HOME, then progress along the track; points mode by score (section 3.2)."""
        n = len(self.seats)
        home = [sum(1 for loc in state.pawns[self.seat_colour[s]] if loc == HOME) for s in range(n)]
        not_home = [len(state.pawns[self.seat_colour[s]]) - home[s] for s in range(n)]
        steps: list[dict] = []
        if self.points:
            scores, steps = points_scores(home, not_home, winner, self.options["points_table"],
                                          [seat.name for seat in self.seats])
            key: list[Any] = scores
        else:
            team_home = [sum(1 for c in self.mine[s] for loc in state.pawns[c] if loc == HOME) for s in range(n)]
            progress = [
                sum(64 - (distance_to_home(loc, c) if loc != START else 66) for c in self.mine[s] for loc in state.pawns[c])
                for s in range(n)
            ]
            won = self._team_of(winner) if winner is not None else set()
            key = [(s in won, team_home[s], progress[s]) for s in range(n)]
            scores = team_home
            for s in range(n):
                steps.append({"text": gettext_noop("{name}: pawns HOME {home}."),
                              "details": {"seat": s, "name": self.seats[s].name,
                                          "colour": COLOURS[self.seat_colour[s]], "home": team_home[s]}})
        order = sorted(range(n), key=lambda s: key[s], reverse=True)
        ranking: list[dict] = []
        for pos, s in enumerate(order):
            place = ranking[-1]["place"] if pos and key[s] == key[order[pos - 1]] else pos + 1
            ranking.append({"seat": s, "place": place, "score": scores[s], "home": home[s]})
        return ranking, steps, self._ties(ranking, key)

    def _ties(self, ranking: list[dict], key: Sequence[Any]) -> list[dict]:
        """Ranks from the full ordering key, and why neighbours level on score stand where they do.

        Section 2.3 ("Winning") and 3.1 name only the winner (team); the app
        orders the others by pawns HOME, then by how far their pawns have come
        along the track (spaces from START), and seats level on both share a
        rank (teammates always do). Section 3.2 (points) names no tie-break: an
        equal score shares the rank. Sets ``rank`` on every row of ``ranking``.
        """
        add_ranks(ranking, lambda row: tuple(-v for v in key[row["seat"]]) if not self.points
                  else -key[row["seat"]])
        names = [seat.name for seat in self.seats]
        if self.points:
            return neighbour_ties(ranking, names, lambda r: r["score"], [], gettext_noop(
                "{a} and {b} both scored {score} points; the points game names no tie-break (section 3.2), so "
                "they share rank {rank}."))
        progress = [k[2] for k in key]
        return neighbour_ties(ranking, names, lambda r: r["score"], [(gettext_noop(
            "{a} and {b} both have {score} pawns HOME; {a} ranks higher on progress along the track "
            "({va} to {vb} spaces; section 2.3 names only the winner)."), lambda r: progress[r["seat"]])],
            gettext_noop("{a} and {b} both have {score} pawns HOME and have come equally far along the track; "
                         "they share rank {rank} (section 2.3 names only the winner)."))

    def seat_teams(self) -> list[int | None]:
        """Section 3.1: in the team game partners are Red with Yellow and Blue with Green; the team of the first
        seat is 0, the other 1. ``None`` for every seat without team rules."""
        if not self.options["team_mode"]:
            return super().seat_teams()
        firsts = [min(self._team_of(s)) for s in range(len(self.seats))]
        order = sorted(set(firsts))
        return [order.index(first) for first in firsts]

    def _team_of(self, seat: int) -> set[int]:
        return {s for s in range(len(self.seats)) if self.seat_colour[s] in self.mine[seat]}

    def view(self, state: SorryState, seat: int | None) -> JSON:
        """The state as ``seat`` may see it (see :mod:`shelf.sorry.visibility`)."""
        return visibility.build_view(self, state, seat)

    def action_text(self, state: SorryState, action: Mapping[str, Any]) -> str:
        """A legal action of the seat in turn as short notation (``R0 T6+5>T11``, ``pass``, ``discard 4``)."""
        kind = action.get("kind")
        if kind == "move":
            card = action.get("card") or state.card
            move = self._parse_move(state, action, card)
            after = perform(state.pawns, move, self.mine[state.turn], self.flags)
            return move_text(state.pawns, move, None if isinstance(after, str) else after)
        if kind == "draw":
            return f"draw {action.get('card', '')}".strip()
        return f"{kind} {action.get('card', '')}".strip()

    def describe(self, seat: int, action: Mapping[str, Any], viewer: int | None) -> LogLine:
        """The log line / button label of ``action`` by ``seat`` as ``viewer`` may read it.

        Points-mode draws are private: others read "drew a card".
        """
        name = self.seats[seat].name if 0 <= seat < len(self.seats) else "?"
        kind = action.get("kind")
        card = action.get("card")
        if kind == "draw":
            if card is None:
                return LogLine(gettext_noop("{name} draws a card."), {"name": name})
            if self.points and viewer != seat:
                return LogLine(gettext_noop("{name} drew a card."), {"name": name})
            return LogLine(gettext_noop("{name} drew {card}."), {"name": name, "card": card_name(card)}, private=self.points)
        if kind == "pass":
            return LogLine(gettext_noop("{name} ends the turn without moving."), {"name": name, "card": card_name(card)})
        if kind == "discard":
            return LogLine(gettext_noop("{name} cannot move and discards {card}."), {"name": name, "card": card_name(card)})
        if kind == "move":
            return LogLine(gettext_noop("{name} plays {card}: {move}."), {"name": name, "card": card_name(card), "move": payload_text(action)})
        return LogLine(gettext_noop("{name}: {kind}."), {"name": name, "kind": kind})

    def label(self, seat: int, action: Mapping[str, Any]) -> LogLine:
        """The button text of a legal action, in the imperative ("Draw a card", "Move R1 +5 to T9")."""
        kind = action.get("kind")
        card = action.get("card")
        if kind == "draw":
            if card is None:
                return LogLine(gettext_noop("Draw a card"))
            return LogLine(gettext_noop("I drew {card}"), {"card": card_name(card)})
        if kind == "pass":
            if card is not None:
                return LogLine(gettext_noop("Give up the {card} and draw"), {"card": card_name(card)})
            return LogLine(gettext_noop("End the turn without moving"))
        if kind == "discard":
            return LogLine(gettext_noop("Discard {card} and draw"), {"card": card_name(card)})
        if kind == "move":
            return LogLine(gettext_noop("{card}: {move}"), {"card": card_name(card), "move": payload_text(action)})
        return self.describe(seat, action, seat)

    def encode(self, state: SorryState) -> JSON:
        """JSON snapshot (see :func:`shelf.sorry.state.encode_state`)."""
        return encode_state(state)

    def decode(self, data: Mapping[str, Any]) -> SorryState:
        """Inverse of :meth:`encode`."""
        return decode_state(data)


def card_name(card: Any) -> str:
    """How a card is written for people: ``"sorry"`` -> ``"Sorry!"``, numbers as they are."""
    return "Sorry!" if card == "sorry" else str(card)


def pawn_words(pawn: Any) -> LogLine:
    """A pawn as players name it: ``"R0"`` -> "red pawn 1" (pawns counted from 1; the colour a term)."""
    text = str(pawn)
    if len(text) >= 2 and text[0] in LETTERS and text[1:].isdigit():
        return LogLine(gettext_noop("{colour} pawn {n}"), {"colour": COLOURS[LETTERS.index(text[0])],
                                                          "n": int(text[1:]) + 1})
    return LogLine(gettext_noop("pawn {n}"), {"n": text})


def square_words(loc: Any) -> LogLine:
    """A location as players count it: ``T40`` -> "square 41" (track from 1), ``S2`` -> "safety square 2", START, HOME."""
    text = str(loc)
    if text == "START":
        return LogLine(gettext_noop("START"))
    if text == "HOME":
        return LogLine(gettext_noop("HOME"))
    if text[:1] == "T" and text[1:].isdigit():
        return LogLine(gettext_noop("square {n}"), {"n": int(text[1:]) + 1})
    if text[:1] == "S" and text[1:].isdigit():
        return LogLine(gettext_noop("safety square {n}"), {"n": int(text[1:])})
    return LogLine("{where}", {"where": text})


def _steps_words(pawn: Any, steps: int, to: Any) -> LogLine:
    template = gettext_noop("{pawn}: {steps} forward to {where}") if steps >= 0 else gettext_noop("{pawn}: {steps} back to {where}")
    return LogLine(template, {"pawn": pawn_words(pawn), "steps": abs(steps), "where": square_words(to)})


def payload_text(action: Mapping[str, Any]) -> list[LogLine]:
    """A move payload in words, part by part (each a :class:`LogLine`; the reader's comma joins them).

    ``R0 +7 to T40`` with a slide reads "red pawn 1: 7 forward to square 41, slides to square 44";
    swaps, Sorry! bumps, splits and pawns sent back are named the same way. The machine notation
    stays in the payload (``data-action``, the API); this is for people only.
    """
    pawn = action.get("pawn", "?")
    if "target" in action:
        template = (gettext_noop("{pawn} swaps with {target} on {where}") if action.get("card") == "11"
                    else gettext_noop("{pawn} from START bumps {target} on {where}"))
        parts = [LogLine(template, {"pawn": pawn_words(pawn), "target": pawn_words(action["target"]),
                                    "where": square_words(action.get("to", "?"))})]
    elif "steps" in action and isinstance(action["steps"], int):
        parts = [_steps_words(pawn, action["steps"], action.get("to", "?"))]
        then = action.get("then")
        if isinstance(then, Mapping) and isinstance(then.get("steps"), int):
            parts.append(_steps_words(then.get("pawn", "?"), then["steps"], then.get("to", "?")))
    elif "steps" in action:
        parts = [pawn_words(pawn)]
    else:
        parts = [LogLine(gettext_noop("{pawn} out of START to {where}"),
                         {"pawn": pawn_words(pawn), "where": square_words(action.get("to", "?"))})]
    return parts + effects_text(action)


def effects_text(action: Mapping[str, Any]) -> list[LogLine]:
    """The slides and bumps a payload announces (``effects``), in words: "slides to square 44", "blue pawn 2 back to START"."""
    effects = action.get("effects")
    if not isinstance(effects, list):
        return []
    movers = {action.get("pawn")}
    then = action.get("then")
    if isinstance(then, Mapping):
        movers.add(then.get("pawn"))
    parts = []
    for effect in effects:
        if not isinstance(effect, Mapping):
            continue
        who, to = effect.get("pawn", "?"), effect.get("to", "?")
        if to == "START":
            parts.append(LogLine(gettext_noop("{pawn} back to START"), {"pawn": pawn_words(who)}))
        elif who in movers and len(movers - {None}) == 1:
            parts.append(LogLine(gettext_noop("slides to {where}"), {"where": square_words(to)}))
        elif who in movers:
            parts.append(LogLine(gettext_noop("{pawn} slides to {where}"), {"pawn": pawn_words(who), "where": square_words(to)}))
        else:
            parts.append(LogLine(gettext_noop("{pawn} to {where}"), {"pawn": pawn_words(who), "where": square_words(to)}))
    return parts
