"""Two phones play Sorry! in a real browser: real taps, live sync, both boards agree.

The host creates a physical-deck table in the lobby, hands Bob his join link,
and the two phones (two browser contexts) take turns: tap in the card drawn
from the real deck, then tap a pawn and its lit destination on the board.
After every tap both pages must show the same version and the same pawns,
which only happens if the other phone was updated over its websocket.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import SHORT_PHONE

pytestmark = pytest.mark.e2e

TAPPABLE = "#table .controls button.act, #table [data-action]"


def version(page) -> int:
    return int(page.locator("#table").get_attribute("data-version"))


def pawns(page) -> list[str]:
    """The pawn positions drawn on the board, as 'ID@LOCATION' strings."""
    return sorted(page.eval_on_selector_all(
        "#table [data-pawn]", "els => els.map(e => e.dataset.pawn + '@' + e.dataset.loc)"))


def wait_version(page, v: int) -> None:
    try:
        page.wait_for_selector(f'#table[data-version="{v}"]', state="attached")
    except Exception:
        print(page.inner_html("#table")[:3000])
        raise


def test_two_phones_play_a_physical_deck_game_and_their_boards_agree(table_at):
    # A physical deck: each player taps in the card they drew from the real deck.
    alice, bob = table_at("sorry", start=0, walkthrough=False, options={"components": "physical"},
                          viewport=SHORT_PHONE).phones

    # A tampered tap is refused with the rule, and the page stays whole and usable.
    alice.evaluate("""() => document.querySelector('#table [data-kind=draw]')
                              .setAttribute('data-action', '{"kind":"draw","card":"9"}')""")
    alice.locator("#table [data-kind=draw]").first.click()
    alice.wait_for_selector('#table .banner.error[data-code="bad_card"]')
    assert alice.locator("header.topbar").count() == 1 and alice.locator("#live #table").count() == 1
    alice.reload()  # the forged button stays forged on this page (a socket refusal re-renders nothing): start clean

    # With its socket open a page sends its taps on it (games/socket/socket_taps.py): no HTTP post; the push brings the move.
    posts: list[str] = []
    for page in (alice, bob):
        page.wait_for_selector('body[data-ws="open"]', state="attached")
        page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)

    taps = picked_on_board = 0
    while taps < 16:
        current = version(alice)
        mover = alice if alice.locator("#table.my-turn").count() else bob
        watcher = bob if mover is alice else alice
        assert mover.locator("#table.my-turn").count() == 1, "exactly one phone is prompted"
        drawn = mover.locator("#table [data-kind=draw]")
        pawn_taps = mover.locator("#table .pawn-core")
        if drawn.count():
            # Name the card: a 1 or 2 (so pawns leave START) while the real deck still holds one.
            for card in ("1", "2", ""):
                wanted = drawn.filter(has_text=card) if card else drawn
                if wanted.count():
                    wanted.first.click()
                    break
        elif pawn_taps.count():
            pawn_taps.first.click()  # pick a pawn on the board, then one of its lit destinations
            dest = mover.locator("#table .dest.shown[data-action]")  # a merged target opens the list instead
            if dest.count():
                dest.first.click()
                picked_on_board += 1
            else:
                mover.locator("#table details[open] button.act").first.click()
        else:
            mover.locator(TAPPABLE).filter(visible=True).first.click()
        wait_version(mover, current + 1)
        wait_version(watcher, current + 1)
        assert pawns(alice) == pawns(bob)
        assert alice.locator("#table .log li").first.text_content().split(":")[0] == \
            bob.locator("#table .log li").first.text_content().split(":")[0]  # the log is folded: its text, not its look
        taps += 1
    assert version(alice) == version(bob) == 16
    assert picked_on_board, "at least one move was made by tapping a pawn and then its destination"
    assert len(pawns(alice)) == 8, "both boards show all eight pawns of two colours"
    assert posts == [], posts
