"""Yellow & Yangtze on a 360 x 740 phone: where a lit hex stands alone at the map's zoom, one tap places.

At 360 px a hex is about 23 px across, half a thumb, so the picker zooms the map in when a tap falls
between lit hexes a thumb cannot tell apart (``picker.jinja``). A lit hex with no other lit hex within a
thumb's reach is not ambiguous: the first tap on it makes the move, with no zoom. The player picks the
Peasants' Revolt in the action bar (it lights every tile on the map: at the opening, the seven capitals),
finds a lit hex that stands alone (as the picker measures it) and taps it once; the move lands, the map
never zoomed, and the tile is gone from the tapped hex.
"""

from __future__ import annotations

import pytest

from tests.e2e.phone_checks import YY_DEAL, api, yellow_yangtze_dealt

pytestmark = pytest.mark.e2e

# The armed hexes above the bar with no other armed hex within a thumb's reach (the picker's THUMB, 22 px, beyond
# the other hex's radius): their centres and size, nearest the map's middle first.
LONE_ARMED = """() => {
  const svg = document.querySelector('#table svg.yy-svg');
  const bar = document.getElementById('actionbar').getBoundingClientRect().top;
  const hexes = Array.from(svg.querySelectorAll('.yy-t.on')).map(t => {
    const r = t.querySelector('use').getBoundingClientRect();
    return {hex: t.dataset.hex, x: r.left + r.width / 2, y: r.top + r.height / 2, radius: Math.min(r.width, r.height) / 2};
  });
  return hexes.filter(h => h.y - h.radius >= 0 && h.y + h.radius <= bar && h.x > 0 && h.x < innerWidth
      && !hexes.some(o => o !== h && Math.hypot(o.x - h.x, o.y - h.y) <= 22 + o.radius))
    .map(h => ({...h, lands: (() => { const hit = document.elementFromPoint(h.x, h.y);
                                      return !!hit && !!hit.closest(`.yy-t[data-hex="${h.hex}"]`); })()}))
    .sort((a, b) => Math.abs(a.y - 250) - Math.abs(b.y - 250));
}"""


# The deal (phone_checks.YY_DEAL) leaves Ali two blue tiles, so the Peasants' Revolt is open to him at once (rules
# §4.4); it may remove any tile, and at the opening the only tiles are the seven black capitals, far apart.


def test_a_lone_lit_hex_takes_the_piece_at_the_first_tap_without_zooming(live_url, table_at):
    table, v = yellow_yangtze_dealt(live_url, table_at)
    code = table.code
    page = table.open(0, lang="fa")
    v = api(live_url, f"/api/tables/{code}/")["version"]  # the phone opening Ali's seat after the API is a line
    assert page.locator("#table.my-turn").count() == 1
    svg = page.locator("#table svg.yy-svg")
    assert "zoomed" not in (svg.get_attribute("class") or ""), "the map starts whole"
    pick = page.locator('#actionbar [data-yy-pick="peasants-0"]')
    if not pick.is_visible():
        if page.locator("#bar-handle").is_visible() and not page.locator("body.bar-open").count():
            page.locator("#bar-handle").click()
        page.locator("#actionbar details.yy-more > summary").click()
    pick.click()
    if page.locator("body.bar-open #bar-handle").is_visible():
        page.locator("#bar-handle").click()  # the bar closed again: the map in sight
    lone = [h for h in page.evaluate(LONE_ARMED) if h["lands"]]
    assert lone, "the Peasants' Revolt lights the capitals, and one of them stands alone above the bar"
    spot = lone[0]
    assert spot["radius"] * 2 < 44, f"the hex is smaller than a thumb ({spot['radius'] * 2:.0f} px): it is the whole map"
    page.mouse.click(spot["x"], spot["y"])
    page.wait_for_selector(f'#table[data-version="{v + 1}"]', state="attached", timeout=5000)
    assert "zoomed" not in (svg.get_attribute("class") or ""), "the tap never zoomed"
    moves = [r for r in api(live_url, f"/api/tables/{code}/log/")["log"] if r["kind"] == "game"]
    assert len(moves) == len(YY_DEAL) + 1, "one tap, one move"
    last = api(live_url, f"/api/tables/{code}/")
    assert last["version"] == v + 1
    assert page.locator(f'#r-board use[data-tile="{spot["hex"]}"]').count() == 0, "the tapped capital's tile is gone"
