"""Two phones play Sorry! in a real browser: real taps, live sync, both boards agree.

The host creates a physical-deck table in the lobby, hands Bob his join link,
and the two phones (two browser contexts) take turns: tap in the card drawn
from the real deck, then tap a pawn and its lit destination on the board.
After every tap both pages must show the same version and the same pawns,
which only happens if the other phone was updated over its websocket.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import ROOT, SHORT_PHONE

pytestmark = pytest.mark.e2e

TAPPABLE = "#table .controls button.act, #table [data-action]"
GREEN, BLACK = "rgb(0, 170, 0)", "rgb(0, 0, 0)"  # a movable pawn's ring, and the picked one's (companion.css)


def version(page) -> int:
    return int(page.locator("#table").get_attribute("data-version"))


def pawns(page) -> list[str]:
    """The pawn positions drawn on the board, as 'ID@LOCATION' strings."""
    return sorted(page.eval_on_selector_all(
        "#table [data-pawn]", "els => els.map(e => e.dataset.pawn + '@' + e.dataset.loc)"))


# Each movable pawn as the phone sees it: which pawn a tap on its centre picks (the targets are drawn over the pawns, and
# the hit circles of neighbouring squares overlap) and the stroke of the ring that lights it.
MOVABLE = """() => [...document.querySelectorAll('#table .pawn-hit')].map(hit => {
  const pawn = document.querySelector(`#table [data-pawn="${hit.dataset.piece}"]`), r = pawn.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  const ring = hit.nextElementSibling;
  return {pawn: hit.dataset.piece, picks: top && top.closest('[data-open]') && top.closest('[data-open]').dataset.piece,
          ring: ring.matches('.pawn-ring') && getComputedStyle(ring).stroke, selected: hit.matches('.selected')};
})"""


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
            movable = mover.evaluate(MOVABLE)
            assert all(m["picks"] == m["pawn"] for m in movable), "a tap on a movable pawn picks that pawn"
            assert {m["ring"] for m in movable} == {GREEN} and not any(m["selected"] for m in movable), movable
            pawn_taps.first.click()  # pick a pawn on the board, then one of its lit destinations
            picked = pawn_taps.first.get_attribute("data-piece")
            assert [(m["pawn"], m["ring"]) for m in mover.evaluate(MOVABLE) if m["selected"]] == [(picked, BLACK)]
            assert not watcher.locator("#table .pawn-hit, #table .pawn-core, #table .pawn-ring").count()
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


def test_a_tap_on_a_movable_pawn_picks_it_where_the_hit_circles_of_neighbouring_squares_overlap(browser):
    """Squares are 22 units apart and a movable pawn's hit circle has a radius of 25, drawn over the pawns: three
    movable pawns on neighbouring squares each still take a tap on their own centre (sorry/targets.jinja), with
    the look of companion.css."""
    from games.web.jinja2env import draw
    from shelf.sorry.board import track_xy
    from shelf.sorry.visibility import layout

    pawns = [{"id": f"R{i}", "colour": "red", "loc": f"T{5 + i}", "x": track_xy(5 + i)[0], "y": track_xy(5 + i)[1]}
             for i in range(3)]
    legal = [{"kind": "move", "payload": {"pawn": p["id"], "to": f"T{20 + i}"}, "json": "{}", "label": p["id"]}
             for i, p in enumerate(pawns)]
    view = {"layout": layout(), "pawns": pawns, "card": "1", "draw_pile": 40, "private": {"hand": []}}
    css = (ROOT / "static" / "css" / "companion.css").read_text()
    page = browser.new_context(viewport=SHORT_PHONE, has_touch=True, is_mobile=True).new_page()
    try:
        page.set_content(f"<style>{css}</style><div id='table' class='board'>"
                         f"{draw('sorry/board.jinja', {'view': view, 'legal': legal})}</div>")
        movable = page.evaluate(MOVABLE)
        assert [(m["pawn"], m["picks"], m["ring"]) for m in movable] == [(p["id"], p["id"], GREEN) for p in pawns]
    finally:
        page.context.close()
