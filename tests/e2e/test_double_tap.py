"""A double tap is one move, and the phone that made it is not told it came too late.

A thumb often lands twice on a button (or a phone fires two clicks). Both taps carry the same
move at the same table version under the same key (a random part made on the page, the version
and a hash of the move), so the second is a retry of the first: one move, no "the table moved on"
shown to the very player whose move just went through, and both go on the page's socket.
"""

from __future__ import annotations

import json
import re

import pytest

from tests.e2e.conftest import SHORT_PHONE

pytestmark = pytest.mark.e2e


def test_a_double_tap_makes_one_move_and_shows_no_refusal(table_at):
    alice, bob = table_at("sorry", start=0, walkthrough=False, viewport=SHORT_PHONE).phones
    posts: list[str] = []
    alice.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    alice.evaluate("""() => { window.__sent = []; var send = WebSocket.prototype.send;
                             WebSocket.prototype.send = function (m) { window.__sent.push(m); return send.call(this, m); }; }""")
    draw = alice.locator("#table [data-kind=draw]").first
    draw.dblclick()
    for page in (alice, bob):
        page.wait_for_selector('#table[data-version="1"]', state="attached")
    alice.wait_for_timeout(1500)  # the second tap's answer has come back by now
    taps = [json.loads(m) for m in alice.evaluate("() => window.__sent") if '"action"' in m]
    assert taps and len({t["key"] for t in taps}) == 1, taps
    assert re.fullmatch(r"t-[0-9a-f]{16}-0-[0-9a-f]{16}", taps[0]["key"]), "a random part made on the phone"
    assert posts == [], "with its socket open the page sends its taps on it"
    assert alice.locator("#table .banner.error").count() == 0, alice.locator("#table .banner.error").all_inner_texts()
    assert alice.locator("#table").get_attribute("data-version") == "1", "two taps, one move"
    assert bob.locator("#table").get_attribute("data-version") == "1"
