"""Amun-Re's web adapter: what the platform needs about the game, declared beside its engine.

The set-up walkthrough, the rules-at-hand sections and which rule explains each refusal, the lobby's
words for every option, the glossary of the game's terms, and what else it has (a chance device, board
helpers, an edition editor: see ``ADAPTER``). Plain data, like the engine: the
platform (``games/``) reads it through :func:`games.engines.get_adapter`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.engines.adapter import Editor, OptionWords, Section, Step, Term, WebAdapter, term
from games.engines.base import Game, gettext_noop

# -- the set-up walkthrough ------------------------------------------------------------------------


def walkthrough(game: Game, n: int) -> list[Step]:
    """The set-up steps for ``n`` players and the table's options, in table order (sections in each ``source``)."""
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


# -- rules at hand ---------------------------------------------------------------------------------

SECTIONS: tuple[Section, ...] = (
    Section("kingdoms", "2.1, 2.2, 2.3, 2.8, 2.11", ("hand_sum_mode", "budget_over_36")),
    Section("auctions", "1.3, 2.4", ("rebid_same_province", "ankh_after_each_auction",
                                    "visible_ankhs_mid_kingdom")),
    Section("offerings", "1.5, 2.5, 2.11", ()),
    Section("income", "1.5, 2.6", ("edition",)),
    Section("pyramids", "1.6, 2.6, 2.7", ("pyramid_supply", "edition")),
    Section("honour", "1.7, 2.7, 2.9, 2.10", ("allow_negative_vp",)),
)

# Codes the shared engine base raises, by the section that holds the rule.
_SHARED = {"not_your_turn": "auctions", "wrong_step": "kingdoms", "game_over": "honour",
           "seat_count": "kingdoms"}

REFUSALS: dict[str, str] = {
    **_SHARED,
    "hand_bad_card": "kingdoms#hand",
    "hand_needs_zero": "kingdoms#hand",
    "hand_not_exact": "kingdoms#hand",
    "hand_over_budget": "kingdoms#hand",
    "no_such_province": "auctions",
    "card_not_in_hand": "auctions",
    "zero_only_on_empty": "auctions",
    "bid_not_higher": "auctions",
    "no_rebid_same_province": "auctions",
    "nothing_to_reveal": "auctions#provinces",
    "reveal_wrong_field": "auctions#provinces",
    "province_impossible": "auctions#provinces",
    "province_out_of_bounds": "auctions#provinces",
    "card_not_entered": "auctions#provinces",
    "no_such_column": "auctions#provinces",
    "column_taken": "auctions#provinces",
    "already_offered": "offerings",
    "offer_not_possible": "offerings",
    "place_first": "pyramids",
    "already_bought": "pyramids",
    "no_such_purchase": "pyramids",
    "cannot_afford": "pyramids",
    "no_space_for_pyramids": "pyramids",
    "nothing_to_place": "pyramids",
    "place_all_pyramids": "pyramids",
    "column_full": "pyramids",
}

# The prompt steps that get a "How does this work?" link: step -> section (an anchor allowed).
STEP_SECTIONS = {"build_hand": "kingdoms#hand", "auction": "auctions", "province": "auctions#provinces",
                 "offering": "offerings", "reward_pyramids": "offerings#reward", "building": "income"}

# -- the lobby's words -----------------------------------------------------------------------------

OPTION_WORDS: dict[str, OptionWords] = {
    "hand_sum_mode": OptionWords(
        gettext_noop("The gold cards you keep add up to"),
        gettext_noop("At the start of each Kingdom, each player keeps gold cards worth their budget."),
        "gold", "amun_re.md 2.3 [S!]",
        {"exact": gettext_noop("Exactly your budget"), "at_most": gettext_noop("At most your budget")}),
    "budget_over_36": OptionWords(
        gettext_noop("A budget above 36"),
        gettext_noop("The player takes all nine gold cards; this decides what is left over."),
        "gold", "amun_re.md 2.3 [U]",
        {"take_all_lose_rest": gettext_noop("The rest is lost"),
         "take_all_keep_rest": gettext_noop("Rest stays on the Revenue track")}),
    "rebid_same_province": OptionWords(
        gettext_noop("Bid again on the same province"),
        gettext_noop("In one auction, a player who was outbid may bid on that province again."),
        "auctions", "amun_re.md 2.4 [U]"),
    "ankh_after_each_auction": OptionWords(
        gettext_noop("Ankh token after every auction"),
        gettext_noop("The player with the most visible ankhs takes it after each auction; off: only at Kingdom scoring."),
        "auctions", "amun_re.md 2.4 [S!]"),
    "visible_ankhs_mid_kingdom": OptionWords(
        gettext_noop("Ankhs counted during a Kingdom"),
        gettext_noop("Which ankhs count for the Ankh token before the Kingdom is scored."),
        "auctions", "amun_re.md 2.4 [D]",
        {"top_cards": gettext_noop("Top card of each column"),
         "current_kingdom": gettext_noop("This Kingdom's cards only")}),
    "allow_negative_vp": OptionWords(
        gettext_noop("Honour may go below 0"),
        gettext_noop("Off: the penalty for the fewest ankhs stops at 0."),
        "scoring", "amun_re.md 1.7 [U]"),
    "pyramid_supply": OptionWords(
        gettext_noop("Pyramids in the box"),
        gettext_noop("Count them in your box; running out only gives a warning."),
        "scoring", "amun_re.md 1.6, 6.3 [S!]",
        {76: gettext_noop("76 pyramids"), 82: gettext_noop("82 pyramids")}),
    "edition": OptionWords(
        gettext_noop("Offering table, pyramid prices, province limits"),
        gettext_noop("The built-in numbers are not checked against a box: copy yours once on the calibration page, then pick them here."),
        "advanced", "amun_re.md 1.4-1.6, 6.2 [U]",
        {None: gettext_noop("Built-in numbers")}),
}

# -- glossary --------------------------------------------------------------------------------------

GLOSSARY: dict[str, Term] = {
    "title": term(r"^Amun-Re: The Card Game\b", "آمون رع: بازی کارتی", "Amun-Re: kart oyunu",
                   "آمون رع: د کارتونو لوبه", avoid={"fa": ("Amun-Re: The Card Game",), "ps": ("Amun-Re",)},
                   source="amun_re.fa.txt آمون رع (the edition name too); az writes the seed's name in Latin letters"),
    "Amun-Re": term(r"\bAmun-Re\b", "آمون رع", "Amun-Re", "آمون رع", source="amun_re.fa.txt آمون رع"),
    "temple marker": term(r"\b(?:offering token|temple marker)\b", "نشان معبد آمون", "məbəd nişanı",
                           "د معبد نښه", avoid={"fa": ("نشان پیشکش",)},
                           source="amun_re.fa.txt «نشان معبد آمون را کنار صفحهی امتیازشمار»"),
    "player aid": term(r"\bplayer aids?\b", "کارت راهنما", "oyunçu kartı", ("د لوبغاړي لارښود", "د لوبغاړي…لارښود"),
                        avoid={"fa": ("راهنمای بازیکن", "راهنمای بازی"), "az": ("oyunçu yaddaşı",)},
                        source="amun_re.fa.txt «به هر بازیکن یک کارت راهنما بدهید»"),
    "Ankh token": term(r"\bAnkh token\b", "نشان آنخ", "Ankh nişan", ("د انخ نښ", "د انخ د نښ"),
                        source="amun_re.fa.txt «نشانگر آنخ», «نشان آنخ»"),
    "marker": term(r"(?<!temple )(?<!score )\bmarkers?\b", "مهره", "marker", ("نښه", "نښې"),
                    avoid={"fa": ("نشانگر",)}, source="amun_re.fa.txt «مهرههای امتیازشمار رنگ خود را روی عدد صفر»"),
    "gold card": term(r"\bgold cards?\b", ("کارت سکه", "کارت‌های سکه", "کارت…سکه"), ("qızıl kart",),
                       ("د سرو زرو کارت", "د سرو زرو…کارت"), source="amun_re.fa.txt «کارتهای سکه»"),
    "honour": term(r"\bhonou?r\b", ("نشان افتخار", "نشان…افتخار"), "şərəf", "ویاړ", source="amun_re.fa.txt «نشان افتخار»"),
    "pyramid": term(r"\bpyramids?\b", "هرم", "piramida", "هرم", source="amun_re.fa.txt هرم"),
    "province": term(r"\bprovinces?\b", "ولایت", "əyalət", "ولایت", source="amun_re.fa.txt ولایت"),
}


# -- board helpers ---------------------------------------------------------------------------------


def bids(legal: Iterable[Mapping[str, Any]] | None) -> list[Mapping[str, Any]]:
    """The bids among a seat's legal actions (the page's ``{"kind", "payload", "json", "label"}``): what the board
    draws as tap targets under the provinces and marks in the hand (rules 2.4); empty off the seat's auction turn."""
    return [item for item in legal or () if item.get("kind") == "bid"]


ADAPTER = WebAdapter(
    sections=SECTIONS,
    refusals=REFUSALS,
    option_words=OPTION_WORDS,
    glossary=GLOSSARY,
    walkthrough=walkthrough,
    step_sections=STEP_SECTIONS,
    template_filters={"amun_re_bids": bids},
    # An auction row with a bid on it, while the others still bid (rules 2.3).
    rule_examples={"auctions": lambda game, state, seat, action: bool(action) and action.get("kind") == "bid"
                   and game.prompt(state).step == "auction"},
    editors=(Editor("edition", "calibrate", ".editor:calibrate",
                   gettext_noop("Amun-Re: copy the numbers from your box")),),
)
