"""The lobby on a 360 px phone: nothing wider than the phone, every control at least 44 px.

Prints the page height of each game's lobby, groups collapsed and all open (a measure, not a limit).
"""

from __future__ import annotations

import pytest

from games.engines import REGISTRY
from tests.e2e.conftest import pick_game
from tests.e2e.phone_checks import HEADER

SMALL = """() => [...document.querySelectorAll('main select, main input:not([type=hidden]), main button, main summary')]
  .filter(e => e.offsetParent !== null)
  .map(e => ({name: e.name || e.tagName, h: Math.round(e.getBoundingClientRect().height)}))
  .filter(x => x.h < 44)"""


@pytest.mark.parametrize("language", ["en", "fa", "ps", "az"])
def test_the_lobby_fits_a_360_px_phone_with_44_px_controls(phone, live_url, language):
    page = phone(lang=language)
    for slug in REGISTRY:
        page.goto(f"{live_url}/?game={slug}")
        collapsed = page.evaluate("document.documentElement.scrollHeight")
        page.evaluate("document.querySelectorAll('details.option-group').forEach(d => d.open = true)")
        opened = page.evaluate("document.documentElement.scrollHeight")
        print(f"lobby {language} {slug}: {collapsed} px collapsed, {opened} px with every group open")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, f"{slug}: wider than the phone"
        small = page.evaluate(SMALL)
        assert not small, f"{language} {slug}: controls under 44 px: {small}"
        assert page.locator("details.option-group[open]").count() == page.locator("details.option-group").count()


def test_a_table_made_in_the_persian_lobby_with_changed_options_keeps_them(phone, live_url):
    """The lobby's own steps, as they are what this tests (the ``table_at`` fixture makes tables for the others)."""
    page = phone(lang="fa")
    page.goto(live_url + "/")
    pick_game(page, "yellow_yangtze")
    page.select_option("select[name=players]", "2")
    page.click("details[data-group=wars] > summary")
    page.select_option("select[name=opt-who_fights]", "all")
    page.click("details[data-group=setup] > summary")
    page.click("label:has(input[name=opt-short_game])")  # the whole row toggles the box
    assert page.is_checked("input[name=opt-short_game]")
    page.click("button.big")
    page.wait_for_url("**/host/")
    code = page.url.rstrip("/").split("/")[-2]
    options = page.request.get(f"{live_url}/api/tables/{code}/").json()["options"]
    assert options["who_fights"] == "all" and options["short_game"] is True
    assert options["attrition"] == "highest" and options["capitals_from_black"] is True




@pytest.mark.parametrize("language", ["en", "fa", "ps", "az"])
def test_the_header_fits_a_360_px_phone_with_nothing_cut(phone, live_url, language):
    """Brand, language picker and digit picker on one line: none overflows the bar, none is narrower than
    its content (a picker cut to "Digits: as" or "ارقام: مطاب", a brand clipped in az)."""
    page = phone(lang=language)
    page.goto(f"{live_url}/")
    header = page.evaluate(HEADER)
    print(f"header {language}: {header['height']:.0f} px tall, " + ", ".join(
        f"{i['shown']!r} {i['width']:.0f}/{i['need']:.0f} px" for i in header["items"]))
    assert header["scroll"] <= header["client"], header
    assert header["height"] <= 60, "one line"
    for item in header["items"]:
        assert item["need"] <= item["width"] + 0.5, f"{language}: {item['shown']!r} is cut: {item}"
        assert item["left"] >= 0 and item["right"] >= 0 and item["scroll"] <= 0, item
