"""What the parts of the game master share: the database threads and the bot leases.

:class:`kingdoms.server.master.GameMaster` is a small façade over parts with one job
each, every one an object with its own state that is given the other objects it needs
when it is made (nothing reaches another part through a common ``self``), in this order:

- :class:`Database` (here): the storage;
- :class:`Leases` (here): the storage, the lease time;
- :class:`~kingdoms.server.master_store.TableStore`: storage, database, leases, limits;
- :class:`~kingdoms.server.master_relay.Relay`: table store, database, limits;
- :class:`~kingdoms.server.master_sync.Sync`: storage, database, leases, table store,
  relay;
- :class:`~kingdoms.server.master_turns.Turns`: storage, database, leases, table store,
  relay, sync;
- :class:`~kingdoms.server.master_bots.Bots`: database, leases, table store, turns,
  limits.

The one way back up that list is a :data:`Wake` hook — "this game changed or came into
memory: a bot of it may be due" — which the façade points at :meth:`Bots.schedule
<kingdoms.server.master_bots.Bots.schedule>`.  Reviews run apart
(:mod:`kingdoms.server.review`)."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from kingdoms.core.state import State
from kingdoms.server.storage import (
    DB_THREADS,
    LeaseChange,
    Storage,
)
from kingdoms.server.table import Table

log = logging.getLogger(__name__)

T = TypeVar("T")

Wake = Callable[[Table], None]
"""A hook told that a game changed or came into memory: a bot of it may be due."""

MAX_RETRY_DELAY = 5.0
"""Longest pause (seconds) between two tries of a bot whose move could not be stored,
so that bots go on within seconds of the database's return."""
LISTEN_NAME = "kingdoms-listen"
"""The ``application_name`` of each process's ``LISTEN`` connection (as it shows in
PostgreSQL's ``pg_stat_activity``)."""
LISTEN_CHECK = 5.0
"""Seconds without a notification after which the channel is tested with a query."""
BOT_SWEEP_INTERVAL = 10.0
"""Seconds between two sweeps restarting the bots whose task ended."""

INTERNAL_ERROR: dict[str, Any] = {"type": "error", "code": "server", "message": "internal error"}
"""Sent instead of a view the engine failed to build."""


def no_wake(_table: Table) -> None:
    """A :data:`Wake` hook that does nothing (a part used without bots)."""


class Database:
    """Where the parts' storage calls wait, so that the event loop never does (at most
    one connection of the storage's pool per thread)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._threads = ThreadPoolExecutor(DB_THREADS, thread_name_prefix="db")
        self._write_thread = ThreadPoolExecutor(1, thread_name_prefix="db-write")

    async def call(self, func: Callable[..., T], *args: Any) -> T:
        """``func(*args)`` in a worker thread when the storage allows it (every write:
        one waiting on a database lock holds up no other request)."""
        if self.storage.threadsafe:
            return await asyncio.get_running_loop().run_in_executor(self._threads, func, *args)
        await asyncio.sleep(0)
        return func(*args)

    async def write(self, func: Callable[..., T], *args: Any) -> T:
        """A storage write, off the event loop: with PostgreSQL in the database threads,
        with SQLite (one writer at a time) in a thread of its own, in order — threads
        competing for the file's lock would wait in SQLite's busy loop, unfairly."""
        storage = self.storage
        if storage.shared or not storage.threadsafe:
            return await self.call(func, *args)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._write_thread, func, *args)

    def shutdown(self) -> None:
        """Stop the threads (calls still queued are dropped)."""
        self._threads.shutdown(wait=False, cancel_futures=True)
        self._write_thread.shutdown(wait=False, cancel_futures=True)


class Leases:
    """This process's name in the bot leases, and the lease each write stores.

    A game's bots are run by the one process holding its lease (a row with an owner
    and an expiry, changed in the same transaction as the move that makes a bot due);
    only a storage shared by several processes has leases."""

    def __init__(self, storage: Storage, lease_time: float = 6.0) -> None:
        self.storage = storage
        self.shared = storage.shared
        """Other processes may use the same database (listen, run bots under leases)."""
        self.node = secrets.token_hex(8)
        """This process's name in the bot leases."""
        self.lease_time = lease_time
        """Seconds a bot lease lasts unless renewed (another process takes over after)."""

    def after(self, table: Table, state: State) -> LeaseChange | None:
        """The lease change to store with a write that leads to ``state`` (``None``: no
        leases here)."""
        if not self.shared:
            return None
        if state.is_terminal() or state.current_player not in table.bots:
            return LeaseChange(None)
        return LeaseChange(self.node, time.time() + self.lease_time)

    def take(self, game_id: str, until: float, now: float) -> bool:
        """Take (or renew) the lease of ``game_id`` until ``until`` if it is free or
        ours; whether this process holds it (a blocking database call)."""
        return self.storage.take_lease(game_id, self.node, until, now)

    def drop(self, game_id: str) -> None:
        """Give up the lease of ``game_id`` (a blocking database call)."""
        self.storage.drop_lease(game_id, self.node)

    def release_all(self) -> None:
        """Give up every lease of this process (a blocking database call)."""
        self.storage.release_leases(self.node)
