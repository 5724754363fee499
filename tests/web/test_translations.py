"""Persian, Azerbaijani and Pashto on the pages, and the completeness of their catalogues.

DESIGN.md "Conventions": every user-facing string goes through Django's
translation functions and templates set ``lang`` and ``dir`` from the active
language; fa and ps are right-to-left, az (Latin script) left-to-right.
Engine messages are ``gettext_noop`` templates translated when shown.
"""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from games.write.pregame import create_table
from tests.conftest import phone_for, post_action
from tests.web.po import PLACEHOLDER, po_entries

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGS = ("fa", "az", "ps")

def lobby_in(language: str):
    phone = Client()
    phone.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return phone.get("/").content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "direction", "heading"), [
    ("fa", "rtl", "میز جدید"),
    ("ps", "rtl", "نوی مېز"),
    ("az", "ltr", "Yeni masa"),
])
def test_the_lobby_speaks_the_language_of_the_cookie_with_its_direction(language, direction, heading):
    """DESIGN.md Conventions: templates set lang and dir from the active language."""
    page = lobby_in(language)
    assert f'lang="{language}"' in page and f'dir="{direction}"' in page
    assert heading in page, "the New table heading is translated"
    assert "New table" not in page


@pytest.mark.django_db
def test_without_a_language_cookie_the_lobby_stays_english_left_to_right():
    page = Client().get("/").content.decode()
    assert 'lang="en"' in page and 'dir="ltr"' in page and "New table" in page


@pytest.mark.django_db
def test_a_refused_sorry_tap_shows_the_engine_rule_in_persian_with_its_details():
    """Sorry! section 2.1: an IllegalAction template (gettext_noop) is translated, then filled in."""
    table = create_table("sorry", {"components": "physical"}, [{"name": "Ann"}, {"name": "Ben"}])
    ann = phone_for(table, 0)
    ann.cookies[settings.LANGUAGE_COOKIE_NAME] = "fa"
    response = post_action(ann, table, {"kind": "draw", "card": "6"})
    body = response.content.decode()
    assert 400 <= response.status_code < 500
    assert 'data-code="bad_card"' in body
    assert "۶ کارت \u2068Sorry!\u2069 نیست" in body, "the Persian rule text with {card} filled in (in Persian digits)"
    assert "is not a Sorry! card" not in body
    assert not table.actions.filter(seq__gt=0).exists(), "nothing after the opening row (seq 0)"


@pytest.mark.parametrize("language", LANGS)
def test_every_catalogue_entry_is_translated_and_none_is_fuzzy(language):
    entries = po_entries(LOCALE / language / "LC_MESSAGES" / "django.po")
    assert len(entries) > 100
    header = [e for e in entries if e["msgid"] == ""]
    assert len(header) == 1 and "fuzzy" not in header[0]["flags"], "the header is not fuzzy"
    fuzzy = [e["msgid"] for e in entries if "fuzzy" in e["flags"]]
    untranslated = [e["msgid"] for e in entries if e["msgid"] and not all(e["msgstrs"])]
    assert not fuzzy, f"fuzzy in {language}: {fuzzy[:5]}"
    assert not untranslated, f"untranslated in {language}: {untranslated[:5]}"


@pytest.mark.parametrize("language", LANGS)
def test_every_placeholder_of_a_msgid_appears_in_its_translation(language):
    """{name} and %(name)s are filled in after translation: a lost one breaks the message."""
    problems = []
    for entry in po_entries(LOCALE / language / "LC_MESSAGES" / "django.po"):
        if not entry["msgid"]:
            continue
        wanted = set(PLACEHOLDER.findall(entry["msgid"])) | set(PLACEHOLDER.findall(entry["plural"] or ""))
        for msgstr in entry["msgstrs"]:
            missing = wanted - set(PLACEHOLDER.findall(msgstr))
            extra = set(PLACEHOLDER.findall(msgstr)) - wanted
            if missing or extra:
                problems.append((entry["msgid"], sorted(missing), sorted(extra)))
    assert not problems, problems[:5]


@pytest.mark.parametrize("language", LANGS)
def test_the_committed_compiled_catalogue_matches_its_source(language):
    """The app must work without gettext tools: the .mo ships next to the .po and says the same."""
    folder = LOCALE / language / "LC_MESSAGES"
    with (folder / "django.mo").open("rb") as mo:
        compiled = gettext.GNUTranslations(mo)
    for entry in po_entries(folder / "django.po"):
        if not entry["msgid"]:
            continue
        if entry["plural"] is not None:
            assert compiled.ngettext(entry["msgid"], entry["plural"], 1) in entry["msgstrs"], entry["msgid"]
        elif entry["context"] is not None:
            assert compiled.pgettext(entry["context"], entry["msgid"]) == entry["msgstrs"][0], entry["msgid"]
        else:
            assert compiled.gettext(entry["msgid"]) == entry["msgstrs"][0], entry["msgid"]


def test_azerbaijani_uses_the_latin_alphabet_and_persian_and_pashto_their_own_script():
    arabic = re.compile(r"[\u0600-\u06FF]")
    for language in LANGS:
        for entry in po_entries(LOCALE / language / "LC_MESSAGES" / "django.po"):
            english = re.search(r"[A-Za-z]{3}", PLACEHOLDER.sub("", entry["msgid"]))
            for msgstr in entry["msgstrs"]:
                if language == "az":
                    assert not arabic.search(msgstr), (language, entry["msgid"])
                elif entry["msgid"] and english and msgstr.strip("\u2066\u2067\u2068\u2069") != entry["msgid"]:
                    # a box's printed name ("Sorry!", "Catan Junior") stays as printed, isolated in the line
                    assert arabic.search(msgstr), (language, entry["msgid"])
