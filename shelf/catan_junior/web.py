"""Catan Junior's web adapter: what the platform needs about the game, declared beside its engine.

The set-up walkthrough, the rules-at-hand sections and which rule explains each refusal, the lobby's
words for every option, the glossary of the game's terms, and what else it has (a chance device, board
helpers, an edition editor: see ``ADAPTER``). Plain data, like the engine: the
platform (``games/``) reads it through :func:`games.engines.get_adapter`.
"""

from __future__ import annotations

from games.engines.adapter import ChanceDevice, OptionWords, Section, Step, Term, WebAdapter, term
from games.engines.base import Game, gettext_noop

# -- the set-up walkthrough ------------------------------------------------------------------------


def walkthrough(game: Game, n: int) -> list[Step]:
    """The set-up steps for ``n`` players and the table's options, in table order (sections in each ``source``)."""
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


# -- rules at hand ---------------------------------------------------------------------------------

SECTIONS: tuple[Section, ...] = (
    Section("rolling", "3 SU, TU, PR, SH", ("balanced_die", "shortage_trigger", "shortage_freeze")),
    Section("building", "3 BU1-BU6", ("edition",)),
    Section("ghost", "3 GC1-GC4", ("ghost_to_castle",)),
    Section("coco", "2.5, 3 CO1-CO4, CA1-CA5", ("coco_deck",)),
    Section("trades", "3 TR1-TR4, SH1-SH4", ("player_trades", "shortage_freeze")),
    Section("winning", "3 SU6, EN1", ()),
)

# Codes the shared engine base raises, by the section that holds the rule.
_SHARED = {"not_your_turn": "rolling", "wrong_step": "rolling", "game_over": "winning",
           "seat_count": "winning"}

REFUSALS: dict[str, str] = {
    **_SHARED,
    "bad_die_value": "rolling",
    "die_face_used": "rolling",
    "castle_not_buildable": "coco#castle",
    "unknown_site": "building",
    "site_taken": "building",
    "no_lair_in_stock": "building",
    "lair_needs_own_ship": "building",
    "unknown_route": "building",
    "route_taken": "building",
    "no_ship_in_stock": "building",
    "ship_needs_own_lair": "building",
    "cannot_afford": "building",
    "coco_stack_empty": "coco",
    "unknown_coco": "coco",
    "coco_not_in_stack": "coco",
    "ghost_must_move": "ghost",
    "ghost_not_to_castle": "ghost",
    "unknown_island": "ghost",
    "market_swap_used": "trades",
    "bad_space": "trades",
    "market_changed": "trades",
    "swap_same_resource": "trades",
    "not_enough_resources": "trades",
    "trade_same_resource": "trades",
    "supply_frozen": "trades#shortage",
    "player_trades_off": "trades#players",
    "bad_target": "trades#players",
    "empty_trade": "trades#players",
    "no_offer": "trades#players",
}

# The prompt steps that get a "How does this work?" link: step -> section (an anchor allowed).
STEP_SECTIONS = {"ghost": "ghost", "coco_ghost": "ghost", "coco_build": "coco", "trade": "trades#players"}

# -- the lobby's words -----------------------------------------------------------------------------

OPTION_WORDS: dict[str, OptionWords] = {
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

# -- glossary --------------------------------------------------------------------------------------

GLOSSARY: dict[str, Term] = {
    "title": term(r"Catan Junior", "کاتان جونیور", "Katan Junior", "کاتان جونیور",
                   avoid={"az": ("Catan Junior",), "ps": ("Catan Junior",)},
                   source="catan_junior.fa.txt «بازی کاتان جونیور»; az and ps write the same name in their script"),
    "marketplace": term(r"\bmarketplace\b", ("حلقه‌های نجات", "حلقهٔ نجات", "حلقه"), ("xilas halqa", "Xilas halqa"),
                         ("د ژغورنې کړۍ", "ژغورنې…کړ"), avoid={"az": ("bazarın beş", "bazar yer"), "ps": ("د بازار په",)},
                         source="catan_junior.fa.txt «5 حلقه نجات»: the five spaces of one-for-one swaps"),
    "supply": term(r"^(?!.*\b(?:pagodas?|pyramids?)\b).*?(?<!your )(?<!personal )\bsupply\b", "بازار", ("bazar", "Bazar"), "بازار",
                    source="catan_junior.fa.txt «اینها بازار بازی را تشکیل می دهند»: the general supply (the bank), "
                           "so the word بازار names one thing at a mixed table"),
    "Coco edition": term(r"^Kosmos Coco tiles \(", "کاشی‌های کوکوی نسخهٔ کازموس", "Kosmos nəşrinin Koko lövhəcikləri",
                          "د کازموس د کوکو ټایلونه", source="the shipped Coco deck's edition name (games/text/words.py EDITION_NAMES)"),
    "Ghost Captain": term(r"\bGhost Captain\b", "کاپیتان زاغول", "Kabus Kapitan", ("پېری کپتان", "پېري کپتان"),
                           source="catan_junior.fa.txt کاپیتان زاغول"),
    "Coco tile": term(r"\bCoco tiles?\b", ("کاشی کوکو", "کاشی…کوکو", "کوکو…کاشی"), "Koko lövhəci",
                       ("د کوکو ټایل", "کوکو…ټایل"),
                       source="catan_junior.fa.txt کاشی کوکو"),
    "wood": term(r"\bwood\b", "چوب", "taxta", ("لرګي", "لرګی"), source="catan_junior.fa.txt چوب"),
    "wool": term(r"\bwool\b", "پشم", "yun", "وړۍ", source="catan_junior.fa.txt پشم"),
    "molasses": term(r"\bmolasses\b", "آناناس", "bəkməz", "شیره", source="catan_junior.fa.txt آناناس"),
    "cutlass": term(r"\bcutlass(?:es)?\b", "شمشیر", "qılınc", ("توره", "تورې"), source="catan_junior.fa.txt شمشیر"),
    "lair": term(r"\blairs?\b", "مقر", "yuva", "اډ", source="catan_junior.fa.txt «مقر دزدان دریایی»"),
    "ship": term(r"\bships?\b(?! route)", "کشتی", "gəmi", "بېړ", source="catan_junior.fa.txt کشتی"),
}


# -- chance ----------------------------------------------------------------------------------------


def chance(game: Game) -> ChanceDevice:
    """The die, by face against a fair die (1/6 each); every roll is seen by the whole table."""
    return ChanceDevice("die", "roll", "value", {str(face): 1 / 6 for face in range(1, 7)})


ADAPTER = WebAdapter(
    sections=SECTIONS,
    refusals=REFUSALS,
    option_words=OPTION_WORDS,
    glossary=GLOSSARY,
    walkthrough=walkthrough,
    step_sections=STEP_SECTIONS,
    # A lair or ship just built (rules "Building").
    rule_examples={"building": lambda game, state, seat, action: bool(action)
                   and action.get("kind") in ("build_lair", "build_ship")},
    chance=chance,
    bgg_id=125921,  # checked against boardgamegeek.com/boardgame/125921/catan-junior
)
