"""Channels' message dispatch without its thread hop per message (setting ``SOCKET_DISPATCH_WITHOUT_HOP``).

Channels (4.2+) runs ``close_old_connections`` in a worker thread before
every handler of a consumer: on a table of four phones, four thread hops per
move, each costing about as much as rendering the push in the event loop.
:class:`DispatchWithoutHop` skips that hop for consumers that read the
database only through :func:`games.socket_db.run` (their own thread, off
the event loop) and render pushes in the event loop only from memory. This is the one place that
overrides Channels' ``dispatch``; with the setting ``False`` a consumer
dispatches exactly as Channels does (tests/realtime/test_resync.py runs both).
"""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name
from django.conf import settings


class DispatchWithoutHop:
    """A mixin for a Channels consumer: ``dispatch`` calls the handler directly when the setting is on (default)."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Call the handler of ``message["type"]``; ``ValueError`` when the consumer has none (as Channels)."""
        if not getattr(settings, "SOCKET_DISPATCH_WITHOUT_HOP", True):
            await super().dispatch(message)  # type: ignore[misc]
            return
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
