"""The embedded default's channel layer: Channels' in-memory layer with cheap sweeps.

Scale-out uses channels_redis's pub/sub layer as it ships (companion/settings.py).
"""

from __future__ import annotations

import time
from typing import Any

from channels.layers import InMemoryChannelLayer


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
