"""The Amun-Re calibration screen on a 360 px phone (rules file 6.2): an error never makes the page scroll sideways."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.e2e


def test_a_refused_calibration_fits_a_360_px_phone_without_horizontal_scroll(live_url, phone):
    page = phone()
    page.goto(live_url + "/editions/amun_re/calibrate/")
    page.fill('input[name="profile-name"]', "Our box")
    page.fill('input[name="rows-2-min_total"]', "14")  # a gap after row 2
    page.fill('input[name="prices-2-price"]', "")  # an emptied price
    page.click('button[name="check"]')
    page.wait_for_selector("ul.errorlist")
    assert "Offering table, row 3" in page.inner_text("body") or "Pyramid prices, 3 pyramids" in page.inner_text("body")
    width = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width[0] <= width[1], f"the page is {width[0]} px wide on a {width[1]} px screen"
