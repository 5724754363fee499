"""The channel layers: channels_redis with pools that wait (scale-out), the in-memory one with cheap sweeps (embedded).

channels_redis builds each Redis pool with redis-py's ``ConnectionPool``, which raises
``MaxConnectionsError: Too many connections`` as soon as 100 commands of one worker are in flight at once.
A reconnect storm (a table room's Wi-Fi drops, 200 phones per worker reopen their sockets together) does
exactly that: every closing socket's ``group_discard`` and every opening one's ``group_add`` needs a
connection at the same moment (38 consumers crashed at 100 tables of 4 phones on 2 workers; a failed
``group_add`` leaves a phone that never hears of a move). A ``BlockingConnectionPool`` of the same size
queues those commands for up to ``timeout`` seconds instead.
"""

from __future__ import annotations

import time
from typing import Any

from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer
from redis.asyncio import BlockingConnectionPool


class WaitingRedisChannelLayer(RedisChannelLayer):
    """``channels_redis.core.RedisChannelLayer`` whose pools wait for a free connection.

    Each ``hosts`` entry is ``{"address": "redis://...", **pool options}`` (``max_connections``: the
    pool's size per worker and event loop; ``timeout``: seconds a command waits for a connection before
    ``ConnectionError``; ``socket_timeout``: seconds a read may take). Other forms of ``hosts`` entries
    are built as channels_redis builds them.
    """

    def create_pool(self, index: int) -> Any:
        host = dict(self.hosts[index])
        if "address" not in host:
            return super().create_pool(index)
        return BlockingConnectionPool.from_url(host.pop("address"), **host)


class SweepingInMemoryChannelLayer(InMemoryChannelLayer):
    """Channels' ``InMemoryChannelLayer`` (the embedded default) that sweeps expired entries at most once a second.

    The stock layer walks every channel queue and every group membership of the process on each
    ``receive`` and ``group_send`` (``_clean_expired``): a move on one table of 4 phones costs 5 walks of
    all the café's sockets, so the cost of one move grows with the number of tables open. Expiry is
    counted in whole seconds and minutes (``expiry`` 60 s, ``group_expiry`` a day), so a sweep per
    :attr:`SWEEP_SECONDS` drops the same messages and memberships, at most that much later.
    """

    SWEEP_SECONDS = 1.0

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._next_sweep = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now < self._next_sweep:
            return
        self._next_sweep = now + self.SWEEP_SECONDS
        super()._clean_expired()
