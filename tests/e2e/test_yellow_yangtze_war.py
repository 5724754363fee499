"""Three phones resolve one Yellow & Yangtze war by real taps (rules §5.3).

The table is created through the API with a physical bag, and a scripted
game (tests/engines/yellow_yangtze/scenarios.py, seed 2) is posted through
the API up to the brink of a war. Then, in the browser, the unifier picks
the joining tile on their screen and taps its hex; each phone answers its
own war step (commit nothing, so the sides tie) and the unifier breaks the
tie. Waiting phones must say who is deciding; at the end every phone shows
the same board and the same log.
"""

from __future__ import annotations

import json
import urllib.request

import pytest

from tests.e2e.conftest import SHORT_PHONE
from tests.engines.yellow_yangtze.scenarios import tie_war_brink

pytestmark = pytest.mark.e2e

NAMES = ["Ann", "Ben", "Cat"]


def api(url: str, body: dict | None = None, token: str = "") -> dict:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method="POST" if body is not None else "GET",
                                     headers={"Content-Type": "application/json",
                                              **({"Authorization": f"Bearer {token}"} if token else {})})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def version(page) -> int:
    return int(page.locator("#table").get_attribute("data-version"))


def wait_version(page, v: int) -> None:
    page.wait_for_selector(f'#table[data-version="{v}"]', state="attached")


def board(page) -> list[str]:
    return sorted(page.eval_on_selector_all("#table [data-tile]", "els => els.map(e => e.dataset.tile + e.className.baseVal)"))


def test_three_phones_fight_a_war_step_by_step_and_agree_on_the_outcome(live_url, table_at):
    table = table_at("yellow_yangtze", NAMES, via="api", options={"components": "physical"}, viewport=SHORT_PHONE,
                     phones=())
    code, tokens = table.code, table.tokens
    start = api(f"{live_url}/api/tables/{code}/")["prompt"]["seats"][0]
    steps, (unifier, war_tile), _state = tie_war_brink(NAMES, start, seed=2)
    v = table.version
    for n, (seat, action) in enumerate(steps):
        v = api(f"{live_url}/api/tables/{code}/actions/", {"action": action, "version": v, "key": f"s{n}"},
                tokens[seat])["version"]

    phones = [table.open(seat) for seat in range(len(NAMES))]
    v = api(f"{live_url}/api/tables/{code}/")["version"]  # each phone opening a seat the API played is a line
    for p in phones:
        wait_version(p, v)

    # The unifier picks the tile in the action bar, then taps its (now armed) hex: a thumb's tap on its centre, and
    # once more on its centre when the first tap zoomed the map in (another lit hex within reach).
    me = phones[unifier]
    me.locator(f'#actionbar [data-yy-pick="tile-{war_tile["colour"]}"]').click()
    target = me.locator(f'.yy-t[data-hex="{war_tile["hex"][0]},{war_tile["hex"][1]}"]')
    assert target.get_attribute("data-action"), "picking the tile arms its legal hexes"
    for _ in range(2):
        target.evaluate("el => el.scrollIntoView({block: 'center'})")
        box = target.locator("use").bounding_box()
        me.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        if not me.locator("#table svg.yy-svg.zoomed").count():
            break
    v += 1
    for p in phones:
        wait_version(p, v)
        assert p.locator("#table .yy-conflict[data-conflict=war]").count() == 1

    # Support in clockwise order from the unifier's left, the unifier last; then the unifier breaks the tie.
    order = [(unifier + k) % 3 for k in (1, 2, 0)]
    for seat in order:
        deciding = phones[seat]
        assert deciding.locator("#table.my-turn").count() == 1
        for other, p in enumerate(phones):
            if other != seat:
                assert p.locator("#table.my-turn").count() == 0
                text = p.locator("#table .yy-deciding").inner_text()
                assert f"{NAMES[seat]} is deciding" in text, text
        deciding.locator("#table .controls button", has_text="Commit nothing").click()
        v += 1
        for p in phones:
            wait_version(p, v)
    assert me.locator("#table .yy-conflict").get_attribute("data-stage") == "winner"
    for other, p in enumerate(phones):
        if other != unifier:
            assert f"{NAMES[unifier]} is deciding who wins the tie" in p.locator("#table .yy-deciding").inner_text()
    me.locator("#table .controls button", has_text="side wins").first.click()
    v += 1
    for p in phones:
        wait_version(p, v)
        assert p.locator("#table .yy-conflict").count() == 0, "the war is over on every phone"
    outcome = [p.locator("#table .log li").first.text_content().strip() for p in phones]
    assert len(set(outcome)) == 1 and "War over" in outcome[0] and "wins" in outcome[0], outcome
    for p in phones:  # every phone says who won, and what left the board
        assert "War over" in p.locator("#table .yy-outcome h3").inner_text()
    assert board(phones[0]) == board(phones[1]) == board(phones[2])
