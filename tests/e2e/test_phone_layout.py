"""The phone at the table: every game at 360 x 740 in fa, ps and en holds the width and the thumb.

One server; for each game and language a fresh two-seat table, two phones
(browser contexts with the language cookie) that join by their links and play
a few turns by tapping what the action bar offers (the API plays a move when
the bar holds no single-tap choice, e.g. a hand still to compose). After the
page first loads and after every move, on every phone:

- the page never scrolls sideways (``scrollWidth <= innerWidth``);
- every visible, enabled tap target (button, link, input, select, summary and
  the board's clickable SVG elements: ``[data-action]``, ``[data-open]``) is at
  least 44 x 44 CSS px; an element that names its larger hit area
  (``data-hit``) is measured by that area, a radio or checkbox by its label;
- when it is that phone's turn, the action bar is inside the viewport and holds
  the buttons.

Amun-Re is then played to its end through the API in fa and ps (the scoring
and final tables were the widest pages) with the same checks every few moves.
Screenshots of each game's phone page and table screen in fa go to
``artifacts/screens/`` (ignored by git).
"""

from __future__ import annotations

import random

import pytest

from tests.e2e.conftest import pick_game
from tests.e2e.phone_checks import PHONE, SCREENS, TABLET, api, check, tap_hex, version, wait_synced
from tests.registry import SHIPPED

pytestmark = pytest.mark.e2e

#: The shipped games (the browser's server is another process: the contract game of the tests is not registered there).
GAMES = tuple(SHIPPED)
LANGUAGES = ("fa", "ps", "en")


def tap_in_bar(page) -> bool:
    """Tap one single-tap choice the phone offers (the action bar first); False when there is none."""
    for attempt in range(2):
        if page.locator("#actionbar [data-yy-pick]:not([disabled])").filter(visible=True).count() and \
                page.locator("#table .yy-t[data-picks]").count():
            page.locator("#actionbar [data-yy-pick]:not([disabled])").filter(visible=True).first.click()
            armed = page.locator("#table .yy-t[data-action]")
            if armed.count():
                tap_hex(page, armed.first)
                return True
        choices = page.locator("#actionbar section.controls [data-action]:not([disabled])").filter(visible=True)
        if choices.count():
            choices.nth(random.Random(version(page)).randrange(choices.count())).click()
            return True
        closed = page.locator("#actionbar section.controls details:not([open]) > summary").filter(visible=True)
        if not closed.count() or attempt:
            return False
        closed.first.click()
    return False


def play(live_url, pages, table, moves: int, where: str, rng: random.Random, *, ui: bool = True,
         check_every: int = 1) -> int:
    """Play ``moves`` moves (taps when ``ui``, else the API), checking every phone every ``check_every`` moves."""
    code, tokens = table.code, table.tokens
    done = 0
    for n in range(moves):
        body = api(live_url, f"/api/tables/{code}/")
        if body.get("status") != "playing" or not body.get("prompt", {}).get("seats"):
            print(f"{where}: stopped after {n} moves: {body}")
            break
        seat = body["prompt"]["seats"][0]
        start = body["version"]
        wait_synced(pages, start)
        moved = False
        page = pages[seat] if seat < len(pages) else None  # a seat without a phone in this test plays by the API
        if ui and page is not None and tap_in_bar(page):
            moved = wait_synced([page], start + 1, timeout=5)
        if not moved:
            mine = api(live_url, f"/api/tables/{code}/prompt/", token=tokens[seat])
            if not mine.get("legal"):
                break
            if mine["version"] == start:  # the tap did not land (or there was none): the API plays instead
                choice = rng.choice(mine["legal"])["action"]
                api(live_url, f"/api/tables/{code}/actions/", {"action": choice, "version": mine["version"]},
                    token=tokens[seat])
        now = api(live_url, f"/api/tables/{code}/")["version"]
        assert wait_synced(pages, now), f"{where}: a phone did not follow to version {now}"
        done += 1
        if n % check_every == 0:
            for i, p in enumerate(pages):
                check(p, f"{where} after move {n + 1}, phone {i}")
    return done


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("slug", GAMES)
def test_every_game_holds_360_px_and_44_px_taps_in_every_direction(live_url, table_at, phone, slug, lang):
    rng = random.Random(f"{slug}-{lang}")
    table = table_at(slug, ["Ali", "Bahar"], via="api", lang=lang)
    code, pages = table.code, table.phones
    assert pages[0].locator("html").get_attribute("dir") == ("rtl" if lang in ("fa", "ps") else "ltr")
    for i, p in enumerate(pages):
        check(p, f"{slug}/{lang} first load, phone {i}")
    played = play(live_url, pages, table, 8, f"{slug}/{lang}", rng)
    assert played >= 4, f"{slug}/{lang}: only {played} moves were played"
    if slug == "yellow_yangtze":  # tiles were laid: the newest one is lit on the phone that watched it laid
        assert any(p.locator("#r-board use[data-tile].last-move").count() for p in pages), "the last move is lit"
    # A dropped socket says so, and the banner goes when it is back (the phone offline, then online again).
    pages[1].context.set_offline(True)
    pages[1].evaluate("window.dispatchEvent(new Event('offline'))")
    pages[1].wait_for_selector("#reconnecting:not([hidden])", timeout=5000)
    pages[1].context.set_offline(False)
    pages[1].wait_for_selector("#reconnecting", state="hidden", timeout=10000)
    # The turn sound is a per-phone choice that survives a reload.
    toggle = pages[0].locator(".sound-toggle")
    assert toggle.get_attribute("aria-pressed") == "true"
    toggle.click()
    pages[0].reload()
    pages[0].wait_for_selector("#table")
    assert pages[0].locator(".sound-toggle").get_attribute("aria-pressed") == "false"
    if lang == "fa":
        SCREENS.mkdir(parents=True, exist_ok=True)
        mover = pages[0] if pages[0].locator("#table.my-turn").count() else pages[1]
        mover.screenshot(path=str(SCREENS / f"{slug}-phone-fa.png"))
        mover.screenshot(path=str(SCREENS / f"{slug}-phone-fa-full.png"), full_page=True)
    # The table screen, on a phone (it must hold 360 px too) and on a tablet in landscape.
    pages[0].goto(f"{live_url}/t/{code}/screen/")
    pages[0].wait_for_selector("#table")
    found = check(pages[0], f"{slug}/{lang} table screen at 360 px")
    assert pages[0].locator("#r-controls button, #r-controls [data-action]").count() == 0, "no buttons on the screen"
    assert found.get("bar") is None, "the table screen has no action bar"
    if lang == "fa":
        tablet = phone(TABLET, lang, mobile=False)
        tablet.goto(f"{live_url}/t/{code}/screen/")
        tablet.wait_for_selector("#table")
        assert tablet.evaluate("document.documentElement.scrollWidth <= innerWidth")
        tablet.screenshot(path=str(SCREENS / f"{slug}-screen-fa.png"))


@pytest.mark.parametrize("lang", ("fa", "ps"))
def test_amun_re_scoring_and_final_tables_hold_360_px_to_the_end(live_url, table_at, lang):
    rng = random.Random(f"amun-{lang}")
    table = table_at("amun_re", ["Ali", "Bahar", "Cyrus"], via="api", lang=lang, phones=(0, 1))
    code, pages = table.code, table.phones[:2]
    play(live_url, pages, table, 900, f"amun_re/{lang} to the end", rng, ui=False, check_every=20)
    assert api(live_url, f"/api/tables/{code}/")["status"] == "finished", "the game reached its end"
    wait_synced(pages, api(live_url, f"/api/tables/{code}/")["version"])
    for i, p in enumerate(pages):
        assert p.locator("table.amun-re-final").count() == 1
        check(p, f"amun_re/{lang} final screen, phone {i}")
    if lang == "fa":
        SCREENS.mkdir(parents=True, exist_ok=True)
        pages[0].screenshot(path=str(SCREENS / "amun_re-final-fa-full.png"), full_page=True)
        pages[0].locator("table.amun-re-final").evaluate("el => el.scrollIntoView({block: 'start'})")
        pages[0].screenshot(path=str(SCREENS / "amun_re-final-fa.png"))
        pages[0].locator("section.result").evaluate("el => el.scrollIntoView({block: 'start'})")
        pages[0].screenshot(path=str(SCREENS / "amun_re-result-fa.png"))


@pytest.mark.parametrize("lang", ("fa", "ps"))
def test_the_lobby_host_page_and_error_pages_hold_360_px_and_44_px_taps(live_url, table_at, phone, lang):
    code = table_at("sorry", ["Ali", "Bahar"], via="api", phones=()).code
    page = phone(PHONE, lang)
    for slug in GAMES:  # the lobby with each game's seats and rule options shown
        page.goto(live_url + "/")
        pick_game(page, slug)
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        check(page, f"lobby/{slug}/{lang}")
    for path in ("/no/such/page/", f"/t/{code}/", f"/t/{code}/host/"):
        page.goto(live_url + path)
        assert page.locator("html").get_attribute("dir") == "rtl"
        assert page.locator("a.back").count() == 1, f"{path}: a way back"
        check(page, f"{path} in {lang}")
