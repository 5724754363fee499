"""The end chart: each seat's count over a finished game, drawn on the server, on every phone, the table screen and
the history page, in the reader's language and digits."""

from __future__ import annotations

import html
import re

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from games.read import end_chart
from games.record.audit import effective_actions, opening_state
from games.write.host import end_game
from games.write.moves import submit_action
from games.write.pregame import create_table
from tests.conftest import phone_for
from tests.registry import SHIPPED, examples
from tests.web.test_export_import import finished

pytestmark = pytest.mark.django_db

#: Every real game and variant whose tally counts something different (each game's ``END_CHART`` in its
#: ``examples.py``).
GAMES = [(slug, *case) for slug in SHIPPED for case in getattr(examples(slug), "END_CHART", ())]
CHART = re.compile(r'<svg class="end-chart" role="img" aria-label="([^"]*)"[^>]*>(.*?)</svg>', re.S)
PERSIAN = re.compile("[۰-۹]")


@pytest.mark.parametrize(("slug", "options", "players"), GAMES, ids=[f"{g[0]}{g[1]}" for g in GAMES])
def test_the_chart_follows_each_seats_count_from_the_opening_to_the_final_tally(slug, options, players):
    table = finished(slug, options, players)
    game = table.game()
    data = end_chart.series(table, game)
    result = game.result(game.decode(table.state))
    final = {row["seat"]: row["score"] for row in result["ranking"]}
    assert [line[-1][1] for line in data["points"]] == [final[s] for s in range(players)]
    opening = game.score_track(opening_state(table, game))["scores"]
    assert [line[0] for line in data["points"]] == [[0, count] for count in opening]
    assert data["moves"] == len(effective_actions(table.actions.order_by("seq")))
    for line in data["points"]:  # one point per change of count, in move order
        assert all(a[0] < b[0] and a[1] != b[1] for a, b in zip(line, line[1:], strict=False))
    assert any(len(line) > 1 for line in data["points"]), "the counts moved during the game"


@pytest.mark.parametrize("language", ["fa", "ps", "az", "en"])
def test_every_phone_the_table_screen_and_the_history_page_show_the_chart_in_their_language(language):
    table = finished("amun_re", {}, 3, seed=4)
    with translation.override(language):
        said = translation.gettext(
            "How the game went: %(what)s of each player over %(moves)s moves. At the end: %(finals)s.").split("%(")[0]
        what = translation.gettext("honour")
    readers = [(phone_for(table, 0), "/"), (phone_for(table, 2), "/"), (Client(), "/screen/"),
               (phone_for(table, 1), "/history/")]
    for reader, path in readers:
        reader.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        page = reader.get(f"/t/{table.code}{path}").content.decode()
        found = CHART.findall(page)
        assert len(found) == 1, path
        label, drawing = html.unescape(found[0][0]), found[0][1]
        assert label.startswith(said) and what in label, (path, label)
        assert drawing.count('<path class="line ') == 3
        if language in ("fa", "ps"):
            numbers = re.sub("\u2068[^\u2069]*\u2069", "", label)  # the names (P0, P1) are written as typed
            assert PERSIAN.search(numbers) and not re.search("[0-9]", numbers), label
            assert not re.search(r">[^<]*[0-9][^<]*<", drawing), "the scale's numbers are in Persian digits too"
        else:
            assert not PERSIAN.search(label)
    assert len(said) > 10


def test_time_runs_in_the_reading_direction():
    table = finished("catan_junior", {}, 2, seed=5)
    starts = {}
    for language in ("en", "fa"):
        phone = phone_for(table, 0)
        phone.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        drawing = CHART.search(phone.get(f"/t/{table.code}/").content.decode()).group(2)
        starts[language] = int(re.search(r'<path class="line [^"]*" d="M(\d+) ', drawing).group(1))
    assert starts["en"] == end_chart.SCALE and starts["fa"] == end_chart.WIDTH - end_chart.SCALE


def test_a_game_still_played_or_ended_by_the_host_has_no_chart():
    table = create_table("catan_junior", {}, [{"name": "A"}, {"name": "B"}], seed=2)
    game = table.game()
    for _ in range(6):
        table.refresh_from_db()
        state = game.decode(table.state)
        seat = game.prompt(state).seats[0]
        submit_action(table.code, seat, game.legal_actions(state, seat)[0], table.version)
    assert 'class="end-chart"' not in phone_for(table, 0).get(f"/t/{table.code}/").content.decode()
    end_game(table.code)
    table.refresh_from_db()
    assert end_chart.series(table, table.game()) is None
    for reader, path in ((phone_for(table, 0), "/"), (Client(), "/screen/"), (Client(), "/history/")):
        page = reader.get(f"/t/{table.code}{path}").content.decode()
        assert "Game over" in page and 'class="end-chart"' not in page


@pytest.mark.parametrize("slug", SHIPPED)
def test_every_shipped_game_has_a_case_here(slug):
    """Every shipped game is in ``GAMES``: a new game fails here rather than pass unchecked."""
    assert slug in {case[0] for case in GAMES}, f"{slug} has no case in {__name__}.GAMES (END_CHART in its examples.py)"
