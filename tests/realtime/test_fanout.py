"""A table's revisions reach each process once (games/socket/fanout.py): one group membership per table and process,
one snapshot made per move message, each socket told in turn and pushing in its own order."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from games.read import snapshots
from games.socket import fanout
from games.write.moves import submit_action
from tests.conftest import cookie_header
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


async def test_the_tapping_phone_gets_its_move_once_and_the_heartbeat_after_its_tap_resends_nothing():
    """The tap's own task pushes the move; the feed then finds it shown. The heartbeat the page sends right after
    its taps names the frame it had before them: what went out since is on its way, not lost."""
    table, (alice, bob, _) = await table_and_phones()
    a = await open_socket(table.code, cookie_header(alice, table.code))
    b = await open_socket(table.code, cookie_header(bob, table.code))
    before = a.shown
    await send(a, {"action": {"kind": "draw"}, "version": 0, "key": "t-once"})
    await send(a, {"frame": before, "ping": 7})
    answered = []
    while (frame := await recv(a)) != '<i id="r-pong" hidden data-ping="7"></i>':
        answered.append(frame)
    assert [f for f in answered if 'data-version="1"' in f] == answered and len(answered) == 1, answered
    assert 'data-version="1"' in await recv(b)
    # A later heartbeat that still names the frame before the push is a lost push: what changed since is resent.
    await send(a, {"frame": before, "ping": 8})
    resent = await until_pong(a, 9)
    assert any('data-version="1"' in f for f in resent), resent
    for comm in (a, b):
        await comm.disconnect()
