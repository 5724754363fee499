"""The lobby's words for every table option: label, one-line explanation, value names, group.

The engines declare their options (``OptionSpec``: machine name, default, allowed values, and a help text
citing the rules file for maintainers). Players never see those: the lobby shows, for each option, the
plain words below, translated (``gettext_noop`` here, ``gettext`` when the form is built). The machine
values and so the options a table stores are the engine's and do not change here.

``rules`` keeps the rules-file section an option comes from (``shared/rules/<game>.md``), with its
marker: [U] the sources are silent or disagree, [S!] they contradict each other, [D] a decision of
this project. It is for maintainers: the lobby writes it into a ``data-rules`` attribute, never as text.

An option of an installed game without an entry here falls back to its engine help text
(tests/web/test_lobby.py fails on such a gap for the shipped games).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.engines.base import gettext_noop

#: Group keys, in page order, with their titles. ``advanced`` holds the edition profiles (a box's
#: printed numbers imported or made on /editions/) and always comes last.
GROUPS: dict[str, str] = {
    "ways": gettext_noop("Ways to play"),
    "setup": gettext_noop("Setting up"),
    "box": gettext_noop("Your box and trading"),
    "cards": gettext_noop("Cards and moves"),
    "points": gettext_noop("Points game"),
    "gold": gettext_noop("Gold cards and budget"),
    "auctions": gettext_noop("Auctions and ankhs"),
    "scoring": gettext_noop("Scoring"),
    "tiles": gettext_noop("Leaders, tiles and pagodas"),
    "wars": gettext_noop("Wars"),
    "supply": gettext_noop("Die, Ghost Captain and supply"),
    "advanced": gettext_noop("Advanced: your box's printed board and tables"),
}

#: The group of the options shown before every group, not collapsed (components: digital or physical).
FIRST = "first"


@dataclass(frozen=True)
class OptionWords:
    """What a player reads about one option: ``label``, one-line ``explain``, ``values`` by machine value.

    ``values`` maps each allowed machine value to its name (booleans are checkboxes and need none);
    for an edition-profile option, ``values[None]`` names the shipped default. ``group`` is a key of
    :data:`GROUPS` (or :data:`FIRST`); ``rules`` is the maintainers' rules-file citation (never shown).
    All strings are ``gettext_noop`` templates, translated when the lobby builds its form.
    """

    label: str
    explain: str
    group: str
    rules: str
    values: Mapping[Any, str] = field(default_factory=dict)


COMPONENTS = OptionWords(
    gettext_noop("Cards, tiles and dice"),
    gettext_noop("With the real box you tap in each card, tile or roll. The host can switch later."),
    FIRST, "base.py COMPONENTS (DESIGN.md: digital and physical components)",
    {"digital": gettext_noop("The app draws and rolls"), "physical": gettext_noop("We use the real box")},
)

SORRY: dict[str, OptionWords] = {
    "components": COMPONENTS,
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

YELLOW_YANGTZE: dict[str, OptionWords] = {
    "components": COMPONENTS,
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

AMUN_RE: dict[str, OptionWords] = {
    "components": COMPONENTS,
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

CATAN_JUNIOR: dict[str, OptionWords] = {
    "components": COMPONENTS,
    "edition": OptionWords(
        gettext_noop("Your box"),
        gettext_noop("German box: red, purple, yellow, blue, 7 ships each, start with wood and cutlass. English box: red, blue, white, orange, 8 ships, start with wood and molasses."),
        "box", "catan_junior.md 0.3 [S!] [U]",
        {"kosmos": gettext_noop("German box"), "english": gettext_noop("English box")}),
    "player_trades": OptionWords(
        gettext_noop("Trading between players"),
        gettext_noop("Advanced rule: on your turn you may trade with the other players."),
        "box", "catan_junior.md TR4"),
    "balanced_die": OptionWords(
        gettext_noop("Balanced die"),
        gettext_noop("The app's die gives each face once in every six rolls."),
        "supply", "catan_junior.md PR (project option)"),
    "ghost_to_castle": OptionWords(
        gettext_noop("The Ghost Captain may go back to the castle"),
        gettext_noop("He may be moved to the castle, with no reward there."),
        "supply", "catan_junior.md GC3 [D]"),
    "shortage_trigger": OptionWords(
        gettext_noop("A shortage starts when the supply"),
        gettext_noop("In a shortage every player gives all of that resource back to the supply."),
        "supply", "catan_junior.md SH1, SH3 [S!]",
        {"not_enough": gettext_noop("Has too few for a payout"), "none_left": gettext_noop("Also gives its last one")}),
    "shortage_freeze": OptionWords(
        gettext_noop("A short resource waits a turn"),
        gettext_noop("After a shortage, the supply pays none of it until the next player's turn."),
        "supply", "catan_junior.md SH2 [D]"),
    "coco_deck": OptionWords(
        gettext_noop("Coco tiles"),
        gettext_noop("The built-in mix is not checked against a box; if yours differs, import it on the Editions page."),
        "advanced", "catan_junior.md 2.5 [U]",
        {None: gettext_noop("Built-in mix")}),
    "board": OptionWords(
        gettext_noop("Board side"),
        gettext_noop("The printed side for your number of players, or another board imported on the Editions page."),
        "advanced", "catan_junior.md 2.2, 2.3",
        {None: gettext_noop("The printed side")}),
}

WORDS: dict[str, dict[str, OptionWords]] = {
    "sorry": SORRY,
    "yellow_yangtze": YELLOW_YANGTZE,
    "amun_re": AMUN_RE,
    "catan_junior": CATAN_JUNIOR,
}


def words_for(slug: str, name: str) -> OptionWords | None:
    """The words of option ``name`` of game ``slug``; the shared ``components`` words for any game; else None."""
    found = WORDS.get(slug, {}).get(name)
    if found is None and name == "components":
        return COMPONENTS
    return found
