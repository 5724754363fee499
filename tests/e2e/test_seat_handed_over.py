"""A phone whose seat the host handed over stops: no reconnecting, no waiting taps, no live buttons.

The host gives a seat a new link; the old phone's socket is closed by the server with 4403
(games/socket/consumers.py) and the page (static/js/table.js) stops reconnecting, drops the taps that waited
for the socket (no seat would take them), disables its buttons and says this phone no longer holds the
seat and to ask the host for a new link.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import SHORT_PHONE
from tests.e2e.phone_checks import version

pytestmark = pytest.mark.e2e


def test_a_phone_offline_with_a_waiting_tap_whose_seat_is_handed_over_stops_and_says_so(table_at, live_url, browser):
    table = table_at("sorry", start=0, walkthrough=False, viewport=SHORT_PHONE)
    (alice, bob), code = table.phones, table.code
    host_ctx = browser.new_context()
    try:
        host_ctx.add_cookies(alice.context.cookies())
        host = host_ctx.new_page()
        host.goto(f"{live_url}/t/{code}/host/")
        start = version(bob)
        # Alice's network drops; she taps Draw: one tap waits for the socket.
        alice.context.set_offline(True)
        alice.wait_for_selector("#reconnecting", state="visible", timeout=5000)
        alice.locator("#table [data-kind=draw]").first.click()
        alice.wait_for_selector("#taps-waiting", state="visible")
        # Meanwhile the host gives her seat a new link (confirm() accepted).
        host.on("dialog", lambda dialog: dialog.accept())
        with host.expect_navigation():
            host.locator("form[action$='/hand-over/0/'] button").click()
        sockets = []
        alice.on("websocket", lambda ws: sockets.append(ws.url))
        alice.context.set_offline(False)
        alice.wait_for_selector("#seat-gone", state="visible", timeout=15000)
        assert "no longer holds a seat" in alice.locator("#seat-gone").inner_text()
        assert "Ask the host for a new" in alice.locator("#seat-gone").inner_text()
        assert alice.locator("#reconnecting").is_hidden()
        assert alice.locator("body").get_attribute("data-taps-waiting") == "0"
        assert alice.evaluate("() => Object.keys(sessionStorage).every(k => !k.startsWith('companion.taps') || "
                              "JSON.parse(sessionStorage[k]).length === 0)")
        draw = alice.locator("#table [data-kind=draw]")
        assert draw.count() == 0 or all(draw.nth(i).is_disabled() for i in range(draw.count()))
        tried = len(sockets)
        alice.wait_for_timeout(3000)
        assert len(sockets) == tried, "no reconnecting once the server said the seat is gone"
        assert alice.locator("#reconnecting").is_hidden()
        assert version(bob) == start, "the waiting tap was not applied for the seat's new holder"
    finally:
        host_ctx.close()
