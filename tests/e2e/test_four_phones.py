"""Four phones, four languages, one whole game of each game (the phone-at-the-table "done when").

For each of Sorry!, Yellow & Yangtze, Amun-Re and Catan Junior: one table with four seats and the
real box (``components: physical``, so every card, tile and roll is tapped in and a planned game
replays exactly), four phones at 360 x 740 that open their join links and pick their language in
the header's picker (seat 0 فارسی, seat 1 English, seat 2 پښتو, seat 3 Azərbaycanca), and a table
screen in Persian on a landscape tablet.

The whole game is planned first with the engine itself (a seeded player that tries each kind of
step as soon as it is offered, then plays to shorten the game; the shortening table options are
on: Sorry! 3 pawns and a fast start, the Yellow & Yangtze short game). It is then played on the
live server to its final tally: the **first time each kind of step comes up** (every war, revolt,
auction, offering, market, Ghost Captain, Coco tile, split 7, 11 swap, Sorry! card, tap-in of a
card, tile or roll, ...) the phone whose turn it is makes it by tapping its page, as a player
would (opening a folded list, picking a tile then its hex, toggling gold cards, stepping counts);
every other move goes through the API with that seat's token. The phones watch every move live
except in long stretches of API moves, where the five screens are put down (their sockets close)
and picked up again for the last few moves before the next tap and before the end, so those and
the final tally arrive by push (each push costs every screen a render in its own language).
After each tapped step, at a third and two thirds of the game and at the final tally, on every
phone: no sideways scroll, every visible enabled tap target at least 44 px, the on-turn phone's
buttons in the action bar inside the viewport, every tapped button in view (in the bar's own scrolled
box) before its tap without any scrolling (``REACH``; Yellow & Yangtze board picks and war losses
pending), on the fa, ps and az phones no word outside the reader's language (``phone_checks.foreign_words``), and one digit system per page
(``phone_checks.wrong_digits``); and the checks of the phone at the table (``phone_checks.round_two``): the
action bar at most a third of the screen on my turn, every player's name isolated, no text under 12 px, no
rules marker or case number ("[U]", "E15") in visible text, the header within 360 px with nothing cut. The
tablet never scrolls sideways. At the end every phone shows the winner and the ranking in its first viewport,
and says it is offline within 5 s of losing its connection. Screenshots of each game's fa and ps
phones (my turn mid-game, the game's moment, final, offline), the fa phone's tally and the fa table screen go to
``artifacts/screens/four-*.png``
(ignored by git). The run prints, per game, where its time went.
"""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass, field
from typing import Any

import pytest

from games.engines import get_game_class
from games.engines.base import SeatInfo
from tests.e2e.phone_checks import (
    SCREENS,
    TABLET,
    api,
    check,
    check_end_first,
    foreign_words,
    layout,
    markers,
    offline_banner,
    round_two,
    tap_centre,
    tap_hex,
    unisolated_names,
    wait_synced,
    wrong_digits,
)
from tests.web.test_every_word import COORDINATE_GAMES

pytestmark = pytest.mark.e2e

NAMES = ["Dariush", "Emma", "Gulalai", "Leyla"]
LANGS = ["fa", "en", "ps", "az"]  # seat by seat
SHOT_SEATS = (0, 2)  # the fa and ps phones are photographed: my turn, the game's moment, the end, offline
TITLES = ["Sorry!", "Yellow & Yangtze", "Amun-Re: The Card Game", "Catan Junior"]

# Per game: the table options (the real box, and what shortens a game), the planner's seed (found by
# ``plan``: the first seed whose game meets every step in REQUIRED), and the mid-game moment worth a picture.
GAMES: dict[str, dict[str, Any]] = {
    "sorry": {"options": {"components": "physical", "pawns_per_colour": 3, "fast_start": True}, "seed": 8,
              "picture": ("move", "split 7")},
    "yellow_yangtze": {"options": {"components": "physical", "short_game": True}, "seed": 3,
                       "picture": ("war_support", "commit")},
    "amun_re": {"options": {"components": "physical"}, "seed": 6, "picture": ("auction", "bid")},
    "catan_junior": {"options": {"components": "physical"}, "seed": 7, "picture": ("ghost", "move_ghost")},
}
# Long stretches of API moves are played with the screens put down (every push costs each phone a render in its own
# language); the last LIVE_TAIL moves before each tap and before the end are pushed live to all five screens.
LIVE_TAIL = 4
LONG_STRETCH = 6
# Every kind of step (prompt step, kind of move) each game must meet, each made once by taps on a phone.
REQUIRED: dict[str, set[tuple[str, str]]] = {
    "sorry": {("draw", "draw"), ("move", "forward"), ("move", "start"), ("move", "back"), ("move", "split 7"),
              ("move", "11 swap"), ("move", "Sorry! card"), ("move", "pass")},
    "yellow_yangtze": {("draw", "draw"), ("action", "tile"), ("action", "leader"), ("market", "take_market"),
                       ("revolt_attacker", "commit"), ("revolt_defender", "commit"), ("war_support", "commit")},
    "amun_re": {("build_hand", "build_hand"), ("auction", "bid"), ("province", "reveal"),
                ("province", "place_province"), ("offering", "offer"), ("reward_pyramids", "place_pyramids"),
                ("building", "buy")},
    "catan_junior": {("roll", "roll"), ("main", "build_lair"), ("main", "build_ship"), ("main", "market_swap"),
                     ("main", "supply_trade"), ("main", "buy_coco"), ("main", "end_turn"), ("ghost", "move_ghost"),
                     ("coco_build", "build_lair"), ("coco_ghost", "move_ghost")},
}


def kind_of(slug: str, action: dict[str, Any]) -> str:
    """The kind of a move as a player tells them apart (Sorry! moves by what the card does)."""
    kind = action.get("kind", "")
    if slug == "sorry" and kind == "move":
        if "then" in action:
            return "split 7"
        if action.get("target"):
            return "Sorry! card" if action["card"] == "sorry" else "11 swap"
        if "steps" not in action:
            return "start"
        return "back" if action["steps"] < 0 else "forward"
    return kind


@dataclass
class Plan:
    """A whole game: ``moves`` as ``(seat, step, action)``, and the first index of each ``(step, kind)``."""

    moves: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)
    first: dict[tuple[str, str], int] = field(default_factory=dict)


def _sorry_progress(state, seat: int) -> int:
    """How far seat ``seat``'s pawns have come (minus the forward steps left to HOME; START counts as 70)."""
    from shelf.sorry.board import distance_to_home

    return -sum(70 if (d := distance_to_home(loc, seat)) is None else d for loc in state.pawns[seat])


def _choose(slug: str, game, state, seat: int, step: str, legal: list[dict], seen: set, rng: random.Random) -> dict:
    """The planner's player: a kind of step not met yet first, then what ends the game sooner."""
    if slug == "amun_re":
        legal = [a for a in legal if not a.get("confirm")] or legal  # not the "number outside the profile" taps
    if slug == "yellow_yangtze" and step == "draw":  # the real bag, drawn as a bag draws
        return game.fill_chance(state, seat, {"kind": "draw"}, rng)
    if slug == "sorry" and step == "draw":  # the card drawn: one that offers a move kind not met yet, else the best
        wanted = {"split 7": "7", "11 swap": "11", "Sorry! card": "sorry", "back": "4", "start": "1"}
        missing = [card for k, card in wanted.items() if ("move", k) not in seen]
        useful = [a for a in legal if a["card"] in missing]
        if useful and rng.random() < 0.5:
            return rng.choice(useful)
        def best_after(draw):
            drawn = game.apply(state, seat, draw)
            return max((_sorry_progress(game.apply(drawn, seat, m), seat) for m in game.legal_actions(drawn, seat)),
                       default=0)
        return max(legal, key=lambda a: (best_after(a), rng.random()))
    fresh = [a for a in legal if (step, kind_of(slug, a)) not in seen]
    if fresh:
        return rng.choice(fresh)
    if slug == "sorry":  # the move that brings my pawns nearest home
        return max(legal, key=lambda a: (_sorry_progress(game.apply(state, seat, a), seat), rng.random()))
    if slug == "catan_junior":
        build = [a for a in legal if a["kind"] in ("build_lair", "build_ship", "buy_coco")]
        if build:
            return rng.choice(build)
        trades = [a for a in legal if a["kind"] in ("market_swap", "supply_trade")]
        rest = [a for a in legal if a not in trades]
        if trades and (not rest or rng.random() < 0.3):
            return rng.choice(trades)
        return rng.choice(rest)
    if slug == "yellow_yangtze":
        calm = [a for a in legal if a["kind"] != "swap"]
        return rng.choice(calm or legal)
    return rng.choice(legal)


def plan(slug: str, options: dict[str, Any], seed: int, limit: int = 1500) -> Plan:
    """Play one whole game with the engine (physical box, seat 0 starts) and return its moves.

    Raises ``AssertionError`` when the game does not end within ``limit`` moves.
    """
    cls = get_game_class(slug)
    game = cls(options, [SeatInfo(i, NAMES[i], cls.colours[i]) for i in range(4)])
    state = game.with_start(game.setup(random.Random(0)), 0)
    rng = random.Random(seed)
    out = Plan()
    for n in range(limit):
        if game.result(state) is not None:
            return out
        prompt = game.prompt(state)
        seat = prompt.seats[0]
        action = _choose(slug, game, state, seat, prompt.step, game.legal_actions(state, seat), set(out.first), rng)
        out.first.setdefault((prompt.step, kind_of(slug, action)), n)
        out.moves.append((seat, prompt.step, action))
        state = game.apply(state, seat, action)
    raise AssertionError(f"{slug}: the planned game did not end within {limit} moves")


def find_plan(slug: str) -> Plan:
    """The plan of the game's seed, or of the next seeds when it misses a required step (an engine change)."""
    spec = GAMES[slug]
    for seed in range(spec["seed"], spec["seed"] + 40):
        found = plan(slug, spec["options"], seed)
        if REQUIRED[slug] <= set(found.first):
            return found
    raise AssertionError(f"{slug}: no seed from {spec['seed']} meets every step of {sorted(REQUIRED[slug])}")


# -- tapping a move on a phone ---------------------------------------------------------------

# Mark the element whose data-action is this move (keys in any order); the action bar's first.
MARK = """(want) => {
  const canon = (v) => Array.isArray(v) ? '[' + v.map(canon).join(',') + ']'
    : (v && typeof v === 'object') ? '{' + Object.keys(v).sort().map(k => JSON.stringify(k) + ':' + canon(v[k])).join(',') + '}'
    : JSON.stringify(v);
  const key = canon(want);
  document.querySelectorAll('[data-four]').forEach(el => el.removeAttribute('data-four'));
  const hits = [];
  for (const el of document.querySelectorAll('#table [data-action]')) {
    if (el.disabled) continue;
    try { if (canon(JSON.parse(el.getAttribute('data-action'))) === key) hits.push(el); } catch (e) { /* not JSON */ }
  }
  hits.sort((a, b) => (b.closest('#actionbar') ? 1 : 0) - (a.closest('#actionbar') ? 1 : 0));
  if (hits.length) { hits[0].setAttribute('data-four', '1'); return hits[0].closest('svg') ? 'svg' : 'html'; }
  return '';
}"""


def _open_folds(page, locator) -> None:
    """Open every closed ``<details>`` around ``locator`` by tapping its summary, outermost first."""
    for _ in range(4):
        closed = locator.locator("xpath=ancestor::details[not(@open)]")
        if not closed.count():
            return
        closed.first.locator(":scope > summary").click()


# Where the tapped button sat before the tap: inside the viewport (and, in the action bar, inside the bar's own
# scrolled box) without any scrolling, or after one tap on the bar's handle (the bar keeps to a third of the screen
# until opened), or not: a tap that needed a scroll first fails the game. REACH_PENDING names steps a game may still
# leave out of reach (none now: the Yellow & Yangtze
# picks and the removals after a war moved into the bar).
REACH_PENDING: dict[str, set[str]] = {}
REACH = """el => { const r = el.getBoundingClientRect(), bar = el.closest('#actionbar');
  const b = bar ? bar.getBoundingClientRect() : {top: 0, bottom: innerHeight};
  return r.top >= Math.max(0, b.top) - 1 && r.bottom <= Math.min(innerHeight, b.bottom) + 1; }"""
OUT_OF_REACH: list[str] = []


def _tap_marked(page, where: str) -> None:
    target = page.locator("[data-four]")
    _open_folds(page, target)
    opened = False
    if not target.evaluate(REACH) and target.evaluate("el => !!el.closest('#actionbar')"):
        handle = page.locator("#bar-handle")  # the bar holds more than its third of the screen: open it (one tap)
        if handle.is_visible():
            handle.click()
            opened = True
    if not target.evaluate(REACH):
        OUT_OF_REACH.append(where)
    if target.evaluate("el => !!el.closest('svg')"):  # a board target: a thumb taps its middle (again on a zoomed Y&Y map)
        assert target.bounding_box(), f"{where}: the board target is not drawn"
        if target.evaluate("el => el.matches('.yy-t')"):
            tap_hex(page, target)
        else:
            tap_centre(page, target)
    else:
        target.click(timeout=5000)
    if opened and page.locator("body.bar-open #bar-handle").is_visible():
        page.locator("#bar-handle").click()  # and closed again: the board back in sight


def tap_move(page, slug: str, action: dict[str, Any], where: str) -> None:
    """Make ``action`` on ``page`` by taps only; fail (naming the move) when the page offers no way to."""
    if page.evaluate(MARK, action):
        _tap_marked(page, where)
        return
    kind = action.get("kind")
    if slug == "amun_re" and kind == "build_hand":  # toggle the gold cards, then keep them
        for card in action["cards"]:
            if card:
                page.locator(f'#table .gold-toggle[data-card="{card}"]').click()
    elif slug == "yellow_yangtze" and kind == "draw" and action.get("tiles"):  # the real bag: step up each colour
        for colour in action["tiles"]:
            page.locator(f"#table form.yy-draw label.tile.{colour} button[data-step='1']").click()
    elif slug == "yellow_yangtze" and "hex" in action:  # pick the tile or leader on my screen, then its lit hex
        pick = f"{kind}-{'1' if action.get('leader') else '0'}" if kind == "peasants" else f"{kind}-{action.get('colour')}"
        picker = page.locator(f'#actionbar [data-yy-pick="{pick}"]')
        assert picker.count(), f"{where}: no pick {pick!r} on the phone for {action}"
        _open_folds(page, picker.first)
        picker.first.click()
    assert page.evaluate(MARK, action), f"{where}: the phone offers no tap for {action}"
    _tap_marked(page, where)


# -- the table -------------------------------------------------------------------------------


def _pick_language(page, lang: str, code: str) -> None:
    """Choose the phone's language in the header picker, as a player would (the page reloads in it)."""
    if page.locator("html").get_attribute("lang") == lang:
        return
    with page.expect_navigation():
        page.select_option("header.topbar form.lang:not(.digits) select[name=language]", lang)
    page.wait_for_url(re.compile(rf"/t/{code}/$"))
    assert page.locator("html").get_attribute("lang") == lang
    page.wait_for_selector("body[data-ws=open]", state="attached")


def _leave(pages) -> bool:
    """Put the screens down for a long stretch of API moves: each page leaves the table (its socket closes)."""
    for page in pages:
        page.goto("about:blank")
    return True


def _come_back(pages, urls: list[str], version_now: int) -> bool:
    """Pick the screens up again: each page opens its table page (its seat cookie and language kept) at ``version_now``."""
    for page, url in zip(pages, urls, strict=True):
        page.goto(url)
        page.wait_for_selector("body[data-ws=open]", state="attached")
    assert wait_synced(pages, version_now), "a page came back at an old version"
    return False


def _check_all(phones, tablet, allowed: set[str], code: str, where: str, problems: dict[str, str],
               coordinates: bool = False) -> None:
    """Every phone holds 360 px and the thumb, in its reader's words and digits, with the checks of the phone at the
    table (``phone_checks.round_two``: bar, names, text size, markers, header); the tablet holds its width."""
    for seat, page in enumerate(phones):
        check(page, f"{where}, {LANGS[seat]} phone")
        for word in foreign_words(page, LANGS[seat], allowed):
            problems.setdefault(f"{LANGS[seat]}: {word}", where)
        for text in wrong_digits(page, LANGS[seat], code)[:3]:
            problems.setdefault(f"{LANGS[seat]} digits: {text}", where)
        for found in round_two(page, f"{LANGS[seat]} phone", NAMES, coordinates):
            problems.setdefault(found, where)
    assert tablet.evaluate("document.documentElement.scrollWidth <= innerWidth"), f"{where}: the table screen scrolls sideways"


@pytest.mark.parametrize("slug", list(GAMES))
def test_four_phones_in_four_languages_play_a_whole_game(live_url, table_at, phone, slug):
    game_plan = find_plan(slug)
    table = table_at(slug, NAMES, via="api", options=GAMES[slug]["options"], start=0)
    code, tokens = table.code, table.tokens
    allowed = {w.lower() for w in re.findall(r"[A-Za-z]+", " ".join([*NAMES, code, *TITLES]))}
    coordinates = slug in COORDINATE_GAMES
    if coordinates:
        allowed.add("<coordinates>")
    problems: dict[str, str] = {}
    tapped: list[tuple[str, str]] = []
    SCREENS.mkdir(parents=True, exist_ok=True)
    phones = table.phones
    for seat, page in enumerate(phones):
        _pick_language(page, LANGS[seat], code)
    assert [p.locator("html").get_attribute("dir") for p in phones] == ["rtl", "ltr", "rtl", "ltr"]
    tablet = phone(TABLET, "fa", mobile=False)
    tablet.goto(f"{live_url}/t/{code}/screen/")
    tablet.wait_for_selector("body[data-ws=open]", state="attached")
    everyone = [*phones, tablet]

    v = table.version
    clock = {"api": 0.0, "sync": 0.0, "tap": 0.0, "check": 0.0, "start": time.time()}
    _check_all(phones, tablet, allowed, code, f"{slug} first load", problems, coordinates)
    picture = GAMES[slug]["picture"]
    pictured = False
    turn_shots: set[int] = set()
    ui_moves = {n: key for key, n in game_plan.first.items()}
    urls = [*(f"{live_url}/t/{code}/" for _ in phones), f"{live_url}/t/{code}/screen/"]
    away = False
    total = len(game_plan.moves)
    checkpoints = {total // 3, 2 * total // 3} - set(ui_moves)  # mid-game moments every screen is checked at too
    for n, (seat, step, action) in enumerate(game_plan.moves):
        key = ui_moves.get(n)
        ahead = min([m for m in [*ui_moves, *checkpoints] if m >= n] or [total]) - n  # API moves to the next look
        if key is None and not away and ahead > LIVE_TAIL + LONG_STRETCH:
            away = _leave(everyone)  # a long stretch: the screens rest (pushes cost every phone a render)
        if away and ahead <= LIVE_TAIL:  # back for the last moves before a tap (or the end), pushed live
            away = _come_back(everyone, urls, v)
        if n in checkpoints:
            assert wait_synced(everyone, v, timeout=30), f"{slug} move {n}: a phone did not follow to version {v}"
            _check_all(phones, tablet, allowed, code, f"{slug} move {n} (mid-game)", problems, coordinates)
        if key is None:
            t0 = time.time()
            answer = api(live_url, f"/api/tables/{code}/actions/", {"action": action, "version": v,
                                                                      "key": f"{code}-{n}"}, tokens[seat])
            assert "error" not in answer, f"{slug} move {n} ({step}) refused: {answer}"
            v = answer["version"]
            clock["api"] += time.time() - t0
            continue
        where = f"{slug} move {n} ({key[0]}: {key[1]}) by the {LANGS[seat]} phone"
        t0 = time.time()
        assert wait_synced(everyone, v, timeout=30), f"{where}: a phone did not follow to version {v}"
        clock["sync"] += time.time() - t0
        page = phones[seat]
        assert page.locator("#table.my-turn").count() == 1, f"{where}: the phone does not say it is its turn"
        if key == picture and not pictured:  # the moment on the fa and ps phones, one of them perhaps the actor
            for shot in SHOT_SEATS:
                phones[shot].screenshot(path=str(SCREENS / f"four-{slug}-phone-{LANGS[shot]}-mid.png"))
            pictured = True
        if seat in SHOT_SEATS and seat not in turn_shots and n >= total // 3:  # my turn, mid-game
            page.screenshot(path=str(SCREENS / f"four-{slug}-phone-{LANGS[seat]}-turn.png"))
            turn_shots.add(seat)
        t0 = time.time()
        tap_move(page, slug, action, where)
        assert wait_synced(everyone, v + 1, timeout=15), f"{where}: the tap did not land (version {v})"
        clock["tap"] += time.time() - t0
        v += 1
        tapped.append(key)
        t0 = time.time()
        _check_all(phones, tablet, allowed, code, where, problems, coordinates)
        clock["check"] += time.time() - t0
    assert api(live_url, f"/api/tables/{code}/")["status"] == "finished", f"{slug}: the game reached its end"
    assert wait_synced(everyone, v, timeout=30), f"{slug}: a phone missed the final tally"
    for page in everyone:
        assert page.locator("#table section.result").count() == 1, f"{slug}: the final tally is on every screen"
    _check_all(phones, tablet, allowed, code, f"{slug} final tally", problems, coordinates)
    # The end first: on every phone the winner line, the ranking (and Next game, where shown) in the first viewport.
    for seat, page in enumerate(phones):
        try:
            check_end_first(page, f"{slug} end, {LANGS[seat]} phone", host=False)
        except AssertionError as failed:
            problems.setdefault(str(failed), "final tally")
    winner = layout(phones[1])["winner"]["text"]
    assert any(name in winner for name in NAMES), f"{slug}: the en phone's winner line names nobody: {winner!r}"
    assert REQUIRED[slug] <= set(tapped), f"{slug}: steps never tapped: {REQUIRED[slug] - set(tapped)}"
    # The checks themselves see an English word and a Persian digit an Azerbaijani reader would trip over.
    phones[3].evaluate("() => { const p = document.createElement('p'); p.id = 'probe';"
                       " p.textContent = 'Qara lider black ۳'; document.querySelector('main').append(p); }")
    assert foreign_words(phones[3], "az", allowed) == {"black"} and wrong_digits(phones[3], "az", code)
    phones[3].evaluate("() => document.getElementById('probe').remove()")
    # And a rules marker, a case number and a bare Latin name in a Persian sentence.
    phones[0].evaluate("() => { const p = document.createElement('p'); p.id = 'probe';"
                       " p.textContent = 'قانون [U] مورد D07: نوبت Emma'; document.querySelector('main').append(p); }")
    assert [m.split(" ")[0] for m in markers(phones[0], coordinates)] == ["[U]", "D07"]
    assert unisolated_names(phones[0], ["Emma"]), "a bare Latin name in a Persian sentence is caught"
    phones[0].evaluate("() => document.getElementById('probe').remove()")
    for shot in SHOT_SEATS:
        phones[shot].evaluate("window.scrollTo(0, 0)")
        phones[shot].screenshot(path=str(SCREENS / f"four-{slug}-phone-{LANGS[shot]}-final.png"))
    phones[0].locator("#table section.result").evaluate("el => el.scrollIntoView({block: 'start'})")
    phones[0].screenshot(path=str(SCREENS / f"four-{slug}-phone-fa-result.png"))
    tablet.screenshot(path=str(SCREENS / f"four-{slug}-screen-fa.png"))
    # A phone that loses its connection says so within 5 s, on every phone.
    for seat, page in enumerate(phones):
        shot = SCREENS / f"four-{slug}-phone-{LANGS[seat]}-offline.png" if seat in SHOT_SEATS else None
        offline_banner(page.context, page, timeout_ms=5000, screenshot=shot)
    print("taps that needed a scroll first:", [w for w in OUT_OF_REACH if w.startswith(slug)])
    pending = tuple(f"({step}: " for step in REACH_PENDING.get(slug, ()))
    out_of_reach = [w for w in OUT_OF_REACH if w.startswith(slug + " ") and not any(p in w for p in pending)]
    assert not out_of_reach, f"{slug}: tapped buttons that were out of reach without a scroll first: {out_of_reach}"
    print({k: round(x, 1) for k, x in clock.items() if k != "start"}, round(time.time() - clock["start"], 1))
    print(f"{slug}: {len(game_plan.moves)} moves, {len(tapped)} tapped on the phones: {sorted(set(tapped))}")
    assert not problems, f"{slug}: words not in the reader's language, or checks of the phone at the table: {problems}"
