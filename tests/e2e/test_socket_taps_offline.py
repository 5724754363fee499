"""Four phones at one table; one loses its connection, taps, and gets it back: the move is applied once.

The phones send their taps on their websocket (games/socket/socket_taps.py, static/js/table.js). A phone
whose network drops notices at once (the browser's ``offline`` event; a missed heartbeat otherwise),
says "Reconnecting…" and how many taps wait, keeps its board readable, and sends the waiting tap once
when the socket is back; every phone then shows the move, and only one move was made. A tap that
waited while the table moved on is refused clearly on that phone ("the table moved on").
"""

from __future__ import annotations

import json
import re
import time

import pytest

from tests.e2e.phone_checks import api, version, wait_synced

pytestmark = pytest.mark.e2e

NAMES = ["Ana", "Bijan", "Chenar", "Dilan"]


def moves_logged(live_url: str, code: str, token: str) -> int:
    """The rows of the table's log, read as the public reads it (a seat's token used here would be a line of its own)."""
    return len(api(live_url, f"/api/tables/{code}/log/")["log"])


def test_a_tap_made_offline_is_sent_once_when_the_socket_returns_and_a_stale_one_is_refused(live_url, table_at):
    table = table_at("sorry", NAMES, via="api", start=0)
    code, tokens, phones = table.code, table.tokens, table.phones
    ana, others = phones[0], phones[1:]
    start = version(ana)
    logged = moves_logged(live_url, code, tokens[1])
    # Ana's network drops: the page says so within a few seconds, the board stays on screen.
    ana.context.set_offline(True)
    began = time.time()
    ana.wait_for_selector("#reconnecting", state="visible", timeout=5000)
    assert time.time() - began < 5
    assert ana.locator("body.offline").count() == 1
    assert ana.locator("#r-board").is_visible()
    # She taps her draw: it waits on the phone, and the page says one tap waits.
    ana.locator("#table [data-kind=draw]").first.click()
    ana.wait_for_selector("#taps-waiting", state="visible")
    assert ana.locator("body").get_attribute("data-taps-waiting") == "1"
    assert re.search(r"\b1\b", ana.locator("#taps-waiting").inner_text())
    ana.wait_for_timeout(800)
    assert [version(p) for p in others] == [start] * 3, "nothing reached the table while Ana was offline"
    # The network returns: the socket reopens, the tap goes once, and every phone shows the move.
    ana.context.set_offline(False)
    assert wait_synced(phones, start + 1, timeout=15), [version(p) for p in phones]
    ana.wait_for_selector("#reconnecting", state="hidden")
    ana.wait_for_function("() => document.body.dataset.tapsWaiting === '0'")
    ana.wait_for_timeout(2500)  # two heartbeats: a tap sent twice would have made a second move by now
    assert [version(p) for p in phones] == [start + 1] * 4
    assert moves_logged(live_url, code, tokens[1]) == logged + 1, "one move, applied once"
    assert ana.locator("#tap-refusal .banner.error").count() == 0

    # A stale tap: Ana's network drops again, she taps her move, and meanwhile the same move is made
    # for her seat through the API (a second device of hers): the waiting tap no longer fits.
    ana.context.set_offline(True)
    ana.wait_for_selector("#reconnecting", state="visible", timeout=5000)
    button = ana.locator("#table .controls [data-action]").first
    action = json.loads(button.get_attribute("data-action"))
    button.click()
    ana.wait_for_selector("#taps-waiting", state="visible")
    done = api(live_url, f"/api/tables/{code}/actions/", {"action": action, "version": start + 1, "key": "api-1"},
               token=tokens[0])
    assert "error" not in done, done
    now = done["version"]  # her move, and the line saying her seat was opened on another device
    assert wait_synced(others, now)
    ana.context.set_offline(False)
    refusal = ana.locator('#tap-refusal .banner.error[data-code="stale_version"]')
    refusal.wait_for(state="visible", timeout=15000)
    assert "moved on" in refusal.inner_text()
    assert wait_synced(phones, now)
    ana.wait_for_timeout(1500)
    assert [version(p) for p in phones] == [now] * 4, "the stale tap wrote nothing"
    assert ana.locator("#reconnecting").is_hidden()


def test_a_socket_that_stops_answering_is_noticed_within_five_seconds_and_said_back_in_sync(table_at):
    """No offline event here: the socket looks open to the browser, but no heartbeat is answered."""
    page = table_at("sorry", NAMES[:2], via="api", start=0, phones=(1,)).phones[1]
    page.wait_for_timeout(2500)  # a heartbeat or two answered
    assert page.locator("#reconnecting").is_hidden()
    # Everything the page sends from now on is lost on the way (a dead Wi-Fi the browser has not noticed).
    # The banner may show only briefly here: the handshake of the next socket still goes through (only what the
    # page sends is lost), so the moment it appears is recorded in the page rather than polled for.
    page.evaluate("""() => { var b = document.getElementById("reconnecting"); window.__bannerAt = 0;
                            new MutationObserver(function () { if (!b.hidden && !window.__bannerAt) window.__bannerAt = Date.now(); })
                              .observe(b, { attributes: true });
                            window.__mute = true; window.__mutedAt = Date.now(); var send = WebSocket.prototype.send;
                            WebSocket.prototype.send = function (m) { if (!window.__mute) return send.call(this, m); }; }""")
    page.wait_for_function("() => window.__bannerAt > 0", timeout=8000)
    noticed = page.evaluate("() => (window.__bannerAt - window.__mutedAt) / 1000")
    assert noticed < 5.5, noticed
    assert page.locator("#r-board").is_visible(), "the board stays readable"
    page.evaluate("() => { window.__mute = false; }")
    page.wait_for_selector("#back-in-sync", state="visible", timeout=15000)
    page.wait_for_selector("#reconnecting", state="hidden")
    assert page.locator("body").get_attribute("data-ws") == "open"


NO_WEBSOCKETS = """window.WebSocket = function () {
  var s = this; s.readyState = 0; s.OPEN = 1;
  s.addEventListener = function () {}; s.close = function () {}; s.send = function () { throw new Error("closed"); };
  setTimeout(function () { s.readyState = 3; if (s.onclose) s.onclose({ code: 1000 }); }, 10);
};"""


def test_a_page_whose_socket_never_opens_posts_its_taps_with_a_key_made_on_the_phone(table_at):
    """A network that refuses websockets: the page posts the tap over HTTP, under its own random key."""
    table = table_at("sorry", NAMES[:2], via="api", start=0, phones=())
    page = table.open(0, socket=False, prepare=lambda page: page.add_init_script(NO_WEBSOCKETS))
    page.wait_for_selector("#table [data-kind=draw]")
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/act/")) as posted:
        page.locator("#table [data-kind=draw]").first.click()
    assert re.search(r"key=t-[0-9a-f]{16}-0-[0-9a-f]{16}", posted.value.post_data), posted.value.post_data
    page.wait_for_selector('#table[data-version="1"]', state="attached")
    assert page.locator("#reconnecting").is_hidden(), "a page that never had a socket does not say it lost one"


def test_the_phone_signals_only_when_it_becomes_my_turn(live_url, table_at):
    """Vibration and beep once per time the turn comes to this phone, never on the others' turn changes."""
    table = table_at("sorry", NAMES[:3], via="api", start=0, phones=())
    code, tokens = table.code, table.tokens
    page = table.open(1, prepare=lambda page: page.add_init_script(  # Bijan's phone; Ana starts
        "window.__buzz = 0; navigator.vibrate = function () { window.__buzz += 1; return true; };"))
    became_mine, mine = 0, False
    for _ in range(14):
        prompt = api(live_url, f"/api/tables/{code}/prompt/", token=tokens[0])
        seat = prompt["prompt"]["seats"][0]
        legal = api(live_url, f"/api/tables/{code}/prompt/", token=tokens[seat])["legal"]
        done = api(live_url, f"/api/tables/{code}/actions/",
                   {"action": legal[0]["action"], "version": prompt["version"], "key": f"m{prompt['version']}"},
                   token=tokens[seat])
        assert "error" not in done, done
        assert wait_synced([page], done["version"])
        now_mine = 1 in api(live_url, f"/api/tables/{code}/prompt/", token=tokens[1])["prompt"]["seats"]
        became_mine += now_mine and not mine
        mine = now_mine
        page.wait_for_timeout(100)
    assert became_mine >= 2, "the turn came to Bijan more than once in the run"
    assert page.evaluate("() => window.__buzz") == became_mine
