"""Issue 8: under ASGI every middleware runs in the event loop, so a request costs one thread hop (the view)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import AsyncClient
from django.utils.module_loading import import_string

pytestmark = pytest.mark.django_db(transaction=True)


def test_every_middleware_is_async_capable_so_django_adds_no_sync_async_adapters():
    sync_only = [path for path in settings.MIDDLEWARE if not getattr(import_string(path), "async_capable", False)]
    assert sync_only == []


@pytest.mark.asyncio
async def test_the_input_guard_refuses_a_nul_in_async_mode():
    answer = await AsyncClient().post("/api/tables/", data='{"game": "sorry\\u0000"}', content_type="application/json")
    assert answer.status_code == 400 and answer.json()["code"] == "nul_character"


@pytest.mark.asyncio
async def test_the_static_files_middleware_serves_and_passes_on_in_async_mode():
    client = AsyncClient()
    assert (await client.get("/static/js/table.js")).status_code == 200
    assert (await client.get("/")).status_code == 200
