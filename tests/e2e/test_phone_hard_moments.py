"""The phone in the hard moments, on 360 x 740 phones in fa, ps, az and en (Debian's Chromium).

For every game: no digit-like glyph beside a number in any status line (a Persian or Pashto zero is a dot), and the
first thing a phone must answer (who is the youngest or oldest: tap their seat; then each move asked of it) is in
the first viewport, in view and not covered, without opening anything. For Yellow & Yangtze: on the deciding phone
of a war and of a revolt the hexes and leaders the panel names are outlined on the map and in view, at least 80 % of
the map is above the action bar and the choices are in the bar; over a whole game by taps, the taps per placement
(reported) need a zoom tap at most once in four. The final table's trophy is no taller than its row. Screenshots of
the war on the deciding phone and of the who-starts screen in fa and ps go to ``artifacts/screens/``.
"""

from __future__ import annotations

import random

import pytest

from shelf.yellow_yangtze.state import Revolt
from tests.e2e.phone_checks import PHONE, SCREENS, api, tap_hex, version, wait_synced
from tests.engines.yellow_yangtze.scenarios import StartWith, game_for, tie_war_brink
from tests.registry import SHIPPED, examples
from tests.web.test_separators import misread

pytestmark = pytest.mark.e2e

LANGUAGES = ("fa", "ps", "az", "en")
#: The question each game can ask before the first move (its printed rule or the rulebook's alternative): each
#: game's ``WHO_STARTS`` in its ``examples.py``.
QUESTION = {slug: examples(slug).WHO_STARTS for slug in SHIPPED if hasattr(examples(slug), "WHO_STARTS")}

# The visible text of every status line: the status row, the prompt, each game's turn / round line and its counts.
STATUS_LINES = """() => Array.from(document.querySelectorAll(
  '#table .status, #table .prompt, #table .yy-turn, #table .amun-re-status, #table .yy-deciding, #table .yy-supply, ' +
  '#table .start-again, #table figcaption, #table .yy-players li')).filter(e => e.checkVisibility()).map(e => e.innerText)"""

# The first thing this phone must answer now: the who-starts seats (every one of them), else its first choice in the
# bar. Each with its box and whether a tap on its middle lands on it (nothing covers it); the page at its top.
FIRST_ANSWER = """() => {
  window.scrollTo(0, 0);
  const visible = (e) => e.checkVisibility({visibilityProperty: true}) && !e.disabled;
  let els = Array.from(document.querySelectorAll('#table section.pregame.start form button, #table section.pregame.start form select')).filter(visible);
  let kind = 'start';
  if (!els.length) {
    kind = 'move';
    const first = Array.from(document.querySelectorAll(
      '#actionbar [data-yy-pick], #actionbar section.controls [data-action], #actionbar section.controls button, ' +
      '#actionbar section.controls summary, #actionbar section.controls select')).filter(visible)[0];
    els = first ? [first] : [];
  }
  return {kind, items: els.map(e => { const r = e.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    return {text: (e.innerText || e.getAttribute('aria-label') || '').trim().slice(0, 30), top: r.top, bottom: r.bottom,
            lands: !!hit && (hit === e || e.contains(hit) || hit.contains(e)),
            over: hit ? hit.tagName.toLowerCase() + '#' + hit.id + '.' + (hit.getAttribute('class') || '') : null,
            bar: (() => { const b = document.getElementById('actionbar'); const r = b.getBoundingClientRect();
                          return {top: r.top, scroll: b.scrollTop, open: document.body.classList.contains('bar-open')}; })()}; })};
}"""

# The deciding phone in a conflict: the map's box, the bar's top, and every mark of the conflict on the map (the
# sides' outlines, the joining hex, the rings round the leaders at stake) with its box.
CONFLICT_VIEW = """() => {
  window.scrollTo(0, 0);
  const svg = document.querySelector('#table svg.yy-svg'), bar = document.getElementById('actionbar');
  const m = svg.getBoundingClientRect(), top = bar.getBoundingClientRect().top;
  const marks = Array.from(svg.querySelectorAll('use.side, use.joined, circle.stake-ring')).map(e => {
    const r = e.getBoundingClientRect(); return {cls: e.getAttribute('class'), top: r.top, bottom: r.bottom}; });
  const choices = Array.from(bar.querySelectorAll('section.controls button, section.controls summary')).filter(e => e.checkVisibility())
    .map(e => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom}; });
  return {map: {top: m.top, bottom: m.bottom, height: m.height}, bar: top, vh: innerHeight, marks, choices,
          panel: !!document.querySelector('#table .yy-conflict')};
}"""


def status_problems(page, lang: str, where: str) -> list[str]:
    return [f"{where}: «{spot}»" for line in page.evaluate(STATUS_LINES) for spot in misread(line, lang)]


# On my turn the page has settled once the bar has shown this version's controls (table.js marks it: data-shown-at).
SETTLED = """() => { const bar = document.getElementById('actionbar'), meta = document.getElementById('r-meta');
  return !bar || !meta || meta.dataset.myTurn !== '1' || bar.dataset.shownAt === meta.dataset.version; }"""


def first_answer_problems(page, where: str) -> list[str]:
    page.wait_for_function(SETTLED, timeout=5000)  # a push swapped the regions; the bar scrolls to them just after
    found = page.evaluate(FIRST_ANSWER)
    problems = [f"{where}: the {found['kind']} choice «{i['text']}» is out of the first viewport or covered: {i}"
                for i in found["items"] if i["top"] < 0 or i["bottom"] > PHONE["height"] + 0.5 or not i["lands"]]
    return problems


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("slug", SHIPPED)
def test_the_first_screen_answers_the_first_question_and_no_dot_touches_a_digit(live_url, table_at, slug, lang):
    rng = random.Random(f"{slug}-{lang}")
    table = table_at(slug, ["Aysel", "Bahar"], via="api", start=QUESTION[slug], walkthrough=True, lang=lang)
    code, tokens, pages = table.code, table.tokens, table.phones
    problems: list[str] = []
    if QUESTION[slug] != "random":
        for i, p in enumerate(pages):
            assert p.locator("#table section.pregame.start").count() == 1, f"{slug}/{lang}: the phones ask who starts"
            problems += first_answer_problems(p, f"{slug}/{lang} who starts, phone {i}")
            problems += status_problems(p, lang, f"{slug}/{lang} who starts, phone {i}")
            assert "More moves" not in p.locator("#bar-handle").inner_text(), "the handle names what it opens"
        if lang in ("fa", "ps"):
            SCREENS.mkdir(parents=True, exist_ok=True)
            pages[0].evaluate("window.scrollTo(0, 0)")
            pages[0].screenshot(path=str(SCREENS / f"{slug}-who-starts-{lang}.png"))
        before = version(pages[0])
        pages[0].locator("#table section.pregame.start button[data-start-seat]").first.click()  # a tap, as a person
        assert wait_synced(pages, before + 1), "every phone follows the answer"
    for n in range(6):
        body = api(live_url, f"/api/tables/{code}/")
        if body.get("status") != "playing" or not body.get("prompt", {}).get("seats"):
            break
        seat = body["prompt"]["seats"][0]
        assert wait_synced(pages, body["version"])
        where = f"{slug}/{lang} move {n + 1}, phone {seat}"
        problems += first_answer_problems(pages[seat], where)
        for i, p in enumerate(pages):
            problems += status_problems(p, lang, f"{slug}/{lang} move {n + 1}, phone {i}")
        mine = api(live_url, f"/api/tables/{code}/prompt/", token=tokens[seat])
        if not mine.get("legal"):
            break
        api(live_url, f"/api/tables/{code}/actions/", {"action": rng.choice(mine["legal"])["action"],
                                                     "version": mine["version"]}, token=tokens[seat])
    assert not problems, problems[:8]


def revolt_brink(names: list[str], start: int, seed: int, limit: int = 600):
    """Random play (physical bag) up to the step where a revolt's attacker must commit: ``(steps, attacker)``."""
    game = game_for(names)
    rng = random.Random(seed)
    state = game.setup(StartWith(start))
    steps = []
    for _ in range(limit):
        prompt = game.prompt(state)
        if isinstance(state.pending, Revolt) and prompt.step == "revolt_attacker":
            return steps, prompt.seats[0]
        seat = prompt.seats[0]
        if prompt.step == "draw":
            action = game.fill_chance(state, seat, {"kind": "draw"}, rng)
        else:
            legal = [a for a in game.legal_actions(state, seat) if a["kind"] != "swap"]
            leaders = [a for a in legal if a["kind"] == "leader"]
            action = rng.choice(leaders if leaders and rng.random() < 0.5 else legal)
        steps.append((seat, action))
        state = game.apply(state, seat, action)
    raise AssertionError("no revolt within the limit")


def conflict_problems(page, where: str) -> list[str]:
    found = page.evaluate(CONFLICT_VIEW)
    m, bar = found["map"], found["bar"]
    shown = max(0.0, min(m["bottom"], bar) - max(m["top"], 0.0)) / m["height"]
    problems = []
    if shown < 0.8:
        problems.append(f"{where}: {shown:.0%} of the map is above the bar ({found})")
    if not found["marks"]:
        problems.append(f"{where}: the map marks nothing the panel names")
    problems += [f"{where}: {k['cls']} lies outside the map's view above the bar ({k})" for k in found["marks"]
                 if k["top"] < 0 or k["bottom"] > bar + 1]
    if not any(c["top"] >= 0 and c["bottom"] <= found["vh"] for c in found["choices"]):
        problems.append(f"{where}: no choice in the bar within the first viewport ({found['choices'][:3]})")
    print(f"{where}: {shown:.0%} of the map above the bar, {len(found['marks'])} marks")
    return problems


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_deciding_phone_in_a_war_and_a_revolt_keeps_the_map_and_the_named_hexes_in_sight(live_url, table_at, lang):
    names = ["Ann", "Ben", "Cat"]
    problems: list[str] = []
    for conflict in ("war", "revolt"):
        table = table_at("yellow_yangtze", names, via="api", options={"components": "physical"}, lang=lang, phones=())
        code, tokens = table.code, table.tokens
        start = api(live_url, f"/api/tables/{code}/")["prompt"]["seats"][0]
        if conflict == "war":
            steps, last, _state = tie_war_brink(names, start, seed=2)
            steps = [*steps, last]
        else:
            steps, _attacker = revolt_brink(names, start, seed=4)
        v = table.version
        for n, (seat, action) in enumerate(steps):
            v = api(live_url, f"/api/tables/{code}/actions/", {"action": action, "version": v, "key": f"s{n}"},
                    tokens[seat])["version"]
        deciding = api(live_url, f"/api/tables/{code}/")["prompt"]["seats"][0]
        page = table.open(deciding)
        assert page.locator(f"#table .yy-conflict[data-conflict={conflict}]").count() == 1
        assert page.locator("#table.my-turn").count() == 1
        problems += conflict_problems(page, f"{conflict}/{lang} deciding phone")
        problems += status_problems(page, lang, f"{conflict}/{lang}")
        if lang in ("fa", "ps"):
            SCREENS.mkdir(parents=True, exist_ok=True)
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(SCREENS / f"yellow_yangtze-{conflict}-deciding-{lang}.png"))
    assert not problems, problems


def test_over_a_whole_yellow_and_yangtze_game_at_most_one_placement_in_four_needs_a_zoom_tap(live_url, table_at):
    rng = random.Random(7)
    table = table_at("yellow_yangtze", ["Ali", "Bahar"], via="api", lang="fa")
    code, tokens, pages = table.code, table.tokens, table.phones
    taps: list[int] = []  # taps per placement: the pick, then each tap on the map
    for _ in range(700):
        body = api(live_url, f"/api/tables/{code}/")
        if body.get("status") != "playing" or not body.get("prompt", {}).get("seats"):
            break
        seat, start = body["prompt"]["seats"][0], body["version"]
        assert wait_synced(pages, start)
        page, placed = pages[seat], False
        picks = page.locator("#actionbar [data-yy-pick]:not([disabled])").filter(visible=True)
        if body["prompt"]["step"] == "action" and picks.count():
            picks.nth(rng.randrange(picks.count())).click()
            armed = page.locator("#table .yy-t[data-action]")
            if armed.count():
                taps.append(1 + tap_hex(page, armed.nth(rng.randrange(armed.count()))))
                placed = wait_synced([page], start + 1, timeout=5)
                assert placed, "the hex tapped took the placement"
        if not placed:
            mine = api(live_url, f"/api/tables/{code}/prompt/", token=tokens[seat])
            if not mine.get("legal"):
                break
            api(live_url, f"/api/tables/{code}/actions/", {"action": rng.choice(mine["legal"])["action"],
                                                         "version": mine["version"]}, token=tokens[seat])
    zoomed = sum(1 for t in taps if t > 2)
    print(f"placements by taps: {len(taps)}; taps per placement: {sum(taps) / max(1, len(taps)):.2f}; "
          f"needing a zoom tap: {zoomed} ({zoomed / max(1, len(taps)):.0%})")
    assert len(taps) >= 20, f"only {len(taps)} placements were tapped"
    assert zoomed * 4 <= len(taps), f"{zoomed} of {len(taps)} placements needed a zoom tap"


# Each winner's trophy on the final table: its height beside the height of its table row.
TROPHIES = """() => Array.from(document.querySelectorAll('#table svg.trophy')).filter(t => t.checkVisibility()).map(t => {
  const row = t.closest('tr, li, p') || t.parentElement;
  return {trophy: t.getBoundingClientRect().height, row: row.getBoundingClientRect().height, where: row.tagName};
})"""


@pytest.mark.parametrize("lang", ("fa", "en"))
def test_the_amun_re_final_table_draws_the_trophy_no_taller_than_its_row(live_url, table_at, lang):
    rng = random.Random(f"trophy-{lang}")
    table = table_at("amun_re", ["Elvin", "Bahar", "Cyrus"], via="api", lang=lang, phones=())
    code, tokens = table.code, table.tokens
    for _ in range(900):
        body = api(live_url, f"/api/tables/{code}/")
        if body.get("status") != "playing" or not body.get("prompt", {}).get("seats"):
            break
        seat = body["prompt"]["seats"][0]
        mine = api(live_url, f"/api/tables/{code}/prompt/", token=tokens[seat])
        api(live_url, f"/api/tables/{code}/actions/", {"action": rng.choice(mine["legal"])["action"],
                                                     "version": mine["version"]}, token=tokens[seat])
    assert api(live_url, f"/api/tables/{code}/")["status"] == "finished"
    page = table.open(0)
    assert page.locator("table.amun-re-final").count() == 1
    found = page.evaluate(TROPHIES)
    assert found, "the winners' trophies are drawn"
    assert all(t["trophy"] <= t["row"] + 0.5 and t["trophy"] <= 32 for t in found), found
    cells = page.evaluate("""() => Array.from(document.querySelectorAll('table.amun-re-final td .chip'))
                             .map(c => c.getBoundingClientRect().height)""")
    assert cells and max(cells) < 40, f"no name is squeezed onto two lines: {cells}"



# The set-up fold of the host's phone, opened: its title's box beside the bar's sticky handle (the title must be below).
WALK_TITLE = """() => {
  const fold = document.getElementById('walk-fold'), handle = document.getElementById('bar-handle');
  const title = fold.querySelector('summary').getBoundingClientRect();
  const h = handle && !handle.hidden ? handle.getBoundingClientRect() : null;
  const hit = document.elementFromPoint(title.left + title.width / 2, title.top + title.height / 2);
  return {title: {top: title.top, bottom: title.bottom}, handle: h && {top: h.top, bottom: h.bottom, text: handle.innerText},
          lands: !!hit && fold.querySelector('summary').contains(hit), open: fold.open};
}"""


def walkthrough_on_by_default(lobby) -> None:
    assert lobby.locator("input[name=walkthrough]").is_checked(), "the walkthrough is on by default"


@pytest.mark.parametrize("lang", ("fa", "en"))
def test_the_opened_set_up_walkthrough_keeps_its_title_clear_of_the_bar_handle(table_at, lang):
    page = table_at("catan_junior", ["Aysel", "Bahar"], before_create=walkthrough_on_by_default, lang=lang,
                    phones=(0,)).host
    page.wait_for_selector("#walk-fold", state="attached")
    page.locator("#walk-fold > summary").click()
    page.wait_for_timeout(300)
    found = page.evaluate(WALK_TITLE)
    assert found["open"], found
    assert found["lands"], f"a tap on the set-up title reaches it (the handle does not cover it): {found}"
    if found["handle"]:
        assert found["title"]["top"] >= found["handle"]["bottom"] - 0.5, found
        assert "More moves" not in found["handle"]["text"], "the handle names the set-up steps, not moves"
