"""A socket's consumer on a busy worker keeps listening through the channel layer's blocking pop.

Run by ``make test-scale`` (REDIS_URL set). channels_redis waits for a consumer's next message with a
blocking pop that Redis ends after ``brpop_timeout`` (5 s); redis-py 8 reads each answer with a 5 s socket
timeout unless told otherwise. When the worker's event loop was busy (rendering pushes for many phones)
just as Redis answered, the read timed out, ``redis.exceptions.TimeoutError: Timeout reading from
127.0.0.1:6379`` killed the consumer and the phone's socket closed with 1006 (18 sockets in a 60-table
load run on two workers). companion/settings.py gives the layer a longer read timeout.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from channels_redis.core import RedisChannelLayer
from django.conf import settings


def test_the_scale_out_layer_reads_longer_than_its_blocking_pop():
    config = settings.CHANNEL_LAYERS["default"]
    assert config["BACKEND"] == "channels_redis.core.RedisChannelLayer", "make test-scale sets REDIS_URL"
    layer = RedisChannelLayer(**config["CONFIG"])
    timeout = layer.create_pool(0).connection_kwargs.get("socket_timeout")
    assert timeout is not None and timeout > layer.brpop_timeout + 5


@pytest.mark.asyncio
async def test_a_message_waited_for_across_a_busy_moment_arrives():
    layer = RedisChannelLayer(**settings.CHANNEL_LAYERS["default"]["CONFIG"])
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
