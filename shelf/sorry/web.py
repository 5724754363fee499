"""Sorry!'s web adapter: what the platform needs about the game, declared beside its engine.

The set-up walkthrough, the rules-at-hand sections and which rule explains each refusal, the lobby's
words for every option, the glossary of the game's terms, and what else it has (a chance device, board
helpers, an edition editor: see ``ADAPTER``). Plain data, like the engine: the
platform (``games/``) reads it through :func:`games.engines.get_adapter`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engines.adapter import ChanceDevice, OptionWords, Section, Step, Term, WebAdapter, term
from games.engines.base import Game, gettext_noop
from shelf.sorry import CARD_WORD, pawn_words, square_words
from shelf.sorry.layout import destinations, where
from shelf.sorry.positions import moves_for_position

# -- the set-up walkthrough ------------------------------------------------------------------------


def walkthrough(game: Game, n: int) -> list[Step]:
    """The set-up steps for ``n`` players and the table's options, in table order (sections in each ``source``)."""
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


# -- rules at hand ---------------------------------------------------------------------------------

SECTIONS: tuple[Section, ...] = (
    Section("goal", "0.1, 1.1, 2.3, 3.3", ("pawns_per_colour", "fast_start")),
    Section("cards", "2.1, 2.2, 2.5", ("two_draws_again", "sorry_forward4_option", "eleven_swap_may_decline",
                                       "deck_counts")),
    Section("moving", "1.4, 2.3", ()),
    Section("slides", "1.1, 2.4, D05, D08", ("slide_on_own_colour", "swapped_opponent_slides")),
    Section("bumping", "2.3, 2.4, D16", ()),
    Section("safety", "1.1, 1.4, 2.3, D09, D10", ()),
    Section("team", "3.1", ("team_swap_with_partner",), variant="team_mode"),
    Section("points", "3.2", ("points_hand_size", "points_two_plays_again", "points_table"),
            variant="points_mode"),
)

# Codes the shared engine base raises, by the section that holds the rule.
_SHARED = {"not_your_turn": "goal", "wrong_step": "goal", "game_over": "goal", "seat_count": "goal"}

REFUSALS: dict[str, str] = {
    **_SHARED,
    "bad_seats": "goal",
    "bad_card": "cards",
    "card_missing": "cards",
    "card_not_in_deck": "cards",
    "not_drawn_card": "cards",
    "no_discard": "moving",
    "card_cannot_swap": "cards#card-11",
    "card_cannot_start": "moving",
    "wrong_count": "cards",
    "same_pawn_twice": "cards#card-7",
    "pawn_not_in_start": "moving",
    "pawn_in_start": "moving",
    "pawn_at_home": "safety",
    "overshoots_home": "safety",
    "own_pawn_on_target": "bumping",
    "pawn_not_on_track": "cards#card-11",
    "target_not_on_track": "cards#card-sorry",
    "target_is_own": "bumping",
    "target_is_partner": "team",
    "not_your_pawn": "moving",
    "wrong_destination": "slides",
    "wrong_effects": "slides",
    "card_not_in_hand": "points",
    "move_available": "points",
}

# The move step is explained by the card drawn (the prompt's details name it); points mode has a hand instead.
_CARD_SECTIONS = {"7": "cards#card-7", "11": "cards#card-11", "10": "cards#card-10", "Sorry!": "cards#card-sorry"}


def step_section(prompt: Mapping[str, Any]) -> str | None:
    """The section explaining a prompt's step: the drawn card's own paragraph, "points" for a hand, else none."""
    if prompt.get("step") != "move":
        return None
    card = (prompt.get("details") or {}).get("card")
    return _CARD_SECTIONS.get(str(card)) if card is not None else "points"


# -- the lobby's words -----------------------------------------------------------------------------

OPTION_WORDS: dict[str, OptionWords] = {
    "team_mode": OptionWords(
        gettext_noop("Team game (4 players)"),
        gettext_noop("Red and Yellow play against Blue and Green; you may move your partner's pawns."),
        "ways", "sorry.md 3.1"),
    "points_mode": OptionWords(
        gettext_noop("Play for points"),
        gettext_noop("Cards in hand, a fast start and a bonus for the winner."),
        "ways", "sorry.md 3.2"),
    "fast_start": OptionWords(
        gettext_noop("Fast start"),
        gettext_noop("Each player starts with one pawn already out of START (always so in the points game)."),
        "ways", "sorry.md 2.3, 3.4"),
    "pawns_per_colour": OptionWords(
        gettext_noop("Pawns per colour"),
        gettext_noop("Count the pawns of one colour in your box."),
        "ways", "sorry.md 3.4",
        {4: gettext_noop("4 pawns (classic box)"), 3: gettext_noop("3 pawns (2013 box)")}),
    "two_draws_again": OptionWords(
        gettext_noop("A 2 draws again"),
        gettext_noop("After a 2 the player draws another card, even when the 2 could not be used (not in the 2013 box)."),
        "cards", "sorry.md 2.2, D07"),
    "sorry_forward4_option": OptionWords(
        gettext_noop("The Sorry! card may move 4 forward"),
        gettext_noop("Instead of bumping, the Sorry! card may move one of your pawns 4 spaces forward (2013 box)."),
        "cards", "sorry.md 2.2, 3.4, D12"),
    "eleven_swap_may_decline": OptionWords(
        gettext_noop("An 11 need not swap"),
        gettext_noop("With an 11 and no pawn that can move 11 forward, the player may end the turn instead of swapping."),
        "cards", "sorry.md 2.2, 2.3"),
    "swapped_opponent_slides": OptionWords(
        gettext_noop("A swapped pawn slides too"),
        gettext_noop("An opponent's pawn that an 11 swap puts on another colour's slide slides at once."),
        "cards", "sorry.md 6.2, D05"),
    "slide_on_own_colour": OptionWords(
        gettext_noop("Slide on your own colour (house rule)"),
        gettext_noop("Pawns also slide on the slides of their own colour."),
        "cards", "sorry.md 2.4, D08"),
    "team_swap_with_partner": OptionWords(
        gettext_noop("An 11 may swap with your partner"),
        gettext_noop("In the team game, when no opponent pawn is on the track, an 11 may swap with the partner's pawn."),
        "cards", "sorry.md 3.1, 6.5"),
    "points_hand_size": OptionWords(
        gettext_noop("Cards in hand"),
        gettext_noop("How many cards each player holds in the points game (the points sheet says 5)."),
        "points", "sorry.md 3.2",
        {4: gettext_noop("4 cards"), 5: gettext_noop("5 cards"), 6: gettext_noop("6 cards"), 7: gettext_noop("7 cards")}),
    "points_two_plays_again": OptionWords(
        gettext_noop("A 2 plays again"),
        gettext_noop("In the points game, a 2 played from the hand gives another play."),
        "points", "sorry.md 3.2, 6.4"),
    "points_table": OptionWords(
        gettext_noop("The winner's bonus"),
        gettext_noop("The built-in bonus table is not checked against a points sheet; import yours on the Editions page."),
        "advanced", "sorry.md 3.2, 6.1 [U]",
        {None: gettext_noop("Built-in table")}),
    "deck_counts": OptionWords(
        gettext_noop("The deck"),
        gettext_noop("Another deck (such as the 44 cards of 1934) can be imported on the Editions page."),
        "advanced", "sorry.md 2.1",
        {None: gettext_noop("45 cards (2005 box)")}),
}

# -- glossary --------------------------------------------------------------------------------------

GLOSSARY: dict[str, Term] = {
    "title": term(r"^Sorry!$", "Sorry!", "Sorry!", "Sorry!",
                   avoid={"az": ("Üzr istəyirik",)},
                   source="the printed name; sorry.az.txt and sorry.ps.txt translate it word for word"),
    "Sorry! card": term(r"\bSorry! card\b|\bby Sorry!", ("کارت Sorry!", "Sorry!"), ("Bağışlayın! kart", "Bağışlayın!"),
                         ("د بخښنه! کارت", "بخښنه!"),
                         avoid={"fa": ("سوری",), "az": ("Sorry! kart",), "ps": ("Sorry!\u2069 کارت", "د Sorry! کارت")},
                         source="the card in the users' own texts: sorry.az.txt «Bağışlayın!», sorry.ps.txt «بخښنه!»; "
                                "fa has no seed and keeps the printed word"),
    "points edition": term(r"^Play for points, candidate A \(", "بازی برای امتیاز، گزینهٔ الف", "Xal üçün oyun, A variantı",
                            "د نمرو لپاره لوبه، لومړی انتخاب",
                            source="the shipped points bonus table's edition name (games/text/words.py EDITION_NAMES)"),
    "slide": term(r"\bslid(?:e|es|ing)\b", ("سرسره", "سر می\u200cخورد", "سر نمی\u200cخورد", "سُر خوردن", "سر خوردن"),
                   ("sürüş", "sürüşmə"), ("سلایډ", "ښوییږي", "ښوییدل", "ښویي"),
                   avoid={"fa": ("می\u200cلغزد",), "ps": ("ښوېږي", "ښوېدل", "سلائډ", "سلیډ")},
                   source="sorry.ps.txt سلایډ (the slide) and ښوییږي (a pawn slides), written one way"),
    "pawn": term(r"\bpawns?\b", "مهره", "piyon", ("پیاده", "پیادې", "پیادو"),
                  avoid={"ps": ("پیاز", "پیاله")}, source="sorry.az.txt piyon; sorry.ps.txt پیاده"),
    "safety zone": term(r"\bsafety zones?\b", ("منطقهٔ امن", "منطقه"), ("Təhlükəsizlik Zona", "zona"),
                         ("د خوندیتوب زون", "زون"), source="sorry.az.txt Təhlükəsizlik Zonası; sorry.ps.txt د خوندیتوب زون"),
}


# -- chance ----------------------------------------------------------------------------------------


def _slid(action: Mapping[str, Any] | None) -> bool:
    """True when ``action`` ended on a slide: one of its effects moved its own pawn (section 2.4)."""
    if not action or not isinstance(action.get("effects"), list):
        return False
    movers = {action.get("pawn")}
    then = action.get("then")
    if isinstance(then, Mapping):
        movers.add(then.get("pawn"))
    return any(isinstance(e, Mapping) and e.get("pawn") in movers and e.get("to") != "START" for e in action["effects"])


def chance(game: Game) -> ChanceDevice:
    """The deck, by card value against its composition (rule 2.1). In points mode the cards go into hidden
    hands (rule 3.2), so their counts wait for the end of the game."""
    counts = {str(k): v for k, v in game.options["deck_counts"].items() if v}
    total = sum(counts.values())
    return ChanceDevice("cards", "draw", "card", {k: v / total for k, v in counts.items()},
                        hidden=bool(game.options.get("points_mode")))


ADAPTER = WebAdapter(
    sections=SECTIONS,
    refusals=REFUSALS,
    option_words=OPTION_WORDS,
    glossary=GLOSSARY,
    walkthrough=walkthrough,
    step_section=step_section,
    chance=chance,
    value_words={"sorry": CARD_WORD},
    static_view_keys=("layout",),
    # A pawn that just slid (section 2.4): the move's effects name a slide.
    rule_examples={"slides": lambda game, state, seat, action: _slid(action)},
    board_needs_seat=False,
    bgg_id=2407,  # checked against boardgamegeek.com/boardgame/2407/sorry
    template_filters={"sorry_where": where, "sorry_destinations": destinations},
    template_words={"sorry_pawn": pawn_words, "sorry_square": square_words},
    positions=moves_for_position,
)
