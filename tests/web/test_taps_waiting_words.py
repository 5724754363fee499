"""The offline banner's count of waiting taps, in the reader's language (templates/games/table.html, table.js).

DESIGN.md "Pages and sync": the page always says whether it is live and how many taps wait. The count is a
plural (Django's ``ngettext``): the page carries the form for one tap and the form for several, both from the
catalogue, and table.js fills in the number and picks the form (one tap: the first, else the second).
"""

from __future__ import annotations

import gettext
import html
import re
from pathlib import Path

import pytest
from django.conf import settings

from games.write.pregame import create_table
from tests.conftest import phone_for

LOCALE = Path(settings.BASE_DIR) / "locale"
SINGULAR, PLURAL = "%(n)s tap waits to be sent.", "%(n)s taps wait to be sent."


def _forms(language: str) -> tuple[str, str]:
    table = create_table("sorry", {}, [{"name": "Ann"}, {"name": "Ben"}])
    phone = phone_for(table, 0)
    phone.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = phone.get(f"/t/{table.code}/").content.decode()
    tag = re.search(r'<span class="taps-waiting"[^>]*>', page).group(0)
    one = html.unescape(re.search(r'data-one="([^"]*)"', tag).group(1))
    many = html.unescape(re.search(r'data-many="([^"]*)"', tag).group(1))
    return one, many


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "word"), [("fa", "ضربه"), ("ps", "ټک"), ("az", "toxunuş"), ("en", "tap")])
def test_the_waiting_taps_count_is_in_the_pages_language_in_both_plural_forms(language, word):
    one, many = _forms(language)
    for form in (one, many):
        assert "%(n)s" in form, "the number is filled in by the phone, in its digits"
        assert word in form
        if language in ("fa", "ps"):
            assert not re.search(r"[A-Za-z]{2,}", form.replace("%(n)s", "")), form
    if language == "az":
        assert "wait" not in many and "sent" not in many


@pytest.mark.parametrize("language", ["fa", "ps", "az"])
def test_every_catalogue_picks_the_first_plural_form_for_one_tap_only(language):
    """table.js picks the first form for exactly one tap and the second for two or more: the rule of every
    language shipped (a language whose plural rule differs needs table.js to learn it)."""
    catalogue = gettext.GNUTranslations((LOCALE / language / "LC_MESSAGES" / "django.mo").open("rb"))
    assert catalogue.plural(1) == 0
    assert {catalogue.plural(n) for n in range(2, 1000)} == {1}
    assert catalogue.ngettext(SINGULAR, PLURAL, 1) != SINGULAR
    assert catalogue.ngettext(SINGULAR, PLURAL, 2) != PLURAL
