"""A move pushes only the board's parts that changed, and the phone draws them as it draws a whole board.

Bahar watches while Ali places a tile (Yellow & Yangtze, rules §4.1). The push to Bahar's phone carries the
map part (an SVG group, sent inside an ``<svg>`` so the phone parses it as SVG) and the public pieces, not the
board region: her ``#r-board`` element is the one the page loaded (a mark set on it survives), the new tile
stands on her map as an SVG element with a box of its own, and her map then shows exactly the tiles the
server's own page shows. What the phone set itself (the larger map, its button pressed) stays as it was.
"""

from __future__ import annotations

import pytest

from tests.e2e.phone_checks import api, yellow_yangtze_dealt

pytestmark = pytest.mark.e2e


TILES = "() => Array.from(document.querySelectorAll('#r-board use[data-tile]')).map(u => u.dataset.tile).sort()"


def test_a_move_swaps_only_the_parts_and_they_draw_as_svg(live_url, table_at):
    table, v = yellow_yangtze_dealt(live_url, table_at)
    code, tokens = table.code, table.tokens
    page = table.open(1)
    v = api(live_url, f"/api/tables/{code}/")["version"]
    page.wait_for_selector(f'#table[data-version="{v}"]', state="attached")
    before = page.evaluate(TILES)
    page.evaluate("() => { document.getElementById('r-board').dataset.kept = 'yes'; }")
    page.locator("#r-board button.yy-zoom").click()  # "Larger board": the phone's own state, kept by pushes
    assert page.locator("#r-board button.yy-zoom").get_attribute("aria-pressed") == "true"
    legal = api(live_url, f"/api/tables/{code}/prompt/", token=tokens[0])["legal"]
    place = next(item["action"] for item in legal if item["action"].get("kind") == "tile")
    answer = api(live_url, f"/api/tables/{code}/actions/", {"action": place, "version": v, "key": f"{code}-p"},
                 tokens[0])
    assert "error" not in answer, answer
    page.wait_for_selector(f'#table[data-version="{answer["version"]}"]', state="attached")
    hex_ = ",".join(str(n) for n in place["hex"])
    tile = page.locator(f'#r-board use[data-tile="{hex_}"]')
    tile.wait_for(state="attached")
    assert page.evaluate("() => document.getElementById('r-board').dataset.kept") == "yes", \
        "the push swapped parts, not the whole board"
    assert page.locator("#r-board .yy-board.zoomed").count() == 1
    assert page.locator("#r-board button.yy-zoom").get_attribute("aria-pressed") == "true", \
        "the pushed parts left the phone's zoom button as the phone set it"
    drawn = tile.evaluate("u => ({ns: u.namespaceURI, w: u.getBoundingClientRect().width})")
    assert drawn["ns"] == "http://www.w3.org/2000/svg" and drawn["w"] > 0, drawn
    after = page.evaluate(TILES)
    assert hex_ in after and hex_ not in before
    page.reload()
    page.wait_for_selector(f'#table[data-version="{answer["version"]}"]', state="attached")
    assert page.evaluate(TILES) == after, "the pushed map is the page's own"
