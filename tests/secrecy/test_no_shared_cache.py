"""A seat's answers are never kept by a shared or disk cache (games/web/middleware.py PrivateAnswersMiddleware).

The table page, its fragment and the API's seat view are computed from the asker's own seat; a café's
proxy that kept one would hand it to the next phone.
"""

from __future__ import annotations

import pytest
from django.test import Client

from tests.conftest import phone_for

pytestmark = pytest.mark.django_db


def _policy(response) -> set[str]:
    return {part.strip() for part in response.get("Cache-Control", "").split(",") if part.strip()}


def test_every_answer_of_a_seat_is_private_and_not_stored(counting_table):
    phone = phone_for(counting_table, 0)
    token = counting_table.seats.get(index=0).token
    answers = {
        "page": phone.get(f"/t/{counting_table.code}/"),
        "fragment": phone.get(f"/t/{counting_table.code}/fragment/"),
        "api view": Client().get(f"/api/tables/{counting_table.code}/view/", HTTP_AUTHORIZATION=f"Bearer {token}"),
        "refusal": Client().get(f"/api/tables/{counting_table.code}/view/", HTTP_AUTHORIZATION="Bearer nope"),
    }
    for door, response in answers.items():
        assert response.status_code < 500, door
        assert {"private", "no-store"} <= _policy(response), (door, response.get("Cache-Control"))
