"""Yellow & Yangtze's web adapter: what the platform needs about the game, declared beside its engine.

The set-up walkthrough, the rules-at-hand sections and which rule explains each refusal, the lobby's
words for every option, the glossary of the game's terms, and what else it has (a chance device, board
helpers, an edition editor: see ``ADAPTER``). Plain data, like the engine: the
platform (``games/``) reads it through :func:`games.engines.get_adapter`.
"""

from __future__ import annotations

from games.engines.adapter import ChanceDevice, Editor, OptionWords, Section, Step, Term, WebAdapter, term
from games.engines.base import Game, gettext_noop
from shelf.yellow_yangtze import BAG
from shelf.yellow_yangtze.layout import hex_picks, other_moves, picks, war_sides, who

# -- the set-up walkthrough ------------------------------------------------------------------------


def walkthrough(game: Game, n: int) -> list[Step]:
    """The set-up steps for ``n`` players and the table's options, in table order (sections in each ``source``)."""
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


# -- rules at hand ---------------------------------------------------------------------------------

SECTIONS: tuple[Section, ...] = (
    Section("tiles", "1.1, 1.2, 1.3, 2", ("short_game", "capitals_from_black", "red_leader_any_side")),
    Section("turn", "4, 4.1, 4.2, 4.3, 4.4, 4.7, 6", ("leader_join_own_colour", "chain_after_declined_pagoda")),
    Section("revolts", "5.1, 5.2, 5.4", ()),
    Section("wars", "5.1, 5.3, 5.4", ("who_fights", "attrition", "attrition_counts_leader", "war_surplus",
                                      "red_leader_any_side", "red_under_pagoda")),
    Section("pagodas", "4.5, 4.6, 6", ("red_under_pagoda", "chain_after_declined_pagoda")),
    Section("scoring", "4.2, 6, 7", ()),
)

# Codes the shared engine base raises, by the section that holds the rule.
_SHARED = {"not_your_turn": "turn", "wrong_step": "turn", "game_over": "scoring",
           "seat_count": "tiles"}

REFUSALS: dict[str, str] = {
    **_SHARED,
    "pass_not_allowed": "turn",
    "hex_off_board": "turn",
    "hex_occupied": "turn",
    "leader_same_hex": "turn",
    "leader_on_river": "turn",
    "leader_needs_black": "turn",
    "leader_joins_conflict": "turn",
    "leader_not_on_board": "turn",
    "blue_tile_not_on_river": "turn",
    "tile_not_on_land": "turn",
    "tile_not_in_hand": "turn",
    "chain_only_blue": "turn#chain",
    "chain_not_adjacent": "turn#chain",
    "not_in_market": "turn#market",
    "no_tile_there": "turn#peasants",
    "peasants_cost": "turn#peasants",
    "swap_count": "turn",
    "draw_count": "turn",
    "tile_not_in_bag": "turn",
    "pagoda_source": "pagodas",
    "no_triangle": "pagodas",
    "pagoda_cost": "pagodas",
    "not_enough_black": "revolts",
    "owners_mismatch": "wars",
    "outcome_mismatch": "wars",
    "not_tied": "wars",
    "no_committed_tile": "wars",
    "not_winner_red": "wars",
    "no_such_side": "wars",
    "not_enough_red": "wars",
    "red_leader_unavailable": "wars",
    "empty_commit": "wars",
}

# The prompt steps that get a "How does this work?" link: step -> section (an anchor allowed).
STEP_SECTIONS = {"revolt_attacker": "revolts", "revolt_defender": "revolts", "war_support": "wars",
                 "war_winner": "wars", "war_burn": "wars", "war_attrition": "wars", "pagoda": "pagodas",
                 "market": "turn#market", "chain": "turn#chain"}

# -- the lobby's words -----------------------------------------------------------------------------

OPTION_WORDS: dict[str, OptionWords] = {
    "short_game": OptionWords(
        gettext_noop("Short game"),
        gettext_noop("Set 24 unseen tiles aside at the start (good for 2 players)."),
        "setup", "yellow_yangtze.md 1.3 step 3"),
    "capitals_from_black": OptionWords(
        gettext_noop("Capitals count among the black tiles"),
        gettext_noop("The 7 capitals are 7 of the 42 black tiles, so 35 go in the bag; off: all 42 go in."),
        "setup", "yellow_yangtze.md 1.2 [U]"),
    "leader_join_own_colour": OptionWords(
        gettext_noop("A leader that joins states holding its own colour"),
        gettext_noop("A leader's move joins states, and one of them already has a leader of its colour."),
        "tiles", "yellow_yangtze.md 4.1 [U]",
        {"forbidden": gettext_noop("May not go there"), "revolt": gettext_noop("May, and a revolt starts")}),
    "chain_after_declined_pagoda": OptionWords(
        gettext_noop("Blue chain after a pagoda not built"),
        gettext_noop("A blue tile completes a triangle and the player does not build the pagoda."),
        "tiles", "yellow_yangtze.md 4.3 [U], E15",
        {"continue": gettext_noop("The chain may go on"), "stop": gettext_noop("The chain ends")}),
    "red_under_pagoda": OptionWords(
        gettext_noop("Red tiles under a pagoda in a lost war"),
        gettext_noop("The red tiles of a losing state that lie under a pagoda; a removed pagoda goes back to the supply."),
        "tiles", "yellow_yangtze.md 4.6 [U]",
        {"removed": gettext_noop("Removed, pagoda back"), "stays": gettext_noop("Stay on the board")}),
    "who_fights": OptionWords(
        gettext_noop("Which joined states fight"),
        gettext_noop("A tile joins states and two leaders of one colour meet: which joined states take part in the war."),
        "wars", "yellow_yangtze.md 5.3 [U]",
        {"involved": gettext_noop("Only the states in conflict"), "all": gettext_noop("Every joined state")}),
    "attrition": OptionWords(
        gettext_noop("The winner's losses when several states lose"),
        gettext_noop("How many red tiles the winning state gives up."),
        "wars", "yellow_yangtze.md 5.3 step 5 [U]",
        {"highest": gettext_noop("Highest losing strength"), "sum": gettext_noop("Losing strengths added")}),
    "attrition_counts_leader": OptionWords(
        gettext_noop("A red leader counts in the winner's losses"),
        gettext_noop("The +1 of a red leader kept in hand counts in the loser's strength the winner pays."),
        "wars", "yellow_yangtze.md 5.3 step 5 [U]"),
    "war_surplus": OptionWords(
        gettext_noop("Extra red tiles given to the winner"),
        gettext_noop("Tiles given to the winning side beyond what it loses."),
        "wars", "yellow_yangtze.md 5.3 step 5 [U]",
        {"return": gettext_noop("Back to their owners"), "box": gettext_noop("Into the box")}),
    "red_leader_any_side": OptionWords(
        gettext_noop("A red leader may help any side"),
        gettext_noop("A red leader kept in hand may add +1 to a side where its owner has no leader."),
        "wars", "yellow_yangtze.md 1.1 [U]"),
    "board": OptionWords(
        gettext_noop("Map"),
        gettext_noop("The practice board is invented, not the printed map: draw your box's map once in the board editor, then pick it here."),
        "advanced", "yellow_yangtze.md 3.4",
        {None: gettext_noop("Practice board")}),
}

# -- glossary --------------------------------------------------------------------------------------

GLOSSARY: dict[str, Term] = {
    "title": term(r"Yellow & Yangtze", "رودخانه زرد و یانگتسه", "Sarı çay və Yanszı", "ژېړ سیند او یانګسي",
                   avoid={"fa": ("یلو و یانگتسه", "یانگ‌تسه", "یانگ تسه"), "az": ("Yellow & Yangtze",),
                          "ps": ("Yellow & Yangtze",)},
                   source="yellow_yangtze.fa.txt «آموزش بازی رودخانه زرد و یانگتسه»; az and ps name its rivers as the "
                          "seed does (no seed names the game in az, ps), so a mixed table reads one name"),
    "Yellow River": term(r"\bYellow River\b", "رودخانه زرد", "Sarı çay", "ژېړ سیند", avoid={"fa": ("رود زرد",)},
                          source="yellow_yangtze.fa.txt «رودخانه زرد»"),
    "lion": term(r"\blion\b", "شیر", "Şir", "زمری", source="yellow_yangtze.fa.txt «سلسلهها (شیر، کمان، کوزه یا گاومیش)»"),
    "bow": term(r"\bbow\b", "کمان", "Kaman", "لیندۍ", source="yellow_yangtze.fa.txt کمان"),
    "jar": term(r"\bjar\b", "کوزه", "Küpə", "منګی", source="yellow_yangtze.fa.txt کوزه"),
    "buffalo": term(r"\b(?:buffalo|bull)\b", "گاومیش", "Camış", "مېښه", source="yellow_yangtze.fa.txt گاومیش"),
    "practice board": term(r"^Practice board \(", "صفحهٔ تمرینی", "Məşq lövhəsi", "د تمرین تخته",
                            source="the shipped board's edition name (games/text/words.py EDITION_NAMES)"),
    "tile": term(r"(?<!Coco )\btiles?\b", "تایل", "kaşı", "ټایل", source="yellow_yangtze.fa.txt تایل"),
    "leader": term(r"\bleaders?\b", "رهبر", "lider", ("مشر", "مشران", "مشرانو"), source="yellow_yangtze.fa.txt رهبر"),
    "pagoda": term(r"\bpagodas?\b", "پاگودا", "paqoda", "پاګوډا", source="yellow_yangtze.fa.txt پاگودا"),
    "unification token": term(r"\bunification token\b", "مهرهٔ یکپارچگی", "birləşmə nişanı", "د یووالي نښه",
                               avoid={"fa": ("نشان اتحاد",)},
                               source="yellow_yangtze.fa.txt «مهره یکپارچگی»"),
    "score cubes": term(r"\bscore (?:markers|cubes)\b", "مکعب‌های امتیاز", "xal kubikləri", "د نمرو مکعبونه",
                         avoid={"fa": ("نشانگرهای امتیاز",)},
                         source="yellow_yangtze.fa.txt «مکعبها را با توجه به رنگشان»"),
}


# -- chance ----------------------------------------------------------------------------------------


def chance(game: Game) -> ChanceDevice:
    """The bag, by tile colour against its composition (rule 1.2; the capitals' black tiles out of it when they
    come from the black ones, rule 1.3). The tiles go into hidden hands, so their counts wait for the end."""
    bag = dict(BAG)
    if game.options.get("capitals_from_black"):
        bag["black"] -= 7
    total = sum(bag.values())
    return ChanceDevice("tiles", "draw", "tiles", {k: v / total for k, v in bag.items()}, hidden=True)


ADAPTER = WebAdapter(
    sections=SECTIONS,
    refusals=REFUSALS,
    option_words=OPTION_WORDS,
    glossary=GLOSSARY,
    walkthrough=walkthrough,
    step_sections=STEP_SECTIONS,
    chance=chance,
    static_view_keys=("board",),
    # A revolt and a war as they stand when their defender or supporters decide (rules §5.1, §5.2).
    rule_examples={
        "revolts": lambda game, state, seat, action: game.prompt(state).step.startswith("revolt_"),
        "wars": lambda game, state, seat, action: game.prompt(state).step.startswith("war_"),
    },
    template_filters={"yy_picks": picks, "yy_hex_picks": hex_picks, "yy_other_moves": other_moves,
                      "yy_war_sides": war_sides, "yy_who": who},
    editors=(Editor("board", "board", ".editor:board_editor",
                   gettext_noop("Yellow & Yangtze: draw a board")),),
)
