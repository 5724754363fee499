"""Words a fa/az/ps phone showed in English while four phones played (the QA pass of the pages).

Each test renders the page or prompt a player saw in that language and checks the English word is
gone and the translated one is there.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from django.conf import settings
from django.http import HttpResponse
from django.utils import translation

from games.engines import get_game_class
from games.engines.base import SeatInfo, fill
from games.engines.chance import table_rng
from games.entry.access import host_cookie, set_signed
from games.read.presenters import tr
from games.write.pregame import create_table
from shelf.yellow_yangtze.state import DrawStep
from tests.conftest import phone_for
from tests.engines.yellow_yangtze.helpers import make_game

NAMES = ["Ann", "Ben", "Cy", "Di"]


def _table(slug: str, n: int = 3, **kwargs):
    cls = get_game_class(slug)
    seats = [{"name": NAMES[i], "colour": cls.colours[i]} for i in range(n)]
    return create_table(slug, {}, seats, **kwargs)


def _page(table, seat: int, language: str, host: bool = False) -> str:
    phone = phone_for(table, seat)
    if host:  # the host's phone lists the walkthrough's steps
        response = HttpResponse()
        set_signed(response, host_cookie(table.code), table.host_token)
        phone.cookies[host_cookie(table.code)] = response.cookies[host_cookie(table.code)].value
    phone.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return phone.get(f"/t/{table.code}/").content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "title"), [("fa", "\u2068Sorry!\u2069"), ("ps", "\u2068Sorry!\u2069"),
                                                 ("az", "Sorry!")])
def test_a_seat_page_names_the_game_by_its_printed_name_in_every_language(language, title):
    """Players know the box as "Sorry!": no language translates the name word for word (the seeds'
    "Bağışlayın!", "بخښنه!" are not printed on any box); right to left it stands isolated."""
    table = _table("sorry")
    page = _page(table, 1, language)
    with translation.override(language):
        assert translation.gettext("Sorry!") == title
    assert f"<strong>{title}</strong>" in page
    assert f"<title>{title} — {table.code}" in page
    assert "Bağışlayın" not in page and "بخښن" not in page and "سوری" not in page


@pytest.mark.django_db
def test_a_rules_page_names_the_game_in_the_phones_language(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fa"
    page = client.get("/rules/yellow_yangtze/").content.decode()
    with translation.override("fa"):
        title = translation.gettext("Yellow & Yangtze")
    assert title != "Yellow & Yangtze"
    assert "Yellow &amp; Yangtze" not in page and title in page


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["fa", "ps", "az"])
def test_the_set_up_walkthrough_keeps_its_rules_citations_out_of_the_visible_text(language):
    """Players have no rules notes: a step cites its section for maintainers in ``data-rules`` only."""
    table = _table("amun_re", start="chosen", start_seat=0, walkthrough=True)
    page = _page(table, 0, language, host=True)
    assert 'data-rules="2.1 step 1"' in page
    steps = page.split('class="walk-steps"', 1)[1].split("</ol>", 1)[0]
    visible = re.sub(r"<[^>]+>", " ", steps)
    assert "2.1" not in visible and "step" not in visible


@pytest.mark.parametrize("language", ["fa", "ps", "az"])
@pytest.mark.parametrize("target", ["hand", "market", "swap"])
def test_a_yellow_yangtze_draw_prompt_says_hand_market_or_swap_in_the_phones_language(language, target):
    game = make_game(3)
    state = replace(game.setup(table_rng(3, 0)), pending=DrawStep(((1, target, 2),), "turn"))
    prompt = game.prompt(state)
    with translation.override(language):
        shown = tr(prompt.text, prompt.details)
    assert game.seats[1].name in shown and "2" in shown
    assert target not in shown


@pytest.mark.parametrize(("language", "wood", "gold", "wool"), [("fa", "چوب", "طلا", "پشم"),
                                                                ("ps", "لرګي", "سره زر", "وړۍ"),
                                                                ("az", "taxta", "qızıl", "yun")])
def test_catan_junior_log_lines_and_buttons_name_resources_in_the_phones_language(language, wood, gold, wool):
    """'Aydan swapped wood for gold at the marketplace' read so on a Pashto phone, and so did islands."""
    cls = get_game_class("catan_junior")
    game = cls({}, [SeatInfo(i, NAMES[i], cls.colours[i]) for i in range(3)])
    swap = game.describe(0, {"kind": "market_swap", "space": 4, "give": "wood", "take": "gold"}, 1)
    trade = game.label(0, {"kind": "supply_trade", "give": "wool", "take": "gold"})
    offer = game.describe(0, {"kind": "offer_trade", "to": 1, "give": {"wood": 2, "gold": 1}, "get": {"wool": 1}}, 2)
    ghost = game.describe(0, {"kind": "move_ghost", "island": "wool-5"}, 1)
    english = [fill(swap.text, swap.details), fill(offer.text, offer.details)]
    assert english == ["Ann swapped wood for gold at the marketplace.", "Ann offered Ben 2 wood and 1 gold for 1 wool."]
    with translation.override(language):
        shown = [tr(line.text, line.details) for line in (swap, trade, offer, ghost)]
    for text in shown:
        assert not any(word in text for word in ("wood", "gold", "wool", " and ")), text
    assert wood in shown[0] and gold in shown[0]
    assert wool in shown[1] and gold in shown[1]
    assert wood in shown[2] and gold in shown[2] and wool in shown[2]
    assert wool in shown[3] and "5" in shown[3]


@pytest.mark.parametrize(("language", "red", "black"), [("fa", "قرمز", "مشکی"), ("ps", "سور", "تور"),
                                                         ("az", "qırmızı", "qara")])
def test_yellow_yangtze_log_lines_and_buttons_name_colours_in_the_phones_language(language, red, black):
    """'Sam په E11 کې red ټایل ږدي' was a Pashto phone's log during a war."""
    game = make_game(3)
    hex_ = next(iter(game.board.land))
    tile = game.describe(0, {"kind": "tile", "colour": "red", "hex": list(hex_)}, 1)
    drew = game.describe(0, {"kind": "draw", "tiles": ["red", "black"]}, 0)
    button = game.label(0, {"kind": "leader", "colour": "black", "hex": list(hex_)})
    assert fill(tile.text, tile.details).startswith(f"{game.seats[0].name} places a red tile at ")
    with translation.override(language):
        shown = [tr(line.text, line.details) for line in (tile, drew, button)]
    for text in shown:
        assert not any(word in text for word in ("red", "black")), text
    assert red in shown[0] and red in shown[1] and black in shown[1] and black in shown[2]


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "words"), [("fa", "صفحهٔ تمرینی"), ("ps", "د تمرین تخته"), ("az", "Məşq lövhəsi")])
def test_the_unverified_edition_banner_names_a_shipped_board_in_the_phones_language(language, words):
    table = _table("yellow_yangtze")
    page = _page(table, 1, language)
    assert "Practice board (invented map" not in page
    assert words in page


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["fa", "az", "ps", "en"])
def test_the_language_picker_names_each_language_in_itself(client, language):
    """A reader lost on a Persian page must find "English", not "انگلیسی"."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = client.get("/").content.decode()
    for code, name in (("en", "English"), ("fa", "فارسی"), ("az", "Azərbaycanca"), ("ps", "پښتو")):
        assert f'<option value="{code}"' in page
        assert re.search(rf'<option value="{code}" lang="{code}"( selected)?>{name}</option>', page), (code, language)
