"""The draw statistics never count a hidden draw the revealed seed does not give.

Once a game is over its statistics are shown on the table screen and the
history page, on the ground that the seed is revealed then too, so every
digital draw into a hidden hand can be re-derived by anyone anyway. A draw
typed in by hand (physical components) is not given by the seed: counting
it told every phone what the others had drawn into their hands (a Sorry!
points hand stays secret even at the end, 3.2). Twin tables: identical but
for one seat's hand, entered by hand; seat 0 and the table screen must read
the very same pages.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

from games.engines import get_adapter
from games.read.chance_stats import chance_stats
from games.write.host import end_game
from games.write.moves import submit_action
from games.write.pregame import create_table
from tests.conftest import phone_for
from tests.registry import GAMES, game_class

pytestmark = pytest.mark.django_db

MINE = ["1", "2", "3", "4", "5"]


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def _sorry_dealt(victim: list[str], components: str = "physical"):
    """A two-seat points table (same seed), dealt by hand: seat 0 takes ``MINE``, seat 1 ``victim``."""
    table = create_table("sorry", {"points_mode": True, "components": components},
                                  [{"name": "Ann"}, {"name": "Bob"}], seed=77)
    for mine, theirs in zip(MINE, victim, strict=True):
        for seat, card in ((0, mine), (1, theirs)):
            table.refresh_from_db()
            submit_action(table.code, seat, {"kind": "draw", "card": card}, table.version)
    end_game(table.code)
    table.refresh_from_db()
    return table


def _read(table, path: str, client: Client) -> str:
    text = client.get(path.format(code=table.code)).content.decode()
    text = text.replace(table.code, "CODE").replace(table.code.lower(), "code")
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"|"X-CSRFToken": "[^"]*"', "", text)
    return re.sub(r'(data-sig|data-signature)="[^"]*"|\?s=[0-9a-f]+', "", text)


def test_hand_entered_draws_of_a_hidden_hand_are_not_counted_once_the_game_is_over():
    sevens = _sorry_dealt(["7", "7", "7", "7", "12"])
    eights = _sorry_dealt(["8", "8", "8", "8", "12"])
    a, b = chance_stats(sevens, sevens.game()), chance_stats(eights, eights.game())
    assert a == b, "the statistics differ only by Bob's secret hand"
    assert a["total"] == 0 and all(row["observed"] == 0 for row in a["rows"])
    assert a["entered"] == 10, "the page says how many draws were typed in and left out"
    for path in ("/t/{code}/screen/", "/t/{code}/history/", "/t/{code}/fragment/?screen=1"):
        assert _read(sevens, path, Client()) == _read(eights, path, Client()), path
        assert _read(sevens, path, phone_for(sevens, 0)) == _read(eights, path, phone_for(eights, 0)), path
    screen = Client().get(f"/t/{sevens.code}/screen/").content.decode()
    assert "typed in by hand" in screen and "10 draws into hidden hands" in screen


def test_digital_draws_are_still_counted_once_the_game_is_over():
    """The seed re-derives them, so they are public at the end (the existing behaviour stands)."""
    table = create_table("sorry", {"points_mode": True}, [{"name": "Ann"}, {"name": "Bob"}], seed=77)
    for _ in range(10):
        table.refresh_from_db()
        state = table.game().decode(table.state)
        seat = table.game().prompt(state).seats[0]
        submit_action(table.code, seat, {"kind": "draw"}, table.version)
    end_game(table.code)
    table.refresh_from_db()
    stats = chance_stats(table, table.game())
    assert stats["total"] == 10 and stats["entered"] == 0


@pytest.mark.parametrize("slug", [slug for slug in GAMES if game_class(slug).chance_fields])
def test_every_game_with_chance_counts_its_draws_as_its_adapter_declares_them(slug):
    """Each value of the game's chance device gets a row; a hidden-hand device shows nothing until the end."""
    from tests.conftest import play_through_write_path

    table = create_table(slug, {}, [{"name": "Ann"}, {"name": "Bob"}], seed=21)
    device = get_adapter(slug).chance(table.game())
    play_through_write_path(table, 21, stop=12)
    table.refresh_from_db()
    running = chance_stats(table, table.game())
    assert running["what"] == device.what and running["hidden"] == device.hidden
    if device.hidden:
        assert running["total"] == 0 and running["rows"] == []
    end_game(table.code)
    table.refresh_from_db()
    final = chance_stats(table, table.game())
    assert not final["hidden"] and final["total"] > 0
    assert {row["value"] for row in final["rows"]} == set(device.shares)
