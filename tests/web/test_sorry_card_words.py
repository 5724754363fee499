"""The Sorry! card is written in the reader's word for the game's title on fa, az and ps phones (issue 9 item 3).

The newcomer's four-phone game showed a Latin "Sorry!" card in Pashto log lines and on the board, while the
page's title read "بخښنه!" (the word of shared/seeds/sorry.ps.txt).
"""
from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games import presenters, words
from games.engines.sorry import card_name

WORD = {"fa": "سوری!", "az": "Bağışlayın!", "ps": "بخښنه!", "en": "Sorry!"}


@pytest.mark.parametrize("lang", sorted(WORD))
def test_a_log_line_names_the_sorry_card_in_the_readers_word(lang):
    with translation.override(lang):
        line = words.show("{name} drew {card}.", {"name": "Ali", "card": card_name("sorry")})
        start = presenters.card_label("sorry")
    assert WORD[lang] in line and WORD[lang] in start
    if lang != "en":
        assert "Sorry" not in line and "Sorry" not in start


@pytest.mark.parametrize("lang", ["fa", "ps", "az"])
def test_the_board_and_the_hand_name_the_sorry_card_in_the_readers_word(lang):
    view = {"card": "sorry", "pawns": [], "layout": {"viewbox": "0 0 10 10", "points": {}},
            "private": {"hand": ["sorry", "7"]}}
    with translation.override(lang):
        html = render_to_string("games/sorry/board.html", {"view": view, "legal": [], "me": None})
    assert html.count(WORD[lang]) >= 2, html
    assert "Sorry!<" not in html and "Sorry!\u2069" not in html
