"""Rules at hand: a short rules reference per game, one page per section.

What lives where:

- :data:`SECTIONS`: per game, the ordered sections of its reference, each with the
  sections of ``shared/rules/<game>.md`` it summarises (shown small on the page, for
  traceability) and the table options that change what it says.
- :data:`REFUSALS`: per game, every refusal code its engine raises, mapped to the
  section that explains the rule behind it (``"cards#card-7"`` names an anchor in a
  section). :data:`NOT_A_RULE` lists the few codes that refuse malformed input (a
  broken payload, edition file or option) rather than a move the rules forbid: they
  have no section. ``tests/web/test_rulebook.py`` scans the engines' source for codes
  and fails on any code that is in neither.
- :func:`step_section`: the section that explains the current step of a prompt (a war,
  an auction, a split 7, the Ghost Captain...), for the prompt's "How does this work?" link.
- The prose itself: one plain-text file per game and language,
  ``templates/games/rules/<slug>/<lang>.txt`` (format in :func:`parse`).

Why files and not catalogue strings: the sections are paragraphs, not labels. A
translator reads and writes a whole section at once, beside the English file, and a
wording fix in one language never turns the three others into fuzzy entries (as a
changed ``msgid`` would); the files diff and review as prose. What the page adds around
the prose (headings, "At this table", "Why? Read the rule") is short and goes through
the catalogues like every other string. The rule options shown "at this table" reuse
the options' own translated help texts, so they always say what the lobby said.

No Django model or engine is touched here; engines never import this module.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.urls import reverse

RULES_DIR = Path(settings.BASE_DIR) / "templates" / "games" / "rules"
LANGUAGES = ("en", "fa", "az", "ps")


@dataclass(frozen=True)
class Section:
    """One page of a game's reference.

    ``key``: the URL slug and the ``== key:`` header in every language file.
    ``cites``: the rules-file sections it is based on (``"2.3, 2.4"``).
    ``options``: table options (engine ``OptionSpec`` names) that change this section.
    ``variant``: the flag option that turns the whole section on (Sorry! team/points).
    """

    key: str
    cites: str
    options: tuple[str, ...] = ()
    variant: str | None = None


SECTIONS: dict[str, tuple[Section, ...]] = {
    "sorry": (
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
    ),
    "yellow_yangtze": (
        Section("tiles", "1.1, 1.2, 1.3, 2", ("short_game", "capitals_from_black", "red_leader_any_side")),
        Section("turn", "4, 4.1, 4.2, 4.3, 4.4, 4.7, 6", ("leader_join_own_colour", "chain_after_declined_pagoda")),
        Section("revolts", "5.1, 5.2, 5.4", ()),
        Section("wars", "5.1, 5.3, 5.4", ("who_fights", "attrition", "attrition_counts_leader", "war_surplus",
                                          "red_leader_any_side", "red_under_pagoda")),
        Section("pagodas", "4.5, 4.6, 6", ("red_under_pagoda", "chain_after_declined_pagoda")),
        Section("scoring", "4.2, 6, 7", ()),
    ),
    "amun_re": (
        Section("kingdoms", "2.1, 2.2, 2.3, 2.8, 2.11", ("hand_sum_mode", "budget_over_36")),
        Section("auctions", "1.3, 2.4", ("rebid_same_province", "ankh_after_each_auction",
                                        "visible_ankhs_mid_kingdom")),
        Section("offerings", "1.5, 2.5, 2.11", ()),
        Section("income", "1.5, 2.6", ("edition",)),
        Section("pyramids", "1.6, 2.6, 2.7", ("pyramid_supply", "edition")),
        Section("honour", "1.7, 2.7, 2.9, 2.10", ("allow_negative_vp",)),
    ),
    "catan_junior": (
        Section("rolling", "3 SU, TU, PR, SH", ("balanced_die", "shortage_trigger", "shortage_freeze")),
        Section("building", "3 BU1-BU6", ("edition",)),
        Section("ghost", "3 GC1-GC4", ("ghost_to_castle",)),
        Section("coco", "2.5, 3 CO1-CO4, CA1-CA5", ("coco_deck",)),
        Section("trades", "3 TR1-TR4, SH1-SH4", ("player_trades", "shortage_freeze")),
        Section("winning", "3 SU6, EN1", ()),
    ),
}

# Codes that refuse malformed input (a broken payload, state, option or edition file, an unknown seat or
# location typed into the API): no rule of the game explains them, so they get no "Why?" link.
NOT_A_RULE = frozenset({
    "bad_action", "bad_payload", "unknown_action", "too_deep", "too_large", "nul_character",
    "bad_state", "bad_position", "bad_location", "bad_board", "bad_edition", "bad_option",
    "bad_seat", "no_such_seat", "bad_pawn", "outcome_from_server", "bad_start",
})

# Codes the shared engine base raises for every game, by the section that holds the rule.
_SHARED = {
    "sorry": {"not_your_turn": "goal", "wrong_step": "goal", "game_over": "goal", "seat_count": "goal"},
    "yellow_yangtze": {"not_your_turn": "turn", "wrong_step": "turn", "game_over": "scoring",
                       "seat_count": "tiles"},
    "amun_re": {"not_your_turn": "auctions", "wrong_step": "kingdoms", "game_over": "honour",
                "seat_count": "kingdoms"},
    "catan_junior": {"not_your_turn": "rolling", "wrong_step": "rolling", "game_over": "winning",
                     "seat_count": "winning"},
}

REFUSALS: dict[str, dict[str, str]] = {
    "sorry": {
        **_SHARED["sorry"],
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
    },
    "yellow_yangtze": {
        **_SHARED["yellow_yangtze"],
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
    },
    "amun_re": {
        **_SHARED["amun_re"],
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
    },
    "catan_junior": {
        **_SHARED["catan_junior"],
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
    },
}

# The prompt steps that get a "How does this work?" link: step name -> section (an anchor allowed).
_STEPS: dict[str, dict[str, str]] = {
    "yellow_yangtze": {"revolt_attacker": "revolts", "revolt_defender": "revolts", "war_support": "wars",
                       "war_winner": "wars", "war_burn": "wars", "war_attrition": "wars", "pagoda": "pagodas",
                       "market": "turn#market", "chain": "turn#chain"},
    "amun_re": {"build_hand": "kingdoms#hand", "auction": "auctions", "province": "auctions#provinces",
                "offering": "offerings", "reward_pyramids": "offerings#reward", "building": "income"},
    "catan_junior": {"ghost": "ghost", "coco_ghost": "ghost", "coco_build": "coco", "trade": "trades#players"},
}
# Sorry!: the move step's card decides (prompt details "card"); points mode has a hand instead.
_SORRY_CARDS = {"7": "cards#card-7", "11": "cards#card-11", "10": "cards#card-10", "Sorry!": "cards#card-sorry"}


def sections(slug: str) -> tuple[Section, ...]:
    """The sections of ``slug``'s reference, in reading order; ``KeyError`` for an unknown game."""
    return SECTIONS[slug]


def section(slug: str, key: str) -> Section | None:
    """One section by its key, or ``None``."""
    return next((s for s in SECTIONS.get(slug, ()) if s.key == key), None)


def url(slug: str, target: str, table_code: str | None = None) -> str:
    """The page of ``target`` (``"key"`` or ``"key#anchor"``), with ``?t=CODE`` for a table's own options."""
    key, _, anchor = target.partition("#")
    path = reverse("games:rules_section", args=[slug, key])
    if table_code:
        path += f"?t={table_code}"
    return path + (f"#{anchor}" if anchor else "")


def refusal_section(slug: str, code: str) -> str | None:
    """The section (``"key"`` or ``"key#anchor"``) a refusal ``code`` of game ``slug`` cites, or ``None``."""
    return REFUSALS.get(slug, {}).get(code)


def rule_url(slug: str, code: str, table_code: str | None = None) -> str | None:
    """The "Why? Read the rule" link of a refusal, or ``None`` when no rule explains ``code`` (bad input)."""
    target = refusal_section(slug, code)
    return url(slug, target, table_code) if target else None


def step_section(slug: str, prompt: Mapping[str, Any] | None) -> str | None:
    """The section explaining the current step of ``prompt`` (``Prompt.as_json()``), or ``None`` for a plain turn."""
    if not prompt:
        return None
    step = prompt.get("step") or ""
    if slug == "sorry":
        if step != "move":
            return None
        card = (prompt.get("details") or {}).get("card")
        return _SORRY_CARDS.get(str(card)) if card is not None else "points"
    return _STEPS.get(slug, {}).get(step)


def step_url(slug: str, prompt: Mapping[str, Any] | None, table_code: str | None = None) -> str | None:
    """The "How does this work?" link of the current step, or ``None``."""
    target = step_section(slug, prompt)
    return url(slug, target, table_code) if target else None


# -- the prose files ------------------------------------------------------------------------------

_HEADER = re.compile(r"^== ([a-z0-9_-]+): (.+)$")
_ANCHOR = re.compile(r"^\[#([a-z0-9-]+)\]\s*")
_BOLD = re.compile(r"\*\*(.+?)\*\*")


@dataclass
class Text:
    """One section's prose in one language: its title and blocks of safe HTML (``<p>`` or ``<ul>``)."""

    title: str
    blocks: list[str] = field(default_factory=list)


def _inline(raw: str) -> str:
    """Escape ``raw`` and turn ``**word**`` into ``<strong>``; an opening ``[#id]`` becomes an ``id``."""
    return _BOLD.sub(r"<strong>\1</strong>", html.escape(raw.strip(), quote=True))


def _anchored(tag: str, raw: str) -> str:
    match = _ANCHOR.match(raw)
    if match:
        return f'<{tag} id="{match.group(1)}">{_inline(raw[match.end():])}</{tag}>'
    return f"<{tag}>{_inline(raw)}</{tag}>"


def parse(text: str) -> dict[str, Text]:
    """Sections of one language file: ``key -> Text``.

    Format: a header line ``== key: Title`` opens a section; below it, blocks separated
    by blank lines: a paragraph (its lines are joined), or a list whose items start with
    ``- `` (a longer item continues on indented lines). ``**word**`` is bold; a block or
    item may start with ``[#anchor]`` to be the target of a link. Everything else is
    text: HTML is escaped. Lines starting with ``#`` are translator notes and skipped.
    """
    out: dict[str, Text] = {}
    current: Text | None = None
    block: list[str] = []

    def flush() -> None:
        if current is None or not block:
            block.clear()
            return
        if block[0].startswith("- "):
            items: list[str] = []
            for line in block:
                if line.startswith("- "):
                    items.append(line[2:])
                else:
                    items[-1] += " " + line.strip()
            current.blocks.append("<ul>" + "".join(_anchored("li", i) for i in items) + "</ul>")
        else:
            current.blocks.append(_anchored("p", " ".join(x.strip() for x in block)))
        block.clear()

    for line in text.splitlines():
        if line.startswith("#"):
            continue
        header = _HEADER.match(line)
        if header:
            flush()
            current = out[header.group(1)] = Text(header.group(2).strip())
        elif not line.strip():
            flush()
        else:
            block.append(line.rstrip())
    flush()
    return out


@functools.lru_cache(maxsize=32)
def texts(slug: str, lang: str) -> dict[str, Text]:
    """The parsed file of ``slug`` in ``lang`` (``{}`` when the file is missing)."""
    path = RULES_DIR / slug / f"{lang}.txt"
    if not path.exists():
        return {}
    return parse(path.read_text(encoding="utf-8"))


def text(slug: str, key: str, lang: str) -> Text | None:
    """One section's prose in ``lang``, falling back to English (a missing translation is a failing test)."""
    base = lang.split("-")[0]
    return texts(slug, base).get(key) or texts(slug, "en").get(key)
