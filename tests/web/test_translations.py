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
from django.utils import translation
from django.utils.translation import gettext as gettext_
from django.utils.translation import ngettext, npgettext, pgettext

from games.write.pregame import create_table
from tests.conftest import phone_for, post_action
from tests.web.po import PLACEHOLDER, catalogues, po_entries

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGS = ("fa", "az", "ps")


def all_entries(language: str) -> list[dict]:
    """The entries of every catalogue of ``language`` (the shared one and each game's), each with its ``path``."""
    return [dict(entry, path=path) for path in catalogues(language) for entry in po_entries(path)]


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
    paths = catalogues(language)
    assert len(paths) > 2, "the shared catalogue and the games' own"
    entries = all_entries(language)
    assert len(entries) > 100
    header = [e for e in entries if e["msgid"] == ""]
    assert len(header) == len(paths) and not any("fuzzy" in h["flags"] for h in header), "no header is fuzzy"
    fuzzy = [e["msgid"] for e in entries if "fuzzy" in e["flags"]]
    untranslated = [e["msgid"] for e in entries if e["msgid"] and not all(e["msgstrs"])]
    assert not fuzzy, f"fuzzy in {language}: {fuzzy[:5]}"
    assert not untranslated, f"untranslated in {language}: {untranslated[:5]}"


@pytest.mark.parametrize("language", LANGS)
def test_every_placeholder_of_a_msgid_appears_in_its_translation(language):
    """{name} and %(name)s are filled in after translation: a lost one breaks the message."""
    problems = []
    for entry in all_entries(language):
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
    for path in catalogues(language):
        with path.with_suffix(".mo").open("rb") as mo:
            compiled = gettext.GNUTranslations(mo)
        entries = [entry for entry in po_entries(path) if entry["msgid"]]
        assert len(compiled._catalog) - 1 == sum(len(e["msgstrs"]) for e in entries), f"{path}: an entry too many"
        for entry in entries:
            if entry["plural"] is not None:
                assert compiled.ngettext(entry["msgid"], entry["plural"], 1) in entry["msgstrs"], entry["msgid"]
            elif entry["context"] is not None:
                assert compiled.pgettext(entry["context"], entry["msgid"]) == entry["msgstrs"][0], entry["msgid"]
            else:
                assert compiled.gettext(entry["msgid"]) == entry["msgstrs"][0], entry["msgid"]


def test_azerbaijani_uses_the_latin_alphabet_and_persian_and_pashto_their_own_script():
    arabic = re.compile(r"[\u0600-\u06FF]")
    for language in LANGS:
        for entry in all_entries(language):
            english = re.search(r"[A-Za-z]{3}", PLACEHOLDER.sub("", entry["msgid"]))
            for msgstr in entry["msgstrs"]:
                if language == "az":
                    assert not arabic.search(msgstr), (language, entry["msgid"])
                elif entry["msgid"] and english and msgstr.strip("\u2066\u2067\u2068\u2069") != entry["msgid"]:
                    # a box's printed name ("Sorry!", "Catan Junior") stays as printed, isolated in the line
                    assert arabic.search(msgstr), (language, entry["msgid"])


@pytest.mark.parametrize("language", LANGS)
def test_a_word_in_several_catalogues_reads_the_same_in_each(language):
    """Each catalogue holds every word its own files use (what makemessages writes into it), so a word the platform
    and a game both use, or two games, is in each of their catalogues: translated the same in every one."""
    seen: dict[tuple, dict] = {}
    differ = []
    for entry in all_entries(language):
        key = (entry["context"], entry["msgid"])
        if not entry["msgid"]:
            continue
        first = seen.setdefault(key, entry)
        if first is not entry and first["msgstrs"] != entry["msgstrs"]:
            differ.append(f"{key}: {first['path'].relative_to(settings.BASE_DIR)} and "
                          f"{entry['path'].relative_to(settings.BASE_DIR)}")
    assert not differ, "\n".join(differ)


@pytest.mark.parametrize("language", LANGS)
def test_each_catalogue_holds_the_words_its_own_files_use(language):
    """A game's catalogue (``shelf/<slug>/locale/``) holds words its own files use, the shared one words the
    platform's files use (where makemessages finds them: ``#:`` lines), so makemessages files each word where it
    already is: adding a game touches no catalogue but its own."""
    root = Path(settings.BASE_DIR)
    shared = LOCALE / language / "LC_MESSAGES" / "django.po"
    strays = []
    for entry in all_entries(language):
        if not entry["refs"]:
            continue
        homes = {Path(ref).parts[:2] if ref.startswith(("shelf/", "tests/")) else ("platform",) for ref in entry["refs"]}
        if entry["path"] == shared:
            if ("platform",) not in homes:
                strays.append(f"shared, but used by {sorted(homes)} alone: {entry['msgid'][:60]!r}")
        else:
            own = entry["path"].relative_to(root).parts[:2]
            if homes != {own}:
                strays.append(f"{'/'.join(own)}, but used by {sorted(homes)}: {entry['msgid'][:60]!r}")
    assert not strays, "\n".join(strays)


@pytest.mark.parametrize("language", LANGS)
def test_every_word_reads_as_its_catalogue_says(language):
    """Django merges the catalogues (the shared one, each game's, then those of Django and the other apps): no
    other catalogue may change how a word of ours reads."""
    wrong = []
    plurals = {}
    for path in catalogues(language):
        with path.with_suffix(".mo").open("rb") as mo:
            plurals[path] = gettext.GNUTranslations(mo).plural
    with translation.override(language):
        for entry in all_entries(language):
            if not entry["msgid"]:
                continue
            if entry["plural"] is not None:
                for n in (0, 1, 2, 5, 11, 100):
                    form = plurals[entry["path"]](n)
                    got = (npgettext(entry["context"], entry["msgid"], entry["plural"], n) if entry["context"]
                           else ngettext(entry["msgid"], entry["plural"], n))
                    if got != entry["msgstrs"][form]:
                        wrong.append((entry["msgid"], n, got))
            else:
                got = pgettext(entry["context"], entry["msgid"]) if entry["context"] else gettext_(entry["msgid"])
                if got != entry["msgstrs"][0]:
                    wrong.append((entry["msgid"], got))
    assert not wrong, wrong[:10]
