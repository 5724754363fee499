"""The board editor in a 360 px browser: a capital tapped onto an edge hex shows its whole name inside the grid."""

from __future__ import annotations


def test_a_capital_put_on_an_edge_hex_shows_its_whole_name_inside_the_grid(live_url, phone):
    page = phone()
    page.goto(live_url + "/editions/yellow_yangtze/board/?start=practice")
    page.check('input[name=tool][value="Zhao"]')
    cells = page.locator("svg.yy-edit g.cell")
    edge = cells.nth(cells.count() - 1)  # the last cell of the last row: on the grid's right edge
    edge.dispatch_event("click")
    text = edge.locator("text")
    assert text.text_content() == "Zhao"
    box, grid = text.bounding_box(), page.locator("svg.yy-edit").bounding_box()
    assert grid["x"] <= box["x"] and box["x"] + box["width"] <= grid["x"] + grid["width"]
