"""Each region is drawn by its template from exactly the context keys it declares (games/read/regions.py ``Region.reads``).

Every region of every game is rendered twice over several positions, for
every seat and the table screen, in two languages: from the whole seat
context (as a region that declared every key), and from its declared keys
alone (as the app draws it). A template that reads anything else draws
something different (a missing variable prints as nothing), and the test
names the region. A log line pushed alone (``regions.render_line``, drawn from
the keys its digest holds) is the same as in the whole log region.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from django.utils import translation

from games.engines import get_game_class
from games.models import Table
from games.read import regions, snapshots
from games.read.presenters import seat_context
from games.write.moves import submit_action
from games.write.pregame import create_table
from tests.registry import GAMES

pytestmark = pytest.mark.django_db


def _seats(slug: str) -> list[dict]:
    names = ["Ann", "B'o<b", "Cy", "Di"]
    return [{"name": n} for n in names[: min(3 if slug == "amun_re" else 4, get_game_class(slug).max_seats)]]


def _draw(region: regions.Region, context: dict) -> str:
    return regions.draw_region(region, context)


def _draw_from_everything(region: regions.Region, context: dict) -> str:
    """``region`` drawn from every key of ``context``: as a region that declared them all."""
    return regions.draw_region(replace(region, reads=tuple(context)), context)


def _only_declared(region: regions.Region, context: dict) -> dict:
    return {key: context[key] for key in region.reads if key in context}


def _contexts(slug: str, positions: int):
    """Seat contexts (every seat, the screen; host or not) at ``positions`` positions of one seeded game."""
    table = create_table(slug, {}, _seats(slug), seed=5)
    chooser = random.Random(5)
    for _ in range(positions):
        row = Table.objects.get(code=table.code)
        snap = snapshots.for_table(row)
        for seat in (None, *range(len(_seats(slug)))):
            context = seat_context(snap, seat)
            context.update(is_host=seat in (None, 0), csrf_token="a-csrf-token")
            yield context
        game, state = snap.game, snap.state
        if game.result(state) is not None:
            return
        seat = chooser.choice(game.prompt(state).seats)
        legal = game.legal_actions(state, seat)
        if not legal:
            return
        submit_action(table.code, seat, chooser.choice(legal), row.version)


@pytest.mark.parametrize("slug", [*GAMES, "counting"])
def test_every_region_draws_the_same_from_its_declared_keys_alone(slug, fixture_game_registered):
    compared = 0
    for language in ("en", "fa"):
        with translation.override(language):
            for context in _contexts(slug, 6):
                for region in (*regions.REGIONS, regions.LOG, regions.STATIC):
                    if region is regions.STATIC and not context.get("static_template"):
                        continue
                    full = _draw_from_everything(region, dict(context))
                    assert _draw(region, _only_declared(region, context)) == full, (slug, language, region.name)
                    compared += 1
                    if region is regions.LOG:
                        for line in context["log"]:
                            assert regions.render_line(line, context)[1] in full, (slug, language, line["seq"])
    assert compared >= 2 * 6 * len(regions.REGIONS), compared


def test_a_region_reading_a_key_it_does_not_declare_fails_the_comparison():
    table = create_table("sorry", {}, _seats("sorry"), seed=5)
    context = seat_context(snapshots.for_table(Table.objects.get(code=table.code)), 0)
    context.update(is_host=True, csrf_token="a-csrf-token")
    links = next(region for region in regions.REGIONS if region.name == "links")
    narrower = regions.Region(links.name, links.id, links.template, ("table", "screen", "me"), links.inputs)
    assert _draw(narrower, _only_declared(narrower, context)) != _draw(links, dict(context))


def test_the_meta_region_is_its_template_pushed_with_the_phones_digits_as_an_out_of_band_swap():
    table = create_table("sorry", {}, _seats("sorry"), seed=5)
    row = Table.objects.get(code=table.code)
    with translation.override("fa"):
        context = seat_context(snapshots.for_table(row), 1)
        frame = regions.push(context, regions.Sent(), "persian")
    assert f'<div hx-swap-oob="true" id="r-meta" hidden data-version="{row.version}"' in frame
    assert 'data-seat="1"' in frame and 'data-my-turn="0"' in frame


def test_the_generic_controls_digest_holds_the_phones_csrf_token(counting_table):
    """The generic controls (games/_controls.jinja) hold plain forms with the phone's CSRF token: two phones of the
    same seat with different tokens never share that region's HTML."""
    context = seat_context(snapshots.for_table(Table.objects.get(code=counting_table.code)), 0)
    assert context["controls_template"] == regions.GENERIC_CONTROLS and context["legal"]
    controls = regions.BY_NAME["controls"]
    digests = {regions.region_digest(controls, {**context, "csrf_token": token, "_parts": None})
               for token in ("token-one", "token-two")}
    assert len(digests) == 2
