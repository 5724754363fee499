"""Four phones at 360 x 740 in fa, ps, az and en, each game played to its end: the board stays in sight, the end
is shown first, names are isolated, text is readable and every tap target is a thumb's.

Moves are posted through the API (the planned games of ``test_four_phones.py``); the phones are opened at the
moments looked at (a fa and a ps turn mid-game, a Yellow & Yangtze war step, the end, offline) and checked with
``phone_checks``: the action bar at most a third of the viewport on my turn (unless opened), the winner line, the
ranking and Play again / Next game in the first viewport at the end, every player name in an isolate, no visible
text under 12 px, no tap target under 44 px. Screenshots go to ``artifacts/screens/round2-*.png``. The set-up
walkthrough is checked on the host's phone from the lobby: a closed fold, the map in view.
"""

from __future__ import annotations

import re

import pytest

from tests.e2e.phone_checks import (
    PHONE,
    SCREENS,
    api,
    check,
    check_bar_third,
    check_end_first,
    layout,
    small_text,
    unisolated_names,
    wait_synced,
)
from tests.e2e.test_four_phones import GAMES, NAMES, find_plan

pytestmark = pytest.mark.e2e

LANGS = ["fa", "ps", "az", "en"]  # seat by seat


def _open(browser, live_url: str, link: str, code: str, lang: str):
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=1)
    ctx.add_cookies([{"name": "django_language", "value": lang, "url": live_url}])
    page = ctx.new_page()
    page.set_default_timeout(15000)
    page.goto(link)
    page.wait_for_url(re.compile(rf"/t/{code}/$"))
    page.wait_for_selector("body[data-ws=open]", state="attached")
    return ctx, page


def _look(page, lang: str, where: str, problems: list[str]) -> None:
    """Every check of this file on one phone; a failed one is kept in ``problems`` (the game goes on)."""
    for name, run in (("layout", lambda: check(page, where)), ("bar", lambda: check_bar_third(page, where))):
        try:
            run()
        except AssertionError as failed:
            problems.append(f"{lang} {name}: {failed}")
    loose = unisolated_names(page, NAMES)
    if loose:
        problems.append(f"{lang} {where}: names not isolated: {loose}")
    small = small_text(page)
    if small:
        problems.append(f"{lang} {where}: text under 12 px: {small}")


@pytest.mark.parametrize("slug", list(GAMES))
def test_the_board_in_sight_the_end_first_names_isolated_text_readable(live_url, browser, slug):
    game_plan = find_plan(slug)
    created = api(live_url, "/api/tables/", {"game": slug, "options": GAMES[slug]["options"], "start": "chosen",
                                             "start_seat": 0, "seats": [{"name": n} for n in NAMES]})
    code, tokens = created["code"], [s["token"] for s in created["seats"]]
    links = [s["join_url"] for s in created["seats"]]
    SCREENS.mkdir(parents=True, exist_ok=True)
    moves = game_plan.moves
    total = len(moves)
    # The moments looked at: the fa phone's and the ps phone's turn mid-game, and a war step (Yellow & Yangtze).
    mid = {0: next(n for n, m in enumerate(moves) if n >= total // 3 and m[0] == 0),
           1: next(n for n, m in enumerate(moves) if n >= total // 2 and m[0] == 1)}
    war = next((n for n, m in enumerate(moves) if m[1].startswith("war") and m[0] in (0, 1)), None)
    looks = {n: [seat] for seat, n in mid.items()}
    if war is not None:
        looks.setdefault(war, []).append(moves[war][0])
    contexts: list = []
    problems: list[str] = []
    v = created["version"]
    try:
        pages = []
        for seat in range(4):
            ctx, page = _open(browser, live_url, links[seat], code, LANGS[seat])
            contexts.append(ctx)
            pages.append(page)
            _look(page, LANGS[seat], f"{slug} first load", problems)
            page.goto("about:blank")  # the phone is put down while the API plays
        for n, (seat, step, action) in enumerate(moves):
            for looker in looks.get(n, []):
                page = pages[looker]
                page.goto(f"{live_url}/t/{code}/")
                page.wait_for_selector("body[data-ws=open]", state="attached")
                assert wait_synced([page], v), f"{slug} move {n}: the phone did not come to version {v}"
                assert page.locator("#table.my-turn").count() == 1, f"{slug} move {n}: not the {LANGS[looker]} phone's turn"
                kind = "war" if n == war else "turn"
                _look(page, LANGS[looker], f"{slug} move {n} ({step})", problems)
                page.screenshot(path=str(SCREENS / f"round2-{slug}-{LANGS[looker]}-{kind}.png"))
                page.goto("about:blank")
            answer = api(live_url, f"/api/tables/{code}/actions/", {"action": action, "version": v,
                                                                      "key": f"{code}-{n}"}, tokens[seat])
            assert "error" not in answer, f"{slug} move {n} ({step}) refused: {answer}"
            v = answer["version"]
        for seat, page in enumerate(pages):
            page.goto(f"{live_url}/t/{code}/")
            page.wait_for_selector("body[data-ws=open]", state="attached")
            assert page.locator("#table section.result").count() == 1, f"{slug}: no tally on the {LANGS[seat]} phone"
            try:
                check_end_first(page, f"{slug} end, {LANGS[seat]} phone", host=False)
            except AssertionError as failed:
                problems.append(str(failed))
            _look(page, LANGS[seat], f"{slug} end", problems)
            if seat < 2:
                page.screenshot(path=str(SCREENS / f"round2-{slug}-{LANGS[seat]}-end.png"))
        winner = layout(pages[3])["winner"]["text"]
        assert any(name in winner for name in NAMES), f"{slug}: the en phone's winner line names nobody: {winner!r}"
        # Offline: the fa and ps phones say so within 5 s.
        for seat in (0, 1):
            contexts[seat].set_offline(True)
            pages[seat].evaluate("window.dispatchEvent(new Event('offline'))")
            pages[seat].wait_for_selector("#reconnecting:not([hidden])", timeout=5000)
            pages[seat].screenshot(path=str(SCREENS / f"round2-{slug}-{LANGS[seat]}-offline.png"))
            contexts[seat].set_offline(False)
    finally:
        for ctx in contexts:
            ctx.close()
    assert not problems, f"{slug}:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", ["fa", "ps"])
def test_the_walkthrough_is_a_closed_fold_and_the_map_stays_in_sight(live_url, browser, lang):
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=1)
    ctx.add_cookies([{"name": "django_language", "value": lang, "url": live_url}])
    try:
        host = ctx.new_page()
        host.set_default_timeout(15000)
        host.goto(live_url + "/")
        with host.expect_response(lambda r: "game=catan_junior" in r.url):
            host.select_option("select[name=game]", "catan_junior")
        host.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
        host.select_option("select[name=players]", "2")
        host.fill("input[name=name_0]", "Emma")
        host.fill("input[name=name_1]", "گلالۍ")
        host.click("button.big")
        host.wait_for_url(re.compile(r"/t/\w+/host/$"))
        code = re.search(r"/t/(\w+)/", host.url).group(1)
        host.goto(f"{live_url}/t/{code}/host/")
        host.goto(host.locator("input.link").nth(0).input_value())
        host.wait_for_url(re.compile(rf"/t/{code}/$"))
        host.wait_for_selector("body[data-ws=open]", state="attached")
        fold = host.locator("#walk-fold")
        assert fold.count() == 1 and fold.get_attribute("open") is None, "the walkthrough starts as a closed fold"
        bar = layout(host)["bar"]
        assert bar <= PHONE["height"] / 3 + 1, f"the bar with the walkthrough folded takes {bar:.0f} px"
        top = host.evaluate("() => { for (const s of document.querySelectorAll('#r-board svg')) {"
                            " const r = s.getBoundingClientRect(); if (r.height > 100) return r.top; } return null; }")
        assert top is not None and top < PHONE["height"] - bar - 100, f"the map starts at {top} px, under the bar"
        loose = unisolated_names(host, ["Emma", "گلالۍ"])
        assert not loose, f"names not isolated: {loose}"
        host.screenshot(path=str(SCREENS / f"round2-walk-{lang}-folded.png"))
        host.click("#walk-fold > summary")
        host.wait_for_selector("body.bar-open")
        assert host.locator("#walk-fold [data-walk-step]").first.is_visible()
        host.screenshot(path=str(SCREENS / f"round2-walk-{lang}-open.png"))
        small = small_text(host)
        assert not small, f"text under 12 px: {small}"
    finally:
        ctx.close()
