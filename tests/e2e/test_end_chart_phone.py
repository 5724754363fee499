"""The end chart in a browser: a Catan Junior game played to its end, then a 360 px phone, the table screen and the
history page each show the chart (an ``<svg>`` with ``role="img"``, a spoken label in the reader's language and digits,
one line per seat) within the page's width. Screenshots of the phone's chart go to ``artifacts/screens/``."""

from __future__ import annotations

import random
import re

import pytest

from tests.e2e.phone_checks import SCREENS, TABLET, api

pytestmark = pytest.mark.e2e

#: The first words of the chart's spoken label, per language (locale/<lang>/LC_MESSAGES/django.po).
SAID = {"fa": "روند بازی:", "ps": "د لوبې بهیر:", "en": "How the game went:"}
CHART = """() => {
  const svg = document.querySelector('svg.end-chart');
  if (!svg) return null;
  const r = svg.getBoundingClientRect();
  return {role: svg.getAttribute('role'), label: svg.getAttribute('aria-label'), lines: svg.querySelectorAll('path.line').length,
          width: r.width, height: r.height, right: r.right, overflow: document.documentElement.scrollWidth - innerWidth};
}"""


def played_to_the_end(live_url: str, table_at, seed: str, lang: str):
    """A two-seat Catan Junior table (phones in ``lang``, none open yet) made and played to its end through the API."""
    rng = random.Random(seed)
    made = table_at("catan_junior", ["Ali", "Bahar"], via="api", start=0, lang=lang, phones=())
    code, seats = made.code, made.seats
    for _ in range(3000):
        table = api(live_url, f"/api/tables/{code}/")
        if table["status"] != "playing":
            break
        seat = table["prompt"]["seats"][0]
        mine = api(live_url, f"/api/tables/{code}/prompt/", token=seats[seat]["token"])
        api(live_url, f"/api/tables/{code}/actions/", {"action": rng.choice(mine["legal"])["action"],
                                                       "version": mine["version"]}, token=seats[seat]["token"])
    assert api(live_url, f"/api/tables/{code}/")["status"] == "finished"
    return made


@pytest.mark.parametrize("lang", ("fa", "ps", "en"))
def test_the_chart_shows_on_a_phone_the_table_screen_and_the_history_page(live_url, table_at, phone, lang):
    table = played_to_the_end(live_url, table_at, f"chart-{lang}", lang)
    code = table.code
    seat_phone = table.open(1)
    screen = phone(TABLET, lang, mobile=False)
    screen.goto(f"{live_url}/t/{code}/screen/")
    pages = {"phone": seat_phone, "table screen": screen}
    history = seat_phone.context.new_page()
    history.goto(f"{live_url}/t/{code}/history/")
    pages["history page"] = history
    for where, page in pages.items():
        page.wait_for_selector("svg.end-chart")
        found = page.evaluate(CHART)
        assert found["role"] == "img" and found["lines"] == 2, (where, found)
        assert found["label"].startswith(SAID[lang]), (where, found["label"])
        numbers = re.sub("\u2068[^\u2069]*\u2069", "", found["label"])
        if lang in ("fa", "ps"):
            assert re.search("[۰-۹]", numbers) and not re.search("[0-9]", numbers), (where, found["label"])
        assert found["width"] > 200 and found["height"] > 60 and found["overflow"] <= 0, (where, found)
    SCREENS.mkdir(parents=True, exist_ok=True)
    box = seat_phone.locator(".end-chart-box")
    box.scroll_into_view_if_needed()
    box.screenshot(path=str(SCREENS / f"end-chart-{lang}.png"))
