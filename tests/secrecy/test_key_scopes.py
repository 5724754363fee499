"""No idempotency key is an oracle: every key is stored and looked up in its sender's own scope, on every door.

A key seen before answers the first write again, or 409 ``key_reused``. If a
key were looked up outside the asker's scope, posting another asker's key
would answer differently from posting a fresh one, and with guessable keys
(a counter, the place of a button) that tells which move someone made. The
write path stores seat N's keys as ``N/<key>`` and the host's as
``host/<key>`` (games/write/write_path.py ``scoped_key``), so another scope's key,
as posted or with its prefix spelled out, is simply unknown.

Each probe posts, through every door of the host tools and of a seat, the
key another asker used (bare and prefixed) and a fresh key, each on an
identical new table, and compares the answers. The control plants keys
shared by everyone (no scope) and shows the same probe then finds the oracle.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from django.contrib.messages import get_messages
from django.http import HttpResponse
from django.test import Client

from games.entry.access import host_cookie, set_signed
from games.models import Table
from games.write import write_path
from games.write.pregame import create_table
from tests.conftest import phone_for

from .probes import Figures

pytestmark = pytest.mark.django_db

ANNS_KEY = "move-1"  # as guessable as a client's keys may be
HOSTS_KEY = "tools-1"


def scenario() -> Table:
    """Ann (seat 0) draws through the API under ANNS_KEY; the host switches components under HOSTS_KEY."""
    table = create_table("sorry", {}, [{"name": "Ann"}, {"name": "Ben"}], seed=3)
    ann = Client(HTTP_AUTHORIZATION=f"Bearer {table.seats.get(index=0).token}")
    answer = ann.post(f"/api/tables/{table.code}/actions/", {"action": {"kind": "draw"}, "version": 0,
                      "key": ANNS_KEY}, content_type="application/json")
    assert answer.status_code == 200, answer.content
    moved = host_page(table).post(f"/t/{table.code}/host/components/", {"mode": "physical", "key": HOSTS_KEY})
    assert moved.status_code == 302 and not _banners(moved)
    table.refresh_from_db()
    assert table.version == 2
    return table


def host_page(table: Table) -> Client:
    """A browser holding the host's cookie."""
    client, carrier = Client(raise_request_exception=False), HttpResponse()
    set_signed(carrier, host_cookie(table.code), table.host_token)
    client.cookies.update(carrier.cookies)
    return client


def _banners(response) -> list[str]:
    return [str(m.message) for m in get_messages(response.wsgi_request)]


def _said(table: Table, response) -> str:
    """Status, body, banners and what the table became (every phone sees it), the table's own code taken out
    (each probe runs on a new table)."""
    body = response.content.decode() if response.get("Content-Type", "").startswith("application/json") else ""
    after = Table.objects.get(code=table.code)
    return (f"{response.status_code} {response.get('Location', '')} {body} {_banners(response)} "
            f"v{after.version} {after.status}").replace(table.code, "C")


HOST_DOORS: dict[str, Callable[[Table, str], str]] = {
    "API undo": lambda t, key: _said(t, Client(HTTP_X_HOST_TOKEN=t.host_token, raise_request_exception=False).post(
        f"/api/tables/{t.code}/undo/", {"version": 0, "key": key}, content_type="application/json")),
    "page undo": lambda t, key: _said(t, host_page(t).post(f"/t/{t.code}/host/undo/", {"version": 0, "key": key})),
    "page end": lambda t, key: _said(t, host_page(t).post(f"/t/{t.code}/host/end/", {"key": key})),
    "page components": lambda t, key: _said(t, host_page(t).post(f"/t/{t.code}/host/components/",
                                                                 {"mode": "physical", "key": key})),
    "page start again": lambda t, key: _said(t, host_page(t).post(f"/t/{t.code}/host/start-again/", {"key": key})),
}


def _ben_api(t: Table) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {t.seats.get(index=1).token}", raise_request_exception=False)


SEAT_DOORS: dict[str, Callable[[Table, str], str]] = {
    "API move": lambda t, key: _said(t, _ben_api(t).post(
        f"/api/tables/{t.code}/actions/", {"action": {"kind": "draw"}, "version": 1, "key": key},
        content_type="application/json")),
    "page move": lambda t, key: _said(t, phone_for(t, 1).post(
        f"/t/{t.code}/act/", {"action": json.dumps({"kind": "draw"}), "version": 1, "key": key},
        HTTP_HX_REQUEST="true")).split('<div id="table"')[0],
    "API undo mine": lambda t, key: _said(t, _ben_api(t).post(
        f"/api/tables/{t.code}/undo-mine/", {"version": 1, "key": key}, content_type="application/json")),
    "page undo mine": lambda t, key: _said(t, phone_for(t, 1).post(
        f"/t/{t.code}/undo-mine/", {"version": 1, "key": key})),
    "API who starts": lambda t, key: _said(t, _ben_api(t).post(
        f"/api/tables/{t.code}/start/", {"seat": 0, "key": key}, content_type="application/json")),
    "page who starts": lambda t, key: _said(t, phone_for(t, 1).post(f"/t/{t.code}/start/", {"seat": 0, "key": key})),
}


def _socket(t: Table, message: dict) -> str:
    """What Ben's open socket is answered for ``message`` (games/socket/socket_taps.py, as the consumer calls it)."""
    from games.socket import socket_taps  # imported late: its serializers fix the API's game choices when imported

    tap = socket_taps.read_message(json.dumps(message))
    answer = socket_taps.act(t.code, t.seats.get(index=1).token, False, tap, "en")
    after = Table.objects.get(code=t.code)
    said = "done" if isinstance(answer, socket_taps.Done) else f"{answer.code} {answer.message} {answer.status}"
    return f"{said} v{after.version} {after.status}".replace(t.code, "C")


SEAT_DOORS["socket move"] = lambda t, key: _socket(t, {"action": {"kind": "draw"}, "version": 1, "key": key})
SEAT_DOORS["socket undo mine"] = lambda t, key: _socket(t, {"command": "undo_mine", "args": {}, "version": 1,
                                                             "key": key})


def key_probe(doors: dict[str, Callable[[Table, str], str]], guesses: list[str], figures: Figures, label: str) -> None:
    """Each door answers each guessed key exactly as it answers a fresh key (each answer on a new table)."""
    for door, answer in doors.items():
        fresh = answer(scenario(), "a-key-nobody-used")
        for guess in guesses:
            figures.check(answer(scenario(), guess) == fresh,
                          f"{label}: {door} answers key {guess!r} unlike a fresh key")


HOST_GUESSES = [ANNS_KEY, f"0/{ANNS_KEY}"]
SEAT_GUESSES = [ANNS_KEY, f"0/{ANNS_KEY}", HOSTS_KEY, f"host/{HOSTS_KEY}"]


def test_the_host_tools_tell_nothing_about_a_seats_keys():
    figures = Figures()
    key_probe(HOST_DOORS, HOST_GUESSES, figures, "host")
    print(f"\nhost doors: {figures.probes} probes, {len(figures.leaks)} leaks")
    assert figures.probes == len(HOST_DOORS) * len(HOST_GUESSES)
    assert figures.leaks == []


def test_a_seats_doors_tell_nothing_about_another_seats_or_the_hosts_keys():
    figures = Figures()
    key_probe(SEAT_DOORS, SEAT_GUESSES, figures, "seat")
    print(f"\nseat doors: {figures.probes} probes, {len(figures.leaks)} leaks")
    assert figures.probes == len(SEAT_DOORS) * len(SEAT_GUESSES)
    assert figures.leaks == []


def test_a_key_still_answers_its_own_asker_once():
    """The scope keeps each key's job: the host's retried switch and Ann's retried draw write nothing twice."""
    table = scenario()
    rows = table.actions.count()
    again = host_page(table).post(f"/t/{table.code}/host/components/", {"mode": "physical", "key": HOSTS_KEY})
    assert again.status_code == 302 and not _banners(again)
    ann = Client(HTTP_AUTHORIZATION=f"Bearer {table.seats.get(index=0).token}")
    retried = ann.post(f"/api/tables/{table.code}/actions/", {"action": {"kind": "draw"}, "version": 0,
                       "key": ANNS_KEY}, content_type="application/json")
    assert retried.status_code == 200 and retried.json()["replayed"] is True
    assert table.actions.count() == rows


def test_control_keys_without_a_scope_are_caught(monkeypatch):
    """Plant keys shared by every asker: the same probes must find the oracle on both sides."""
    monkeypatch.setattr(write_path, "scoped_key", lambda actor, key: key)
    figures = Figures()
    key_probe({"API undo": HOST_DOORS["API undo"], "page end": HOST_DOORS["page end"]}, HOST_GUESSES, figures,
              "planted host")
    key_probe({"API move": SEAT_DOORS["API move"], "socket move": SEAT_DOORS["socket move"]}, SEAT_GUESSES,
              figures, "planted seat")
    print(f"\ncontrol (no scope): {figures.probes} probes, {len(figures.leaks)} leaks")
    assert any("planted host: API undo answers key 'move-1'" in leak for leak in figures.leaks), figures.leaks
    assert any("planted host: page end answers key 'move-1'" in leak for leak in figures.leaks), figures.leaks
    assert any("planted seat: API move answers key 'tools-1'" in leak for leak in figures.leaks), figures.leaks
    assert any("planted seat: socket move answers key 'tools-1'" in leak for leak in figures.leaks), figures.leaks
