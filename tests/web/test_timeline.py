"""Looking back during play: a table's history page is its public timeline while the game is played, each move
opens the public board as it was after it, and a phone that was away sees what happened since its last look."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client
from django.utils import translation

from games.pages import history
from games.write.host import undo_last
from games.write.moves import submit_action
from games.write.pregame import create_table
from tests.conftest import phone_for
from tests.secrecy.test_secrecy_suite import choose

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def play(table, moves: int, seed: int = 3) -> None:
    """``moves`` random legal moves through the write path (where several seats are asked, the last answers)."""
    game = table.game()
    rng = random.Random(seed + moves)
    for _ in range(moves):
        table.refresh_from_db()
        state = game.decode(table.state)
        seat = game.prompt(state).seats[-1]
        submit_action(table.code, seat, choose(rng, game, state, seat), table.version)
    table.refresh_from_db()


def listed(page: str) -> list[int]:
    """The replay steps the timeline links, in the order it lists them."""
    return [int(n) for n in re.findall(r'<li id="move-(\d+)"', page)]


def test_the_history_page_of_a_game_being_played_is_its_public_timeline():
    table = create_table("yellow_yangtze", {}, [{"name": "Alice"}, {"name": "Bob"}], seed=3)
    play(table, 14)
    undo_last(table.code, table.version)  # an undone move is no step of the timeline
    table.refresh_from_db()
    moves = history.timeline(table)
    page = Client().get(f"/t/{table.code}/history/")
    assert page.status_code == 200
    text = page.content.decode()
    assert listed(text) == list(range(len(moves), 0, -1)) and len(moves) == 13, "newest first, every counted move"
    for move in moves:
        assert f'?step={move["step"]}"><span class="muted">#{move["seq"]}</span>' in text
        assert move["text"] in text
    drew = [m for m in moves if "drew" in m["text"]]
    assert drew and all(re.search(r"drew tiles: \d+\.$", m["text"]) for m in drew), "a draw says how many, not what"
    assert "Final tally" not in text and "export.json" not in text


def test_a_seats_phone_reads_the_same_timeline_as_the_table_screen():
    table = create_table("sorry", {"points_mode": True}, [{"name": "Alice"}, {"name": "Bob"}], seed=5)
    play(table, 12)
    alice = phone_for(table, 0).get(f"/t/{table.code}/history/").content.decode()
    screen = Client().get(f"/t/{table.code}/history/").content.decode()
    assert re.findall(r'<ol class="timeline">.*?</ol>', alice, re.S) == re.findall(
        r'<ol class="timeline">.*?</ol>', screen, re.S) != []


def test_a_move_of_the_timeline_opens_the_public_board_after_it_even_on_a_seats_phone():
    table = create_table("yellow_yangtze", {}, [{"name": "Alice"}, {"name": "Bob"}], seed=8)
    play(table, 10)
    played = history.replay(table)
    step, move = next((i, m) for i, m in enumerate(played.moves, start=1) if m.payload.get("kind") == "draw")
    owner = phone_for(table, move.seat)
    page = owner.get(f"/t/{table.code}/history/replay/?step={step}").content.decode()
    assert history.render_step(table, played, step, None)["board"] in page
    assert history.render_step(table, played, step, move.seat)["board"] not in page
    assert f"drew {', '.join(move.payload['tiles'])}." not in page and "public details only" in page
    assert f"Move {step} of {len(played.moves)}" in page and f'href="/t/{table.code}/history/"' in page


def test_a_phone_that_was_away_sees_the_moves_since_its_last_look():
    table = create_table("catan_junior", {}, [{"name": "Alice"}, {"name": "Bob"}], seed=4)
    play(table, 5)
    bob = phone_for(table, 1)
    first = bob.get(f"/t/{table.code}/history/").content.decode()
    assert "since your last look" not in first and 'class="new"' not in first
    play(table, 3)
    back = bob.get(f"/t/{table.code}/history/").content.decode()
    assert "3 moves since your last look." in back
    fresh = re.findall(r'<li id="move-(\d+)" class="new">', back)
    assert fresh == ["8", "7", "6"] and "?step=6" in back.split("since your last look.")[1].split("</p>")[0]
    assert back.index('class="last-look"') > back.index('id="move-6"') and back.index('class="last-look"') < back.index(
        'id="move-5"')
    again = bob.get(f"/t/{table.code}/history/").content.decode()
    assert "Nothing new since your last look." in again and 'class="new"' not in again
    other = phone_for(table, 0).get(f"/t/{table.code}/history/").content.decode()
    assert "since your last look" not in other, "each phone keeps its own last look"


def test_the_phone_page_links_the_timeline_during_play():
    table = create_table("sorry", {}, [{"name": "Alice"}, {"name": "Bob"}], seed=1)
    page = phone_for(table, 0).get(f"/t/{table.code}/").content.decode()
    assert re.search(rf'<a href="/t/{table.code}/history/">Timeline</a>', page)
