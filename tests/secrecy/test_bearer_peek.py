"""A seat token sent as a bearer token is one more device holding the seat: its first use is a public line.

The host's page lists every join link, token included, and the host usually plays. Opening another
seat's link on a second phone leaves "the seat was opened on another phone" in the log
(``test_second_phone.py``); the same token sent as ``Authorization: Bearer`` to the API, to the phone
page or to the websocket must leave that line too, or the host could read another player's hidden
hand unseen. A bot that plays its own seat through the API leaves no line; a planted control proves
the probe fails when bearer reads go unlogged.
"""

from __future__ import annotations

import asyncio

import pytest
from django.test import Client

from games.entry import access
from games.write.pregame import create_table
from tests.conftest import phone_for, socket_for

from .probes import Figures

pytestmark = pytest.mark.django_db(transaction=True)

TWO = [{"name": "Alice"}, {"name": "Bob"}]
POINTS = {"points_mode": True, "components": "digital"}


def opened_lines(code: str) -> list[dict]:
    return [line for line in Client().get(f"/api/tables/{code}/log/").json()["log"] if line["kind"] == "opened"]


def peek(door: str, code: str, token: str) -> str:
    """Read Bob's seat through ``door`` with his token as a bearer token; what the reader got, as text."""
    if door == "api view":
        return Client(HTTP_AUTHORIZATION=f"Bearer {token}").get(f"/api/tables/{code}/view/").content.decode()
    if door == "phone page":
        return Client(HTTP_AUTHORIZATION=f"Bearer {token}").get(f"/t/{code}/").content.decode()

    async def socket() -> str:
        comm = socket_for(code, (b"authorization", f"Bearer {token}".encode()))
        connected, _ = await comm.connect()
        assert connected
        frame = await comm.receive_from(timeout=5)
        await comm.disconnect()
        return frame

    return asyncio.run(socket())


def bearer_probe(figures: Figures, door: str) -> None:
    """Bob holds his seat on his phone; the host reads it through ``door``: one public line, then no more."""
    table = create_table("sorry", POINTS, TWO, seed=3)
    phone_for(table, 1)
    token = table.seats.get(index=1).token
    hand = table.state["hands"][1] if "hands" in table.state else None
    seen = peek(door, table.code, token)
    figures.check("Bob" in seen or (hand is not None and all(str(c) in seen for c in hand)),
                  f"{door}: the bearer token did not speak for Bob's seat")
    lines = opened_lines(table.code)
    figures.check(len(lines) == 1 and "Bob" in lines[0]["text"], f"{door}: the bearer read left no line: {lines}")
    peek(door, table.code, token)
    figures.check(len(opened_lines(table.code)) == len(lines), f"{door}: a second bearer read added a line")


DOORS = ("api view", "phone page", "websocket")


@pytest.mark.parametrize("door", DOORS)
def test_a_bearer_read_of_a_seat_a_phone_holds_is_a_public_line(door):
    figures = Figures()
    bearer_probe(figures, door)
    print(f"\nbearer peek through the {door}: {figures.probes} probes, {len(figures.leaks)} leaks")
    assert figures.leaks == []


def test_a_bot_playing_its_own_seat_through_the_api_leaves_no_line():
    table = create_table("sorry", POINTS, TWO, seed=3)
    token = table.seats.get(index=1).token
    bot = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    claimed = bot.post(f"/api/tables/{table.code}/claim/", {"token": token}, content_type="application/json")
    assert claimed.status_code == 200
    for _ in range(3):
        assert bot.get(f"/api/tables/{table.code}/view/").status_code == 200
    assert opened_lines(table.code) == []


def test_control_an_unlogged_bearer_read_is_caught(monkeypatch):
    """Plant a bearer path that claims nothing: the probe must flag it."""
    monkeypatch.setattr(access, "claim_seat", lambda seat, device, **how: seat)
    monkeypatch.setattr(access, "held_by_bearer", lambda code, token: None)
    figures = Figures()
    bearer_probe(figures, "api view")
    assert any("left no line" in leak for leak in figures.leaks), figures.leaks


def test_the_socket_door_is_checked_apart_from_the_page(monkeypatch):
    """The websocket records the bearer read itself (not only a page read before it)."""
    calls = []
    real = access.held_by_bearer
    monkeypatch.setattr("games.socket.consumers.held_by_bearer", lambda code, token: calls.append(code) or real(code, token))
    table = create_table("sorry", POINTS, TWO, seed=3)
    phone_for(table, 1)
    peek("websocket", table.code, table.seats.get(index=1).token)
    assert calls and set(calls) == {table.code}
    assert len(opened_lines(table.code)) == 1


def test_a_bearer_move_after_the_phone_took_the_seat_back_is_a_new_line():
    """The snapshot this process holds may predate the phone's return: the seat's row decides."""
    table = create_table("sorry", POINTS, TWO, seed=3, start="chosen", start_seat=1)
    phone_for(table, 1)
    token = table.seats.get(index=1).token
    api = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    api.get(f"/api/tables/{table.code}/view/")
    phone_for(table, 1)  # the phone takes the seat back (its link opened again)
    assert len(opened_lines(table.code)) == 2
    table.refresh_from_db()
    legal = api.get(f"/api/tables/{table.code}/prompt/").json()["legal"]
    answer = api.post(f"/api/tables/{table.code}/actions/",
                      {"action": legal[0]["action"], "version": table.version, "key": "k1"},
                      content_type="application/json")
    assert answer.status_code == 200, answer.content
    assert len(opened_lines(table.code)) == 3


def test_an_open_bearer_socket_is_a_new_line_once_the_phone_took_the_seat_back():
    table = create_table("sorry", POINTS, TWO, seed=3, start="chosen", start_seat=1)
    phone_for(table, 1)
    token = table.seats.get(index=1).token

    async def run() -> None:
        comm = socket_for(table.code, (b"authorization", f"Bearer {token}".encode()))
        connected, _ = await comm.connect()
        assert connected
        await comm.receive_from(timeout=5)
        while not await comm.receive_nothing(timeout=0.5):  # the push of its own line, if it came apart
            await comm.receive_from(timeout=5)
        assert len(await asyncio.to_thread(opened_lines, table.code)) == 1
        await asyncio.to_thread(phone_for, table, 1)  # the phone takes the seat back: a push follows
        frame = await comm.receive_from(timeout=5)
        lines = await asyncio.to_thread(opened_lines, table.code)
        assert len(lines) == 3, "the socket's next push logged the API holding the seat again"
        assert frame
        await comm.disconnect()

    asyncio.run(run())


@pytest.mark.parametrize("door", DOORS)
def test_a_bearer_read_before_the_seats_phone_first_joins_is_logged_at_once(door):
    """The host of a table made in the lobby reads seat 1 with seat 1's token at version 0, before Bob's phone
    ever joined: the line is written then, not left for Bob's join to write later, where it would read like the
    join itself."""
    table = create_table("sorry", POINTS, TWO, seed=3, device="the-hosts-phone")
    token = table.seats.get(index=1).token
    assert opened_lines(table.code) == []
    peek(door, table.code, token)
    lines = opened_lines(table.code)
    assert len(lines) == 1 and "Bob" in lines[0]["text"], lines
    peek(door, table.code, token)
    assert len(opened_lines(table.code)) == 1, "a second read by the same bearer adds nothing"


def test_a_bot_using_its_seat_of_a_table_made_through_the_api_leaves_no_line_until_a_phone_holds_it():
    """The API's creator got every token for its bots: their first use of an unheld seat is no peek."""
    table = create_table("sorry", POINTS, TWO, seed=3)
    for door in DOORS:
        peek(door, table.code, table.seats.get(index=1).token)
    assert opened_lines(table.code) == []


def test_the_table_screens_socket_opened_with_a_bearer_writes_no_seat_line():
    """The table screen shows the public view only, whatever secret its socket carries: no seat is read."""
    table = create_table("sorry", POINTS, TWO, seed=3)
    phone_for(table, 1)
    token = table.seats.get(index=1).token

    async def screen() -> str:
        comm = socket_for(table.code, (b"authorization", f"Bearer {token}".encode()), screen=True)
        connected, _ = await comm.connect()
        assert connected
        frame = await comm.receive_from(timeout=5)
        await comm.disconnect()
        return frame

    frame = asyncio.run(screen())
    assert frame
    assert opened_lines(table.code) == []
    assert table.seats.get(index=1).claimed_by_device != "api"
