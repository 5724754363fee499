"""Throttles of the public API endpoints (DRF, the ``throttle`` local-memory cache), per client address and scope.

Rates are settings (``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``, from the
environment) and generous: a café of 50 tables of 4 phones behind one address
stays far below them. A throttled request answers 429 ``{code, message}``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.cache import caches
from rest_framework.throttling import SimpleRateThrottle


class AddressThrottle(SimpleRateThrottle):
    """Counts requests per client address (``REMOTE_ADDR``) within ``scope``, in this worker's ``throttle`` cache."""

    cache = caches["throttle"]

    def get_rate(self) -> str | None:
        """The scope's rate from settings, read on each request (so settings overrides apply at once)."""
        return settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {}).get(self.scope)

    def get_cache_key(self, request: Any, view: Any) -> str:
        """``throttle_<scope>_<address>``."""
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class CreateTableThrottle(AddressThrottle):
    """``POST /api/tables/``."""

    scope = "create_table"


class ClaimThrottle(AddressThrottle):
    """``POST /api/tables/{code}/claim/`` (guessing seat tokens)."""

    scope = "claim"


class TableThrottle(AddressThrottle):
    """Every other table endpoint."""

    scope = "table"
