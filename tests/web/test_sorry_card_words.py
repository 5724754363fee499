"""The Sorry! card is named by the users' own word for it; the game keeps the name printed on its box.

The seeds call the card "Bağışlayın!" (sorry.az.txt) and "بخښنه!" (sorry.ps.txt); Persian has no seed and keeps the
printed word, held in Unicode isolates so its "!" stays at its end right to left. The card is the catalogue's
"Sorry!" in the context "card" (shelf.sorry.CARD_WORD), apart from the title "Sorry!", which every language
writes as the box prints it (games/text/glossary.py), so a mixed table reads one name for the game and one for the card.
"""
from __future__ import annotations

import pytest
from django.utils import translation

from games.read import presenters
from games.text import words
from games.web.jinja2env import draw
from shelf.sorry import SorryGame, card_name

CARD = {"fa": "\u2068Sorry!\u2069", "az": "Bağışlayın!", "ps": "بخښنه!", "en": "Sorry!"}
TITLE = {"fa": "\u2068Sorry!\u2069", "az": "Sorry!", "ps": "\u2068Sorry!\u2069", "en": "Sorry!"}
DRIFTED = ("سوری", "Sorry! kart", "د \u2068Sorry!\u2069 کارت")


@pytest.mark.parametrize("lang", sorted(CARD))
def test_a_log_line_and_the_start_draw_name_the_sorry_card_by_the_seed_word(lang):
    with translation.override(lang):
        line = words.show("{name} drew {card}.", {"name": "Ali", "card": card_name("sorry")})
        start = presenters.card_label("sorry", "sorry")
        title = translation.gettext(SorryGame.title)
    assert CARD[lang] in start and CARD[lang] in line
    assert title == TITLE[lang], "the game keeps the box's name"
    assert not any(word in line + start for word in DRIFTED)


@pytest.mark.parametrize("lang", ["fa", "ps", "az"])
def test_the_board_and_the_hand_name_the_sorry_card_by_the_seed_word(lang):
    view = {"card": "sorry", "pawns": [], "layout": {"viewbox": "0 0 10 10", "points": {}},
            "private": {"hand": ["sorry", "7"]}}
    with translation.override(lang):
        html = draw("sorry/board.jinja", {"view": view, "legal": [], "me": None})
    assert html.count(CARD[lang]) >= 2, html
    assert not any(word in html for word in DRIFTED)
