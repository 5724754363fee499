"""Sorry! moves in words: "red pawn 1: 7 forward to square 41, slides to square 44".

Pawns and squares are counted as players count them (from 1) in the log and on the buttons,
in every language; the machine notation (``R0``, ``T40``) stays in ``data-action`` and the API's
payloads, which tests and phones post back unchanged.
"""

from __future__ import annotations

import html
import json
import re

import pytest
from django.conf import settings
from django.utils import translation

from games.engines.base import SeatInfo
from games.text.words import show
from games.write.moves import submit_action
from games.write.pregame import create_table
from shelf.sorry import SorryGame
from tests.conftest import phone_for

MOVE = {"kind": "move", "card": "7", "pawn": "R0", "steps": 7, "to": "T40",
        "effects": [{"pawn": "R0", "to": "T43"}, {"pawn": "B1", "to": "START"}]}


def _line(lang: str, viewer: int | None = None) -> str:
    game = SorryGame({}, [SeatInfo(0, "Ann", "red"), SeatInfo(1, "Ben", "blue")])
    line = game.describe(0, MOVE, viewer)
    with translation.override(lang):
        return show(line.text, line.details)


def test_a_sorry_move_reads_in_english_words_counted_from_one():
    assert _line("en") == ("Ann plays 7: red pawn 1: 7 forward to square 41, slides to square 44, "
                           "blue pawn 2 back to START.")


@pytest.mark.parametrize(("lang", "words"), [
    ("fa", ["مهرهٔ قرمز 1", "7 خانه جلو تا خانهٔ 41", "تا خانهٔ 44 سر می‌خورد", "مهرهٔ آبی 2 به «شروع» برمی‌گردد", "، "]),
    ("ps", ["سور پیاده 1", "7 ځایه مخکې تر ځای 41 پورې", "تر ځای 44 پورې ښوییږي", "بېرته سټارټ ته ځي"]),
    ("az", ["qırmızı piyon 1", "7 addım irəli, boşluq 41 qədər", "boşluq 44 qədər sürüşür", "BAŞLAMA-ya qayıdır"]),
])
def test_a_sorry_move_reads_in_the_readers_words(lang, words):
    text = _line(lang)
    for part in words:
        assert part in text, (part, text)
    assert not re.search(r"\b[RBYG]\d\b|\bT\d+\b|slides|forward", text), text


@pytest.mark.django_db
def test_the_persian_phone_shows_moves_in_words_and_posts_the_machine_notation():
    table = create_table("sorry", {}, [{"name": "Ann"}, {"name": "Ben"}], seed=3)
    game = table.game()
    for _ in range(40):  # draw until a move is on offer
        table.refresh_from_db()
        state = game.decode(table.state)
        seat = game.prompt(state).seats[0]
        legal = game.legal_actions(state, seat)
        moves = [a for a in legal if a.get("kind") == "move" and "steps" in a]
        if moves:
            break
        submit_action(table.code, seat, legal[0], table.version)
    assert moves, "the seeded game offers a move within 40 actions"
    phone = phone_for(table, seat)
    phone.cookies[settings.LANGUAGE_COOKIE_NAME] = "fa"
    page = phone.get(f"/t/{table.code}/").content.decode()
    buttons = re.findall(r"data-action='([^']+)'>([^<]+)</button>", page)
    moving = [(json.loads(html.unescape(a)), label) for a, label in buttons
              if json.loads(html.unescape(a)).get("kind") == "move"]
    assert moving, "the move buttons are on the page"
    for payload, label in moving:
        assert re.fullmatch(r"[RBYG]\d", payload["pawn"]) and re.fullmatch(r"T\d+|S\d|HOME", payload["to"])
        assert "مهرهٔ" in label and "خانه" in label, label
        assert not re.search(r"[A-Za-z]", label.replace("\u2068Sorry!\u2069", "")), label
        assert re.search(r"[۰-۹]", label), "Persian digits on a Persian phone"
