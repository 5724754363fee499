"""One digit system per page: Persian digits in fa and ps, Latin in en and az, per phone.

The pass (games/web/digits.py) rewrites what people read (text nodes, placeholders, tooltips, labels read
out): SVG coordinates, data attributes, form values, URLs, scripts and codes keep their ASCII digits.
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client

from games.web import digits
from games.web.digits import localize_html, system_for
from games.write.moves import submit_action
from games.write.pregame import create_table
from tests.conftest import phone_for
from tests.web.words import visible_pieces

PAGE = ('<p class="x1">Move 12 of 30</p><svg viewBox="0 0 360 240"><circle cx="12" cy="40" r="7"/>'
        '<text x="188" y="150">12 cards</text></svg><button data-action=\'{"kind":"move","to":"T41"}\' '
        'value="3">Pawn 2</button><a href="/t/AB12/screen/">screen</a><script>var n = 42;</script>'
        '<span class="code">AB12</span><code>9f3a1</code><input name="n" value="5">')


def test_persian_digits_in_a_persian_text_node():
    assert localize_html("<p>12</p>", "persian") == "<p>۱۲</p>"


def test_latin_digits_stay_latin_in_azerbaijani_and_english():
    assert system_for("az", None) == "latin" and system_for("en", None) == "latin"
    assert localize_html("<p>12</p>", system_for("az", None)) == "<p>12</p>"


def test_fa_and_ps_default_to_persian_digits_and_the_phone_may_choose():
    assert system_for("fa", None) == "persian" and system_for("ps", "") == "persian"
    assert system_for("fa", "latin") == "latin" and system_for("az", "persian") == "persian"
    assert system_for("ps", "bogus") == "persian", "an unknown choice falls back to the language's"


def test_svg_coordinates_attributes_urls_scripts_and_codes_keep_their_ascii_digits():
    out = localize_html(PAGE, "persian")
    assert "Move ۱۲ of ۳۰" in out and "۱۲ cards" in out and "Pawn ۲" in out
    for kept in ('class="x1"', 'viewBox="0 0 360 240"', 'cx="12" cy="40" r="7"', 'x="188" y="150"',
                 '"to":"T41"', 'value="3"', 'href="/t/AB12/screen/"', "var n = 42;", ">AB12<", ">9f3a1<",
                 'value="5"'):
        assert kept in out, kept
    assert len(out) == len(PAGE), "one character for one: markup is copied as it is"


def test_a_latin_page_writes_the_catalogues_persian_digits_in_latin():
    assert localize_html("<p>بخش ۲.۱</p><i title='۳'>x</i>", "latin") == "<p>بخش 2.1</p><i title='3'>x</i>"


def test_placeholders_tooltips_and_read_out_labels_follow_the_pages_digits_and_codes_do_not():
    html = ('<input name="name_0" placeholder="بازیکن 1" aria-label="بازیکن 1: نام" value="2">'
            '<span title="A11 · 3" data-n="4">x</span><img alt="5" src="/i/6.png">'
            '<span class="code" title="7">AB12</span>')
    assert localize_html(html, "persian") == (
        '<input name="name_0" placeholder="بازیکن ۱" aria-label="بازیکن ۱: نام" value="2">'
        '<span title="A11 · ۳" data-n="4">x</span><img alt="۵" src="/i/6.png">'
        '<span class="code" title="7">AB12</span>')


def test_a_code_of_letters_and_digits_keeps_its_digits():
    assert localize_html("<title>Sorry! · AB12CD</title><p>A11 و 12</p>", "persian") == (
        "<title>Sorry! · AB12CD</title><p>A11 و ۱۲</p>")


def test_a_broken_page_never_raises():
    for html in ("<p>1 < 2", "<p unclosed='1>3", "</b>4", "<!-- 5 --><p>6</p>", "7 <br/> 8"):
        localize_html(html, "persian")
    assert localize_html("<!-- 5 --><p>6</p>", "persian") == "<!-- 5 --><p>۶</p>"


@pytest.mark.django_db
def test_a_persian_phone_page_reads_in_persian_digits_and_keeps_its_machine_numbers(fixture_game_registered):
    table = create_table("counting", {}, [{"name": "Alice"}, {"name": "Bob"}])
    alice = phone_for(table, 0)
    alice.cookies[settings.LANGUAGE_COOKIE_NAME] = "fa"
    submit_action(table.code, 0, {"kind": "draw"}, 0)
    page = alice.get(f"/t/{table.code}/").content.decode()
    assert 'data-version="1"' in page, "attributes keep ASCII digits"
    page = re.sub(r"<pre.*?</pre>", "", page, flags=re.S)  # the fixture game's raw view (kept as printed)
    shown = " ".join(text for text, isolated in visible_pieces(page) if not isolated)  # codes are kept as printed
    assert re.search(r"[۰-۹]", shown), shown[:300]
    shown = shown.replace(table.code, "")  # the table code in the title stays as printed
    assert not re.findall(r".{0,20}[0-9].{0,20}", shown.replace("123", "")), "no Latin digit in the page's text"


@pytest.mark.django_db
def test_the_phone_picks_latin_digits_and_the_choice_is_kept_in_a_cookie(fixture_game_registered):
    table = create_table("counting", {}, [{"name": "Alice"}, {"name": "Bob"}])
    alice = phone_for(table, 0)
    alice.cookies[settings.LANGUAGE_COOKIE_NAME] = "fa"
    response = alice.post("/digits/", {"digits": "latin", "next": f"/t/{table.code}/"})
    assert response.status_code == 302 and response["Location"] == f"/t/{table.code}/"
    assert alice.cookies[digits.COOKIE].value == "latin"
    page = alice.get(f"/t/{table.code}/").content.decode()
    body = re.sub(r"<script.*?</script>|<[^>]+>", " ", page, flags=re.S)
    assert not re.search(r"[۰-۹]", body.replace("۱۲۳", "")), "one digit system: Latin everywhere"
    assert '<option value="latin" translate="no" selected>123</option>' in page
    alice.post("/digits/", {"digits": "auto", "next": "/"})
    assert not alice.cookies[digits.COOKIE].value, "auto forgets the choice"


def test_a_bad_digit_choice_or_a_foreign_next_is_refused_or_ignored():
    phone = Client()
    assert phone.post("/digits/", {"digits": "roman"}).status_code == 400
    assert phone.get("/digits/").status_code == 405
    response = phone.post("/digits/", {"digits": "persian", "next": "https://elsewhere.example/"})
    assert response.status_code == 302 and response["Location"] == "/"


@pytest.mark.django_db
@pytest.mark.parametrize(("lang", "choice", "system"), [("fa", None, "persian"), ("ps", None, "persian"),
                                                        ("fa", "latin", "latin"), ("az", None, "latin"),
                                                        ("en", "persian", "persian")])
def test_the_page_names_its_digit_system_so_numbered_lists_count_in_it(lang, choice, system):
    """``<ol>`` markers are drawn by the browser: the page says its system, the stylesheet numbers lists in it."""
    phone = Client()
    phone.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    if choice:
        phone.cookies[digits.COOKIE] = choice
    page = phone.get("/").content.decode()
    assert f'data-digits="{system}"' in page
    css = (settings.BASE_DIR / "static" / "css" / "companion.css").read_text()
    assert "html[data-digits=persian] ol { list-style-type: persian; }" in css


@pytest.mark.django_db
def test_what_a_player_typed_and_an_algorithms_name_keep_their_digits(fixture_game_registered):
    """A correction's reason is the player's own words, in their script ("Zər 4 göstərirdi"); SHA-256 is a name."""
    from games.write.corrections import propose_correction

    table = create_table("counting", {"components": "physical"}, [{"name": "Alice"}, {"name": "Bob"}])
    submit_action(table.code, 0, {"kind": "draw", "card": "2"}, 0)
    propose_correction(table.code, 1, 1, None, reason="Zər 4 göstərirdi")
    bob = phone_for(table, 1)
    bob.cookies[settings.LANGUAGE_COOKIE_NAME] = "fa"
    page = bob.get(f"/t/{table.code}/").content.decode()
    assert "Zər 4 göstərirdi" in page and "Zər ۴" not in page
    screen = Client()
    screen.cookies[settings.LANGUAGE_COOKIE_NAME] = "fa"
    shown = screen.get(f"/t/{table.code}/screen/").content.decode()
    if "SHA-" in shown:
        assert "SHA-256" in shown and "SHA-۲۵۶" not in shown
    assert "SHA-۲۵۶" not in localize_html('<span translate="no">SHA-256</span>', "persian")
