"""Points mode, physical deck (sections 2.1, 2.3, 3.2): a draw tells the drawer nothing of other hands.

The cards a drawer may tap in are those they cannot rule out: the deck less
the face-up discard and their own hand. A listed card the real pile lacks
(only the others' secret hands rule it out) is refused with one message that
names no card; and once the pile has run out and the discard is the new
pile (2.3), the list is the whole deck less the drawer's own hand, not the
cards in the others' hands.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.engines.base import IllegalAction
from shelf.sorry import DRAW_REFUSED
from shelf.sorry.state import CARD_INDEX, CARDS, DRAW

from .helpers import table

ZERO = (0,) * len(CARDS)


def counts(**cards: int) -> tuple[int, ...]:
    out = list(ZERO)
    for name, n in cards.items():
        out[CARD_INDEX[name.removeprefix("c")]] = n
    return tuple(out)


def points_game():
    return table("red blue yellow", points_mode=True, components="physical")


def drawing(game, hands, deck, discard):
    """A points-mode position where seat 0 draws, with the given hands, pile and discard counts."""
    state = game.setup(random.Random(1))
    return replace(state, turn=0, step=DRAW, card=None, hands=tuple(hands), deck=deck, discard=discard)


def test_the_cards_offered_do_not_depend_on_which_unseen_cards_the_others_hold():
    game = points_game()
    mine = counts(c1=1, c2=1, c3=1, c4=1, c5=1)
    deck_total = counts(**{f"c{c}": game.options["deck_counts"][c] for c in CARDS})
    # Bob holds all four 7s in one position and four 8s in the other; the rest is in the pile.
    bob_sevens, bob_eights = counts(c7=4, c8=1), counts(c8=4, c7=1)
    carol = counts(c10=5)
    a_deck = tuple(t - m - b - c for t, m, b, c in zip(deck_total, mine, bob_sevens, carol, strict=True))
    b_deck = tuple(t - m - b - c for t, m, b, c in zip(deck_total, mine, bob_eights, carol, strict=True))
    a = drawing(game, [mine, bob_sevens, carol], a_deck, ZERO)
    b = drawing(game, [mine, bob_eights, carol], b_deck, ZERO)
    assert game.view(a, 0) == game.view(b, 0), "Alice sees the same table"
    assert game.legal_actions(a, 0) == game.legal_actions(b, 0)
    assert {"kind": "draw", "card": "7"} in game.legal_actions(a, 0)


def test_a_card_only_the_others_hands_rule_out_is_refused_without_saying_why():
    game = points_game()
    deck_total = counts(**{f"c{c}": game.options["deck_counts"][c] for c in CARDS})
    mine = counts(c1=1, c2=1, c3=1, c4=1, c5=1)
    bob = counts(c7=4, c8=1)
    carol = counts(c10=5)
    deck = tuple(t - m - b - c for t, m, b, c in zip(deck_total, mine, bob, carol, strict=True))
    s = drawing(game, [mine, bob, carol], deck, ZERO)
    with pytest.raises(IllegalAction) as err:
        game.apply(s, 0, {"kind": "draw", "card": "7"})
    assert err.value.code == "card_not_in_deck" and err.value.message == DRAW_REFUSED
    assert err.value.details == {} and "7" not in err.value.message


def test_once_the_pile_is_used_up_the_offered_cards_come_from_the_reshuffled_discard_too():
    """2.3: the discard becomes the pile; offering only what the others hold would name their hands."""
    game = points_game()
    deck_total = counts(**{f"c{c}": game.options["deck_counts"][c] for c in CARDS})
    mine = counts(c1=1, c2=1, c3=1, c4=1, c5=1)
    bob = counts(c7=4, c8=1)
    carol = counts(c10=5)
    discard = tuple(t - m - b - c for t, m, b, c in zip(deck_total, mine, bob, carol, strict=True))
    s = drawing(game, [mine, bob, carol], ZERO, discard)
    offered = {a["card"] for a in game.legal_actions(s, 0)}
    assert "sorry" in offered and "12" in offered, "cards of the reshuffled discard can be drawn"
    real = {c for c in CARDS if discard[CARD_INDEX[c]]}
    assert real <= offered
    game.apply(s, 0, {"kind": "draw", "card": "sorry"})
