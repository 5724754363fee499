"""What players read in the lobby and the rules at hand: plain words, one digit system, the language's comma.

* No rules-file marker ("[U]", "[S!]"), case number ("E15", "D07", "SH3"), machine value ("kosmos",
  "not_enough", a quoted 'stop') or JSON reaches a lobby page or a rules-at-hand note, in any language.
* The game picker names the boxes as printed where no seed names them otherwise ("Sorry!" everywhere).
* A Persian or Pashto lobby writes every number it shows (placeholders and read-out labels too) in one
  digit system, and lists are joined with "، ".
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.template import Context, Template
from django.test import Client
from django.utils import translation

from games.engines import get_game_class
from games.text.words import show
from games.write.pregame import create_table
from tests.registry import GAMES
from tests.web.words import visible_pieces

LANGS = ("en", "fa", "az", "ps")
MARKER = re.compile(r"\[[A-Z!]+\]")
CASE_ID = re.compile(r"\b[A-Z]{1,2}\d{1,2}\b")
JSON = re.compile(r"[{\[]\s*\"")


def _client(lang: str) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    return client


def _raw_values(slug: str) -> set[str]:
    """The option values of ``slug`` that are machine words ("kosmos", "not_enough"), never shown as such."""
    found = set()
    for spec in get_game_class(slug).option_specs:
        for value in spec.choices or ():
            if isinstance(value, str) and not value.isdigit():
                found.add(value)
    return found


def _leaks(text: str, raw: set[str]) -> list[str]:
    found = MARKER.findall(text) + CASE_ID.findall(text) + JSON.findall(text)
    found += re.findall(r"'[a-z_]+'", text)
    # machine values: the ones no language writes as a word ("not_enough", "kosmos", "english" in lower case)
    found += [w for w in re.findall(r"[a-z]+(?:_[a-z]+)*", text)
              if w in raw and ("_" in w or w in ("kosmos", "english"))]
    return found


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", GAMES)
def test_no_lobby_page_shows_a_rules_marker_a_case_number_or_a_raw_option_value(slug, lang):
    page = _client(lang).get(f"/?game={slug}").content.decode()
    raw = _raw_values(slug)
    shown = [text for text, _isolated in visible_pieces(page)]
    leaks = {text: _leaks(text, raw) for text in shown if _leaks(text, raw)}
    assert not leaks, (lang, slug, leaks)


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", GAMES)
def test_the_rules_at_hand_name_a_tables_options_in_the_lobbys_words(slug, lang):
    """Every option of every game set away from its default, every section opened from that table."""
    from games.read import rulebook

    seats = [{"name": n} for n in ("Ann", "Ben", "Cy", "Di")][:get_game_class(slug).max_seats]
    options = {}
    for spec in get_game_class(slug).option_specs:
        others = [c for c in (spec.choices or ()) if c != spec.default]
        if others and spec.name != "components":
            options[spec.name] = others[0]
    options.pop("team_mode", None)
    table = create_table(slug, options, seats, seed=1)
    raw = _raw_values(slug)
    for section in rulebook.sections(slug):
        page = _client(lang).get(f"/rules/{slug}/{section.key}/?t={table.code}").content.decode()
        page = re.sub(r'<figure class="rules-picture.*?</figure>', "", page, flags=re.S)  # the board's own words
        notes = re.findall(r"<li(?: class=\"changed\")?>(.*?)</li>", page.split("rules-pager")[0], re.S)
        for note in notes:
            text = re.sub(r"<[^>]+>", "", note)
            assert not _leaks(text, raw), (lang, slug, section.key, text)


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_the_game_picker_names_sorry_as_printed(lang):
    page = _client(lang).get("/").content.decode()
    option = re.search(r'<option value="sorry"[^>]*>([^<]*)</option>', page).group(1)
    assert option.strip("\u2068\u2069") == "Sorry!"


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["fa", "ps"])
def test_a_persian_or_pashto_lobby_writes_every_number_in_persian_digits(lang):
    page = _client(lang).get("/?game=amun_re").content.decode()
    shown = " ".join(text for text, isolated in visible_pieces(page) if not isolated)
    shown = shown.replace("123", "")  # the digits picker names the Latin system by its own digits
    assert re.search(r"[۰-۹]", shown)
    assert not re.findall(r".{0,15}[0-9].{0,15}", shown), "a Latin digit beside Persian ones"
    assert 'placeholder="بازیکن ۱"' in page or 'placeholder="لوبغاړی ۱"' in page


@pytest.mark.parametrize(("lang", "comma"), [("fa", "، "), ("ps", "، "), ("az", ", "), ("en", ", ")])
def test_lists_of_names_are_joined_with_the_languages_comma(lang, comma):
    with translation.override(lang):
        line = show("Waiting for {names}.", {"names": "Ann, Ben, Cy"})
        side = show("Red tiles: {tiles}, to {owners}'s side", {"tiles": 2, "owners": "Ann, Ben"})
        listed = Template("{% load companion %}{{ who|names }}").render(Context({"who": ["Ann", "<b>", "Cy"]}))
    assert line.replace("\u2068", "").replace("\u2069", "").count(comma) == 2, line
    assert f"Ann{comma}Ben" in side.replace("\u2068", "").replace("\u2069", ""), side
    assert listed.replace("\u2068", "").replace("\u2069", "") == comma.join(["Ann", "&lt;b&gt;", "Cy"])
