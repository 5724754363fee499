"""A Yellow & Yangtze turn on a 360 x 740 phone in Persian, with only what is in view.

The starting player's phone opens the table and never scrolls: the map is
in view above the action bar and the bar holds the picks (tiles with their
counts, leaders). The player taps a tile in the bar, then a lit hex on the
map, as a thumb would, at points inside the viewport and not under the bar;
where lit hexes lie close together the first tap zooms the map in and the
second takes the hex. Then the same with a leader. Each tap lands on the
element a person sees at that point (``elementFromPoint``), and the page is
still at the top and 360 px wide at the end.
"""

from __future__ import annotations

import json
import re
import urllib.request

import pytest

from tests.e2e.conftest import PHONE

pytestmark = pytest.mark.e2e

# Where a thumb would land on an element, if it is in view: its centre, the element found there and the bar's top.
SPOT = """(sel) => {
  const el = document.querySelector(sel);
  if (!el) return null;
  const face = el.matches('.yy-t') ? el.querySelector('use') : el;
  const r = face.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  return {x, y, top: r.top, bottom: r.bottom, lands: !!hit && (hit === el || el.contains(hit)),
          bar: document.getElementById('actionbar').getBoundingClientRect().top, scrollY: window.scrollY};
}"""

# The armed hexes whose centre is in view above the bar, nearest the map's middle first.
ARMED_IN_VIEW = """() => {
  const bar = document.getElementById('actionbar').getBoundingClientRect().top;
  return Array.from(document.querySelectorAll('#table .yy-t[data-action]')).map(t => {
    const r = t.querySelector('use').getBoundingClientRect();
    return {hex: t.dataset.hex, x: r.left + r.width / 2, y: r.top + r.height / 2, top: r.top, bottom: r.bottom};
  }).filter(h => h.top >= 0 && h.bottom <= bar && h.x > 0 && h.x < innerWidth)
    .sort((a, b) => Math.abs(a.y - 250) - Math.abs(b.y - 250));
}"""


def api(url: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(url, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def version(page) -> int:
    return int(page.locator("#table").get_attribute("data-version"))


def tap_in_view(page, selector: str, where: str) -> None:
    """Tap the centre of ``selector`` after checking a person sees it there (in the viewport, not under the bar)."""
    spot = page.evaluate(SPOT, selector)
    assert spot, f"{where}: {selector} is on the page"
    assert spot["scrollY"] == 0, f"{where}: the page was scrolled"
    assert spot["top"] >= 0 and spot["bottom"] <= PHONE["height"], f"{where}: {selector} is in view: {spot}"
    assert spot["lands"], f"{where}: a tap on {selector} lands on it (nothing covers it): {spot}"
    page.mouse.click(spot["x"], spot["y"])


def place(page, pick: str, where: str) -> tuple[str, bool]:
    """Tap ``pick`` in the bar, then a lit hex in view (twice when the first tap zooms): ``(hex, zoomed)``."""
    before = version(page)
    tap_in_view(page, f'#actionbar [data-yy-pick="{pick}"]', where)
    armed = page.evaluate(ARMED_IN_VIEW)
    assert armed, f"{where}: the pick lights hexes in view above the bar"
    hex_ = armed[0]["hex"]
    target = f'#table .yy-t[data-hex="{hex_}"]'
    tap_in_view(page, target, f"{where}, first tap")
    zoomed = version(page) == before and page.locator("#table svg.yy-svg.zoomed").count() == 1
    if zoomed:
        tap_in_view(page, target, f"{where}, tap on the zoomed map")
    page.wait_for_selector(f'#table[data-version="{before + 1}"]', state="attached")
    return hex_, zoomed


def test_a_persian_phone_places_a_tile_and_a_leader_with_what_is_in_view(live_url, table_at):
    table = table_at("yellow_yangtze", ["Ali", "Bahar"], via="api", lang="fa", phones=())
    code = table.code
    seat = api(f"{live_url}/api/tables/{code}/")["prompt"]["seats"][0]
    page = table.open(seat)
    assert page.locator("html").get_attribute("dir") == "rtl"

    # The whole map is in view above the bar, and the bar holds the picks.
    fit = page.evaluate("""() => ({map: document.querySelector('#table svg.yy-svg').getBoundingClientRect().bottom,
                                    bar: document.getElementById('actionbar').getBoundingClientRect().top})""")
    assert fit["map"] <= fit["bar"] + 1, f"the map ends above the action bar: {fit}"
    assert page.locator("#actionbar [data-yy-pick^='tile-']:not([disabled])").count() >= 1
    assert page.locator("#actionbar [data-yy-pick^='leader-']").count() == 5
    assert page.locator("#r-board [data-yy-pick]").count() == 0, "the screen under the map is for reading"

    tile = page.locator("#actionbar [data-yy-pick^='tile-']:not([disabled])").first
    colour = tile.get_attribute("data-yy-pick").removeprefix("tile-")
    count = int(re.search(r"×(\d+|[۰-۹]+)", tile.inner_text()).group(1).translate(str.maketrans("۰۱۲۳۴۵۶۷۸۹", "0123456789")))
    hex_, zoomed = place(page, f"tile-{colour}", "tile")
    assert not zoomed, "a tile lights every empty hex of its terrain, yet a tap on a hex's centre places it: two taps"
    assert page.locator(f'#r-board use[data-tile="{hex_}"].{colour}').count() == 1, "the tile lies on the tapped hex"
    left = page.locator(f"#actionbar [data-yy-pick='tile-{colour}']")
    if count > 1:  # the bar is redrawn by the move's push, which may land after the tile is on the map
        left.first.wait_for(timeout=5000)
    if left.count():  # one fewer of that colour in the bar (none left: the button is gone)
        shown = re.search(r"×(\d+|[۰-۹]+)", left.inner_text()).group(1)
        assert int(shown.translate(str.maketrans("۰۱۲۳۴۵۶۷۸۹", "0123456789"))) == count - 1
    else:
        assert count == 1

    leader = page.locator("#actionbar [data-yy-pick^='leader-']:not([disabled])").first
    colour = leader.get_attribute("data-yy-pick").removeprefix("leader-")
    place(page, f"leader-{colour}", "leader")  # one tap or two, as the lit hexes lie
    assert page.locator(f'#r-board g.leader.{colour}[data-leader="{seat}-{colour}"]').count() == 1, "the leader is on the map"

    state = api(f"{live_url}/api/tables/{code}/")
    assert state["prompt"]["seats"] != [seat] or state["prompt"]["step"] != "action", "both actions of the turn were played"
    assert page.evaluate("window.scrollY") == 0, "the phone never scrolled"
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), "no sideways scroll"


# Each pick of the action bar whose label (badge and word) does not fit inside its border: {pick, label, box}.
CLIPPED_PICKS = """() => Array.from(document.querySelectorAll('#actionbar .yy-pick')).map(b => {
  const r = b.getBoundingClientRect(), s = getComputedStyle(b);
  const inner = {left: r.left + parseFloat(s.borderLeftWidth), right: r.right - parseFloat(s.borderRightWidth)};
  const range = document.createRange(); range.selectNodeContents(b);
  const t = range.getBoundingClientRect();
  return {pick: b.dataset.yyPick, label: b.innerText.trim(), width: r.width, text: [t.left, t.right], box: [inner.left, inner.right],
          fits: t.left >= inner.left - 0.5 && t.right <= inner.right + 0.5 && b.scrollWidth <= b.clientWidth};
}).filter(p => !p.fits)"""


@pytest.mark.parametrize("lang", ["en", "fa", "az", "ps"])
def test_every_pick_of_the_bar_holds_its_whole_label_on_a_360_px_phone(live_url, table_at, lang):
    table = table_at("yellow_yangtze", ["Ali", "Bahar"], via="api", lang=lang, phones=())
    seat = api(f"{live_url}/api/tables/{table.code}/")["prompt"]["seats"][0]
    page = table.open(seat)
    page.wait_for_selector("#actionbar [data-yy-pick^='leader-']", state="attached")
    assert page.locator("#actionbar [data-yy-pick^='leader-']").count() == 5
    clipped = page.evaluate(CLIPPED_PICKS)
    assert not clipped, f"{lang}: these picks cut their label at their border: {clipped}"
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), "no sideways scroll"
