"""Throttles of the public API endpoints (DRF), per client address and scope.

Rates are settings (``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``, from the
environment) and generous: a café of 50 tables of 4 phones behind one address
stays far below them. A throttled request answers 429 ``{code, message}``.

The client address is the socket's (``REMOTE_ADDR``) unless the server is told
how many proxies stand in front of it (``TRUSTED_PROXIES``, DRF's
``NUM_PROXIES``): with N trusted proxies it is the N-th address from the right
of ``X-Forwarded-For`` (the one the nearest trusted proxy saw), so a client
cannot pick its own address by sending the header. The counters live in the
``throttle`` cache: Redis, shared by every worker, when ``REDIS_URL`` is set,
this process's memory otherwise. While Redis fails, a worker counts in its
own memory for :data:`SHARED_RETRY_SECONDS` (a request is never refused or
failed because the cache is away).
"""

from __future__ import annotations

import logging
import time
from array import array
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from rest_framework.throttling import SimpleRateThrottle

log = logging.getLogger(__name__)

SHARED_RETRY_SECONDS = 5.0  # after a failure of the shared throttle cache, count locally this long
_DOWN_UNTIL = [0.0]


class AddressThrottle(SimpleRateThrottle):
    """Counts requests per client address (:meth:`get_ident`, trusted proxies only) within ``scope``."""

    def __init__(self) -> None:
        """Reads the rate of the scope; the cache is chosen per request (:meth:`allow_request`)."""
        self.cache = caches["throttle"]
        super().__init__()

    def get_rate(self) -> str | None:
        """The scope's rate from settings, read on each request (so settings overrides apply at once)."""
        return settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {}).get(self.scope)

    def get_cache_key(self, request: Any, view: Any) -> str:
        """``throttle_<scope>_<address>``."""
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def allow_request(self, request: Any, view: Any) -> bool:
        """DRF's sliding-window count in the ``throttle`` cache; in ``throttle-local`` while the shared one fails."""
        shared = caches["throttle"]
        local = caches["throttle-local"]
        if isinstance(shared, LocMemCache) or _DOWN_UNTIL[0] > time.monotonic():
            self.cache = local
            return super().allow_request(request, view)
        self.cache = shared
        try:
            return super().allow_request(request, view)
        except Exception as exc:  # noqa: BLE001 - any failure of the shared cache: count here instead
            if _DOWN_UNTIL[0] < time.monotonic():
                log.warning("the throttle cache failed (%s); counting in this worker for %.0f s", exc,
                            SHARED_RETRY_SECONDS)
            _DOWN_UNTIL[0] = time.monotonic() + SHARED_RETRY_SECONDS
            self.cache = local
            return super().allow_request(request, view)

    def throttle_success(self) -> bool:
        """Count this request: its time joins the window's times, newest first, kept as one ``array("d")``.

        DRF keeps the window as a list, which the cache pickles one float at a time on every request, so a
        request cost more the more requests the window held; an array of the same times in the same order
        pickles as one block of bytes. A list stored before is read as the array of its times.
        """
        history = self.history if isinstance(self.history, array) else array("d", self.history)
        history.insert(0, self.now)
        self.history = history
        self.cache.set(self.key, history, self.duration)
        return True


class CreateTableThrottle(AddressThrottle):
    """``POST /api/tables/`` (and ``POST /api/imports/``)."""

    scope = "create_table"


class ClaimThrottle(AddressThrottle):
    """``POST /api/tables/{code}/claim/`` (guessing seat tokens)."""

    scope = "claim"


class TableThrottle(AddressThrottle):
    """Every other table endpoint."""

    scope = "table"
