"""History and step-through replay, and roll/draw statistics beside chance."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client
from django.utils import translation

from games.engines.base import IllegalAction
from games.entry.access import DEVICE_COOKIE, read_signed
from games.models import Table
from games.pages import history
from games.read import regions
from games.read.chance_stats import chance_stats
from games.read.presenters import seat_context
from games.record.audit import effective_actions
from games.write.host import undo_last
from games.write.moves import submit_action
from games.write.pregame import create_table
from tests.conftest import phone_for
from tests.secrecy.probes import TWINS
from tests.web.test_export_import import finished

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def _device(client: Client) -> str:
    client.get("/history/")
    return read_signed({k: v.value for k, v in client.cookies.items()}, DEVICE_COOKIE)


def test_history_lists_only_this_devices_finished_tables():
    phone = Client()
    device = _device(phone)
    mine = finished("sorry", {}, 2, seed=1)
    Table.objects.filter(pk=mine.pk).update(created_by_device=device)
    other = finished("sorry", {}, 2, seed=2)
    Table.objects.filter(pk=other.pk).update(created_by_device="someone-else")
    still_open = create_table("sorry", {}, [{"name": "A"}, {"name": "B"}], device=device)
    held = finished("catan_junior", {}, 2, seed=3)
    holder = phone_for(held, 1)  # this device holds seat 1's cookie
    page = phone.get("/history/").content.decode()
    codes = set(re.findall(r'data-code="([A-Z0-9]+)"', page))
    assert codes == {mine.code}
    codes = set(re.findall(r'data-code="([A-Z0-9]+)"', holder.get("/history/").content.decode()))
    assert codes == {held.code}, "a seat cookie (and its claim) lists the table; nothing else"
    assert still_open.code not in page and other.code not in page
    result = mine.game().result(mine.game().decode(mine.state))
    winner = mine.seats.get(index=result["winners"][0]).name
    assert f"won by {winner}" in page and "P0, P1" in page and "Sorry!" in page


def test_the_history_page_shows_the_final_tally_exactly_as_the_table_did():
    table = finished("amun_re", {}, 3, seed=4)
    phone = phone_for(table, 0)
    page = phone.get(f"/t/{table.code}/history/").content.decode()
    status = next(r for r in regions.REGIONS if r.name == "status")
    context = seat_context(table, 0)
    context.update(is_host=False, error=None, csrf_token="")
    _, region = regions.render_region(status, context)
    assert region in page
    assert f"/t/{table.code}/export.json" in page and "app.bgstatsapp.com/createPlay.html" in page
    assert phone.get(f"/t/{table.code}/").content.decode().count(f"/t/{table.code}/history/") == 1


def test_each_replay_step_shows_the_public_board_the_table_screen_showed_after_that_move():
    table = create_table("sorry", {}, [{"name": "A"}, {"name": "B"}], seed=21)
    board = next(r for r in regions.REGIONS if r.name == "board")
    game = table.game()
    rng = random.Random(21)
    shown = []
    undone = False
    while table.status == "playing":
        state = game.decode(table.state)
        seat = game.prompt(state).seats[0]
        submit_action(table.code, seat, rng.choice(game.legal_actions(state, seat)), table.version)
        table.refresh_from_db()
        context = seat_context(table, None)
        context.update(is_host=False, error=None, csrf_token="")
        shown.append(regions.render_region(board, context)[1])
        if len(shown) == 25 and not undone:
            undone = True
            undo_last(table.code, table.version)  # an undone move is not a replay step
            table.refresh_from_db()
            shown.pop()
    played = history.replay(table)
    assert len(played.moves) == len(shown)
    for step, html in enumerate(shown, start=1):
        assert history.render_step(table, played, step, None)["board"] == html, f"step {step}"
    screen = Client()
    last = screen.get(f"/t/{table.code}/history/replay/?step={len(shown)}").content.decode()
    assert f"Move {len(shown)} of {len(shown)}" in last and 'rel="prev"' in last and 'rel="next"' not in last
    first = screen.get(f"/t/{table.code}/history/replay/?step=0").content.decode()
    assert "The opening position." in first and 'rel="next"' in first and 'rel="prev"' not in first
    middle = screen.get(f"/t/{table.code}/history/replay/?step=7").content.decode()
    assert "Move 7 of" in middle and "?step=6" in middle and "?step=8" in middle
    assert screen.get(f"/t/{table.code}/history/replay/?step=junk").status_code == 200


#: Games with hidden values (a twin in their examples.py, tests/secrecy/probes.py TWINS), with the options that hide them where needed.
HIDDEN = [("yellow_yangtze", {}, 3), ("sorry", {"points_mode": True}, 2), ("amun_re", {}, 3)]
HIDDEN += [(slug, {}, 2) for slug in TWINS if slug not in {h[0] for h in HIDDEN}]


@pytest.mark.parametrize(("slug", "options", "players"), HIDDEN)
def test_replay_steps_never_show_another_seats_hidden_values(slug, options, players):
    """Twin positions differing only in seat 1's hidden values render the same for seat 0 and the public,
    and seat 1's own replay shows them (so the twin is not vacuous)."""
    table = finished(slug, options, players, seed=6)
    played = history.replay(table)
    twin = TWINS[slug]
    probed = owner_differs = 0
    stride = 1 if slug == "amun_re" else max(1, len(played.moves) // 40)  # an offering is sealed for 3 moves only
    for step in range(0, len(played.moves) + 1, stride):
        if played.game.result(played.states[step]) is not None:
            continue  # the tally reveals screened points at the end, for every game (rules: final scoring)
        other = twin(played.game, played.states[step], 1)
        if other is None or other == played.states[step]:
            continue
        probed += 1
        swapped = history.Replay(played.game, played.moves, [*played.states[:step], other, *played.states[step + 1:]])
        for viewer in (None, 0):
            assert history.render_step(table, played, step, viewer) == history.render_step(table, swapped, step, viewer)
        owner_differs += history.render_step(table, played, step, 1) != history.render_step(table, swapped, step, 1)
    assert probed >= 3 and owner_differs >= 1


def test_the_replay_page_shows_private_details_only_to_their_owner():
    table = finished("yellow_yangtze", {}, 2, seed=8)
    played = history.replay(table)
    step, move = next((i, m) for i, m in enumerate(played.moves, start=1)
                      if m.payload.get("kind") == "draw" and m.seat == 1)
    tiles = ", ".join(move.payload["tiles"])
    owner = phone_for(table, 1).get(f"/t/{table.code}/history/replay/?step={step}").content.decode()
    assert f"drew {tiles}." in owner and "your own hidden details" in owner
    for reader in (phone_for(table, 0), Client()):
        page = reader.get(f"/t/{table.code}/history/replay/?step={step}").content.decode()
        assert f"drew {tiles}." not in page and f"drew tiles: {len(move.payload['tiles'])}." in page


# -- roll and draw statistics beside chance --------------------------------------------------


def _rolls(table):
    return [r.payload["value"] for r in effective_actions(table.actions.order_by("seq"))
            if r.payload.get("kind") == "roll"]


def test_die_statistics_count_the_logged_rolls_against_a_fair_die():
    table = finished("catan_junior", {}, 2, seed=14)
    stats = chance_stats(table, table.game())
    rolls = _rolls(table)
    assert stats["total"] == len(rolls) > 30
    for row in stats["rows"]:
        assert row["observed"] == rolls.count(int(row["value"]))
        assert row["expected"] == round(len(rolls) / 6, 1)
    expected = len(rolls) / 6
    assert stats["chi2"] == round(sum((rolls.count(f) - expected) ** 2 / expected for f in range(1, 7)), 2)
    assert stats["df"] == 5 and stats["limit"] == 11.070 and stats["verdict"] in ("fair", "unusual")
    screen = Client().get(f"/t/{table.code}/screen/").content.decode()
    assert "Die rolls beside chance" in screen and f"{len(rolls)} rolls in all." in screen


def test_sorry_card_statistics_follow_the_deck_composition_and_show_while_playing():
    table = create_table("sorry", {}, [{"name": "A"}, {"name": "B"}], seed=3)
    game = table.game()
    for _ in range(40):
        table.refresh_from_db()
        state = game.decode(table.state)
        seat = game.prompt(state).seats[0]
        submit_action(table.code, seat, game.legal_actions(state, seat)[0], table.version)
    table.refresh_from_db()
    stats = chance_stats(table, game)
    cards = [r.payload["card"] for r in table.actions.filter(kind="game", payload__kind="draw")]
    deck = game.options["deck_counts"]
    assert stats["total"] == len(cards) and not stats["hidden"]
    for row in stats["rows"]:
        assert row["observed"] == cards.count(row["value"])
        assert row["expected"] == round(len(cards) * deck[row["value"]] / sum(deck.values()), 1)
    screen = Client().get(f"/t/{table.code}/screen/").content.decode()
    assert "Cards drawn beside the deck" in screen and 'class="observed"' in screen


@pytest.mark.parametrize(("slug", "options"), [("yellow_yangtze", {}), ("sorry", {"points_mode": True})])
def test_draws_into_hidden_hands_are_counted_only_once_the_game_is_over(slug, options):
    table = create_table(slug, options, [{"name": "A"}, {"name": "B"}], seed=5)
    game = table.game()
    for _ in range(30):
        table.refresh_from_db()
        state = game.decode(table.state)
        seat = game.prompt(state).seats[0]
        for action in game.legal_actions(state, seat):
            try:
                submit_action(table.code, seat, action, table.version)
                break
            except IllegalAction:
                continue
    table.refresh_from_db()
    stats = chance_stats(table, game)
    assert stats["hidden"] and stats["rows"] == [] and stats["total"] == 0
    screen = Client().get(f"/t/{table.code}/screen/").content.decode()
    assert "their counts are shown when the game is over" in screen and 'class="observed"' not in screen
    done = finished(slug, options, 2, seed=5)
    stats = chance_stats(done, game)
    assert not stats["hidden"] and stats["total"] > 0
    field = "tiles" if slug == "yellow_yangtze" else "card"
    drawn = []
    for row in effective_actions(done.actions.order_by("seq")):
        if row.payload.get("kind") == "draw":
            value = row.payload[field]
            drawn += value if isinstance(value, list) else [value]
    assert stats["total"] == len(drawn)
    assert {r["value"]: r["observed"] for r in stats["rows"]} == {v: drawn.count(v) for v in
                                                                    {r["value"] for r in stats["rows"]}}
    assert 'class="observed"' in Client().get(f"/t/{done.code}/screen/").content.decode()


@pytest.mark.parametrize(("language", "words"), [
    ("fa", ("بازی‌های گذشته", "بعدی", "پرتاب‌های تاس در کنار شانس", "خروجی دوباره اجرا نمی‌شود")),
    ("az", ("Keçmiş oyunlar", "Növbəti", "Zər atışları şansla yanaşı", "İxrac yenidən oynanılmır")),
    ("ps", ("تېرې لوبې", "بل", "د تاس اچونې د بخت تر څنګ", "صادره بیا نه لوبول کېږي")),
])
def test_history_replay_statistics_and_import_refusals_speak_fa_az_ps(language, words):
    import json

    from django.conf import settings
    from django.core.files.uploadedfile import SimpleUploadedFile

    history_word, next_word, stats_word, refusal_word = words
    table = finished("catan_junior", {}, 2, seed=15)
    phone = phone_for(table, 0)
    phone.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    assert history_word in phone.get("/history/").content.decode()
    assert next_word in phone.get(f"/t/{table.code}/history/replay/?step=1").content.decode()
    assert stats_word in phone.get(f"/t/{table.code}/history/").content.decode()
    data = json.loads(phone.get(f"/t/{table.code}/export.json").content)
    data["result"]["winners"] = []
    refused = phone.post("/history/import/", {"file": SimpleUploadedFile("g.json", json.dumps(data).encode())},
                         HTTP_ACCEPT="application/json")
    assert refused.status_code == 422 and refusal_word in refused.json()["message"]


@pytest.mark.parametrize("language", ["fa", "az", "ps"])
def test_the_date_of_a_past_game_has_no_english_am_pm(language):
    """Django ships date formats for fa and az but none for ps: a Pashto phone's past games read
    "۱۲/۰۲/۲۰۲۶ ۳:۵۱ a.m." (the English default). Pashto now writes a 24-hour clock as Persian does."""
    from django.conf import settings

    table = finished("sorry", {}, 2, seed=1)
    phone = phone_for(table, 0)
    phone.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = phone.get("/history/").content.decode()
    shown = re.findall(r"<time [^>]*>([^<]*)</time>", page)
    assert shown, "the page dates the game"
    assert not any(re.search(r"[ap]\.m\.|[AP]M", text) for text in shown), shown
