"""A table's revisions reach each process once (games/socket/fanout.py): one group membership per table and process,
one snapshot made per move message, each socket told in turn and pushing in its own order."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from games.read import snapshots
from games.socket import fanout
from games.write.moves import submit_action
from tests.conftest import cookie_header, socket_for
from tests.realtime.test_socket_taps import open_socket, recv, send, table_and_phones, until_pong

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _watch_groups(monkeypatch) -> list[tuple[str, str, str]]:
    """The group calls of the sockets' own layer (in memory, or Redis's pub/sub layer in make test-scale)."""
    calls: list[tuple[str, str, str]] = []
    layer = get_channel_layer()
    for name in ("group_add", "group_discard"):
        real = getattr(layer, name)

        async def noted(group, channel, real=real, name=name):
            calls.append((name, group, channel))
            await real(group, channel)

        monkeypatch.setattr(layer, name, noted)
    return calls


async def test_a_table_s_phones_in_one_process_join_its_group_once_and_the_last_one_out_leaves_it(monkeypatch):
    calls = _watch_groups(monkeypatch)
    table, phones = await table_and_phones()
    sockets = [await open_socket(table.code, cookie_header(p, table.code)) for p in phones]
    screen = await open_socket(table.code, screen=True)
    assert [c[0] for c in calls] == ["group_add"], calls
    assert calls[0][1] == f"table_{table.code}"
    for comm in (*sockets[:2], screen):
        await comm.disconnect()
    assert [c[0] for c in calls] == ["group_add"], "a phone of the table is still here"
    await sockets[2].disconnect()
    assert [c[0] for c in calls] == ["group_add", "group_discard"] and calls[1][1:] == calls[0][1:], calls
    assert table.code not in fanout.fanout().feeds


async def test_one_move_message_makes_its_snapshot_once_and_every_phone_gets_its_push(monkeypatch):
    made: list[int] = []
    real = snapshots.from_move
    monkeypatch.setattr(snapshots, "from_move", lambda code, revision, move: made.append(revision) or
                        real(code, revision, move))
    table, phones = await table_and_phones()
    sockets = [await open_socket(table.code, cookie_header(p, table.code)) for p in phones]
    screen = await open_socket(table.code, screen=True)
    await sync_to_async(submit_action)(table.code, 0, {"kind": "draw"}, 0)
    for comm in (*sockets, screen):
        assert 'data-version="1"' in await recv(comm)
    assert len(made) == 1, made
    for comm in (*sockets, screen):
        assert await comm.receive_nothing(0.2), "one push per phone"
        await comm.disconnect()


async def test_the_tapping_phone_gets_its_move_once_and_a_heartbeat_that_crossed_a_push_resends_nothing(
        monkeypatch):
    """The tap's own task pushes the move; the feed then finds it shown. The heartbeat a page sends right after its
    taps names the frame it had before them, as does a bystander's heartbeat sent while another seat's move is on
    its way: what went out since is on its way, not lost. Named again later, it is a lost push, resent."""
    from games.socket import consumers

    table, (alice, bob, _) = await table_and_phones()
    a = await open_socket(table.code, cookie_header(alice, table.code))
    b = await open_socket(table.code, cookie_header(bob, table.code))
    before_a, before_b = a.shown, b.shown
    await send(a, {"action": {"kind": "draw"}, "version": 0, "key": "t-once"})
    await send(a, {"frame": before_a, "ping": 7})
    answered = []
    while (frame := await recv(a)) != '<i id="r-pong" hidden data-ping="7"></i>':
        answered.append(frame)
    assert [f for f in answered if 'data-version="1"' in f] == answered and len(answered) == 1, answered
    assert 'data-version="1"' in await recv(b)
    await send(b, {"frame": before_b, "ping": 3})  # sent before Bob's phone applied the push
    assert await recv(b) == '<i id="r-pong" hidden data-ping="3"></i>'
    # Named again once the push had time to arrive, the frame before it stands for a lost push: resent.
    monkeypatch.setattr(consumers, "IN_FLIGHT", 0.0)
    await send(a, {"frame": before_a, "ping": 8})
    resent = await until_pong(a, 9)
    assert any('data-version="1"' in f for f in resent), resent
    for comm in (a, b):
        await comm.disconnect()


async def test_a_phone_that_reconnects_and_names_no_frame_before_its_first_push_gets_that_push_once():
    """table.js names no frame ("") on a new socket until the first push arrives; the heartbeat that goes with the
    taps it resends crosses that push."""
    table, (alice, *_) = await table_and_phones()
    a = await open_socket(table.code, cookie_header(alice, table.code))
    await send(a, {"frame": "", "ping": 4})
    assert await recv(a) == '<i id="r-pong" hidden data-ping="4"></i>', "the whole page again"
    await a.disconnect()


async def test_a_tap_s_push_goes_before_the_pong_of_the_heartbeat_after_it_whenever_the_feed_hears_of_it(
        monkeypatch):
    """A move and a command (undo my move) are each answered by the tapping socket's own push of the revision they
    made, before the pong of the heartbeat sent after them, however late the table's group message comes (scaled
    out it comes back through Redis): here it never does."""
    monkeypatch.setattr(fanout, "hand", lambda feed, message: None)
    table, (alice, *_) = await table_and_phones({"components": "physical"})
    a = await open_socket(table.code, cookie_header(alice, table.code))
    await send(a, {"action": {"kind": "draw", "card": "1"}, "version": 0, "key": "t-undo-1"})
    await send(a, {"action": {"kind": "play", "card": "1"}, "version": 1, "key": "t-undo-2"})
    assert any('data-version="2"' in f for f in await until_pong(a, 1))
    assert await until_pong(a, 9) == []  # current: the socket looked at the table's row, not again for 15 s
    await send(a, {"command": "undo_mine", "args": {}, "version": 2, "key": "t-undo-3"})
    answered = await until_pong(a, 2)
    assert any('data-version="3"' in f for f in answered), answered
    await a.disconnect()


async def test_a_socket_that_ends_on_a_fault_leaves_its_table_s_feed(monkeypatch):
    from games.socket import consumers

    table, (alice, *_) = await table_and_phones()

    async def broken(self, frame):
        raise RuntimeError("a fault while sending the first frame")

    monkeypatch.setattr(consumers.TableConsumer, "_send_frame", broken)
    comm = socket_for(table.code, cookie_header(alice, table.code))
    await comm.connect()
    with pytest.raises(RuntimeError):
        await comm.wait(2)  # the consumer ended on the fault, with no disconnect
    assert table.code not in fanout.fanout().feeds


class FakeLayer:
    """A channel layer that notes its group calls; ``group_add`` fails while ``failing``, waits while ``held``."""

    def __init__(self, group_expiry=None):
        self.calls: list[tuple[str, str]] = []
        self.failing = False
        self.held: dict[str, asyncio.Event] = {}
        self.queues: dict[str, asyncio.Queue] = {}
        self.receiving: set[str] = set()
        if group_expiry is not None:
            self.group_expiry = group_expiry

    async def new_channel(self):
        name = f"feed!{len(self.queues)}"
        self.queues[name] = asyncio.Queue()
        return name

    async def group_add(self, group, channel):
        self.calls.append(("add", group))
        if group in self.held:
            await self.held[group].wait()
        if self.failing:
            raise ConnectionError("Redis is away")

    async def group_discard(self, group, channel):
        self.calls.append(("discard", group))

    async def receive(self, channel):
        self.receiving.add(channel)
        try:
            return await self.queues[channel].get()
        finally:
            self.receiving.discard(channel)


class Told:
    def __init__(self, fails=False):
        self.revisions: list[int | None] = []
        self.fails = fails

    def heard(self, revision):
        if self.fails:
            raise ValueError("a broken socket")
        self.revisions.append(revision)


async def test_a_join_whose_group_add_fails_leaves_no_channel_listening_and_no_feed():
    layer = FakeLayer()
    hub = fanout.Fanout(layer)
    layer.failing = True
    with pytest.raises(ConnectionError):
        await hub.join("ABCD", Told())
    assert hub.feeds == {} and layer.receiving == set(), "the channel's reader was ended"
    assert layer.calls == [("add", "table_ABCD"), ("discard", "table_ABCD")]
    layer.failing = False
    socket = Told()
    await hub.join("ABCD", socket)
    await layer.queues["feed!1"].put({"type": "table.revision", "revision": 3, "version": 3})
    await asyncio.sleep(0.01)
    assert socket.revisions == [3]
    await hub.leave("ABCD", socket)
    assert hub.feeds == {} and layer.receiving == set() and layer.calls[-1] == ("discard", "table_ABCD")


async def test_one_table_s_slow_join_does_not_hold_up_another_table_s():
    layer = FakeLayer()
    hub = fanout.Fanout(layer)
    layer.held["table_SLOW"] = asyncio.Event()
    slow = asyncio.ensure_future(hub.join("SLOW", Told()))
    await asyncio.sleep(0.01)  # the slow join holds its table's lock, waiting for the layer
    await asyncio.wait_for(hub.join("FAST", Told()), 1)
    assert "FAST" in hub.feeds and not slow.done()
    layer.held["table_SLOW"].set()
    await slow
    assert set(hub.feeds) == {"SLOW", "FAST"}


async def test_a_membership_that_expires_is_renewed_and_a_broken_socket_does_not_keep_others_from_hearing():
    layer = FakeLayer(group_expiry=0.1)
    hub = fanout.Fanout(layer)
    broken, fine = Told(fails=True), Told()
    await hub.join("ABCD", broken)
    await hub.join("ABCD", fine)
    await asyncio.sleep(0.18)
    assert layer.calls.count(("add", "table_ABCD")) >= 3, layer.calls  # joined, then again every 0.05 s
    await layer.queues["feed!0"].put({"type": "table.revision", "revision": 5, "version": 5})
    await asyncio.sleep(0.01)
    assert fine.revisions == [5]
    for socket in (broken, fine):
        await hub.leave("ABCD", socket)
    calls = len(layer.calls)
    await asyncio.sleep(0.12)
    assert len(layer.calls) == calls, "the renewal ended with the feed"


@pytest.mark.parametrize("code", ["A!B", "A B", "É", "A" * 94])
async def test_a_socket_to_a_code_that_names_no_table_is_refused_like_an_unknown_table(code):
    comm = socket_for(code, screen=True)
    connected, _ = await comm.connect()
    assert not connected
    assert code.upper() not in fanout.fanout().feeds
