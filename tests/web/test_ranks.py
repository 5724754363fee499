"""Ties share a rank on the phone page, the table screen and the API, on the fixture game."""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from games.models import Table
from games.read import regions
from games.read.presenters import seat_context
from tests.conftest import phone_for

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    """Direct calls read the thread's active language, which an earlier request in the run may have left set."""
    with translation.override("en"):
        yield


def finish(table, totals):
    """Put the fixture game at its end with these public totals (as if the moves had been played)."""
    state = dict(table.state, totals=list(totals), phase="draw")
    table.state = state
    table.status = Table.Status.FINISHED
    table.save()
    return table


def test_equal_results_share_a_rank_on_the_phone_and_the_table_screen(counting_table, client):
    finish(counting_table, [10, 4, 4])
    for page in (phone_for(counting_table, 1).get(f"/t/{counting_table.code}/"),
                 client.get(f"/t/{counting_table.code}/screen/")):
        html = page.content.decode()
        assert re.findall(r'<li value="(\d)" data-rank', html) == ["1", "2", "2"]
        assert "Bob and Carol both have 4 and share rank 2." in html


def test_the_result_region_changes_when_the_ties_do(counting_table):
    finish(counting_table, [10, 4, 4])
    status = next(r for r in regions.REGIONS if r.name == "status")
    context = seat_context(counting_table, 0)
    assert context["result_ties"] == ["Bob and Carol both have 4 and share rank 2."]
    assert "share rank" not in " ".join(context["result_steps"]), "the ties are shown beside the ranking, once"
    other = {**context, "result_ties": []}
    other.pop("_parts", None)
    context.pop("_parts", None)
    assert regions.region_digest(status, context) != regions.region_digest(status, other)


def test_the_api_view_gives_each_row_its_rank_and_the_tie_sentences(counting_table):
    finish(counting_table, [10, 4, 3])
    seat = counting_table.seats.get(index=0)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {seat.token}")
    body = api.get(f"/api/tables/{counting_table.code}/view/").json()
    assert [r["rank"] for r in body["result"]["ranking"]] == [1, 2, 3]
    assert body["ties"] == []
