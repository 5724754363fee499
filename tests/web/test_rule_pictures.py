"""Rules at hand with pictures: a section that describes a position shows one, drawn by the game's own board
templates as the table screen shows it (games/pages/rule_pictures.py), in the reader's language; nothing hidden."""

from __future__ import annotations

import pytest
from django.test import Client

from games.engines import get_adapter
from games.pages import rule_pictures
from tests.registry import SHIPPED

pytestmark = pytest.mark.django_db

EXAMPLES = [(slug, key) for slug in SHIPPED for key in get_adapter(slug).rule_examples]
#: What only a seat's own screen shows, per game (its private view key drawn on the board).
PRIVATE_MARKS = {"yellow_yangtze": 'class="yy-screen"', "amun_re": 'class="my-offering"'}


def test_every_shipped_game_pictures_at_least_one_section():
    assert {slug for slug, _ in EXAMPLES} == set(SHIPPED)


@pytest.mark.parametrize(("slug", "key"), EXAMPLES)
@pytest.mark.parametrize("language", ["en", "fa", "ps", "az"])
def test_a_section_that_describes_a_position_shows_one_on_the_board_as_the_table_screen_draws_it(slug, key, language):
    page = Client(headers={"accept-language": language}).get(f"/rules/{slug}/{key}/").content.decode()
    figure = page[page.index('<figure class="rules-picture'):page.index("</figure>")]
    assert 'id="r-board"' in figure and f'lang="{language}"' in page
    mark = PRIVATE_MARKS.get(slug)
    assert mark is None or mark not in figure, "a seat's own screen is never drawn in a rules picture"
    if language in ("fa", "ps"):
        assert "rules-picture" in page and any(d in figure for d in "۰۱۲۳۴۵۶۷۸۹"), "the reader's digits"


def test_the_picture_is_the_public_view_of_its_position():
    """The same position drawn for a seat shows that seat's screen (its hidden tiles); the picture does not."""
    from games.pages.history import step_context
    from games.read import regions

    game, state = rule_pictures.position("yellow_yangtze", "wars")
    table = rule_pictures._table("yellow_yangtze")
    as_seat = regions.draw_region(regions.BY_NAME["board"], step_context(table, game, state, 0))
    assert PRIVATE_MARKS["yellow_yangtze"] in as_seat
    assert PRIVATE_MARKS["yellow_yangtze"] not in rule_pictures.picture("yellow_yangtze", "wars")


def test_a_section_that_describes_no_position_has_no_picture():
    page = Client().get("/rules/sorry/goal/").content.decode()
    assert "rules-picture" not in page
