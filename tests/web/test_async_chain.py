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


@pytest.mark.asyncio
async def test_no_middleware_hook_hops_to_a_thread_on_a_move_or_a_page(monkeypatch):
    """Django runs a sync ``process_request``/``process_response``/``process_view`` through ``sync_to_async``: one
    thread hop each, about fifteen per request. The subclasses of games/middleware.py call them inline."""
    from asgiref.sync import SyncToAsync
    hops: list[str] = []
    real_init = SyncToAsync.__init__

    def counting(self, func, *args, **kwargs):
        hops.append(getattr(func, "__qualname__", repr(func)))
        real_init(self, func, *args, **kwargs)

    table = await services_create()
    token = table["seats"][0]["token"]
    monkeypatch.setattr(SyncToAsync, "__init__", counting)
    client = AsyncClient()
    answer = await client.post(f"/api/tables/{table['code']}/actions/", data={
        "action": {"kind": "draw"}, "version": 0, "key": "k1"}, content_type="application/json",
        headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200, answer.content
    page = await client.get("/")
    assert page.status_code == 200
    hooks = [h for h in hops if h.split(".")[-1] in ("process_request", "process_response", "process_view")]
    assert hooks == []


async def services_create() -> dict:
    client = AsyncClient()
    answer = await client.post("/api/tables/", data={"game": "sorry", "options": {}, "seats": [
        {"name": "Ann"}, {"name": "Ben"}]}, content_type="application/json")
    assert answer.status_code == 201
    return answer.json()


@pytest.mark.asyncio
async def test_the_csrf_check_still_refuses_a_form_without_its_token_in_async_mode():
    """The CSRF hook runs in the event loop now: a join form posted without the token is still a 403,
    and with the page's token it passes (the join sets the seat cookie, a session-free write)."""
    table = await services_create()
    strict = AsyncClient(enforce_csrf_checks=True)
    refused = await strict.post(f"/t/{table['code']}/join/", {"token": table["seats"][1]["token"]})
    assert refused.status_code == 403
    page = await strict.get(f"/t/{table['code']}/join/")
    token = page.cookies["csrftoken"].value
    joined = await strict.post(f"/t/{table['code']}/join/", {"token": table["seats"][1]["token"],
                                                             "csrfmiddlewaretoken": token})
    assert joined.status_code == 302
