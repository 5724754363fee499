"""Every word in the reader's language, as a browser shows it.

For each game, three phones (360 px wide, Chromium) join one table in Persian and in
Pashto and play a few turns: the phone whose turn it is taps a lit button when one is
in view (else its move goes through the API with its own token, as a phone would post it).
After every turn each phone's *visible* text is read in the browser and the test fails
on any word in Latin letters outside names and codes (``<bdi>``, ``[dir=auto]``, ``.code``,
``<code>``, Unicode isolates, an element in another ``lang``), the players' names, the
table code, the game names and the reasoned allow-list of ``tests/web/test_every_word.py``.
It also checks that the page's digits are Persian (one digit system) and that the
Arabic-script font was fetched from the app itself.
"""

from __future__ import annotations

import json
import random
import re
import urllib.request

import pytest

from games.engines import get_game_class
from tests.e2e.phone_checks import LATIN, VISIBLE_WORDS, latin_words
from tests.registry import SHIPPED
from tests.web.test_every_word import COORDINATE_GAMES

NAMES = ["Alice", "Bob", "Carol"]
#: The shipped games (the browser's server is another process: the contract game of the tests is not registered
#: there) and their titles as printed, allowed on every page (the game picker names every box).
GAMES = {slug: get_game_class(slug).title for slug in SHIPPED}
TURNS = 6


def _api(url: str, method: str = "GET", body: dict | None = None, token: str | None = None) -> dict:
    request = urllib.request.Request(url, method=method, data=json.dumps(body).encode() if body else None,
                                     headers={"Content-Type": "application/json",
                                              **({"Authorization": f"Bearer {token}"} if token else {})})
    with urllib.request.urlopen(request, timeout=15) as response:
        return json.loads(response.read())


def _phones(table_at, slug: str, lang: str):
    """A table of NAMES and a phone in ``lang`` at each seat: ``(code, [(page, seat, the fonts it fetched)])``."""
    table = table_at(slug, NAMES, via="api", lang=lang, phones=())
    phones = []
    for n, seat in enumerate(table.seats):
        fonts: list[str] = []
        page = table.open(n, prepare=lambda page, fonts=fonts: page.on(
            "request", lambda r: fonts.append(r.url) if r.url.endswith(".woff2") else None))
        phones.append((page, seat, fonts))
    return table.code, phones


def _version(page) -> int:
    return int(page.locator("#table").get_attribute("data-version") or "0")


def _take_a_turn(live_url: str, code: str, phones, rng: random.Random) -> bool:
    prompt = _api(f"{live_url}/api/tables/{code}/prompt/", token=phones[0][1]["token"])
    if prompt["status"] != "open" or not prompt["prompt"]["seats"]:
        return False
    seat = prompt["prompt"]["seats"][0]
    page, info, _ = phones[seat]
    before = prompt["version"]
    buttons = page.locator("button[data-action]:visible")
    if buttons.count():
        buttons.nth(rng.randrange(buttons.count())).click()
    else:
        mine = _api(f"{live_url}/api/tables/{code}/prompt/", token=info["token"])
        action = rng.choice(mine["legal"])["action"]
        _api(f"{live_url}/api/tables/{code}/actions/", "POST",
             {"action": action, "version": before, "key": f"w{before}"}, token=info["token"])
    for other, _, _ in phones:
        other.wait_for_function(f"() => Number(document.querySelector('#table').dataset.version) > {before}")
    return True


@pytest.mark.parametrize("lang", ["fa", "ps"])
@pytest.mark.parametrize("slug", list(GAMES))
def test_a_few_turns_show_no_latin_word_outside_names_and_codes(table_at, live_url, slug, lang):
    code, phones = _phones(table_at, slug, lang)
    allowed = {w.lower() for w in LATIN.findall(" ".join([*NAMES, code, *GAMES.values()]))}
    if slug in COORDINATE_GAMES:
        allowed.add("<coordinates>")
    rng = random.Random(7)
    problems: dict[str, str] = {}
    for turn in range(TURNS + 1):
        for seat, (page, _, _) in enumerate(phones):
            assert page.evaluate("() => document.querySelector('.topbar').scrollWidth") <= 360, \
                "the language and digit pickers fit a 360 px phone"
            for word in latin_words(page, allowed):
                problems.setdefault(word, f"turn {turn}, seat {seat}")
        if turn < TURNS and not _take_a_turn(live_url, code, phones, rng):
            break
    first, _, fonts = phones[0]
    text = " ".join(first.evaluate(VISIBLE_WORDS))
    assert re.search(r"[۰-۹]", text) and not re.search(r"[0-9]", text.replace(code, "").replace("123", "")), \
        "one digit system: Persian digits only"
    assert any("/static/fonts/vazirmatn-arabic" in url for url in fonts), fonts
    assert first.evaluate("() => document.fonts.check('16px Vazirmatn', 'ۍ ښ ږ ګ')")
    # The reader itself sees an English word that is not isolated, and spares one in <bdi>.
    first.evaluate("() => { const p = document.createElement('p'); p.id = 'probe';"
                   " p.innerHTML = 'رهبر black <bdi>Zed</bdi>'; document.querySelector('main').append(p); }")
    assert latin_words(first, allowed) == {"black"}
    first.evaluate("() => document.getElementById('probe').remove()")
    assert not problems, f"{slug} in {lang}: Latin words on the phones: {problems}"


@pytest.mark.parametrize("slug", ["sorry", "yellow_yangtze"])
def test_an_english_phone_page_fetches_no_font_and_stays_small(table_at, slug):
    """First load stays small: the Arabic-script font's unicode-range keeps it off en pages."""
    _code, phones = _phones(table_at, slug, "en")
    page, _, fonts = phones[0]
    page.reload()
    page.wait_for_selector("body[data-ws=open]", state="attached")
    page.evaluate("() => document.fonts.ready")
    assert fonts == [], fonts
    assert re.search(r"[0-9]", " ".join(page.evaluate(VISIBLE_WORDS))), "Latin digits on an English page"
