"""The scale-out channel layer (channels_redis's pub/sub layer, companion/settings.py) under a worker's hard moments.

Run by ``make test-scale`` (REDIS_URL set). Each test builds the layer as the settings do, in its own event loop:
a socket's message arrives across a moment the worker's loop is busy; a worker whose subscription connection Redis
dropped hears the next moves again; a reconnect storm of 300 sockets joins and leaves a table's group (Redis keeps
no subscription behind); a worker that fell 500 moves behind gets every push.
"""

from __future__ import annotations

import asyncio
import time

import pytest
import redis.asyncio
from django.conf import settings
from django.utils.module_loading import import_string


def make_layer():
    """A fresh layer built as settings.CHANNEL_LAYERS builds it (its own connections, this test's event loop)."""
    config = settings.CHANNEL_LAYERS["default"]
    return import_string(config["BACKEND"])(**config["CONFIG"])


def redis_client() -> redis.asyncio.Redis:
    """A plain client of the layer's Redis (to look at and act on its subscriptions)."""
    return redis.asyncio.from_url(settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]["address"])


async def pubsub_clients(client: redis.asyncio.Redis) -> set[str]:
    """The ids of the connections Redis holds in subscriber mode now."""
    listed = await client.execute_command("CLIENT", "LIST", "TYPE", "pubsub")
    text = listed.decode() if isinstance(listed, bytes) else str(listed)
    return {field[3:] for line in text.splitlines() for field in line.split() if field.startswith("id=")}


async def subscribers(group: str) -> int:
    """How many subscriptions Redis holds for the layer's channel of ``group``."""
    client = redis_client()
    try:
        counts = dict(await client.pubsub_numsub(f"asgi__group__{group}"))
        return next(iter(counts.values()), 0)
    finally:
        await client.aclose()


def test_make_test_scale_runs_on_the_redis_layer():
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer", \
        "make test-scale sets REDIS_URL"


@pytest.mark.asyncio
async def test_a_message_waited_for_across_a_busy_moment_arrives():
    layer = make_layer()
    try:
        channel = await layer.new_channel()
        waiting = asyncio.ensure_future(layer.receive(channel))
        await asyncio.sleep(0.3)
        time.sleep(0.9)  # the loop is busy (rendering pushes) while the layer's reader waits for Redis
        await layer.send(channel, {"type": "table.version", "version": 7})
        message = await asyncio.wait_for(waiting, 15)
        assert message == {"type": "table.version", "version": 7}
    finally:
        await layer.flush()


@pytest.mark.asyncio
async def test_a_worker_whose_subscription_redis_dropped_hears_the_next_moves():
    """Redis closes the worker's subscriber connection (a restart, a failover, a killed client): the layer opens
    a new one and subscribes again, so the moves after it reach the table's sockets; those published while it
    was gone are the phones' to catch up on a heartbeat."""
    worker, writer, client = make_layer(), make_layer(), redis_client()
    try:
        before = await pubsub_clients(client)
        socket = await worker.new_channel()
        await worker.group_add("dropped-test", socket)
        await writer.group_send("dropped-test", {"type": "table.version", "version": 1})
        assert (await asyncio.wait_for(worker.receive(socket), 5))["version"] == 1
        ours = await pubsub_clients(client) - before
        assert ours, "the worker's subscriber connection is listed"
        for client_id in ours:
            await client.execute_command("CLIENT", "KILL", "ID", client_id)
        heard = None
        for version in range(2, 12):  # a move a second, for up to ten seconds
            await asyncio.sleep(1.0)
            await writer.group_send("dropped-test", {"type": "table.version", "version": version})
            try:
                heard = await asyncio.wait_for(worker.receive(socket), 1.0)
                break
            except TimeoutError:
                continue
        assert heard is not None, "no move reached the worker after Redis dropped its subscription"
    finally:
        await worker.flush()
        await writer.flush()
        await client.aclose()


@pytest.mark.asyncio
async def test_a_reconnect_storm_of_300_sockets_joins_and_leaves_every_group():
    layer = make_layer()
    try:
        channels = [await layer.new_channel() for _ in range(300)]
        group = "storm-test"
        await asyncio.gather(*(layer.group_add(group, c) for c in channels))
        assert await subscribers(group) == 1, "one subscription per worker and group, whatever the sockets"
        await layer.group_send(group, {"type": "table.version", "version": 1})
        got = await asyncio.gather(*(asyncio.wait_for(layer.receive(c), 15) for c in channels))
        assert all(m == {"type": "table.version", "version": 1} for m in got), "every socket joined its group"
        await asyncio.gather(*(layer.group_discard(group, c) for c in channels))
        assert await subscribers(group) == 0, "every socket left its group: Redis keeps no subscription behind"
    finally:
        await layer.flush()


@pytest.mark.asyncio
async def test_a_worker_that_fell_behind_by_500_pushes_still_gets_them_all():
    """A worker whose event loop is busy for 500 moves of one table receives every one of them afterwards, in order."""
    layer = make_layer()
    try:
        sockets = [await layer.new_channel() for _ in range(4)]  # one table's phones, all on this worker
        group = "backlog-test"
        await asyncio.gather(*(layer.group_add(group, c) for c in sockets))
        for version in range(1, 501):  # nothing is received meanwhile
            await layer.group_send(group, {"type": "table.version", "version": version})
        for socket in sockets:
            got = [await asyncio.wait_for(layer.receive(socket), 15) for _ in range(500)]
            assert [m["version"] for m in got] == list(range(1, 501))
        await asyncio.gather(*(layer.group_discard(group, c) for c in sockets))
    finally:
        await layer.flush()
