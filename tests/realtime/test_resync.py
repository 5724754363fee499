"""A phone that missed a push resyncs by itself: its heartbeat names the last push it applied."""

from __future__ import annotations

import json
import re

import pytest
from asgiref.sync import sync_to_async

from games.models import Table
from games.write import write_path
from games.write.moves import submit_action
from games.write.pregame import create_table
from tests.conftest import cookie_header, phone_for, socket_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
FRAME = re.compile(r'id="r-frame" hidden data-frame="([^"]*)"')


@pytest.fixture(autouse=True)
def _pushes_are_lost_not_on_their_way(monkeypatch):
    """These phones stand for ones that lost a push, not ones it is still on its way to: a heartbeat naming an
    older frame is answered at once (test_fanout.py covers the heartbeat that crosses a push)."""
    from games.socket import consumers

    monkeypatch.setattr(consumers, "IN_FLIGHT", 0.0)


async def bob_socket():
    table = await sync_to_async(create_table)("counting", {}, [{"name": "Alice"}, {"name": "Bob"}])
    bob = await sync_to_async(phone_for)(table, 1)
    sock = socket_for(table.code, cookie_header(bob, table.code))
    connected, _ = await sock.connect()
    assert connected
    first = await sock.receive_from(5)
    return table, sock, first


async def alice_plays(table, version: int) -> None:
    if version % 2 == 0:
        await sync_to_async(submit_action)(table.code, 0, {"kind": "draw"}, version)
    else:
        card = await sync_to_async(lambda: Table.objects.get(code=table.code).state["hands"][0][0])()
        await sync_to_async(submit_action)(table.code, 0, {"kind": "play", "card": card}, version)


async def test_every_push_names_its_frame_and_a_heartbeat_from_a_current_phone_gets_nothing():
    table, sock, first = await bob_socket()
    frames = [FRAME.search(first).group(1)]
    await alice_plays(table, 0)
    pushed = await sock.receive_from(5)
    frames.append(FRAME.search(pushed).group(1))
    assert frames[0] != frames[1] and all(frames)
    await sock.send_to(text_data=json.dumps({"frame": frames[1]}))
    assert await sock.receive_nothing(0.5)
    await sock.disconnect()


async def test_a_phone_that_lost_two_pushes_gets_what_changed_since_the_last_one_it_applied():
    table, sock, first = await bob_socket()
    applied = FRAME.search(first).group(1)
    await alice_plays(table, 0)
    lost = [await sock.receive_from(5)]
    await alice_plays(table, 1)
    lost.append(await sock.receive_from(5))
    assert 'data-version="2"' in lost[1]
    await sock.send_to(text_data=json.dumps({"frame": applied}))
    resync = await sock.receive_from(5)
    assert 'data-version="2"' in resync
    assert '<li id="log-1"' in resync and '<li id="log-2"' in resync, "both lost log lines come back"
    assert "Drew a card." in resync and "Played a" in resync
    assert 'id="r-links"' not in resync, "a region unchanged since the applied frame is not resent"
    assert FRAME.search(resync).group(1) not in (applied, FRAME.search(lost[1]).group(1))
    await sock.disconnect()


async def test_a_lost_group_message_is_caught_up_by_the_next_heartbeat(monkeypatch):
    table, sock, first = await bob_socket()
    monkeypatch.setattr(write_path, "broadcast_revision", lambda *args, **kwargs: False)  # the layer drops it
    await alice_plays(table, 0)
    assert await sock.receive_nothing(0.3)
    await sock.send_to(text_data=json.dumps({"frame": FRAME.search(first).group(1)}))
    caught_up = await sock.receive_from(5)
    assert 'data-version="1"' in caught_up and "Alice plays a card." in caught_up
    await sock.disconnect()


async def test_a_heartbeat_naming_a_frame_the_socket_never_sent_gets_every_region():
    table, sock, _ = await bob_socket()
    await sock.send_to(text_data=json.dumps({"frame": "someone-else.7"}))
    full = await sock.receive_from(5)
    assert all(f'id="r-{name}"' in full for name in ("status", "board", "log", "links", "meta"))
    await sock.disconnect()


async def test_a_burst_of_heartbeats_naming_unknown_frames_gets_one_whole_page():
    """Each such heartbeat would cost a render of every region (about 18 KB): a burst gets one, not one each."""
    table, sock, _ = await bob_socket()
    for n in range(20):
        await sock.send_to(text_data=json.dumps({"frame": f"someone-else.{n}"}))
    full = await sock.receive_from(5)
    assert 'id="r-board"' in full
    assert await sock.receive_nothing(timeout=0.5)
    await sock.disconnect()


async def test_a_push_to_a_socket_the_phone_just_closed_is_not_a_server_error():
    """In a reconnect storm a push raced the phone's close: daphne raised "Attempt to send on a closed
    protocol" out of the consumer, one traceback in the server log per lost socket."""
    from collections import OrderedDict

    from autobahn.exception import Disconnected

    from games.read import regions
    from games.socket.consumers import TableConsumer

    consumer = TableConsumer()
    consumer.socket_id, consumer.frames, consumer.history, consumer.sent = "s", 0, OrderedDict(), regions.Sent()
    consumer.live = True  # open as far as the server knows

    async def gone(**kwargs):
        raise Disconnected("Attempt to send on a closed protocol")

    consumer.send = gone
    await consumer._send_frame('<div id="r-meta"></div>')
    assert consumer.last_frame == "s.1"


async def test_a_push_reaches_the_phone_and_a_heartbeat_naming_it_gets_no_resend():
    """The table's feed tells the socket of the move; the push arrives, and a heartbeat naming the frame just
    applied is answered with nothing more."""
    table, sock, first = await bob_socket()
    await alice_plays(table, 0)
    pushed = await sock.receive_from(5)
    await sock.send_to(text_data=json.dumps({"frame": FRAME.search(pushed).group(1)}))  # a heartbeat
    assert await sock.receive_nothing(0.5)
    assert 'data-version="1"' in pushed
    await sock.disconnect()
