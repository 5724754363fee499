"""The lobby for people: every option in plain, translated words, grouped; same stored options.

The page is read as a browser reads it (html.parser): visible text only, and the form submitted with the
values a browser would send (checked boxes, selected options). Attributes such as ``data-rules`` (the
maintainers' rules-file citation) are not visible text.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from games.engines import REGISTRY, get_game_class
from games.models import Table
from games.text.option_words import FIRST, GROUPS, words_for
from games.web.digits import localize_number, system_for
from games.write.pregame import create_table

pytestmark = pytest.mark.django_db

GAMES = list(REGISTRY)  # the shipped games (the test fixture game is registered only by its fixture)
LANGS = ("fa", "az", "ps")
#: Internal things no player should read in the lobby (markers, JSON fields, files, internal names).
INTERNAL = re.compile(r"\[U\]|\[S!\]|\[D\]|\bJSON\b|shared/rules|\.md\b|\bkosmos\b|§|\bSection \d|\bRules? \d|\w+_\w+")
VOID = {"input", "br", "img", "meta", "link", "hr", "source", "wbr"}


class Page(HTMLParser):
    """Visible text of ``#options`` (as strings), and the form's fields as a browser would submit them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0  # > 0 inside #options
        self.texts: list[str] = []
        self.data: dict[str, str] = {}
        self.select: str | None = None
        self.option: dict | None = None
        self.first_option: dict[str, str] = {}
        self.option_texts: dict[str, list[str]] = {}
        self.attrs_of: dict[str, dict[str, str]] = {}
        self.skip = 0  # inside <script>/<style>

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if tag in ("script", "style"):
            self.skip += 1
        if self.depth and tag not in VOID:
            self.depth += 1
        elif a.get("id") == "options":
            self.depth = 1
        name = a.get("name", "")
        if name:
            self.attrs_of[name] = a
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind == "checkbox":
                if "checked" in a:
                    self.data[name] = a.get("value", "on")
            else:
                self.data[name] = a.get("value", "")
        elif tag == "select":
            self.select = name
            self.option_texts[name] = []
        elif tag == "option" and self.select:
            self.option = {"value": a.get("value", ""), "text": ""}
            self.first_option.setdefault(self.select, a.get("value", ""))
            if "selected" in a:
                self.data[self.select] = a.get("value", "")

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip -= 1
        if tag == "option" and self.option is not None and self.select:
            self.option_texts[self.select].append(self.option["text"].strip())
            self.option = None
        if tag == "select" and self.select:
            self.data.setdefault(self.select, self.first_option.get(self.select, ""))
            self.select = None
        if self.depth and tag not in VOID:
            self.depth -= 1

    def handle_data(self, data):
        if self.option is not None:
            self.option["text"] += data
        if self.depth and not self.skip and data.strip():
            self.texts.append(data.strip())


def lobby(slug: str, language: str = "en", client: Client | None = None) -> Page:
    phone = client or Client()
    phone.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = phone.get(f"/?game={slug}")
    assert response.status_code == 200
    page = Page()
    page.feed(response.content.decode())
    return page


def english_words(slug: str) -> list[str]:
    """Every English label, explanation, value name and group title the lobby shows for game ``slug``."""
    out = []
    for spec in get_game_class(slug).option_specs:
        words = words_for(slug, spec.name)
        out += [words.label, words.explain, *words.values.values()]
        if words.group != FIRST:
            out.append(GROUPS[words.group])
    return out


@pytest.mark.parametrize("slug", GAMES)
def test_every_option_of_every_game_has_words_a_group_and_a_citation(slug):
    """Each option: a label, one line, a name for every machine value, a known group, a rules citation."""
    for spec in get_game_class(slug).option_specs:
        words = words_for(slug, spec.name)
        assert words is not None, f"{slug}.{spec.name} has no lobby words (games/text/option_words.py)"
        assert words.group in GROUPS or words.group == FIRST
        assert words.rules, f"{slug}.{spec.name}: the rules-file citation for maintainers"
        assert "\n" not in words.explain and len(words.explain) <= 160, "one line"
        if spec.choices and not set(spec.choices) <= {True, False}:
            assert set(words.values) == set(spec.choices), f"{slug}.{spec.name}: a name for every value"
        if spec.default is None and not spec.choices:  # an edition profile: Advanced, shipped default named
            assert words.group == "advanced" and None in words.values


@pytest.mark.parametrize("slug", GAMES)
def test_the_english_lobby_speaks_plain_words_with_the_default_marked(slug):
    page = lobby(slug)
    text = " ".join(page.texts)
    assert not INTERNAL.findall(text), f"internal words in the lobby: {INTERNAL.findall(text)}"
    for spec in get_game_class(slug).option_specs:
        words = words_for(slug, spec.name)
        assert words.label in text
        name = f"opt-{spec.name}"
        assert page.attrs_of[name]["data-rules"] == words.rules, "the citation rides in an attribute"
        if name in page.option_texts:
            defaults = [t for t in page.option_texts[name] if t.endswith("(default)")]
            assert len(defaults) == 1, f"{name}: exactly one value marked as the default: {page.option_texts[name]}"
        else:
            assert ("On by default." if spec.default else "Off by default.") in text


@pytest.mark.parametrize("language", LANGS)
@pytest.mark.parametrize("slug", GAMES)
def test_no_english_option_word_in_a_translated_lobby(slug, language):
    """Every label, explanation, value and group title comes from the catalogue, and none stays English."""
    page = lobby(slug, language)
    shown = set(page.texts) | {t for texts in page.option_texts.values() for t in texts}
    joined = " ".join(shown)
    assert not INTERNAL.findall(joined), f"internal words in the {language} lobby: {INTERNAL.findall(joined)}"
    with translation.override(language):
        for english in english_words(slug):
            translated = translation.gettext(english)
            assert translated != english, f"{english!r} has no {language} translation"
            translated = localize_number(translated, system_for(language, None))  # the page's one digit system
            assert english not in shown, f"{english!r} shown in English on the {language} lobby"
            assert any(translated in t for t in shown), f"{translated!r} ({english!r}) is not on the {language} lobby"
    assert not [t for t in shown if t.endswith("(default)")], "the default marker is translated too"


def browser_form(slug: str, language: str = "en", players: int = 2) -> dict[str, str]:
    """What a browser submits from the lobby as rendered, with ``players`` seats and nothing changed."""
    page = lobby(slug, language)
    data = dict(page.data)
    data.update(game=slug, players=str(players))
    return data


def engine_defaults(slug: str, players: int = 2) -> dict:
    cls = get_game_class(slug)
    seats = [{"name": "", "colour": cls.colours[i]} for i in range(players)]
    return create_table(slug, {}, seats).options


@pytest.mark.parametrize("language", ["en", "fa"])
@pytest.mark.parametrize("slug", GAMES)
def test_the_lobby_as_rendered_creates_a_table_with_the_engines_default_options(slug, language):
    expected = engine_defaults(slug)
    phone = Client()
    phone.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = phone.post("/", browser_form(slug, language))
    assert response.status_code == 302, response.content.decode()[:1500]
    assert Table.objects.latest("id").options == expected


@pytest.mark.parametrize("slug", GAMES)
def test_every_value_of_every_option_is_stored_as_the_engines_machine_value(slug):
    cls = get_game_class(slug)
    base = browser_form(slug, players=4)  # 4: the Sorry! team game needs them
    for spec in cls.option_specs:
        name = f"opt-{spec.name}"
        if spec.choices and set(spec.choices) <= {True, False}:
            tries = [(dict(base, **{name: "on"}), True), ({k: v for k, v in base.items() if k != name}, False)]
        elif spec.choices:
            tries = [(dict(base, **{name: str(value)}), value) for value in spec.choices]
        else:
            continue  # edition profiles: tests/web/test_editions.py
        for data, value in tries:
            response = Client().post("/", data)
            assert response.status_code == 302, (name, value, re.findall(r'class="errorlist[^>]*>(.*?)</ul>', response.content.decode(), re.S))
            stored = Table.objects.latest("id").options[spec.name]
            assert stored == value and type(stored) is type(value), (name, value, stored)


def test_profiles_and_only_profiles_sit_in_the_collapsed_advanced_group():
    body = Client().get("/?game=yellow_yangtze").content.decode()
    advanced = re.search(r'<details class="option-group" data-group="advanced">(.*?)</details>', body, re.S)
    assert advanced and 'name="opt-board"' in advanced.group(1)
    assert 'name="opt-who_fights"' not in advanced.group(1)
    assert "<details" in body and " open" not in re.findall(r"<details[^>]*>", body)[0], "groups start collapsed"


def test_a_refused_option_opens_its_group():
    body = Client().post("/", {**browser_form("amun_re"), "opt-pyramid_supply": "99"}).content.decode()
    assert re.search(r'<details class="option-group" data-group="scoring" open>', body)


def test_the_game_titles_are_translated_in_the_game_picker():
    page = lobby("amun_re", "fa")
    assert "آمون رع: بازی کارتی" in page.option_texts["game"]
    assert "Amun-Re: The Card Game" not in page.option_texts["game"]


@pytest.mark.parametrize("field, value", [("name_0", "x" * 41), ("colour_0", "pink")])
def test_a_refused_seat_row_says_why_beside_the_row(field, value):
    """A name over 40 characters or a colour the game has not (a posted form, a stale page) is refused
    with the lobby shown again and the reason beside the seat row, in the reader's language."""
    before = Table.objects.count()
    phone = Client()
    phone.cookies[settings.LANGUAGE_COOKIE_NAME] = "fa"
    response = phone.post("/", {**browser_form("sorry", "fa", players=2), field: value})
    assert response.status_code == 200 and Table.objects.count() == before
    errors = re.findall(r'<ul class="errorlist[^>]*>(.*?)</ul>', response.content.decode(), re.S)
    assert errors, "the refused row says why"
    assert not any(re.search(r"[A-Za-z]{3,}", re.sub(r"<[^>]+>|\bx+\b|pink", "", e)) for e in errors), errors


@pytest.mark.parametrize("data", [{"game": "chess"}, {"name_0": "x" * 41}, {"start": "weird"}])
def test_django_form_refusals_read_in_pashto(data):
    """Django ships no Pashto catalogue: its own form messages ("Select a valid choice…", "Ensure this value
    has at most…") would be English on a ps phone, so the project's catalogue carries them."""
    phone = Client()
    phone.cookies[settings.LANGUAGE_COOKIE_NAME] = "ps"
    response = phone.post("/", {**browser_form("sorry", "ps", players=2), **data})
    errors = re.findall(r'<ul class="errorlist[^>]*>(.*?)</ul>', response.content.decode(), re.S)
    assert errors
    shown = [re.sub(r"<[^>]+>|\bx+\b|chess|weird", "", e) for e in errors]
    assert not any(re.search(r"[A-Za-z]{3,}", e) for e in shown), shown


@pytest.mark.django_db
def test_the_lobby_leads_to_every_games_rules_at_hand_and_to_past_games():
    page = Client().get("/").content.decode()
    for slug in REGISTRY:
        assert f'href="/rules/{slug}/"' in page, f"no way from the lobby to {slug}'s rules at hand"
        assert Client().get(f"/rules/{slug}/").status_code == 200
    assert 'href="/history/"' in page
