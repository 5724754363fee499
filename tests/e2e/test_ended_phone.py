"""A game the host ended, on 360 px phones: the end sits at the top of every phone, in thumb reach.

Two phones at a Yellow & Yangtze table (a right-to-left page and a left-to-right one); a few moves; the host ends the
game from the host page. The other phone, left open, gets it pushed: the ended section with the standing is in the
first viewport, above the board, and nothing of a turn is left (no whose-turn header, no prompt, no tap). The host's
phone shows Play again in the first viewport too. Both hold 360 px and 44 px taps.
"""

from __future__ import annotations

import random
import re

import pytest

from tests.e2e.phone_checks import PHONE, SCREENS, api, check, join, wait_synced

pytestmark = pytest.mark.e2e

#: Where the ended section, its standing, Play again / Next game and the board sit in the first viewport.
ENDED_LAYOUT = """() => {
  window.scrollTo(0, 0);
  const box = (sel) => { const el = document.querySelector(sel); if (!el || !el.checkVisibility()) return null;
    const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, text: el.textContent.trim().slice(0, 60)}; };
  return {vh: innerHeight, stopped: box('#table section.result.ended .stopped'),
          ranking: box('#table section.result.ended .ranking'), board: box('#r-board'),
          next: box('#table section.pregame.next button, #table section.pregame.next a'),
          turn: document.querySelectorAll('#table .yy-turn, #table .prompt, #table .yy-deciding, #table [data-action]').length};
}"""


@pytest.mark.parametrize("lang", ("fa", "en"))
def test_the_host_ends_the_game_and_every_phone_shows_it_at_the_top(live_url, browser, lang):
    rng = random.Random(f"ended-{lang}")
    contexts = []
    try:
        # The host makes the table in the lobby (its phone keeps the host cookie, as at a real table).
        host_ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=1)
        contexts.append(host_ctx)
        host_ctx.add_cookies([{"name": "django_language", "value": lang, "url": live_url}])
        host = host_ctx.new_page()
        host.set_default_timeout(15000)
        host.goto(live_url + "/")
        with host.expect_response(lambda r: "game=yellow_yangtze" in r.url):
            host.select_option("select[name=game]", "yellow_yangtze")
        host.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
        host.select_option("select[name=players]", "2")
        host.fill("input[name=name_0]", "Ali")
        host.fill("input[name=name_1]", "Bahar")
        host.click("button.big")
        host.wait_for_url(re.compile(r"/t/\w+/host/$"))
        code = re.search(r"/t/(\w+)/", host.url).group(1)
        links = [host.locator("input.link").nth(i).input_value() for i in range(2)]
        tokens = [link.split("#", 1)[1] for link in links]
        host.goto(links[0])
        host.wait_for_url(re.compile(rf"/t/{code}/$"))
        host.wait_for_selector("body[data-ws=open]", state="attached")
        other_ctx, other = join(browser, live_url, links[1], code, lang, PHONE)
        contexts.append(other_ctx)
        for _ in range(5):
            table = api(live_url, f"/api/tables/{code}/")
            seat = table["prompt"]["seats"][0]
            mine = api(live_url, f"/api/tables/{code}/prompt/", token=tokens[seat])
            api(live_url, f"/api/tables/{code}/actions/",
                {"action": rng.choice(mine["legal"])["action"], "version": mine["version"]}, token=tokens[seat])
        assert wait_synced([host, other], api(live_url, f"/api/tables/{code}/")["version"])
        assert other.locator("#table .yy-turn").count() == 1, "a whose-turn header while the game runs"
        host.goto(f"{live_url}/t/{code}/host/")
        host.once("dialog", lambda dialog: dialog.accept())
        host.click("button.danger")
        host.goto(f"{live_url}/t/{code}/")
        other.wait_for_selector("#table section.result.ended")  # pushed: the other phone was never reloaded
        for name, page in (("host", host), ("other phone", other)):
            check(page, f"ended/{lang} {name}")
            found = page.evaluate(ENDED_LAYOUT)
            assert found["turn"] == 0, f"{name}: something of a turn is left: {found}"
            assert found["stopped"] and found["stopped"]["bottom"] <= found["vh"], f"{name}: the end is not in view: {found}"
            assert found["ranking"] and found["ranking"]["top"] <= found["vh"] - 44, f"{name}: no standing in view: {found}"
            assert found["board"] is None or found["board"]["top"] >= found["stopped"]["bottom"], f"{name}: {found}"
            if name == "host":
                assert found["next"] and found["next"]["bottom"] <= found["vh"], f"Play again out of thumb reach: {found}"
        if lang == "fa":
            SCREENS.mkdir(parents=True, exist_ok=True)
            other.screenshot(path=str(SCREENS / "yellow_yangtze-ended-fa.png"))
            host.screenshot(path=str(SCREENS / "yellow_yangtze-ended-host-fa.png"))
    finally:
        for ctx in contexts:
            ctx.close()
