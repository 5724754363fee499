"""A game the host ended before its end (docs/playing.md "Host tools", "A game the host ended").

Every phone and the table screen show it at the top of the status region, where a game's own end shows its
tally: "Game over", the host ended it, the standing when it stopped (where the engine can count one, labelled
as such and never as a win), Play again on the host's phone and Next game on the others once it exists. Nothing
of a turn is left: no whose-turn header, no prompt, no "… is deciding", no tap, no Undo my move.
"""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from games.models import Table
from games.write.host import end_game
from games.write.moves import submit_action
from games.write.pregame import create_table, play_again
from tests.conftest import phone_for, play_through_write_path
from tests.registry import GAMES
from tests.web.words import host_client

pytestmark = pytest.mark.django_db

THREE = [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cat"}]
ENDED = '<section class="result ended">'
#: Words of a turn: the status prompt, whose-turn headers and waiting lines of the games' own boards.
TURN_WORDS = ('class="prompt', "Your turn.", "Waiting for", "actions left", "is deciding", "Your decision",
              'class="yy-turn"', 'class="yy-deciding', 'class="turn"', 'class="offer-count"', 'class="cj-offer"',
              ">playing<", " ★")


def region(html: str, start: str, end: str) -> str:
    """The HTML of a page or fragment from the element with id ``start`` up to the one with id ``end``."""
    first = html.index(f'id="{start}"')
    return html[first:html.index(f'id="{end}"', first)]


def ended_table(slug: str, moves: int = 12, seed: int = 4) -> Table:
    """A three-seat table of ``slug`` played ``moves`` random legal moves, then ended by the host."""
    table = create_table(slug, {}, THREE, seed=seed)
    play_through_write_path(table, seed, stop=moves)
    table.refresh_from_db()
    assert table.is_open, "the game must still be running when the host ends it"
    end_game(table.code)
    table.refresh_from_db()
    return table


def assert_ended_status(html: str, table: Table) -> str:
    """The status region of ``html`` opens with the ended section and holds no word of a turn; returns it."""
    status = region(html, "r-status", "tap-refusal")
    assert ENDED in status and "The host ended this game before its end." in status
    # At the top: first in the region (the line naming table, code and phone stands before it, drawn with the page;
    # the table screen's draw commitment may come first), before anything but Play again / Next game, where a
    # game's own end shows its tally.
    after_header = status[status.index(">") + 1:]
    if 'class="chance-stats' in after_header:
        after_header = after_header[after_header.index("</section>", after_header.index('class="chance-stats')):]
    first = re.search(r"<(section|p|ol|ul)\b(?! class=\"draws)[^>]*>", after_header)
    assert first is not None and (first.group(0) == ENDED or 'class="pregame next"' in first.group(0)), first
    for word in TURN_WORDS:
        assert word not in status, word
    assert "Won by" not in status and 'class="trophy' not in status, "nobody won a game that did not end"
    return status


@pytest.mark.parametrize("slug", GAMES)
def test_every_phone_and_the_screen_show_the_game_ended_at_the_top_with_no_turn_left(slug):
    table = ended_table(slug)
    game = table.game()
    standing = game.standing(game.decode(table.state))
    host = host_client(table, "en")
    ben = phone_for(table, 1)
    pages = {
        "host page": host.get(f"/t/{table.code}/").content.decode(),
        "host fragment": host.get(f"/t/{table.code}/fragment/").content.decode(),
        "Ben's page": ben.get(f"/t/{table.code}/").content.decode(),
        "Ben's fragment": ben.get(f"/t/{table.code}/fragment/").content.decode(),
        "screen": Client().get(f"/t/{table.code}/screen/").content.decode(),
    }
    for name, html in pages.items():
        status = assert_ended_status(html, table)
        board = region(html, "r-board", "r-log")
        controls = html[html.index('id="r-controls"'):]
        for word in TURN_WORDS:
            assert word not in board, (name, word)
        assert "data-action=" not in html and "Undo my move" not in html, name
        assert "<button" not in controls[:controls.index("</section>")], name
        if standing is None:
            assert 'class="ranking"' not in status, name
        else:
            ranking = status[status.index('class="ranking"'):status.index("</ol>")]
            assert all(seat["name"] in ranking for seat in THREE), name
            assert "The standing when the game was stopped, not a final result:" in status
            assert "How the standing was counted" in status
        assert ("Play again" in status) == name.startswith("host"), name
    new = play_again(table.code)
    assert f'data-next="{new.code}"' in ben.get(f"/t/{table.code}/fragment/").content.decode()


def test_a_yellow_yangtze_revolt_the_host_ended_says_nothing_of_whose_decision_it_was():
    """The tester's case: four phones, the attacker has committed, the host ends the game. The revolt's sides
    stay on the board as they stood, but nobody is deciding anything and no turn is announced; every screen
    is lifted as at the end of the game (§7) and the standing counts them."""
    four = [{"name": n} for n in ("Ann", "Ben", "Cat", "Dan")]
    table = create_table("yellow_yangtze", {}, four, seed=5)
    game, rng = table.game(), random.Random(5)
    for _ in range(400):
        table.refresh_from_db()
        state = game.decode(table.state)
        prompt = game.prompt(state)
        if prompt.step == "revolt_defender":
            break
        seat = prompt.seats[0]
        submit_action(table.code, seat, rng.choice(game.legal_actions(state, seat)), table.version)
    else:
        raise AssertionError("no revolt within 400 moves")
    phones = [phone_for(table, i) for i in range(4)]
    waiting = phones[0].get(f"/t/{table.code}/").content.decode()
    assert "is deciding how many black tiles to commit" in waiting and "of 2 actions left" in waiting
    end_game(table.code)
    pages = [phone.get(f"/t/{table.code}/").content.decode() for phone in phones]
    for html in [*pages, Client().get(f"/t/{table.code}/screen/").content.decode()]:
        assert_ended_status(html, table)
        board = region(html, "r-board", "r-log")
        assert 'data-conflict="revolt"' in board, "the revolt as it stood when the game was stopped"
        assert "is deciding" not in board and "Your decision" not in board and "actions left" not in board
        assert 'class="yy-final"' in board and "Screens opened" in board
        status = region(html, "r-status", "tap-refusal")
        assert "lifts the screen" in status and "Ahead when the game was stopped:" in status


def test_the_api_answers_the_ended_prompt_and_the_standing():
    table = ended_table("catan_junior")
    seat = table.seats.get(index=1)
    api = Client(HTTP_AUTHORIZATION=f"Bearer {seat.token}")
    prompt = api.get(f"/api/tables/{table.code}/prompt/").json()
    assert prompt["prompt"]["seats"] == [] and prompt["prompt"]["step"] == "ended" and prompt["legal"] == []
    assert prompt["prompt"]["text"] == "The host ended this game."
    view = api.get(f"/api/tables/{table.code}/view/").json()
    assert view["result"] is None and view["prompt"]["step"] == "ended"
    assert {row["seat"] for row in view["standing"]["ranking"]} == {0, 1, 2} and "winners" not in view["standing"]
