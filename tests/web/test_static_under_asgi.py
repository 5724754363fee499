"""Static files under ASGI: served by the ASGI app itself, asynchronously, without Django's warning that a
streaming answer consumed a synchronous iterator (which an ASGI server logs for every file served that way)."""

from __future__ import annotations

import warnings

import pytest
from asgiref.sync import async_to_sync
from django.test import AsyncClient

pytestmark = pytest.mark.django_db


def test_a_static_file_is_served_under_asgi_without_the_synchronous_iterator_warning():
    async def fetch():
        return await AsyncClient().get("/static/js/table.js")

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        answer = async_to_sync(fetch)()
        body = b"".join(async_to_sync(_drain)(answer))
    assert answer.status_code == 200 and b"function" in body
    assert not [w for w in caught if "synchronous iterators" in str(w.message)], [str(w.message) for w in caught]


async def _drain(answer):
    if getattr(answer, "is_async", False):
        return [chunk async for chunk in answer.streaming_content]
    return [answer.content]
