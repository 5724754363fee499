"""Taps over the websocket (games/socket/socket_taps.py): a move or a command on the phone's socket, acting for its own seat."""

from __future__ import annotations

import json
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from games.models import Action, Correction, Table
from games.write.corrections import propose_correction
from games.write.moves import submit_action
from games.write.pregame import create_table
from tests.conftest import cookie_header, phone_for, socket_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

REFUSAL = re.compile(r'<div id="tap-refusal" hx-swap-oob="true"><p class="banner error" role="alert" data-code="([^"]+)">')


async def table_and_phones(options: dict | None = None):
    table = await sync_to_async(create_table)("counting", options or {}, [{"name": "Alice"}, {"name": "Bob"},
                                                                          {"name": "Carol"}])
    phones = [await sync_to_async(phone_for)(table, i) for i in range(3)]
    return table, phones


async def open_socket(code: str, *headers, screen: bool = False) -> WebsocketCommunicator:
    comm = socket_for(code, *headers, screen=screen)
    connected, _ = await comm.connect()
    assert connected
    await recv(comm)  # the first push: every region
    return comm


FRAME = re.compile(r'<i id="r-frame" hidden data-frame="([^"]*)" hx-swap-oob="true"></i>$')


async def recv(comm: WebsocketCommunicator) -> str:
    """The next frame; a push's frame id is kept as the page keeps it (its heartbeat names it)."""
    frame = await comm.receive_from(5)
    if m := FRAME.search(frame):
        comm.shown = m.group(1)
    return frame


async def send(comm: WebsocketCommunicator, message: dict | str) -> None:
    await comm.send_to(text_data=message if isinstance(message, str) else json.dumps(message))


async def until_pong(comm: WebsocketCommunicator, ping: int = 1) -> list[str]:
    """Every frame up to the pong of heartbeat ``ping`` (sent here): what the socket answered the messages before it."""
    await send(comm, {"frame": getattr(comm, "shown", ""), "ping": ping})
    frames = []
    while True:
        frame = await recv(comm)
        if frame == f'<i id="r-pong" hidden data-ping="{ping}"></i>':
            return frames
        frames.append(frame)


def refusals(frames: list[str]) -> list[str]:
    return [m.group(1) for f in frames for m in [REFUSAL.search(f)] if m]


async def moves_of(table: Table) -> list[tuple[int | None, dict]]:
    return await sync_to_async(lambda: [(a.seat, a.payload) for a in Action.objects.filter(
        table_id=table.id, kind=Action.Kind.GAME).order_by("seq")])()


async def version_of(table: Table) -> int:
    return await sync_to_async(lambda: Table.objects.get(id=table.id).version)()


async def test_a_move_over_the_socket_is_applied_once_and_every_phone_gets_the_push():
    table, (alice, bob, _) = await table_and_phones()
    a = await open_socket(table.code, cookie_header(alice, table.code))
    b = await open_socket(table.code, cookie_header(bob, table.code))
    await send(a, {"action": {"kind": "draw"}, "version": 0, "key": "t-1"})
    pushed_b = await recv(b)
    assert 'data-version="1"' in pushed_b and "Alice plays a card." in pushed_b
    answered = await until_pong(a)
    assert any('data-version="1"' in f for f in answered), "the tapping socket pushes like every other"
    assert refusals(answered) == [], "a done tap is answered by nothing but the push"
    assert await moves_of(table) == [(0, (await moves_of(table))[0][1])] and await version_of(table) == 1
    for comm in (a, b):
        await comm.disconnect()


async def test_a_heartbeat_right_after_a_move_is_ponged_after_the_moves_push_with_no_message_of_its_own(
        monkeypatch):
    from channels.layers import get_channel_layer

    told: list[str] = []
    layer = get_channel_layer()  # the sockets' own (in memory, or Redis's pub/sub layer in make test-scale)
    for name in ("send", "group_send"):
        real = getattr(layer, name)

        async def noted(target, message, real=real):
            told.append(message["type"])
            await real(target, message)

        monkeypatch.setattr(layer, name, noted)
    table, (alice, *_) = await table_and_phones()
    a = await open_socket(table.code, cookie_header(alice, table.code))
    await send(a, {"action": {"kind": "draw"}, "version": 0, "key": "t-now"})
    answered = await until_pong(a)  # sent at once, while the write may still be going on
    assert [i for i, f in enumerate(answered) if 'data-version="1"' in f] == [0], answered
    # The move's own push answers it: no "tap.done" goes through the channel layer (a round trip to Redis when
    # scaled out); only the group's table.revision, and the pong when it waited for the tap.
    assert "tap.done" not in told and "table.revision" in told, told
    await a.disconnect()


async def test_a_resent_tap_is_one_move():
    table, (alice, *_) = await table_and_phones()
    a = await open_socket(table.code, cookie_header(alice, table.code))
    tap = {"action": {"kind": "draw"}, "version": 0, "key": "t-abcdef-0-1234"}
    for _ in range(3):
        await send(a, tap)
    answered = await until_pong(a)
    assert refusals(answered) == [], answered
    assert len(await moves_of(table)) == 1 and await version_of(table) == 1
    await a.disconnect()


async def test_a_stale_tap_is_refused_with_the_regions_the_phone_is_missing():
    table, (alice, *_) = await table_and_phones()
    a = await open_socket(table.code, cookie_header(alice, table.code))
    await sync_to_async(submit_action)(table.code, 0, {"kind": "draw"}, 0)
    assert 'data-version="1"' in await recv(a)
    hand = await sync_to_async(lambda: Table.objects.get(id=table.id).state["hands"][0][0])()
    await send(a, {"action": {"kind": "play", "card": hand}, "version": 0, "key": "t-stale"})
    answered = await until_pong(a)
    assert refusals(answered) == ["stale_version"]
    regions = answered[0]
    assert 'id="r-meta"' in regions and 'data-version="1"' in regions and 'id="r-board"' in regions, \
        "the regions come first, every one of them (the socket no longer trusts what it thought the phone shows)"
    assert "moved on" in answered[-1]
    assert await version_of(table) == 1
    await a.disconnect()


async def test_an_illegal_move_gets_the_engines_code_and_changes_nothing():
    table, (_, bob, _) = await table_and_phones()
    b = await open_socket(table.code, cookie_header(bob, table.code))
    await send(b, {"action": {"kind": "draw"}, "version": 0, "key": "t-early"})  # Alice's turn
    answered = await until_pong(b)
    codes = refusals(answered)
    assert len(codes) == 1 and codes[0] not in ("stale_version", "bad_message", "no_seat"), codes
    assert await moves_of(table) == []
    await b.disconnect()


async def test_a_table_screen_cannot_act_even_with_a_seat_cookie():
    table, (alice, *_) = await table_and_phones()
    screen = await open_socket(table.code, cookie_header(alice, table.code), screen=True)
    await send(screen, {"action": {"kind": "draw"}, "version": 0, "key": "t-screen"})
    await send(screen, {"command": "undo_mine", "args": {}, "version": 0, "key": "t-screen-undo"})
    assert refusals(await until_pong(screen)) == ["no_seat", "no_seat"]
    assert await moves_of(table) == []
    await screen.disconnect()


@pytest.mark.parametrize(("message", "code"), [
    ("not json", "bad_json"),
    ("[1, 2]", "bad_message"),
    ('{"frame": 5}', "bad_message"),
    ({"action": "draw", "version": 0, "key": "k"}, "bad_action"),
    ({"action": {"kind": "draw"}, "version": "0", "key": "k"}, "bad_version"),
    ({"action": {"kind": "draw"}, "version": True, "key": "k"}, "bad_version"),
    ({"action": {"kind": "draw"}, "key": "k"}, "bad_version"),
    ({"action": {"kind": "draw"}, "version": 0, "key": 7}, "bad_key"),
    ({"action": {"kind": "draw"}, "version": 0, "key": "k" * 81}, "bad_key"),
    ({"action": {"kind": "draw"}, "version": 0, "key": "k", "seat": 1}, "bad_message"),
    ({"command": "end_game", "args": {}, "version": 0, "key": "k"}, "unknown_command"),
    ({"command": "undo_mine", "args": {"seat": 1}, "version": 0, "key": "k"}, "bad_message"),
    ({"command": "correction", "args": {"id": "1", "answer": "yes"}, "version": 0, "key": "k"}, "bad_message"),
    ({"action": {"kind": "draw", "pad": "x" * 9000}, "version": 0, "key": "k"}, "too_large"),
    ('{"action": ' + "[" * 600 + "]" * 600 + ', "version": 0}', "too_deep"),
    ({"action": {"kind": "draw", "card": "\u0000"}, "version": 0, "key": "k"}, "nul_character"),
    ({"action": {}, "version": 0, "key": "k"}, None),
    ({"action": {"kind": 5}, "version": 0, "key": "k"}, None),
    ({"action": {"kind": ["draw"]}, "version": 0, "key": "k"}, None),
    ({"action": {"kind": "draw", "card": {"a": [1, None, 2.5]}}, "version": 0, "key": "k"}, None),
    ({"action": {"kind": "draw"}, "version": 2**40, "key": "k"}, "bad_version"),
    ({"action": {"kind": "draw"}, "version": -1, "key": "k"}, "bad_version"),
    ({"action": {"kind": "draw"}, "version": 0.0, "key": "k"}, "bad_version"),
    ({"action": {"kind": "draw"}, "version": None, "key": "k"}, "bad_version"),
    (" ", "bad_json"),
    ("null", "bad_message"),
    ('{"frame": "x", "ping": -1}', "bad_message"),
])
async def test_a_bad_message_gets_a_clear_refusal_and_the_socket_stays_open(message, code):
    """``code`` None: whatever stable code the action's schema gives, as long as it is one refusal."""
    table, (alice, *_) = await table_and_phones()
    a = await open_socket(table.code, cookie_header(alice, table.code))
    await send(a, message)
    answered = await until_pong(a)
    assert len(refusals(answered)) == 1 and refusals(answered)[0] == (code or refusals(answered)[0]), answered
    assert "<p class=\"banner error\"" in answered[0] and len(re.sub(r"<[^>]+>", "", answered[0]).strip()) > 10
    await send(a, {"action": {"kind": "draw"}, "version": 0, "key": "t-after"})  # the socket still takes taps
    assert refusals(await until_pong(a, 2)) == []
    assert len(await moves_of(table)) == 1
    await a.disconnect()


async def test_a_binary_message_is_refused_and_the_socket_stays_open():
    table, (alice, *_) = await table_and_phones()
    a = await open_socket(table.code, cookie_header(alice, table.code))
    await a.send_to(bytes_data=b'{"action": {"kind": "draw"}, "version": 0, "key": "k"}')
    assert refusals(await until_pong(a)) == ["bad_json"]
    assert await moves_of(table) == []
    await a.disconnect()


async def test_a_refusal_is_in_the_phones_language_with_the_rule_link_where_a_section_explains_it():
    table, (_, bob, _) = await table_and_phones()
    b = await open_socket(table.code, cookie_header(bob, table.code), (b"accept-language", b"fa"))
    await send(b, {"action": "x", "version": 0, "key": "k"})
    frame = (await until_pong(b))[0]
    assert re.search("[\u0600-\u06ff]", re.sub(r"<[^>]+>", "", frame)), frame
    await b.disconnect()


async def test_undo_my_move_and_a_correction_answer_go_over_the_socket():
    table, (alice, bob, carol) = await table_and_phones({"components": "physical"})
    a = await open_socket(table.code, cookie_header(alice, table.code))
    await send(a, {"action": {"kind": "draw", "card": "1"}, "version": 0, "key": "t-draw"})
    await send(a, {"action": {"kind": "play", "card": "1"}, "version": 1, "key": "t-play"})
    assert refusals(await until_pong(a)) == []
    await send(a, {"command": "undo_mine", "args": {}, "version": 2, "key": "t-undo"})
    assert refusals(await until_pong(a, 2)) == []
    assert await version_of(table) == 3
    kinds = await sync_to_async(lambda: list(Action.objects.filter(table_id=table.id).order_by("seq")
                                             .values_list("kind", flat=True)))()
    assert kinds[-2:] == [Action.Kind.GAME, Action.Kind.UNDO]
    await send(a, {"action": {"kind": "play", "card": "1"}, "version": 3, "key": "t-play-2"})
    assert refusals(await until_pong(a, 3)) == []
    seq = await sync_to_async(lambda: Action.objects.filter(table_id=table.id, kind=Action.Kind.GAME)
                              .order_by("-seq").first().seq)()
    correction = await sync_to_async(propose_correction)(table.code, 1, seq, None)
    c = await open_socket(table.code, cookie_header(carol, table.code))
    await send(c, {"command": "correction", "args": {"id": correction.id, "answer": "no"}, "version": 4, "key": "c"})
    assert refusals(await until_pong(c)) == []
    status = await sync_to_async(lambda: Correction.objects.get(id=correction.id).status)()
    assert status == Correction.Status.REJECTED
    await send(c, {"command": "correction", "args": {"id": correction.id + 1000, "answer": "yes"}, "version": 4,
                   "key": "c2"})
    assert refusals(await until_pong(c, 2)) == ["no_such_correction"]
    for comm in (a, c):
        await comm.disconnect()


async def test_a_heartbeat_of_a_current_phone_is_answered_by_a_pong_only():
    table, (alice, *_) = await table_and_phones()
    a = await open_socket(table.code, cookie_header(alice, table.code))
    assert await until_pong(a, 7) == []
    await a.disconnect()


async def test_a_socket_from_a_foreign_origin_is_refused_at_connect():
    from companion.asgi import application

    table, (alice, *_) = await table_and_phones()
    comm = WebsocketCommunicator(application, f"/ws/tables/{table.code}/",
                                 headers=[(b"origin", b"http://evil.example"), (b"host", b"127.0.0.1"),
                                          cookie_header(alice, table.code)])
    connected, _ = await comm.connect()
    assert not connected
    same = socket_for(table.code, cookie_header(alice, table.code))
    assert (await same.connect())[0], "the control: the same socket from the page's own origin connects"
    await same.disconnect()


async def test_a_tap_the_server_fails_on_is_refused_and_the_socket_goes_on(monkeypatch):
    from games.socket import socket_taps

    table, (alice, *_) = await table_and_phones()
    a = await open_socket(table.code, cookie_header(alice, table.code))

    def broken(code, token, tap):
        raise RuntimeError("a bug")

    working = socket_taps._move
    monkeypatch.setattr(socket_taps, "_move", broken)
    await send(a, {"action": {"kind": "draw"}, "version": 0, "key": "t-1"})
    assert refusals(await until_pong(a)) == ["server_error"]
    monkeypatch.setattr(socket_taps, "_move", working)
    await send(a, {"action": {"kind": "draw"}, "version": 0, "key": "t-2"})
    assert refusals(await until_pong(a, 2)) == [] and len(await moves_of(table)) == 1
    await a.disconnect()


async def test_a_tap_naming_a_key_twice_is_refused_and_moves_nothing():
    table, (alice, _, _) = await table_and_phones()
    a = await open_socket(table.code, cookie_header(alice, table.code))
    await send(a, '{"action": {"kind": "draw"}, "version": 0, "key": "t-1", "version": 5}')
    assert refusals(await until_pong(a)) == ["bad_json"]
    assert await version_of(table) == 0
    await a.disconnect()
