"""Three phones play Amun-Re in a real browser: one whole auction and one offering by real taps.

Alice, Bob and Carol open their join links in three browser contexts. They
build their hands and run the first auction by tapping their own cards under
the provinces; after every tap all three phones show the same provinces and
the same public hands (rules 2.3), which only happens through the websocket.
The provinces are then typed in and the other two auctions played through the
API, and the three phones make their secret offerings by tapping: until the
last one taps, no phone shows any offering; then all three show all of them.
"""

from __future__ import annotations

import json
import urllib.request

import pytest

from tests.e2e.conftest import SHORT_PHONE

pytestmark = pytest.mark.e2e

NAMES = ("Alice", "Bob", "Carol")


def api(url: str, body: dict | None = None, token: str = "") -> dict:
    request = urllib.request.Request(url, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json",
                                              **({"Authorization": f"Bearer {token}"} if token else {})})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def version(page) -> int:
    return int(page.locator("#table").get_attribute("data-version"))


def wait_all(phones, v: int) -> None:
    for page in phones:
        page.wait_for_selector(f'#table[data-version="{v}"]', state="attached")


def board(page) -> dict:
    """What a phone shows of the public table: the cards under the provinces and every public hand."""
    return {
        "provinces": page.eval_on_selector_all(
            "#table .province", "els => els.map(e => { const c = e.querySelector('.bid-card');"
            " return c && c.dataset.card ? c.dataset.owner + ':' + c.dataset.card : '-'; })"),
        "hands": page.eval_on_selector_all("#table [data-hand]", "els => els.map(e => e.dataset.hand)"),
        "returned": page.eval_on_selector_all("#table [data-returned]", "els => els.map(e => e.dataset.returned)"),
        "phase": page.locator("#table .amun-re-status").get_attribute("data-phase"),
    }


def mover(phones):
    movers = [p for p in phones if p.locator("#table.my-turn").count()]
    assert len(movers) == 1, "exactly one phone is prompted"
    return movers[0]


def tap(phones, locator) -> None:
    before = version(phones[0])
    locator.click()
    wait_all(phones, before + 1)


def test_three_phones_run_an_auction_and_an_offering_by_taps(live_url, table_at):
    table = table_at("amun_re", NAMES, via="api", viewport=SHORT_PHONE)
    code, tokens, phones = table.code, table.tokens, table.phones

    for _ in range(3):  # hand building, one phone after the other (2.3): toggle 6 and 8, then keep them
        page = mover(phones)
        keep = page.locator("#table .amun-hand-picker .keep-hand")
        assert keep.is_disabled(), "nothing is kept before the cards add up to the budget"
        page.locator('#table .gold-toggle[data-card="6"]').click()
        assert keep.is_disabled()
        page.locator('#table .gold-toggle[data-card="8"]').click()
        assert page.locator("#table .amun-total").inner_text() == "14"
        assert json.loads(keep.get_attribute("data-action")) == {"kind": "build_hand", "cards": [0, 6, 8]}
        tap(phones, keep)
    assert board(phones[0])["phase"] == "auction"

    displaced = False
    while board(phones[0])["phase"] == "auction":  # the first auction, tap by tap (2.4)
        page = mover(phones)
        first_province = page.locator("#table .province").first.locator("button.bid-tap")
        target = first_province.first if first_province.count() else page.locator("#table button.bid-tap").first
        tap(phones, target)
        seen = [board(p) for p in phones]
        assert seen[0] == seen[1] == seen[2], "every phone shows the same provinces and hands"
        displaced = displaced or bool(seen[0]["returned"])
    assert displaced, "a higher card sent one back to its owner's hand"

    def prompt(seat: int) -> dict:
        return api(f"{live_url}/api/tables/{code}/prompt/", token=tokens[seat])

    body = prompt(0)
    while body["prompt"]["step"] != "offering":  # type the provinces in and play auctions 2 and 3
        seat = body["prompt"]["seats"][0]
        legal = [item["action"] for item in prompt(seat)["legal"]]
        action = next((a for a in legal if a["kind"] == "reveal" and a["value"] == 1), legal[0])
        api(f"{live_url}/api/tables/{code}/actions/", {"action": action, "version": body["version"]}, tokens[seat])
        body = prompt(0)
    wait_all(phones, body["version"])

    offered = []
    for n, page in enumerate(phones):  # the secret offering (2.5)
        for other in phones:
            assert other.locator("#table .amun-re-offerings").count() == 0, "nothing is revealed before the last"
            assert f"{n} of 3 have offered." in other.locator("#table .offer-count").inner_text()
        button = page.locator("#table .offering-picker button.act").last
        offered.append(json.loads(button.get_attribute("data-action"))["gold"])
        tap(phones, button)
        if n < 2:  # each phone that offered shows its own sealed offering, and only its own
            for i, other in enumerate(phones):
                sealed = other.locator("#table .my-offering")
                if i <= n:
                    assert f"you offered {offered[i]} (sealed)" in sealed.inner_text()
                else:
                    assert sealed.count() == 0
    for page in phones:
        rows = page.eval_on_selector_all(
            "#table .amun-re-offerings tr[data-offering-of]",
            "els => els.map(e => Number(e.querySelectorAll('td')[1].innerText))")
        assert rows == offered, "all three offerings appear on every phone at once"
