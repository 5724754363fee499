"""The embedded default's channel layer sweeps expired entries at most once a second (companion/channel_layer.py)."""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import ThreadPoolExecutor

from channels.layers import InMemoryChannelLayer
from django.conf import settings

from companion.channel_layer import SweepingInMemoryChannelLayer


def in_own_loop(coroutine_function, *args) -> None:
    """Run the layer in an event loop of its own thread (whatever loop an earlier test left in this one)."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, coroutine_function(*args)).result()


def test_the_embedded_default_uses_the_sweeping_layer():
    expected = "channels_redis.pubsub.RedisPubSubChannelLayer" if os.environ.get("REDIS_URL") \
        else "companion.channel_layer.SweepingInMemoryChannelLayer"
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == expected


def test_a_send_to_one_table_does_not_walk_every_socket_of_the_cafe(monkeypatch):
    in_own_loop(_one_table_does_not_walk_every_socket, monkeypatch)


async def _one_table_does_not_walk_every_socket(monkeypatch):
    walks = []
    stock = InMemoryChannelLayer._clean_expired

    def counted(self):
        walks.append(1)
        return stock(self)

    monkeypatch.setattr(InMemoryChannelLayer, "_clean_expired", counted)
    layer = SweepingInMemoryChannelLayer()
    phones = [await layer.new_channel() for _ in range(200)]  # 50 tables of 4 phones
    for i, phone in enumerate(phones):
        await layer.group_add(f"table_{i // 4}", phone)
    for move in range(50):
        await layer.group_send(f"table_{move}", {"type": "table.version", "version": move})
        for phone in phones[move * 4:move * 4 + 4]:
            assert (await layer.receive(phone))["version"] == move
    assert len(walks) == 1, "250 sends and receives within a second: one sweep (the stock layer walks 250 times)"


def test_expired_messages_and_memberships_are_still_dropped():
    in_own_loop(_expired_are_still_dropped)


async def _expired_are_still_dropped():
    layer = SweepingInMemoryChannelLayer(expiry=0.05, group_expiry=1)
    layer.SWEEP_SECONDS = 0.1
    stale, fresh = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("table_x", stale)
    await layer.send(stale, {"type": "table.version", "version": 1})
    await asyncio.sleep(1.2)  # the message (0.05 s) and the membership (1 s) have both expired
    await layer.send(fresh, {"type": "table.version", "version": 2})
    assert (await layer.receive(fresh))["version"] == 2  # this receive sweeps
    assert stale not in layer.channels, "the expired message was dropped"
    assert stale not in layer.groups.get("table_x", {}), "the expired membership was dropped"


def test_each_test_gets_a_channel_layer_of_its_own():
    """No receive state of one test's event loop (channels_redis's locks) reaches the next test's sockets."""
    from channels.layers import get_channel_layer

    from tests.conftest import fresh_channel_layers

    before = get_channel_layer()
    assert get_channel_layer() is before
    fresh_channel_layers()
    assert get_channel_layer() is not before
