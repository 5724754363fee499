"""Regions written in Python instead of a template (issue 8) write the partial's bytes, byte for byte."""

from __future__ import annotations

import random

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games import live
from games.commands.moves import submit_action
from games.commands.pregame import create_table
from games.models import Table
from games.presenters import seat_context

pytestmark = pytest.mark.django_db

WRITTEN = [region for region in live.REGIONS if region.write is not None]


def _seats(slug: str) -> list[dict]:
    names = ["Ann", "B'o<b", "Cy", "Di"]
    return [{"name": n} for n in names[: 3 if slug == "amun_re" else 4]]


@pytest.mark.parametrize("slug", ["sorry", "yellow_yangtze", "amun_re", "catan_junior"])
def test_every_written_region_writes_what_its_template_partial_draws(slug):
    assert [region.name for region in WRITTEN] == ["meta"]
    table = create_table(slug, {}, _seats(slug), seed=5)
    chooser, compared = random.Random(5), 0
    for _ in range(12):
        row = Table.objects.get(code=table.code)
        game = row.game()
        state = game.decode(row.state)
        for language in ("en", "fa", "az", "ps"):
            with translation.override(language):
                for seat in (None, *range(len(_seats(slug)))):
                    context = seat_context(live.snapshot_for(row), seat)
                    for region in WRITTEN:
                        drawn = render_to_string(f"{live.PAGE}#{region.partial}", dict(context))
                        assert region.write(context) == drawn, (slug, language, seat, region.name)
                        compared += 1
        if game.result(state) is not None:
            break
        seat = chooser.choice(game.prompt(state).seats)
        legal = game.legal_actions(state, seat)
        if not legal:
            break
        submit_action(table.code, seat, chooser.choice(legal), row.version)
    assert compared >= 4 * len(_seats(slug)), "the comparison covered every language and seat"


def test_a_written_region_is_pushed_with_the_phones_digits_and_as_an_out_of_band_swap():
    table = create_table("sorry", {}, _seats("sorry"), seed=5)
    row = Table.objects.get(code=table.code)
    with translation.override("fa"):
        context = seat_context(live.snapshot_for(row), 1)
        frame = live.push(context, live.Sent(), "persian")
    assert f'<div hx-swap-oob="true" id="r-meta" hidden data-version="{row.version}"' in frame
    assert 'data-seat="1"' in frame and 'data-my-turn="0"' in frame


@pytest.mark.parametrize("grouped", [False, True])
def test_the_written_meta_region_follows_the_thousands_separator_setting_as_the_partial_does(settings, grouped):
    settings.USE_THOUSAND_SEPARATOR = grouped
    for language in ("en", "fa", "az", "ps"):
        with translation.override(language):
            for context in ({"version": 12345678, "signature": "a<b", "my_turn": True, "seat": 1234},
                            {"version": 0, "signature": "", "my_turn": None, "seat": None}):
                drawn = render_to_string(f"{live.PAGE}#r-meta", context)
                assert live.write_meta(context) == drawn, (language, context)
