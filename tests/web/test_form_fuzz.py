"""No form post makes a page answer 500: random junk in every field of every form
endpoint (lobby, phone page, corrections, host tools, editors, import) is a 2xx, 3xx or 4xx."""

from __future__ import annotations

import json
import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from games.engines import adapters
from games.write.pregame import create_table
from tests.conftest import phone_for
from tests.registry import GAMES

pytestmark = pytest.mark.django_db

JUNK = ["", "0", "-1", "1e400", "999999999999999999999999", "NaN", "x" * 5000, "[" * 3000, "{}", "[]", "null",
        "true", json.dumps({"kind": ["x"]}), json.dumps({"kind": {}}), json.dumps({"kind": "draw", "x": [1] * 99}),
        '{"kind": "draw", "card": "1"}', "é∂ƒ", "//evil.example/", "%00", "1.5", " 3 "]
FIELDS = ["action", "version", "key", "target", "replacement", "reason", "answer", "next", "mode", "game",
          "players", "name", "orientation", "cols", "rows", "cells", "save", "check", "opt-components",
          "opt-board", "opt-edition", "profile-name", "rows-TOTAL_FORMS", "rows-INITIAL_FORMS", "rows-0-gold",
          "prices-TOTAL_FORMS", "prices-0-cost", "bounds-farms_max", "seat-0-name", "language"]


def junk_form(rng: random.Random) -> dict:
    return {name: rng.choice(JUNK) for name in rng.sample(FIELDS, rng.randint(1, 10))}


@pytest.mark.parametrize("slug", GAMES)
def test_junk_form_posts_never_answer_500(slug):
    seats = [{"name": "Alice"}, {"name": "Bob"}, {"name": "Carol"}]
    table = create_table(slug, {}, seats if slug == "amun_re" else seats[:2], seed=3)
    alice = phone_for(table, 0)
    host = Client()
    from django.http import HttpResponse

    from games.entry.access import host_cookie, set_signed

    carrier = HttpResponse()
    set_signed(carrier, host_cookie(table.code), table.host_token)
    host.cookies.update(carrier.cookies)
    urls = [f"/t/{table.code}/act/", f"/t/{table.code}/corrections/", f"/t/{table.code}/corrections/1/",
            f"/t/{table.code}/host/undo/", f"/t/{table.code}/host/components/", f"/t/{table.code}/host/end/",
            f"/t/{table.code}/host/hand-over/1/", f"/t/{table.code}/join/", "/", "/i18n/setlang/",
            *(f"/editions/{game}/{editor.path}/" for game, adapter in adapters().items() for editor in adapter.editors)]
    rng = random.Random(slug)
    for i in range(120):
        url = urls[i % len(urls)]
        client = host if "/host/" in url else alice
        extra = {"HTTP_HX_REQUEST": "true"} if rng.random() < 0.5 else {}
        response = client.post(url, junk_form(rng), **extra)
        assert response.status_code < 500, (url, response.status_code)
    for content in (b"[" * 100_000, b"{" * 50, b'{"format": 1}', json.dumps({"format": "companion-edition/1",
                    "game": slug, "option": "board", "data": {"routes": {"R1": [[1], {}]}}}).encode()):
        response = Client().post("/editions/import/", {"file": SimpleUploadedFile("x.json", content)})
        assert response.status_code < 500
