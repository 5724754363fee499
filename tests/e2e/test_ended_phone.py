"""A game the host ended, on 360 px phones: the end sits at the top of every phone, in thumb reach.

Two phones at a Yellow & Yangtze table (a right-to-left page and a left-to-right one); a few moves; the host ends the
game from the host page. The other phone, left open, gets it pushed: the ended section with the standing is in the
first viewport, above the board, and nothing of a turn is left (no whose-turn header, no prompt, no tap). The host's
phone shows Play again in the first viewport too. Both hold 360 px and 44 px taps.
"""

from __future__ import annotations

import random

import pytest

from tests.e2e.phone_checks import SCREENS, api, check, wait_synced

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
def test_the_host_ends_the_game_and_every_phone_shows_it_at_the_top(live_url, table_at, lang):
    rng = random.Random(f"ended-{lang}")
    # The host makes the table in the lobby (its phone keeps the host cookie, as at a real table).
    made = table_at("yellow_yangtze", ["Ali", "Bahar"], lang=lang)
    (host, other), code, tokens = made.phones, made.code, made.tokens
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
