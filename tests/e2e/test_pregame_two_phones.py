"""Who starts, set-up and play again in two real browsers: the set-up list, who starts, and the next game in one tap.

Checks what only a browser shows: a push that keeps the table version (a ticked step, the next game) is
not skipped by the page as one it already shows, and each phone follows to its own seat of the new table.
"""

from __future__ import annotations

import re

from tests.e2e.conftest import SHORT_PHONE


def printed_rule_by_default(lobby) -> None:
    assert lobby.locator("select[name=start]").input_value() == "printed"


def test_a_ticked_step_the_start_and_the_next_game_reach_the_other_phone_live(live_url, table_at):
    table = table_at("catan_junior", before_create=printed_rule_by_default, viewport=SHORT_PHONE)
    (alice, bob), code = table.phones, table.code
    assert "Who is the youngest?" in bob.locator("#r-status").inner_text()
    assert bob.locator("#table [data-action]").count() == 0  # nobody moves before the table knows who starts
    # The host ticks a set-up step; Bob's list follows without a reload.
    assert alice.locator("#walk-fold").get_attribute("open") is None  # the walkthrough starts folded: the map in sight
    alice.click("#walk-fold > summary")
    alice.click("[data-walk-step=ghost] button")
    alice.wait_for_selector("[data-walk-step=ghost].done")
    bob.wait_for_selector("#r-status summary:has-text('1 of 5')")
    # Bob says he is the youngest; Alice's phone shows it and Bob rolls first.
    bob.click("[data-start-seat='1']")
    bob.wait_for_selector("#table [data-action]")
    alice.wait_for_selector("#r-status:has-text('Bob starts')")
    assert alice.locator("#table [data-action]").count() == 0
    # The host ends the game; from the tally one tap starts the next game, and Bob follows to his own seat.
    alice.goto(live_url + f"/t/{code}/host/")
    alice.once("dialog", lambda dialog: dialog.accept())
    alice.click("button.danger")
    alice.goto(live_url + f"/t/{code}/")
    bob.wait_for_selector("#r-status:has-text('The host ended this game')")
    alice.click("text=Play again")
    alice.wait_for_url(re.compile(r"/t/\w+/$"))
    new = re.search(r"/t/(\w+)/", alice.url).group(1)
    assert new != code and "Alice" in alice.locator("#table .status").inner_text()
    bob.wait_for_selector(f"[data-next='{new}']")
    bob.click(f"[data-next='{new}']")
    bob.wait_for_url(re.compile(rf"/t/{new}/$"))
    assert "Bob" in bob.locator("#table .status").inner_text()
    assert "Who is the youngest?" in bob.locator("#r-status").inner_text()
