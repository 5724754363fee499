"""The Sorry! card is named as the game is, by the word printed on the box and the card, on every phone.

The seeds translate the name word for word ("Bağışlayın!" in sorry.az.txt, "بخښنه!" in sorry.ps.txt, for
the game and the card alike); no box prints those, so the glossary (games/glossary.py) keeps "Sorry!" for
both, and Persian and Pashto lines hold it in Unicode isolates so its "!" stays at its end right to left.
"""
from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games import presenters, words
from games.engines.sorry import card_name

WORD = {"fa": "\u2068Sorry!\u2069", "az": "Sorry!", "ps": "\u2068Sorry!\u2069", "en": "Sorry!"}
TRANSLATED = ("سوری", "Bağışlayın", "بخښن")


@pytest.mark.parametrize("lang", sorted(WORD))
def test_a_log_line_names_the_sorry_card_by_its_printed_name(lang):
    with translation.override(lang):
        line = words.show("{name} drew {card}.", {"name": "Ali", "card": card_name("sorry")})
        start = presenters.card_label("sorry", "sorry")
    assert WORD[lang] in start and "Sorry!" in line
    assert not any(word in line + start for word in TRANSLATED)


@pytest.mark.parametrize("lang", ["fa", "ps", "az"])
def test_the_board_and_the_hand_name_the_sorry_card_by_its_printed_name(lang):
    view = {"card": "sorry", "pawns": [], "layout": {"viewbox": "0 0 10 10", "points": {}},
            "private": {"hand": ["sorry", "7"]}}
    with translation.override(lang):
        html = render_to_string("games/sorry/board.html", {"view": view, "legal": [], "me": None})
    assert html.count(WORD[lang]) >= 2, html
    assert not any(word in html for word in TRANSLATED)
