"""The set-up walkthrough on the host's phone at 360 x 740 in fa and ps: a closed fold, the map in view.

The table is made in the lobby (Catan Junior, two players, one Latin and one Pashto name); the host's phone
shows the walkthrough as a closed fold under a bar of at most a third of the screen, the map above the bar,
both names isolated; opened, its steps show with no text under 12 px. Screenshots go to
``artifacts/screens/round2-walk-*.png``. The phone-at-the-table checks during and at the end of every game
(bar, winner first, names, text size, markers, header, offline) run in ``test_four_phones.py``.
"""

from __future__ import annotations

import pytest

from tests.e2e.phone_checks import (
    PHONE,
    SCREENS,
    layout,
    round_two,
    small_text,
    unisolated_names,
)

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("lang", ["fa", "ps"])
def test_the_walkthrough_is_a_closed_fold_and_the_map_stays_in_sight(table_at, lang):
    host = table_at("catan_junior", ["Emma", "گلالۍ"], lang=lang, phones=(0,)).host
    fold = host.locator("#walk-fold")
    assert fold.count() == 1 and fold.get_attribute("open") is None, "the walkthrough starts as a closed fold"
    bar = layout(host)["bar"]
    assert bar <= PHONE["height"] / 3 + 1, f"the bar with the walkthrough folded takes {bar:.0f} px"
    top = host.evaluate("() => { for (const s of document.querySelectorAll('#r-board svg')) {"
                        " const r = s.getBoundingClientRect(); if (r.height > 100) return r.top; } return null; }")
    assert top is not None and top < PHONE["height"] - bar - 100, f"the map starts at {top} px, under the bar"
    loose = unisolated_names(host, ["Emma", "گلالۍ"])
    assert not loose, f"names not isolated: {loose}"
    problems = round_two(host, f"walkthrough, {lang} phone", ["Emma", "گلالۍ"])
    assert not problems, problems
    host.screenshot(path=str(SCREENS / f"round2-walk-{lang}-folded.png"))
    host.click("#walk-fold > summary")
    host.wait_for_selector("body.bar-open")
    assert host.locator("#walk-fold [data-walk-step]").first.is_visible()
    host.screenshot(path=str(SCREENS / f"round2-walk-{lang}-open.png"))
    small = small_text(host)
    assert not small, f"text under 12 px: {small}"
