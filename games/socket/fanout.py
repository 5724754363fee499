"""A table's revisions reach each process once, and its sockets there from one place (shared/DESIGN.md "Pages and sync").

Channels hands a group message to every member channel on its own: a queue, a task and a wait per socket, then a
hop to Django's sync thread before the handler runs. Here each process joins a table's group once, with a channel
of its own (:class:`Feed`), and one reader task hands every ``table.revision`` message to the process's sockets of
that table. The move's snapshot is made once from the message (:func:`games.read.snapshots.from_move`), before
any socket renders from it; each socket then pushes what changed for its own phone, in its own order
(games/socket/consumers.py). Nothing is forwarded to a phone as it came: the message never leaves the server.

One :class:`Fanout` per event loop and channel layer (a server has one loop per worker; tests make one per test).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Mapping
from typing import Any, Protocol

from channels.layers import get_channel_layer

from games.read import snapshots
from games.write.write_path import group_name

log = logging.getLogger(__name__)


class Listener(Protocol):
    """What a socket offers its table's feed: told of each revision, in the order the group's messages come."""

    def heard(self, revision: int | None) -> None:
        """Revision ``revision`` of the socket's table exists (``None``: a message that named none); never blocks."""


class Feed:
    """One table's group as this process hears it: its ``channel`` in the group, the ``sockets`` of the table here,
    and the ``reader`` task that takes each message off the channel."""

    __slots__ = ("code", "channel", "sockets", "reader")

    def __init__(self, code: str, channel: str) -> None:
        self.code = code
        self.channel = channel
        self.sockets: dict[Listener, None] = {}  # in the order they joined
        self.reader: asyncio.Task | None = None


class Fanout:
    """This process's feeds, by table code, on one channel ``layer``.

    :meth:`join` and :meth:`leave` change the layer's groups one at a time (a discard never overtakes the add of a
    socket that joins meanwhile); a socket that joins a table whose feed exists costs no call to the layer.
    """

    def __init__(self, layer: Any) -> None:
        self.layer = layer
        self.feeds: dict[str, Feed] = {}
        self.changing = asyncio.Lock()

    async def join(self, code: str, socket: Listener) -> None:
        """Add ``socket`` to table ``code``'s feed, joining the table's group first when this process has no feed
        of it; once this returns, every revision message sent to the group reaches ``socket``."""
        async with self.changing:
            feed = self.feeds.get(code)
            if feed is None:
                feed = Feed(code, await self.layer.new_channel())
                await self.layer.group_add(group_name(code), feed.channel)
                feed.reader = asyncio.ensure_future(self._read(feed))
                self.feeds[code] = feed
            feed.sockets[socket] = None

    async def leave(self, code: str, socket: Listener) -> None:
        """Take ``socket`` out of table ``code``'s feed; the last one out leaves the group and ends the reader."""
        async with self.changing:
            feed = self.feeds.get(code)
            if feed is None or feed.sockets.pop(socket, False) is False or feed.sockets:
                return
            del self.feeds[code]
            if feed.reader is not None:
                feed.reader.cancel()
            try:
                await self.layer.group_discard(group_name(code), feed.channel)
            except Exception:  # noqa: BLE001 - a layer that is down forgets the membership with its expiry
                log.warning("could not leave the group of table %s", code, exc_info=True)

    async def _read(self, feed: Feed) -> None:
        """Hand each message of ``feed``'s channel to its table's sockets, until the feed ends (cancelled)."""
        while True:
            try:
                message = await self.layer.receive(feed.channel)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - a layer fault (Redis away): wait, then listen again
                log.warning("table %s: could not read its group's messages; retrying", feed.code, exc_info=True)
                await asyncio.sleep(1.0)
                continue
            try:
                hand(feed, message)
            except Exception:  # noqa: BLE001 - one bad message must not end the table's feed
                log.exception("table %s: a group message could not be handed to its sockets", feed.code)


def hand(feed: Feed, message: Mapping[str, Any]) -> None:
    """Hand one group message to ``feed``'s sockets: ``{"type": "table.revision", "revision": R, "version": V}``,
    with ``"move"`` (games.write.write_path.move_message) when R is a move's, from which the snapshot of R is made
    once for every socket here. Other message types are not the sockets' and are dropped."""
    if message.get("type") != "table.revision":
        return
    revision = message.get("revision")
    if not isinstance(revision, int):
        revision = None
    move = message.get("move")
    if revision is not None and isinstance(move, str):
        snapshots.from_move(feed.code, revision, move)
    for socket in list(feed.sockets):
        socket.heard(revision)


_fanouts: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, Fanout]] = weakref.WeakKeyDictionary()


def fanout() -> Fanout:
    """The running event loop's :class:`Fanout` on the default channel layer (made on first use)."""
    layer = get_channel_layer()
    by_layer = _fanouts.setdefault(asyncio.get_running_loop(), {})
    found = by_layer.get(id(layer))
    if found is None or found.layer is not layer:
        found = by_layer[id(layer)] = Fanout(layer)
    return found
