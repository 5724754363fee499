"""A socket's consumer on a busy worker keeps listening through the channel layer's blocking pop.

Run by ``make test-scale`` (REDIS_URL set). channels_redis waits for a consumer's next message with a
blocking pop that Redis ends after ``brpop_timeout`` (5 s); redis-py 8 reads each answer with a 5 s socket
timeout unless told otherwise. When the worker's event loop is busy (rendering pushes for many phones)
just as Redis answers, that read times out, ``redis.exceptions.TimeoutError: Timeout reading from
127.0.0.1:6379`` kills the consumer and the phone's socket closes with 1006. companion/settings.py gives
the layer a longer read timeout.

And a reconnect storm: redis-py's pool refuses the 101st command in flight (``MaxConnectionsError: Too
many connections``); companion/channel_layer.py makes the pool wait.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from django.conf import settings
from django.utils.module_loading import import_string


def make_layer():
    """A fresh layer built as settings.CHANNEL_LAYERS builds it (its own pools, this test's event loop)."""
    config = settings.CHANNEL_LAYERS["default"]
    return import_string(config["BACKEND"])(**config["CONFIG"])


def test_the_scale_out_layer_reads_longer_than_its_blocking_pop():
    assert "Redis" in settings.CHANNEL_LAYERS["default"]["BACKEND"], "make test-scale sets REDIS_URL"
    layer = make_layer()
    timeout = layer.create_pool(0).connection_kwargs.get("socket_timeout")
    assert timeout is not None and timeout > layer.brpop_timeout + 5


@pytest.mark.asyncio
async def test_a_message_waited_for_across_a_busy_moment_arrives():
    layer = make_layer()
    try:
        channel = await layer.new_channel()
        waiting = asyncio.ensure_future(layer.receive(channel))
        await asyncio.sleep(layer.brpop_timeout - 0.4)
        time.sleep(0.9)  # the loop is busy while Redis answers the empty pop
        await layer.send(channel, {"type": "table.version", "version": 7})
        message = await asyncio.wait_for(waiting, 15)
        assert message == {"type": "table.version", "version": 7}
    finally:
        await layer.close_pools()


@pytest.mark.asyncio
async def test_a_reconnect_storm_of_300_sockets_joins_and_leaves_every_group():
    layer = make_layer()
    try:
        channels = [await layer.new_channel() for _ in range(300)]
        group = "storm-test"
        await asyncio.gather(*(layer.group_add(group, c) for c in channels))
        await layer.group_send(group, {"type": "table.version", "version": 1})
        got = await asyncio.gather(*(asyncio.wait_for(layer.receive(c), 15) for c in channels))
        assert all(m == {"type": "table.version", "version": 1} for m in got), "every socket joined its group"
        await asyncio.gather(*(layer.group_discard(group, c) for c in channels))
        connection = layer.connection(layer.consistent_hash(group))
        assert await connection.zcard(layer._group_key(group)) == 0, "every socket left its group"
    finally:
        await layer.close_pools()


@pytest.mark.asyncio
async def test_a_worker_that_fell_behind_by_500_pushes_still_gets_them_all():
    """channels_redis keeps one Redis key for all of a worker's sockets and drops group messages beyond its
    ``capacity`` (100 by default, logged at INFO only): at 200 tables on 2 busy workers, 79 moves never
    reached some phone. The scale-out layer's capacity lets a worker catch up on a long backlog."""
    layer = make_layer()
    try:
        sockets = [await layer.new_channel() for _ in range(4)]  # one table's phones, all on this worker
        group = "backlog-test"
        await asyncio.gather(*(layer.group_add(group, c) for c in sockets))
        for version in range(1, 501):  # the worker's event loop is busy: nothing is received meanwhile
            await layer.group_send(group, {"type": "table.version", "version": version})
        got = [await asyncio.wait_for(layer.receive(sockets[0]), 15) for _ in range(500)]
        assert [m["version"] for m in got] == list(range(1, 501))
        await asyncio.gather(*(layer.group_discard(group, c) for c in sockets))
    finally:
        await layer.close_pools()
