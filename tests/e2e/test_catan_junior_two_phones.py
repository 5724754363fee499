"""Two phones play Catan Junior in a real browser: real taps on buttons and on the board, live sync.

The host creates a two-player table in the lobby and hands Bob his join link;
the two phones (two browser contexts at 360x640) take turns. Each tap is what
a child would do: roll the die, tap a lit spot on the board (build a lair or a
ship, or send the Ghost Captain), or end the turn. After every tap both pages
must show the same version, pieces, tokens and last roll, which only happens
if the other phone was updated over its websocket.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import SHORT_PHONE

pytestmark = pytest.mark.e2e

BOARD_TARGET = "#table .cj-map .cj-target"
ROLL = "#table .cj-controls button[data-kind=roll]"
END = "#table .cj-controls button[data-kind=end_turn]"


def version(page) -> int:
    return int(page.locator("#table").get_attribute("data-version"))


def wait_version(page, v: int) -> None:
    try:
        page.wait_for_selector(f'#table[data-version="{v}"]', state="attached")
    except Exception:
        print(page.inner_html("#table")[:3000])
        raise


def table_picture(page) -> dict:
    """What the board and the player list show: pieces by owner, each player's tokens, the last roll."""
    return page.evaluate(
        r"""() => ({
          lairs: [...document.querySelectorAll('#table .cj-map .lair')].map(e => e.dataset.site + ':' + e.dataset.owner).sort(),
          ships: [...document.querySelectorAll('#table .cj-map .ship')].map(e => e.dataset.route + ':' + e.dataset.owner).sort(),
          tokens: [...document.querySelectorAll('#table .cj-player')].map(
            p => p.dataset.seat + ':' + [...p.querySelectorAll('.cj-tokens [data-res]')].map(r => r.dataset.res).join(',')),
          news: document.querySelector('#table .cj-news').textContent.replace(/\s+/g, ' ').trim(),
          market: [...document.querySelectorAll('#table .cj-spaces [data-res]')].map(r => r.dataset.res),
        })"""
    )


def picture_width(page) -> float:
    """The drawn width in px of the first token picture under 'Your tokens' (huge if the stylesheet is missing)."""
    return page.evaluate("parseFloat(getComputedStyle(document.querySelector('#table .cj-mine svg.cj-ico')).width)")


def tap(mover) -> str:
    """Tap what a child would: a lit spot on the board, else the die, else end the turn. Return what was tapped."""
    if mover.locator(BOARD_TARGET).count():
        target = mover.locator(BOARD_TARGET).first
        kind = "board:" + target.evaluate("e => JSON.parse(e.dataset.action).kind")
        target.click()
        return kind
    if mover.locator(ROLL).count():
        mover.locator(ROLL).first.click()
        return "roll"
    mover.locator(END).click()
    return "end_turn"


def test_two_phones_roll_build_and_end_turns_by_taps_and_always_agree(table_at):
    alice, bob = table_at("catan_junior", start=0, walkthrough=False, viewport=SHORT_PHONE).phones
    assert alice.locator("#table .cj-map svg").bounding_box()["width"] <= 360, "the board fits a 360 px phone"

    tapped = []
    for _ in range(14):
        current = version(alice)
        mover = alice if alice.locator("#table.my-turn").count() else bob
        watcher = bob if mover is alice else alice
        assert mover.locator("#table.my-turn").count() == 1 and watcher.locator("#table.my-turn").count() == 0
        assert watcher.locator("#table [data-action]").count() == 0, "the waiting phone has nothing to tap"
        tapped.append(tap(mover))
        wait_version(mover, current + 1)
        wait_version(watcher, current + 1)
        assert table_picture(alice) == table_picture(bob)
        for page in (mover, watcher):
            assert picture_width(page) < 60, "pictures stay styled through a live update (no unstyled flash)"
        if tapped[-1] == "roll":
            assert "rolled" in watcher.locator("#table .cj-news").inner_text(), "the other phone sees the roll"
    assert version(alice) == version(bob) == 14
    assert tapped.count("roll") >= 3 and "end_turn" in tapped
    assert len(table_picture(alice)["lairs"]) >= 4, "both start lairs of both colours are on the board"


def test_a_player_picks_counts_for_a_trade_offer_which_is_clamped_to_holdings_and_withdraws_it(table_at):
    alice, bob = table_at("catan_junior", start=0, walkthrough=False, options={"player_trades": True},
                          viewport=SHORT_PHONE).phones
    assert alice.locator("#r-status > p.banner.warn").count() == 1 and not alice.locator("#r-status > p.banner.warn").is_visible()
    assert alice.locator("#table .cj-stats .cj-unverified").count() == 1, "the unverified note sits by the Coco tiles"
    alice.locator(ROLL).first.click()
    wait_version(alice, 1)
    if alice.locator(BOARD_TARGET).count():  # a 6: the Ghost Captain moves first
        alice.locator(BOARD_TARGET).first.click()
        wait_version(alice, 2)
    start = version(alice)
    mine = alice.evaluate("[...document.querySelectorAll('#table .cj-mine [data-res]')].map(e => e.dataset.res)")
    give = max(set(mine), key=mine.count)
    theirs = alice.evaluate(
        "[...document.querySelectorAll('#table .cj-player[data-seat=\"1\"] .cj-tokens [data-res]')].map(e => e.dataset.res)"
    )
    take = next(r for r in theirs if r != give)
    alice.click("#cj-offer-picker > summary")
    button = alice.locator("[data-cj-offer] button[data-kind=offer_trade]")
    assert button.is_disabled(), "nothing picked yet"
    # Counts are picked with the + button (no typing); + past what Bob holds stays at his count.
    for _ in range(mine.count(give)):
        alice.locator(f".stepper:has(input[data-side=give][data-res={give}]) button[data-step='1']").click()
    for _ in range(9):
        alice.locator(f".stepper:has(input[data-side=get][data-res={take}]) button[data-step='1']").click()
    assert alice.input_value(f"input[data-side=give][data-res={give}]") == str(mine.count(give))
    assert alice.input_value(f"input[data-side=get][data-res={take}]") == str(theirs.count(take))
    assert not button.is_disabled()
    button.click()
    wait_version(bob, start + 1)
    assert "Alice offers you" in " ".join(bob.locator("#table .cj-offer").inner_text().split())
    assert "Waiting for Bob to answer your offer" in " ".join(alice.locator("#table .cj-offer").inner_text().split())
    alice.locator("#table .cj-controls button[data-kind=withdraw_trade]").click()
    wait_version(bob, start + 2)
    assert bob.locator("#table .cj-offer").count() == 0
