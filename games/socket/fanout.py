"""A table's revisions reach each process once, and its sockets there from one place (shared/DESIGN.md "Pages and sync").

Channels hands a group message to every member channel on its own: a queue, a task and a wait per socket, then a
hop to Django's sync thread before the handler runs. Here each process joins a table's group once, with a channel
of its own (:class:`Feed`), and one reader task hands every ``table.revision`` message to the process's sockets of
that table. The move's snapshot is made once from the message (:func:`games.read.snapshots.from_move`), before
any socket renders from it; each socket then pushes what changed for its own phone, in its own order
(games/socket/consumers.py). Nothing is forwarded to a phone as it came: the message never leaves the server.

One :class:`Fanout` per event loop and channel layer (a server has one loop per worker; tests make one per test). A
fanout with no feed holds no task, so it goes with its loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import AsyncIterator, Mapping
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
    the ``reader`` task that takes each message off the channel and, on a layer whose memberships expire (Channels'
    in-memory layer), the ``renewer`` task that joins the group again before they do."""

    __slots__ = ("code", "channel", "sockets", "reader", "renewer")

    def __init__(self, code: str, channel: str) -> None:
        self.code = code
        self.channel = channel
        self.sockets: dict[Listener, None] = {}  # in the order they joined
        self.reader: asyncio.Task | None = None
        self.renewer: asyncio.Task | None = None


async def _ended(task: asyncio.Task | None) -> None:
    """Cancel ``task`` and wait until it has ended (the pub/sub layer unsubscribes a channel as its receive ends)."""
    if task is None:
        return
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        if not task.cancelled():  # the caller itself was cancelled meanwhile
            raise
    except Exception:  # noqa: BLE001 - a reader that ended on a fault has nothing left to clean
        log.debug("a table feed's task ended on a fault", exc_info=True)


class Fanout:
    """This process's feeds, by table code, on one channel ``layer``.

    :meth:`join` and :meth:`leave` of one table change the layer's group one at a time (a discard never overtakes
    the add of a socket that joins meanwhile); other tables do not wait for them. A socket that joins a table whose
    feed exists costs no call to the layer.
    """

    def __init__(self, layer: Any) -> None:
        self.layer = layer
        self.feeds: dict[str, Feed] = {}
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}  # per table code: its lock, how many use it

    @contextlib.asynccontextmanager
    async def _changing(self, code: str) -> AsyncIterator[None]:
        """Hold table ``code``'s lock (made on first use, dropped when nobody holds or waits for it)."""
        lock, users = self._locks.get(code) or (asyncio.Lock(), 0)
        self._locks[code] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[code]
            if users == 1:
                del self._locks[code]
            else:
                self._locks[code] = (lock, users - 1)

    async def join(self, code: str, socket: Listener) -> None:
        """Add ``socket`` to table ``code``'s feed, joining the table's group first when this process has no feed
        of it; once this returns, every revision message sent to the group reaches ``socket``. Raises what the
        layer raised when the group could not be joined (nothing of the feed is left behind)."""
        async with self._changing(code):
            feed = self.feeds.get(code)
            if feed is None:
                feed = Feed(code, await self.layer.new_channel())
                feed.reader = asyncio.ensure_future(self._read(feed))
                await asyncio.sleep(0)  # the reader is at its receive: cancelling it ends the channel (pub/sub layer)
                try:
                    await self.layer.group_add(group_name(code), feed.channel)
                except BaseException:
                    await _ended(feed.reader)
                    with contextlib.suppress(Exception):
                        await self.layer.group_discard(group_name(code), feed.channel)
                    raise
                expiry = getattr(self.layer, "group_expiry", None)
                if isinstance(expiry, (int, float)) and expiry > 0:
                    feed.renewer = asyncio.ensure_future(self._renew(feed, expiry / 2))
                self.feeds[code] = feed
            feed.sockets[socket] = None

    async def leave(self, code: str, socket: Listener) -> None:
        """Take ``socket`` out of table ``code``'s feed; the last one out leaves the group and ends the feed's
        tasks. Taking out a socket that is not in it does nothing."""
        async with self._changing(code):
            feed = self.feeds.get(code)
            if feed is None or feed.sockets.pop(socket, False) is False or feed.sockets:
                return
            del self.feeds[code]
            await _ended(feed.renewer)
            await _ended(feed.reader)
            try:
                await self.layer.group_discard(group_name(code), feed.channel)
            except Exception:  # noqa: BLE001 - a layer that is down forgets the membership with its expiry
                log.warning("could not leave the group of table %s", code, exc_info=True)

    async def _renew(self, feed: Feed, every: float) -> None:
        """Join ``feed``'s group again every ``every`` seconds, before a membership that expires does."""
        while True:
            await asyncio.sleep(every)
            try:
                await self.layer.group_add(group_name(feed.code), feed.channel)
            except Exception:  # noqa: BLE001 - tried again at the next turn
                log.warning("table %s: could not renew its group membership", feed.code, exc_info=True)

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
            hand(feed, message)


def hand(feed: Feed, message: Mapping[str, Any]) -> None:
    """Hand one group message to ``feed``'s sockets: ``{"type": "table.revision", "revision": R, "version": V}``,
    with ``"move"`` (games.write.write_path.move_message) when R is a move's, from which the snapshot of R is made
    once for every socket here. Other message types are not the sockets' and are dropped. Never raises: a fault
    is logged, and every other socket is still told."""
    if message.get("type") != "table.revision":
        return
    revision = message.get("revision")
    if not isinstance(revision, int):
        revision = None
    move = message.get("move")
    if revision is not None and isinstance(move, str):
        try:
            snapshots.from_move(feed.code, revision, move)
        except Exception:  # noqa: BLE001 - each socket then finds the snapshot itself
            log.exception("table %s: could not make revision %s from its message", feed.code, revision)
    for socket in list(feed.sockets):
        try:
            socket.heard(revision)
        except Exception:  # noqa: BLE001 - one socket's fault is not the table's
            log.exception("table %s: a socket could not be told of revision %s", feed.code, revision)


_fanouts: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, Fanout]] = weakref.WeakKeyDictionary()


def fanout() -> Fanout:
    """The running event loop's :class:`Fanout` on the default channel layer (made on first use)."""
    layer = get_channel_layer()
    by_layer = _fanouts.setdefault(asyncio.get_running_loop(), {})
    found = by_layer.get(id(layer))
    if found is None or found.layer is not layer:
        found = by_layer[id(layer)] = Fanout(layer)
    return found
