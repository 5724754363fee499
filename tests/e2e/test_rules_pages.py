"""Rules at hand on a 360 px phone: every section page, left-to-right and right-to-left,
fits the screen without sideways scrolling, and a refusal's link opens its section at the cited rule."""

from __future__ import annotations

import pytest

from games.engines import adapters
from games.read import rulebook

GAMES = tuple(adapters())


@pytest.mark.parametrize("lang", ["en", "fa", "az", "ps"])
def test_every_section_page_fits_a_360_px_phone_in_its_direction(live_url, phone, lang):
    page = phone()
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_url}])
    for slug in GAMES:
        for section in rulebook.sections(slug):
            page.goto(f"{live_url}/rules/{slug}/{section.key}/")
            direction = page.evaluate("document.documentElement.dir")
            assert direction == ("rtl" if lang in ("fa", "ps") else "ltr")
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 360, (slug, section.key, lang, width)
            assert page.locator("article.rules h1").is_visible()
            short = page.evaluate("""() => Array.from(document.querySelectorAll('article.rules a')).filter(a => a.checkVisibility())
                .map(a => a.getBoundingClientRect()).filter(r => r.height < 43.5).length""")
            assert not short, f"{slug}/{section.key}/{lang}: {short} links under 44 px tall"
            assert "shared/rules" not in page.inner_text("body") and ".md" not in page.inner_text("body"), \
                f"{slug}/{section.key}/{lang}: an internal path is shown"


def test_a_cited_rule_is_the_target_the_page_opens_at(live_url, phone):
    page = phone()
    page.goto(f"{live_url}{rulebook.url('sorry', rulebook.refusal_section('sorry', 'same_pawn_twice'))}")
    assert page.evaluate("document.querySelector(':target') && document.querySelector(':target').id") == "card-7"
