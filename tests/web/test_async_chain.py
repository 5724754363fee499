"""Under ASGI every middleware runs in the event loop, so a request costs one thread hop (the view).

Django's own middlewares do so through the subclasses of games/web/middleware.py while
``settings.INLINE_MIDDLEWARE_HOOKS`` is on; with it off they are Django's classes unchanged (a hop per hook).
The app works both ways: a page, a form with its CSRF token, an API move, a language switch.
"""

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


def _hooks_hopping(monkeypatch) -> list[str]:
    """The hooks (``process_request``/``_response``/``_view``) that go through ``sync_to_async`` from now on."""
    from asgiref.sync import SyncToAsync
    hops: list[str] = []
    real_init = SyncToAsync.__init__

    def counting(self, func, *args, **kwargs):
        hops.append(getattr(func, "__qualname__", repr(func)))
        real_init(self, func, *args, **kwargs)

    monkeypatch.setattr(SyncToAsync, "__init__", counting)
    return hops


@pytest.mark.asyncio
@pytest.mark.parametrize("inline", [True, False])
async def test_middleware_hooks_hop_to_a_thread_only_when_inline_hooks_are_off(monkeypatch, settings, inline):
    """Django runs a sync ``process_request``/``process_response``/``process_view`` through ``sync_to_async``: one
    thread hop each, about fifteen per request. The subclasses of games/web/middleware.py call them inline while
    ``INLINE_MIDDLEWARE_HOOKS`` is on."""
    settings.INLINE_MIDDLEWARE_HOOKS = inline
    table = await services_create()
    token = table["seats"][0]["token"]
    hops = _hooks_hopping(monkeypatch)
    client = AsyncClient()
    answer = await client.post(f"/api/tables/{table['code']}/actions/", data={
        "action": {"kind": "draw"}, "version": 0, "key": "k1"}, content_type="application/json",
        headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200, answer.content
    page = await client.get("/")
    assert page.status_code == 200
    hooks = [h for h in hops if h.split(".")[-1] in ("process_request", "process_response", "process_view")]
    if inline:
        assert hooks == []
    else:
        assert {"SecurityMiddleware.process_request", "SecurityMiddleware.process_response",
                "CsrfViewMiddleware.process_view", "SessionMiddleware.process_response"} <= set(hooks)


@pytest.mark.asyncio
@pytest.mark.parametrize("inline", [True, False])
async def test_the_app_works_with_and_without_inline_hooks(settings, inline):
    """A page GET, the lobby's form POSTed with its CSRF token (and refused without it), an API move and a
    language switch, with Django's middlewares inline or as Django runs them."""
    settings.INLINE_MIDDLEWARE_HOOKS = inline
    phone = AsyncClient(enforce_csrf_checks=True)
    lobby = await phone.get("/", headers={"Accept-Encoding": "gzip"})
    assert lobby.status_code == 200
    assert lobby["Content-Encoding"] == "gzip" and lobby["X-Frame-Options"] == "DENY"
    assert lobby["X-Content-Type-Options"] == "nosniff" and "csrftoken" in lobby.cookies
    form = {"game": "sorry", "players": 2, "name_0": "Ann", "name_1": "Ben", "opt-components": "digital"}
    assert (await phone.post("/", form)).status_code == 403
    created = await phone.post("/", {**form, "csrfmiddlewaretoken": phone.cookies["csrftoken"].value})
    assert created.status_code == 302, created.content[:500]
    code = created["Location"].split("/")[2]
    page = await phone.get(f"/t/{code}/")
    assert page.status_code == 200 and "Ann" in page.content.decode()

    table = await services_create()
    moved = await AsyncClient().post(f"/api/tables/{table['code']}/actions/", data={
        "action": {"kind": "draw"}, "version": 0, "key": "k1"}, content_type="application/json",
        headers={"Authorization": f"Bearer {table['seats'][0]['token']}"})
    assert moved.status_code == 200 and moved.json()["version"] == 1

    switched = await phone.post("/i18n/setlang/", {"language": "fa", "next": f"/t/{code}/",
                                                   "csrfmiddlewaretoken": phone.cookies["csrftoken"].value})
    assert switched.status_code == 302 and switched["Location"] == f"/t/{code}/"
    assert phone.cookies["django_language"].value == "fa"
    body = (await phone.get(f"/t/{code}/")).content.decode()
    assert '<html lang="fa" dir="rtl"' in body


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
