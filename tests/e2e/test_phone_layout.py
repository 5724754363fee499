"""The phone at the table (issue 9): every game at 360 x 740 in fa, ps and en holds the width and the thumb.

One server; for each game and language a fresh two-seat table, two phones
(browser contexts with the language cookie) that join by their links and play
a few turns by tapping what the action bar offers (the API plays a move when
the bar holds no single-tap choice, e.g. a hand still to compose). After the
page first loads and after every move, on every phone:

- the page never scrolls sideways (``scrollWidth <= innerWidth``);
- every visible, enabled tap target (button, link, input, select, summary and
  the board's clickable SVG elements: ``[data-action]``, ``[data-open]``) is at
  least 44 x 44 CSS px; an element that names its larger hit area
  (``data-hit``) is measured by that area, a radio or checkbox by its label;
  Yellow & Yangtze hexes are too small for that at 360 px, so the map is the
  target: where two lit hexes lie within one thumb, a tap must zoom the map
  (playing nothing) until every hex is 44 px across;
- when it is that phone's turn, the action bar is inside the viewport and holds
  the buttons.

Amun-Re is then played to its end through the API in fa and ps (the scoring
and final tables were the widest pages) with the same checks every few moves.
Screenshots of each game's phone page and table screen in fa go to
``artifacts/screens/`` (ignored by git).
"""

from __future__ import annotations

import json
import random
import re
import time
import urllib.request

import pytest

from tests.e2e.conftest import ROOT

pytestmark = pytest.mark.e2e

PHONE = {"width": 360, "height": 740}
TABLET = {"width": 1180, "height": 820}
GAMES = ("sorry", "yellow_yangtze", "amun_re", "catan_junior")
LANGUAGES = ("fa", "ps", "en")
SCREENS = ROOT / "artifacts" / "screens"

# What a tap can hit; the check runs in the page and returns the offenders as readable strings.
MEASURE = """() => {
  const out = {overflow: document.documentElement.scrollWidth - window.innerWidth, small: []};
  const sel = 'button, a[href], input:not([type=hidden]), select, summary, [data-action], [data-open], .yy-t';
  for (const el of document.querySelectorAll(sel)) {
    if (el.disabled || el.closest('[hidden], .defs')) continue;
    if (!el.checkVisibility({visibilityProperty: true})) continue;
    const map = el.closest('svg.yy-svg');
    if (map && !map.classList.contains('zoomed')) continue;  // the whole map is the target: YY_ZOOM checks it
    if (map) {  // a zoomed Yellow & Yangtze hex: across its narrow side (its box is exact on the smaller side only)
      const r = el.querySelector('use').getBoundingClientRect(), across = Math.min(r.width, r.height) / 2 * Math.sqrt(3);
      if (across < 43.5) out.small.push(`hex ${el.dataset.hex || ''} ${Math.round(across)} px across`);
      continue;
    }
    let target = el;
    if (el.dataset.hit && document.getElementById(el.dataset.hit)) target = document.getElementById(el.dataset.hit);
    if (el.matches('input[type=radio], input[type=checkbox]') && el.closest('label')) target = el.closest('label');
    const r = target.getBoundingClientRect();
    if (!r.width && !r.height) continue;
    if (r.width < 43.5 || r.height < 43.5) {
      const text = (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 30);
      out.small.push(`${el.tagName.toLowerCase()}.${(el.getAttribute('class') || '').trim().replace(/\\s+/g, '.')} ` +
                     `"${text}" ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  const wide = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.right > window.innerWidth + 1 || r.left < -1) {
      if (!el.closest('svg.defs, [hidden]') && el.checkVisibility()) wide.push(el.tagName.toLowerCase() + '.' + (el.getAttribute('class') || '') + ' ' + Math.round(r.left) + '..' + Math.round(r.right));
    }
  }
  out.wide = wide.slice(0, 8);
  const bar = document.getElementById('actionbar');
  if (bar) {
    const r = bar.getBoundingClientRect();
    out.bar = {top: r.top, bottom: r.bottom, buttons: bar.querySelectorAll('section.controls button, section.controls [data-action]').length};
  }
  out.mine = !!document.querySelector('#table.my-turn');
  out.controls = !!document.querySelector('#r-controls button, #r-controls [data-action]');
  return out;
}"""


# Yellow & Yangtze hexes are about 23 px across at 360 px, so the map as a whole is the tap target (_picker.html): a tap
# acts on a lit hex only when no other lit hex is within a thumb's reach (22 px beyond its radius), and otherwise zooms
# the map in. This finds a lit hex above the bar with another lit hex within reach (where a guess would go wrong):
# its centre, or null when every lit hex stands alone (then every tap is unambiguous).
YY_CROWDED = """() => {
  const svg = document.querySelector('#table svg.yy-svg');
  if (!svg) return null;
  const armed = svg.querySelectorAll('.yy-t.on');
  const bar = document.getElementById('actionbar'), floor = bar ? bar.getBoundingClientRect().top : innerHeight;
  const hexes = Array.from(armed.length ? armed : svg.querySelectorAll('.yy-t')).map(t => {
    const r = t.querySelector('use').getBoundingClientRect();
    return {x: r.left + r.width / 2, y: r.top + r.height / 2, radius: Math.min(r.width, r.height) / 2};
  });
  for (const h of hexes) {
    if (h.y - h.radius < 0 || h.y + h.radius > floor) continue;
    if (hexes.some(o => o !== h && Math.hypot(o.x - h.x, o.y - h.y) <= 22 + o.radius)) return {x: h.x, y: h.y};
  }
  return null;
}"""


def check_yy_map(page, where: str) -> None:
    """Where two lit Y&Y hexes lie within one thumb, a tap zooms (never moves) and every hex is then >= 44 px."""
    spot = page.evaluate(YY_CROWDED)
    if spot is None:
        return
    before = version(page)
    page.mouse.click(spot["x"], spot["y"])
    page.wait_for_timeout(300)  # a move would have been posted by now
    svg = page.locator("#table svg.yy-svg")
    assert "zoomed" in (svg.get_attribute("class") or ""), f"{where}: a tap between close lit hexes zooms the map"
    assert version(page) == before, f"{where}: an ambiguous tap played nothing"
    found = page.evaluate(MEASURE)
    assert not found["small"], f"{where}: tap targets under 44 px on the zoomed map: {found['small']}"
    assert found["overflow"] <= 0, f"{where}: the zoomed map widens the page"
    page.locator("#table .yy-unzoom").click()
    assert "zoomed" not in (svg.get_attribute("class") or ""), f"{where}: 'Whole map' zooms out"


def tap_hex(page, locator) -> None:
    """Tap a lit Y&Y hex as a thumb would: on its centre, and again on its centre if that tap zoomed the map in."""
    before = version(page)
    tap_centre(page, locator)
    if version(page) == before and page.locator("#table svg.yy-svg.zoomed").count():
        box = locator.locator("use").bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def api(live_url: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
    """One JSON call to the app's REST API (the same write path as a tap)."""
    request = urllib.request.Request(live_url + path, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json",
                                              **({"Authorization": f"Bearer {token}"} if token else {})})
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:  # a refusal (stale version after a push): the caller asks again
        return {"error": error.code, **json.loads(error.read() or b"{}")}


def version(page) -> int:
    return int(page.locator("#table").get_attribute("data-version"))


def check(page, where: str) -> dict:
    """Fail on sideways scroll, a small tap target, or an action bar out of view on my turn."""
    page.evaluate("window.scrollTo(0, 0)")
    found = page.evaluate(MEASURE)
    assert found["overflow"] <= 0, f"{where}: the page scrolls sideways by {found['overflow']} px: {found['wide']}"
    assert not found["small"], f"{where}: tap targets under 44 px: {found['small']}"
    if found.get("bar") and found["mine"] and found["controls"]:
        bar = found["bar"]
        assert bar["top"] >= 0 and bar["bottom"] <= PHONE["height"] + 1, f"{where}: the action bar is out of view: {bar}"
        assert bar["buttons"] > 0, f"{where}: the action bar holds no buttons on my turn"
    if found["mine"]:
        check_yy_map(page, where)
    if page.locator("#live").count() and page.locator("#r-meta").count():
        title = page.title()
        assert title.startswith("●") == found["mine"], f"{where}: the tab title says my turn iff it is ({title!r})"
    return found


def join(browser, live_url: str, link: str, code: str, lang: str, viewport: dict):
    """A phone (new browser context in ``lang``) that opens its join link and shows the table with its socket open."""
    ctx = browser.new_context(viewport=viewport, has_touch=True, is_mobile=viewport is PHONE, device_scale_factor=1)
    ctx.add_cookies([{"name": "django_language", "value": lang, "url": live_url}])
    page = ctx.new_page()
    page.set_default_timeout(15000)
    page.goto(link)
    page.wait_for_url(re.compile(rf"/t/{code}/$"))
    page.wait_for_selector("body[data-ws=open]", state="attached")
    return ctx, page


def wait_synced(pages, target: int, timeout: float = 10.0) -> bool:
    """True once every page shows version ``target`` or later (pushed over its websocket)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if all(version(p) >= target for p in pages):
            return True
        time.sleep(0.05)
    return False


def tap_centre(page, locator) -> None:
    """Tap the middle of a board target, as a thumb would (its hit area may overlap a neighbour's)."""
    locator.evaluate("el => el.scrollIntoView({block: 'center'})")
    box = locator.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def tap_in_bar(page) -> bool:
    """Tap one single-tap choice the phone offers (the action bar first); False when there is none."""
    for attempt in range(2):
        if page.locator("#actionbar [data-yy-pick]:not([disabled])").filter(visible=True).count() and \
                page.locator("#table .yy-t[data-picks]").count():
            page.locator("#actionbar [data-yy-pick]:not([disabled])").filter(visible=True).first.click()
            armed = page.locator("#table .yy-t[data-action]")
            if armed.count():
                tap_hex(page, armed.first)
                return True
        choices = page.locator("#actionbar section.controls [data-action]:not([disabled])").filter(visible=True)
        if choices.count():
            choices.nth(random.Random(version(page)).randrange(choices.count())).click()
            return True
        closed = page.locator("#actionbar section.controls details:not([open]) > summary").filter(visible=True)
        if not closed.count() or attempt:
            return False
        closed.first.click()
    return False


def play(live_url, pages, created, moves: int, where: str, rng: random.Random, *, ui: bool = True,
         check_every: int = 1) -> int:
    """Play ``moves`` moves (taps when ``ui``, else the API), checking every phone every ``check_every`` moves."""
    code = created["code"]
    tokens = [s["token"] for s in created["seats"]]
    done = 0
    for n in range(moves):
        body = api(live_url, f"/api/tables/{code}/")
        if body.get("status") != "playing" or not body.get("prompt", {}).get("seats"):
            print(f"{where}: stopped after {n} moves: {body}")
            break
        seat = body["prompt"]["seats"][0]
        start = body["version"]
        wait_synced(pages, start)
        moved = False
        page = pages[seat] if seat < len(pages) else None  # a seat without a phone in this test plays by the API
        if ui and page is not None and tap_in_bar(page):
            moved = wait_synced([page], start + 1, timeout=5)
        if not moved:
            mine = api(live_url, f"/api/tables/{code}/prompt/", token=tokens[seat])
            if not mine.get("legal"):
                break
            if mine["version"] == start:  # the tap did not land (or there was none): the API plays instead
                choice = rng.choice(mine["legal"])["action"]
                api(live_url, f"/api/tables/{code}/actions/", {"action": choice, "version": mine["version"]},
                    token=tokens[seat])
        now = api(live_url, f"/api/tables/{code}/")["version"]
        assert wait_synced(pages, now), f"{where}: a phone did not follow to version {now}"
        done += 1
        if n % check_every == 0:
            for i, p in enumerate(pages):
                check(p, f"{where} after move {n + 1}, phone {i}")
    return done


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("slug", GAMES)
def test_every_game_holds_360_px_and_44_px_taps_in_every_direction(live_url, browser, slug, lang):
    rng = random.Random(f"{slug}-{lang}")
    created = api(live_url, "/api/tables/", {"game": slug, "seats": [{"name": "Ali"}, {"name": "Bahar"}]})
    code = created["code"]
    contexts, pages = [], []
    try:
        for s in created["seats"]:
            ctx, page = join(browser, live_url, s["join_url"], code, lang, PHONE)
            contexts.append(ctx)
            pages.append(page)
        assert pages[0].locator("html").get_attribute("dir") == ("rtl" if lang in ("fa", "ps") else "ltr")
        for i, p in enumerate(pages):
            check(p, f"{slug}/{lang} first load, phone {i}")
        played = play(live_url, pages, created, 8, f"{slug}/{lang}", rng)
        assert played >= 4, f"{slug}/{lang}: only {played} moves were played"
        if slug == "yellow_yangtze":  # tiles were laid: the newest one is lit on the phone that watched it laid
            assert any(p.locator("#r-board use[data-tile].last-move").count() for p in pages), "the last move is lit"
        # A dropped socket says so, and the banner goes when it is back (the htmx ws extension's events).
        pages[1].evaluate("document.body.dispatchEvent(new CustomEvent('htmx:wsClose', {bubbles: true}))")
        assert pages[1].locator("#reconnecting").is_visible()
        pages[1].evaluate("document.body.dispatchEvent(new CustomEvent('htmx:wsOpen', {bubbles: true}))")
        assert not pages[1].locator("#reconnecting").is_visible()
        # The turn sound is a per-phone choice that survives a reload.
        toggle = pages[0].locator(".sound-toggle")
        assert toggle.get_attribute("aria-pressed") == "true"
        toggle.click()
        pages[0].reload()
        pages[0].wait_for_selector("#table")
        assert pages[0].locator(".sound-toggle").get_attribute("aria-pressed") == "false"
        if lang == "fa":
            SCREENS.mkdir(parents=True, exist_ok=True)
            mover = pages[0] if pages[0].locator("#table.my-turn").count() else pages[1]
            mover.screenshot(path=str(SCREENS / f"{slug}-phone-fa.png"))
            mover.screenshot(path=str(SCREENS / f"{slug}-phone-fa-full.png"), full_page=True)
        # The table screen, on a phone (it must hold 360 px too) and on a tablet in landscape.
        pages[0].goto(f"{live_url}/t/{code}/screen/")
        pages[0].wait_for_selector("#table")
        found = check(pages[0], f"{slug}/{lang} table screen at 360 px")
        assert pages[0].locator("#r-controls button, #r-controls [data-action]").count() == 0, "no buttons on the screen"
        assert found.get("bar") is None, "the table screen has no action bar"
        if lang == "fa":
            tablet_ctx = browser.new_context(viewport=TABLET)
            contexts.append(tablet_ctx)
            tablet_ctx.add_cookies([{"name": "django_language", "value": lang, "url": live_url}])
            tablet = tablet_ctx.new_page()
            tablet.goto(f"{live_url}/t/{code}/screen/")
            tablet.wait_for_selector("#table")
            assert tablet.evaluate("document.documentElement.scrollWidth <= innerWidth")
            tablet.screenshot(path=str(SCREENS / f"{slug}-screen-fa.png"))
    finally:
        for ctx in contexts:
            ctx.close()


@pytest.mark.parametrize("lang", ("fa", "ps"))
def test_amun_re_scoring_and_final_tables_hold_360_px_to_the_end(live_url, browser, lang):
    rng = random.Random(f"amun-{lang}")
    created = api(live_url, "/api/tables/", {"game": "amun_re", "seats": [{"name": "Ali"}, {"name": "Bahar"},
                                                                          {"name": "Cyrus"}]})
    code = created["code"]
    contexts, pages = [], []
    try:
        for s in created["seats"][:2]:
            ctx, page = join(browser, live_url, s["join_url"], code, lang, PHONE)
            contexts.append(ctx)
            pages.append(page)
        play(live_url, pages, created, 900, f"amun_re/{lang} to the end", rng, ui=False, check_every=20)
        assert api(live_url, f"/api/tables/{code}/")["status"] == "finished", "the game reached its end"
        wait_synced(pages, api(live_url, f"/api/tables/{code}/")["version"])
        for i, p in enumerate(pages):
            assert p.locator("table.amun-re-final").count() == 1
            check(p, f"amun_re/{lang} final screen, phone {i}")
        if lang == "fa":
            SCREENS.mkdir(parents=True, exist_ok=True)
            pages[0].screenshot(path=str(SCREENS / "amun_re-final-fa-full.png"), full_page=True)
            pages[0].locator("table.amun-re-final").evaluate("el => el.scrollIntoView({block: 'start'})")
            pages[0].screenshot(path=str(SCREENS / "amun_re-final-fa.png"))
            pages[0].locator("section.result").evaluate("el => el.scrollIntoView({block: 'start'})")
            pages[0].screenshot(path=str(SCREENS / "amun_re-result-fa.png"))
    finally:
        for ctx in contexts:
            ctx.close()


@pytest.mark.parametrize("lang", ("fa", "ps"))
def test_the_lobby_host_page_and_error_pages_hold_360_px_and_44_px_taps(live_url, browser, lang):
    created = api(live_url, "/api/tables/", {"game": "sorry", "seats": [{"name": "Ali"}, {"name": "Bahar"}]})
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    ctx.add_cookies([{"name": "django_language", "value": lang, "url": live_url}])
    try:
        page = ctx.new_page()
        page.set_default_timeout(15000)
        for slug in GAMES:  # the lobby with each game's seats and rule options shown
            page.goto(live_url + "/")
            with page.expect_response(lambda r, slug=slug: f"game={slug}" in r.url):
                page.select_option("select[name=game]", slug)
            page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
            page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
            check(page, f"lobby/{slug}/{lang}")
        for path in ("/no/such/page/", f"/t/{created['code']}/", f"/t/{created['code']}/host/"):
            page.goto(live_url + path)
            assert page.locator("html").get_attribute("dir") == "rtl"
            assert page.locator("a.back").count() == 1, f"{path}: a way back"
            check(page, f"{path} in {lang}")
    finally:
        ctx.close()
