"""A double tap is one move, and the phone that made it is not told it came too late.

A thumb often lands twice on a button (or a phone fires two clicks). Both taps post the
same move at the same table version; before, each tap got a fresh idempotency key, so the
second was refused 409 and the phone showed "the table moved on before your tap arrived"
to the very player whose move had just gone through. The taps now carry one key per
(seat, version, move): the second is a retry of the first and gets the first answer.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import two_phones_at_a_new_table

pytestmark = pytest.mark.e2e


def test_a_double_tap_makes_one_move_and_shows_no_refusal(live_url, phone):
    alice, bob, _code = two_phones_at_a_new_table(phone, live_url, "sorry")
    statuses: list[int] = []
    alice.on("response", lambda r: statuses.append(r.status)
             if r.request.method == "POST" and r.url.endswith("/act/") else None)
    draw = alice.locator("#table [data-kind=draw]").first
    draw.dblclick()
    for page in (alice, bob):
        page.wait_for_selector('#table[data-version="1"]', state="attached")
    alice.wait_for_timeout(1500)  # the second tap's answer has come back by now
    assert len(statuses) == 2, statuses
    assert 409 not in statuses, statuses
    assert alice.locator("#table .banner.error").count() == 0, alice.locator("#table .banner.error").all_inner_texts()
    assert alice.locator("#table").get_attribute("data-version") == "1", "two taps, one move"
    assert bob.locator("#table").get_attribute("data-version") == "1"
