"""The host's pages answer every refusal of the write path with a banner, never a 500.

Each host tool (undo, end, components, who starts again, the walkthrough,
play again) runs one write; whatever that write refuses with (a reused key,
a stale or missing version, a closed or read-only table, the rules) comes
back as a redirect to the host tools with the refusal's message from
games/entry/refusals.py (STYLE.md: bad input is a 4xx or a message, never a 500).
"""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.http import HttpResponse
from django.test import Client
from django.utils import translation

from games.entry.access import host_cookie, set_signed
from games.entry.refusals import refusal_for
from games.models import Table
from games.write.moves import submit_action
from games.write.pregame import create_table
from games.write.write_path import KeyReused, StaleVersion

pytestmark = pytest.mark.django_db


def host_page(table: Table) -> Client:
    client, carrier = Client(raise_request_exception=False), HttpResponse()
    set_signed(carrier, host_cookie(table.code), table.host_token)
    client.cookies.update(carrier.cookies)
    return client


def banners(response) -> list[str]:
    return [str(m.message) for m in get_messages(response.wsgi_request)]


def a_table() -> Table:
    table = create_table("sorry", {}, [{"name": "Ann"}, {"name": "Ben"}], seed=3)
    submit_action(table.code, 0, {"kind": "draw"}, 0)
    table.refresh_from_db()
    return table


def message_of(exc: Exception) -> str:
    with translation.override("en"):
        return refusal_for(exc).message


@pytest.mark.parametrize("tool,fields", [
    ("undo", {"version": 1}),
    ("end", {}),
    ("components", {"mode": "digital"}),
    ("start-again", {}),
])
def test_a_key_the_host_used_for_another_tool_is_a_banner(tool, fields):
    table = a_table()
    host = host_page(table)
    first = host.post(f"/t/{table.code}/host/components/", {"mode": "physical", "key": "K"})
    assert first.status_code == 302 and banners(first) == []
    table.refresh_from_db()
    fields = {**fields, "version": table.version} if "version" in fields else fields
    answer = host.post(f"/t/{table.code}/host/{tool}/", {**fields, "key": "K"})
    assert answer.status_code == 302, answer.status_code
    assert banners(answer) and message_of(KeyReused()) in banners(answer)[0]
    assert Table.objects.get(code=table.code).version == table.version, "nothing was written"


def test_a_stale_or_missing_version_on_undo_is_a_banner():
    table = a_table()
    host = host_page(table)
    stale = host.post(f"/t/{table.code}/host/undo/", {"version": 0, "key": "u1"})
    assert stale.status_code == 302 and message_of(StaleVersion(0, 1)) in banners(stale)[0]
    missing = host.post(f"/t/{table.code}/host/undo/", {"key": "u2"})
    assert missing.status_code == 302 and banners(missing)
    assert Table.objects.get(code=table.code).version == 1


def test_every_tool_on_an_ended_table_is_a_banner():
    table = a_table()
    host = host_page(table)
    assert host.post(f"/t/{table.code}/host/end/", {"key": "e1"}).status_code == 302
    for tool, fields in [("undo", {"version": 2}), ("end", {}), ("components", {"mode": "physical"}),
                         ("start-again", {})]:
        answer = host.post(f"/t/{table.code}/host/{tool}/", {**fields, "key": f"again-{tool}"})
        assert answer.status_code == 302, (tool, answer.status_code)
        assert banners(answer), f"{tool}: refused without a word"


def test_play_again_before_the_end_is_a_banner():
    table = a_table()
    answer = host_page(table).post(f"/t/{table.code}/host/play-again/")
    assert answer.status_code == 302 and banners(answer)
