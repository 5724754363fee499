"""Shared checks of the phone-at-the-table browser tests: width, thumb, action bar, words.

Used by ``test_phone_layout.py``, ``test_words_in_browser.py`` and ``test_four_phones.py``:

- :func:`check` fails on sideways scroll (``scrollWidth > innerWidth``), a visible enabled tap target
  under 44 x 44 CSS px (measured by its ``data-hit`` area, a radio or checkbox by its label), the action
  bar out of the viewport (or empty) on my turn, and a tab title that does not say whose turn it is;
- :func:`foreign_words` returns the words on a page a reader of its language would not read as theirs:
  on a Persian or Pashto page every Latin-letter word, on an Azerbaijani page (Latin script) every
  English word of the catalogue's msgids that no Azerbaijani msgstr uses, outside names and codes
  (``<bdi>``, ``dir="auto"``, ``.code``, ``<code>``, Unicode isolates, another ``lang``) and the reasoned
  allow-list of ``tests/web/test_every_word.py``;
- :func:`round_two` gathers the checks of a phone at the table: the bar at most a third of the screen on my turn,
  every name isolated, no text under 12 px, no rules marker or case number in visible text, the header within
  360 px with nothing cut (:func:`check_end_first` and :func:`offline_banner` for the end and a lost socket);
- :func:`version`, :func:`wait_synced`, :func:`tap_centre`: the plumbing (``api`` and ``PHONE`` come from
  ``conftest.py``, where the ``table_at`` fixture makes a table and its phones);
  :func:`yellow_yangtze_dealt` a two-seat Yellow & Yangtze table past its deal.
"""

from __future__ import annotations

import re
import time

from tests.e2e.conftest import PHONE, ROOT, api
from tests.web.test_every_word import ALLOWED, AZ_OWN, BOARD_COORDINATE, ENGLISH
from tests.web.test_plain_words import CASE_ID, MARKER

TABLET = {"width": 1180, "height": 820}
SCREENS = ROOT / "artifacts" / "screens"

# What a tap can hit; the check runs in the page and returns the offenders as readable strings.
MEASURE = """() => {
  const out = {overflow: document.documentElement.scrollWidth - window.innerWidth, small: []};
  const sel = 'button, a[href], input:not([type=hidden]), select, summary, [data-action], [data-open], .yy-t';
  for (const el of document.querySelectorAll(sel)) {
    if (el.disabled || el.closest('[hidden], .defs')) continue;
    if (!el.checkVisibility({visibilityProperty: true})) continue;
    const map = el.closest('svg.yy-svg');
    if (map && !map.classList.contains('zoomed')) continue;  // the whole map is the target: check_yy_map checks it
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
  const top = document.querySelector('header.topbar');
  out.topbar = top ? top.getBoundingClientRect().height : 0;
  out.mine = !!document.querySelector('#table.my-turn');
  out.controls = !!document.querySelector('#r-controls button, #r-controls [data-action]');
  return out;
}"""

# The words a reader sees: visible text nodes outside markup that isolates a name or a code.
VISIBLE_WORDS = r"""
() => {
  const page = document.documentElement.lang;
  const skip = (el) => {
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      const tag = e.tagName.toLowerCase();
      if (["bdi", "code", "script", "style", "template", "noscript", "title"].includes(tag)) return true;
      if (e.getAttribute("dir") === "auto" || e.classList.contains("code")) return true;
      const lang = e.getAttribute("lang");
      if (lang && lang !== page) return true;
    }
    return false;
  };
  const seen = (el) => {
    if (!el.getClientRects().length) return false;
    const style = getComputedStyle(el);
    return style.visibility !== "hidden" && style.display !== "none";
  };
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || !n.textContent.trim() || skip(el) || !seen(el)) continue;
    out.push(n.textContent.replace(/[\u2066-\u2069]/g, " "));  // isolated runs are checked as names/codes too
  }
  return out;
}
"""
LATIN = re.compile(r"[A-Za-zÀ-ÖØ-öø-ɏ]+")
CODE_LIKE = re.compile(r"[A-Za-z]+[0-9]+[A-Za-z0-9]*|[0-9]+[A-Za-z]+[A-Za-z0-9]*")


# Yellow & Yangtze hexes are about 23 px across at 360 px, so the map as a whole is the tap target (picker.jinja): a tap
# acts on a lit hex when it lands on the hex's core or no other lit hex is within a thumb's reach (22 px beyond its
# radius), and a tap between close lit hexes zooms the map in. This finds a lit hex above the bar with another lit hex
# within reach (where a guess would go wrong): the point halfway between their centres, or null when every lit hex
# stands alone (then every tap is unambiguous).
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
    const o = hexes.find(o => o !== h && Math.hypot(o.x - h.x, o.y - h.y) <= 22 + o.radius);
    if (o && o.y + o.radius <= floor) return {x: (h.x + o.x) / 2, y: (h.y + o.y) / 2};
  }
  return null;
}"""


def check_yy_map(page, where: str) -> None:
    """Where two lit Y&Y hexes lie within one thumb, a tap between them zooms (never moves) and every hex is then
    >= 44 px."""
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


def tap_hex(page, locator) -> int:
    """Tap a lit Y&Y hex as a thumb would: on its centre, and again on its centre if that tap zoomed the map in.
    Returns the taps it took on the map (1, or 2 when the map zoomed first)."""
    before = version(page)
    tap_centre(page, locator)
    page.wait_for_timeout(50)
    if version(page) == before and page.locator("#table svg.yy-svg.zoomed").count():
        box = locator.locator("use").bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        return 2
    return 1


# The real bag (physical components) at a two-seat Yellow & Yangtze table, Ali to start: what each seat draws at the
# deal. Ali holds two blue tiles, so the Peasants' Revolt is open to him at once (rules §4.4).
YY_DEAL = [(0, ["blue", "blue", "red", "red", "green", "black"]), (1, ["black", "red", "red", "green", "green", "green"]),
           (0, ["black", "red", "red", "yellow", "yellow", "green"])]


def yellow_yangtze_dealt(live_url: str, table_at):
    """A two-seat Yellow & Yangtze table (Ali, Bahar; physical components, Ali starts; no phone yet) with
    :data:`YY_DEAL` drawn through the API: ``(the table, the version after the deal)``."""
    table = table_at("yellow_yangtze", ["Ali", "Bahar"], via="api", options={"components": "physical"}, start=0,
                     phones=())
    v = table.version
    for n, (seat, tiles) in enumerate(YY_DEAL):
        answer = api(live_url, f"/api/tables/{table.code}/actions/", {"action": {"kind": "draw", "tiles": tiles},
                                                                      "version": v, "key": f"{table.code}-{n}"},
                     table.tokens[seat])
        assert "error" not in answer, answer
        v = answer["version"]
    return table, v


def version(page) -> int:
    """The table version a page shows (``#table[data-version]``)."""
    return int(page.locator("#table").get_attribute("data-version"))


def wait_synced(pages, target: int, timeout: float = 10.0) -> bool:
    """True once every page shows version ``target`` or later (pushed over its websocket)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if all(version(p) >= target for p in pages):
            return True
        time.sleep(0.05)
    return False


def check(page, where: str) -> dict:
    """Fail on sideways scroll, a small tap target, or an action bar out of view on my turn; return the measures."""
    page.evaluate("window.scrollTo(0, 0)")
    found = page.evaluate(MEASURE)
    assert found["overflow"] <= 0, f"{where}: the page scrolls sideways by {found['overflow']} px: {found['wide']}"
    assert not found["small"], f"{where}: tap targets under 44 px: {found['small']}"
    assert found["topbar"] <= 64, f"{where}: the header takes {found['topbar']:.0f} px (its pickers wrapped onto a second line)"
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


def tap_centre(page, locator) -> None:
    """Tap the middle of a board target, as a thumb would (its hit area may overlap a neighbour's)."""
    locator.evaluate("el => el.scrollIntoView({block: 'center'})")
    box = locator.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def latin_words(page, allowed: set[str]) -> set[str]:
    """The Latin-letter words a reader sees on ``page`` outside names, codes, ``allowed`` (lower case) and ALLOWED.

    ``"<coordinates>"`` in ``allowed`` spares the Yellow & Yangtze board's edge letters (A-N).
    """
    words = set()
    for text in page.evaluate(VISIBLE_WORDS):
        for word in LATIN.findall(text):
            coordinate = "<coordinates>" in allowed and BOARD_COORDINATE.match(word)
            if word.lower() not in allowed and word.lower() not in ALLOWED and not coordinate:
                words.add(word)
    return words


def foreign_words(page, lang: str, allowed: set[str]) -> set[str]:
    """The words on ``page`` not in the reader's language ``lang`` (see the module docstring); empty for ``en``."""
    if lang == "en":
        return set()
    words = latin_words(page, allowed)
    if lang == "az":  # Latin script: only an English word of the catalogue that Azerbaijani never writes
        words = {w for w in words if w.lower() in ENGLISH and w.lower() not in AZ_OWN}
    return words


def wrong_digits(page, lang: str, code: str) -> list[str]:
    """Visible text pieces written in the other digit system (one system per page: Persian in fa and ps, else Latin).

    The table ``code``, the digit picker's own ``123`` and a digit run touching Latin letters (a board square as
    printed on the board, "B11": games/web/digits.py keeps those) are spared, as are names and codes (``VISIBLE_WORDS``).
    """
    other = re.compile(r"[0-9]" if lang in ("fa", "ps") else r"[۰-۹]")
    return [text.strip()[:60] for text in page.evaluate(VISIBLE_WORDS)
            if other.search(CODE_LIKE.sub(" ", text.replace(code, "").replace("123", "").replace("۱۲۳", "")))]


# -- the board in sight, the end first, names isolated, text that can be read -------------------------------------

# The action bar's height and whether the player opened it; the winner line, ranking and Next game / Play again:
# where they sit in the first viewport (the page scrolled to its top).
LAYOUT = """() => {
  window.scrollTo(0, 0);
  const out = {vh: innerHeight, mine: !!document.querySelector('#table.my-turn'), open: document.body.classList.contains('bar-open')};
  const bar = document.getElementById('actionbar');
  if (bar && bar.checkVisibility()) out.bar = bar.getBoundingClientRect().height;
  const box = (sel) => { const el = document.querySelector(sel); if (!el || !el.checkVisibility()) return null;
    const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, text: el.textContent.trim().slice(0, 60)}; };
  out.winner = box('#table section.result .winner');
  out.ranking = box('#table section.result .ranking');
  out.next = box('#table section.pregame.next button, #table section.pregame.next a');
  return out;
}"""

# Every visible text run holding a player's name written in the other direction than the page (a Latin name on a
# Persian page, a Persian name on an English one): the name sits in an isolating inline element (``<bdi>``, or an
# inline element whose computed unicode-bidi isolates, like a chip), or between U+2068 and U+2069, or it is the whole
# text of its block (a flex item, a table cell, an SVG text of its own: a paragraph of its own). A block element's
# own ``unicode-bidi: isolate`` (the browser's default for p and div) isolates nothing inside its sentence, so the
# search for an isolating element stops at the first block. Returns the runs that fail, as readable strings.
NAMES_ISOLATED = """(names) => {
  const bad = [], rtl = document.documentElement.dir === 'rtl';
  const latin = /[A-Za-z\u00c0-\u024f]/;
  const inline = (e) => getComputedStyle(e).display.startsWith('inline');
  const isolates = (el) => { for (let e = el; e && e !== document.body; e = e.parentElement) {
      if (e.tagName.toLowerCase() === 'bdi') return true;
      if (e.namespaceURI.endsWith('svg') && e.tagName.toLowerCase() !== 'svg') continue;
      if (!inline(e)) return false;  // the block holding the sentence
      const u = getComputedStyle(e).unicodeBidi;
      if (u === 'isolate' || u === 'isolate-override' || u === 'plaintext') return true;
    } return false; };
  const blockOf = (el) => { let e = el; while (e && e !== document.body && (e.namespaceURI.endsWith('svg') ? e.tagName.toLowerCase() !== 'svg' && !['text'].includes(e.tagName.toLowerCase()) : inline(e))) e = e.parentElement; return e; };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement, text = n.textContent;
    if (!el || el.closest('script, style, title, option, select, textarea, [hidden], .defs')) continue;
    if (!el.getClientRects().length) continue;
    for (const name of names) {
      if (latin.test(name) !== rtl) continue;  // a name in the page's own direction needs no isolate
      let at = text.indexOf(name);
      while (at >= 0) {
        const block = blockOf(el), whole = block && [name, name + ' ☥', '☥ ' + name].includes(block.textContent.trim());
        const fenced = text.lastIndexOf('\u2068', at) > text.lastIndexOf('\u2069', at);
        if (!(isolates(el) || fenced || whole)) {
          bad.push(`${el.tagName.toLowerCase()}.${(el.getAttribute('class') || '').trim()}: «${text.trim().slice(0, 70)}»`);
          break;
        }
        at = text.indexOf(name, at + name.length);
      }
    }
  }
  return bad.slice(0, 12);
}"""

# The smallest text a reader sees, in screen px: each visible text run's font size times the scale of the SVG it is
# drawn in (an SVG's user units are not CSS px); Yellow & Yangtze's map labels (drawn through <use>) are read from
# their source elements with the map's scale. Returns [px, where] of the runs under ``floor`` px.
SMALL_TEXT = """(floor) => {
  const out = [];
  const scaleOf = (el) => { const svg = el.closest('svg'); if (!svg) return 1; const m = svg.getScreenCTM(); return m ? Math.hypot(m.a, m.b) : 1; };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || !n.textContent.trim() || el.closest('script, style, title, [hidden], .defs, option')) continue;
    if (!el.checkVisibility({visibilityProperty: true, opacityProperty: true})) continue;
    const rects = el.getClientRects(); if (!rects.length || !rects[0].width) continue;
    const px = parseFloat(getComputedStyle(el).fontSize) * scaleOf(el);
    if (px < floor - 0.25) out.push([Math.round(px * 10) / 10, `${el.tagName.toLowerCase()}.${(el.getAttribute('class') || '').trim()}: «${n.textContent.trim().slice(0, 40)}»`]);
  }
  const map = document.querySelector('#table svg.yy-svg');
  if (map && map.checkVisibility()) {
    const k = Math.hypot(map.getScreenCTM().a, map.getScreenCTM().b), style = getComputedStyle(map);
    const unit = parseFloat(style.getPropertyValue('--yy-unit')) || 0, shown = style.getPropertyValue('--yy-cap-vis').trim() === 'visible';
    for (const t of document.querySelectorAll('.yy-geo text.cap-name, .yy-geo g.edge text')) {
      if (t.matches('.cap-name') && !shown) continue;
      const size = parseFloat(getComputedStyle(t).fontSize);  // user units, with --yy-unit of the defs (unset: its fallback)
      const units = t.matches('.cap-name') ? 13 * unit : 12 * unit;
      const px = (unit ? units : size) * k;
      if (px < floor - 0.25) out.push([Math.round(px * 10) / 10, `map label «${t.textContent.trim().slice(0, 20)}»`]);
    }
  }
  const seen = new Set();
  return out.sort((a, b) => a[0] - b[0]).filter(([px, w]) => !seen.has(w) && seen.add(w)).slice(0, 12);
}"""


def layout(page) -> dict:
    """The bar's height (px), whether it is opened, and the end's winner line, ranking and Next game boxes."""
    return page.evaluate(LAYOUT)


def check_bar_third(page, where: str) -> None:
    """On my turn the action bar covers at most a third of the viewport unless the player opened it."""
    found = layout(page)
    if found["mine"] and not found["open"] and found.get("bar"):
        assert found["bar"] <= found["vh"] / 3 + 1, f"{where}: the action bar takes {found['bar']:.0f} of {found['vh']} px"


def check_end_first(page, where: str, host: bool) -> None:
    """At the end the winner line and the ranking are in the first viewport; the host's Play again (or a Next game
    button) too."""
    found = layout(page)
    assert found["winner"] and found["winner"]["bottom"] <= found["vh"], f"{where}: no winner in the first viewport: {found}"
    assert found["ranking"] and found["ranking"]["top"] <= found["vh"] - 44, f"{where}: the ranking starts below the first viewport: {found}"
    if host or found["next"]:
        assert found["next"] and found["next"]["bottom"] <= found["vh"], f"{where}: Next game / Play again out of thumb reach: {found}"


def unisolated_names(page, names: list[str]) -> list[str]:
    """The visible text runs holding one of ``names`` outside an isolate (see NAMES_ISOLATED)."""
    return page.evaluate(NAMES_ISOLATED, names)


def small_text(page, floor: float = 12.0) -> list:
    """The visible text runs under ``floor`` screen px, smallest first: ``[[px, where], ...]``."""
    return page.evaluate(SMALL_TEXT, floor)


# The header's brand and pickers: the bar's scroll and client width, its height, and each item's shown width beside
# the width its content needs (measured on a free copy), so a picker cut to "Digits: as" or "ارقام: مطاب" shows.
HEADER = """() => {
  const bar = document.querySelector('header.topbar'), box = bar.getBoundingClientRect();
  const items = [...bar.querySelectorAll('.brand, select')].map(e => {
    const r = e.getBoundingClientRect();
    const free = e.cloneNode(true);  // the same element unconstrained: the width its content needs
    Object.assign(free.style, {position: 'absolute', maxWidth: 'none', visibility: 'hidden'});
    e.parentNode.appendChild(free);
    const need = free.getBoundingClientRect().width;
    free.remove();
    const shown = e.tagName === 'SELECT' ? e.options[e.selectedIndex].text : e.textContent.trim();
    return {shown, need: need, width: r.width, left: r.left - box.left, right: box.right - r.right,
            scroll: e.tagName === 'SELECT' ? 0 : e.scrollWidth - e.clientWidth};
  });
  return {scroll: bar.scrollWidth, client: bar.clientWidth, height: box.height, items};
}"""

# A Yellow & Yangtze hex as the board's edges label it ("E11": column A-N, row 1-16, no leading zero); a case number
# of the rules files has the same shape only when it has a leading zero ("D07").
HEX_LABEL = re.compile(r"^[A-N](?:[1-9]|1[0-6])$")


def markers(page, coordinates: bool = False) -> list[str]:
    """The rules-file markers ("[U]", "[S!]") and case numbers ("E15", "D07") in the text a reader sees (names and
    codes spared, as :data:`VISIBLE_WORDS` spares them); with ``coordinates``, hex labels of the board are spared."""
    found = []
    for text in page.evaluate(VISIBLE_WORDS):
        cases = [c for c in CASE_ID.findall(text) if not (coordinates and HEX_LABEL.match(c))]
        found += [f"{m} in «{text.strip()[:50]}»" for m in MARKER.findall(text) + cases]
    return found


def header_problems(page) -> list[str]:
    """What is wrong with the header at this width: wider than the phone, taller than a line, a picker cut."""
    header = page.evaluate(HEADER)
    out = []
    if header["scroll"] > header["client"] or header["client"] > PHONE["width"]:
        out.append(f"the header is {header['scroll']} px wide in {header['client']} px")
    if header["height"] > 64:
        out.append(f"the header takes {header['height']:.0f} px (two lines)")
    out += [f"{i['shown']!r} is cut ({i['width']:.0f} of {i['need']:.0f} px)" for i in header["items"]
            if i["need"] > i["width"] + 0.5 or i["left"] < 0 or i["right"] < 0 or i["scroll"] > 0]
    return out


def round_two(page, where: str, names: list[str], coordinates: bool = False) -> list[str]:
    """Every check of the phone at the table on ``page`` now, as readable problems (empty: all hold): the action bar
    at most a third of the screen on my turn (:func:`check_bar_third`), every one of ``names`` isolated, no text
    under 12 px, no rules marker or case number, the header within the phone with nothing cut."""
    problems = []
    try:
        check_bar_third(page, where)
    except AssertionError as failed:
        problems.append(str(failed))
    loose = unisolated_names(page, names)
    if loose:
        problems.append(f"{where}: names not isolated: {loose}")
    small = small_text(page)
    if small:
        problems.append(f"{where}: text under 12 px: {small}")
    marks = markers(page, coordinates)
    if marks:
        problems.append(f"{where}: rules markers or case numbers: {marks[:4]}")
    problems += [f"{where}: {p}" for p in header_problems(page)]
    return problems


def offline_banner(context, page, timeout_ms: int = 5000, screenshot=None) -> None:
    """Take the phone offline (the browser's offline mode and its event) and wait for the reconnecting banner; fails
    after ``timeout_ms``. With ``screenshot`` (a path) the offline phone is photographed. The phone is put back
    online afterwards."""
    context.set_offline(True)
    try:
        page.evaluate("window.dispatchEvent(new Event('offline'))")
        page.wait_for_selector("#reconnecting:not([hidden])", timeout=timeout_ms)
        if screenshot:
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(screenshot))
    finally:
        context.set_offline(False)
