"""Every word in the reader's language: every page of every game, in fa, ps and az.

Each game is played from a seeded opening to its final tally through the one write path;
at the opening, at the first time each prompt step comes up (wars, revolts, auctions,
offerings, trades: every conflict the random game meets) and at the end, every page is
rendered in Persian, Pashto and Azerbaijani: the phone page of every seat, the table
screen, the host page, the fix-a-move page (the mover's and another seat's), the
prompt and log text of the API, plus the lobby and the error pages.

A **Persian or Pashto** page fails on any word in Latin letters; an **Azerbaijani** page
(Latin script) fails on an English word: a word of the catalogue's msgids that no
Azerbaijani msgstr uses. Allowed everywhere: player names, the table code, the game
names, text isolated as a name or a code (``<bdi>``, ``dir="auto"``, ``.code``,
``<code>``, Unicode isolates, an element in another ``lang``), and :data:`ALLOWED`,
each with its reason.
"""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from django.test import Client

from games.engines import available_slugs, get_game_class
from games.record.audit import app_drawn
from games.write.moves import submit_action
from games.write.pregame import create_table
from tests.conftest import phone_for
from tests.registry import GAMES
from tests.web.po import catalogues, po_entries
from tests.web.words import ISOLATED_RUN, LATIN_WORD, host_client, visible_pieces

pytestmark = pytest.mark.django_db

PLAYERS = [{"name": "Alice"}, {"name": "Bob"}, {"name": "Carol"}]
LANGS = ("fa", "ps", "az")

ALLOWED = {
    "companion": "the app's own name, a brand like a game name",
    "qr": "QR code is the code's name in every language (the host page's join codes)",
    "sha": "SHA-256, the name of the hash the fair-draw commitment uses",
    "hasbro": "the publisher's name in the Sorry! points edition's name",
    "javascript": "the name of the browser's scripting language (the join page asks for it in Pashto)",
    "json": "the export file's format, named as the file is named",
    "csv": "the export file's format, named as the file is named",
    "bg": "BG Stats, the name of the score-keeping app the export hands a play to",
    "stats": "BG Stats, the name of the score-keeping app the export hands a play to",
}
# Yellow & Yangtze hexes are named by the board's edge letters A-N and row numbers ("D9"), as drawn along the
# board's edges: on that game's pages only.
BOARD_COORDINATE = re.compile(r"^[A-N]$")
COORDINATE_GAMES = {"yellow_yangtze"}


def _words(texts) -> set[str]:
    return {w.lower() for text in texts for w in LATIN_WORD.findall(re.sub(r"%\(\w+\)[sd]|\{\w+\}", " ", text))}


def _catalogue(lang: str) -> list[dict]:
    """Every entry of ``lang`` in the shared catalogue and every game's own (its folder's ``locale/``)."""
    return [entry for path in catalogues(lang) for entry in po_entries(path)]


# The English words of the catalogue (its msgids), less those Azerbaijani also writes (words of its msgstrs).
ENGLISH = _words(text for e in _catalogue("fa") for text in (e["msgid"], e["plural"] or ""))
AZ_OWN = _words(text for e in _catalogue("az") for text in e["msgstrs"])


def foreign_words(html_or_text: str, lang: str, allowed: set[str], *, html: bool = True,
                  context: dict[str, str] | None = None) -> set[str]:
    """The words of a page (or a plain text) that are not in the reader's language (see the module docstring).

    ``context`` (when given) receives one line of text around each word found, for the failure message.
    """
    pieces = visible_pieces(html_or_text) if html else [(line, False) for line in html_or_text.splitlines()]
    found = set()
    if not html:  # plain API text: its Unicode-isolated runs are checked as names or codes too
        pieces = [(run, "run") for text, _ in pieces for run in ISOLATED_RUN.findall(text)] + [
            (ISOLATED_RUN.sub(" ", text), False) for text, _ in pieces]
    for text, isolated in pieces:
        if isolated is True:
            continue
        for word in LATIN_WORD.findall(text.replace("\u2068", " ").replace("\u2069", " ")):
            low = word.lower()
            if low in allowed or low in ALLOWED or ("<coordinates>" in allowed and BOARD_COORDINATE.match(word)):
                continue
            if lang == "az" and isolated != "run" and (low not in ENGLISH or low in AZ_OWN):
                continue
            found.add(word)
            if context is not None:
                context.setdefault(word, " ".join(text.split())[:120])
    return found


def _allowed_for(table) -> set[str]:
    titles = {get_game_class(slug).title for slug in available_slugs()}
    names = {s.name for s in table.seats.all()}
    coordinates = {"<coordinates>"} if table.slug in COORDINATE_GAMES else set()
    return _words([*titles, *names, table.code]) | {table.code.lower()} | coordinates


def _client(table, index: int, lang: str) -> Client:
    client = phone_for(table, index)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    return client


def _ok(response) -> str:
    assert response.status_code == 200, (response.status_code, response.request["PATH_INFO"])
    return response.content.decode()


def pages_of(table, lang: str) -> dict[str, tuple[str, bool]]:
    """``{label: (html or text, is_html)}``: every page and API text of ``table`` as read in ``lang``."""
    out: dict[str, tuple[str, bool]] = {}
    table.refresh_from_db()
    for seat in table.seats.all():
        phone = _client(table, seat.index, lang)
        out[f"phone of seat {seat.index}"] = (_ok(phone.get(f"/t/{table.code}/")), True)
        auth = {"HTTP_AUTHORIZATION": f"Bearer {seat.token}", "HTTP_ACCEPT_LANGUAGE": lang}
        prompt = Client().get(f"/api/tables/{table.code}/prompt/", **auth).json()
        texts = [prompt["prompt"]["text"], *(item["label"] for item in prompt["legal"])]
        log = Client().get(f"/api/tables/{table.code}/log/", **auth).json()
        texts += [line["text"] for line in log["log"][:40]]
        out[f"API text of seat {seat.index}"] = ("\n".join(texts), False)
    host = host_client(table, lang)
    out["host page"] = (_ok(host.get(f"/t/{table.code}/host/")), True)
    out["table screen"] = (_ok(host.get(f"/t/{table.code}/screen/")), True)
    if not table.is_open:  # after the end: the history page, a replay step and this game's rules index
        out["history page"] = (_ok(host.get(f"/t/{table.code}/history/")), True)
        out["replay step 1"] = (_ok(host.get(f"/t/{table.code}/history/replay/?step=1")), True)
        out["rules at hand"] = (_ok(host.get(f"/rules/{table.slug}/?t={table.code}")), True)
    rows = list(table.actions.order_by("seq"))
    drawn = app_drawn(table, table.game(), rows)  # a move holding a digital draw has no fix page (it stays drawn)
    last = next((r for r in reversed(rows) if r.kind == "game" and r.seq not in drawn), None)
    if last is not None:
        mover = _client(table, last.seat, lang)
        out["fix page (mover)"] = (_ok(mover.get(f"/t/{table.code}/corrections/fix/{last.seq}/")), True)
        other = _client(table, (last.seat + 1) % table.seats.count(), lang)
        out["fix page (other seat)"] = (_ok(other.get(f"/t/{table.code}/corrections/fix/{last.seq}/")), True)
    return out


def _check(table, moment: str, problems: dict[str, set[str]]) -> None:
    allowed = _allowed_for(table)
    for lang in LANGS:
        for label, (body, is_html) in pages_of(table, lang).items():
            context: dict[str, str] = {}
            for word in foreign_words(body, lang, allowed, html=is_html, context=context):
                problems.setdefault(f"{lang}: {word}", set()).add(f"{moment}, {label}: «{context[word]}»")


def _play_to_the_end(table, seed: int, problems: dict[str, set[str]], limit: int = 4000) -> list[str]:
    import random

    chooser = random.Random(seed)
    game = table.game()
    seen: list[str] = []
    for _ in range(limit):
        table.refresh_from_db()
        state = game.decode(table.state)
        if game.result(state) is not None:
            _check(table, "final tally", problems)
            return seen
        prompt = game.prompt(state)
        if prompt.step not in seen:
            seen.append(prompt.step)
            _check(table, f"first {prompt.step}", problems)
        seat = prompt.seats[0]
        action = chooser.choice(game.legal_actions(state, seat))
        submit_action(table.code, seat, action, table.version)
    raise AssertionError(f"{table.slug} did not end within {limit} actions")


def _report(problems: dict[str, set[str]]) -> str:
    return "\n".join(f"{key}  ({'; '.join(sorted(where)[:3])})" for key, where in sorted(problems.items()))


@pytest.mark.parametrize("slug", GAMES)
def test_every_page_of_a_whole_game_speaks_the_readers_language(slug):
    table = create_table(slug, {}, PLAYERS, seed=11)
    problems: dict[str, set[str]] = {}
    steps = _play_to_the_end(table, 11, problems)
    assert len(steps) >= 2, steps
    assert not problems, f"{slug}: words not in the reader's language:\n{_report(problems)}"


def test_the_refusal_and_join_pages_speak_the_readers_language():
    """The no-seat refusal, the join page, a dead join link, an unknown page and the device's history."""
    table = create_table("sorry", {}, PLAYERS, seed=3)
    allowed = _allowed_for(table)
    problems: dict[str, set[str]] = {}
    for lang in LANGS:
        stranger = Client()
        stranger.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
        bodies = {
            "no seat": stranger.get(f"/t/{table.code}/"),
            "join page": stranger.get(f"/t/{table.code}/join/"),
            "dead link": stranger.post(f"/t/{table.code}/join/", {"token": "nope"}),
            "unknown page": stranger.get("/no-such-page/"),
            "history": stranger.get("/history/"),
        }
        assert [r.status_code for r in bodies.values()] == [403, 200, 404, 404, 200]
        for label, response in bodies.items():
            for word in foreign_words(response.content.decode(), lang, allowed):
                problems.setdefault(f"{lang}: {word}", set()).add(label)
    assert not problems, f"words not in the reader's language:\n{_report(problems)}"


def test_the_checker_itself_catches_english_and_spares_names_and_codes():
    page = ('<html lang="fa"><body><p>رهبر black</p><p><bdi>Alice</bdi> <span class="code">AB12</span>'
            '<code>9f3a</code> \u2068Bob\u2069</p><option lang="az">Azərbaycanca</option>'
            '<script>var x = "hidden";</script></body></html>')
    assert foreign_words(page, "fa", {"bob"}) == {"black"}
    assert foreign_words('<html lang="fa"><p>F۱ C۲ K۳</p></html>', "fa", set()) == {"F", "C", "K"}
    assert foreign_words('<html lang="fa"><p>D۹</p></html>', "fa", {"<coordinates>"}) == set()
    # Isolated inside a sentence is not a pass: only a name or a code may be isolated there.
    assert foreign_words('<html lang="fa"><p>\u2068castle\u2069 \u2068Alice\u2069</p></html>', "fa", {"alice"}) == {"castle"}
    assert foreign_words('<html lang="az"><p>Qara lider black</p></html>', "az", set()) == {"black"}
    assert json.dumps(sorted(ALLOWED))  # every allow-list entry carries its reason
    assert all(reason for reason in ALLOWED.values())


@pytest.mark.parametrize("slug", GAMES)
def test_the_lobby_of_every_game_speaks_the_readers_language(slug):
    """The lobby with this game picked: option labels, values, explanations and who starts."""
    titles = {get_game_class(s).title for s in available_slugs()}
    allowed = _words(titles)
    problems: dict[str, set[str]] = {}
    for lang in LANGS:
        client = Client()
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
        for word in foreign_words(_ok(client.get(f"/?game={slug}")), lang, allowed):
            problems.setdefault(f"{lang}: {word}", set()).add("lobby")
    assert not problems, f"{slug}: words not in the reader's language:\n{_report(problems)}"


@pytest.mark.parametrize("slug", GAMES)
def test_who_starts_and_the_set_up_walkthrough_speak_the_readers_language(slug):
    """Before the first move: the printed rule's start question and the set-up steps on every phone."""
    table = create_table(slug, {}, PLAYERS, seed=5, start="printed", walkthrough=True)
    problems: dict[str, set[str]] = {}
    _check(table, "before the first move", problems)
    assert not problems, f"{slug}: words not in the reader's language:\n{_report(problems)}"
