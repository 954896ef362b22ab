"""Cross-process sync: bot leases, the NOTIFY listener, and catching up with the games
other processes changed.  One part of :class:`kingdoms.server.master.GameMaster`."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections import OrderedDict

from kingdoms.core.record import GameRecord
from kingdoms.core.state import State
from kingdoms.server.master_base import (
    LISTEN_CHECK,
    LISTEN_NAME,
    MAX_RETRY_DELAY,
    Database,
    Leases,
    Wake,
    log,
    no_wake,
)
from kingdoms.server.master_relay import Relay
from kingdoms.server.master_store import TableStore
from kingdoms.server.storage import (
    CHANNEL,
    STATUS_EXPIRED,
    STATUS_RUNNING,
    Storage,
    StorageError,
    StoredGame,
)
from kingdoms.server.table import (
    RequestError,
    Table,
)


class Sync:
    """Cross-process sync: the NOTIFY listener, catching up with the games other
    processes changed, and taking over the bots of a process that died.

    It keeps the games of ``store`` up to date with ``storage`` (through ``db``), pushes
    what changed through ``relay``, and tells ``wake`` of each game it changed or took
    over.  With a storage no other process shares, nothing here runs."""

    def __init__(
        self,
        storage: Storage,
        db: Database,
        leases: Leases,
        store: TableStore,
        relay: Relay,
        wake: Wake = no_wake,
    ) -> None:
        self.storage = storage
        self.db = db
        self.leases = leases
        self.store = store
        self.relay = relay
        self.wake = wake
        self.listening = asyncio.Event()
        """Set while this process receives the other processes' notifications."""
        self._dirty: set[str] = set()
        self._seats_noted: set[str] = set()
        """Games whose seats or status another process changed (a reload is due)."""
        self.noted: OrderedDict[str, int] = OrderedDict()
        """The newest version notified per game (recent ones): a game loaded while a
        notification passed is refreshed at once."""
        self.refreshers: dict[str, asyncio.Task[None]] = {}
        """The task refreshing each game marked behind."""
        self._checking = False
        """Whether :meth:`check_cached` is under way."""
        self.retry_delay = 1.0
        """Seconds before a refresh that met a database error is tried again (doubled
        after each failure in a row, up to :data:`MAX_RETRY_DELAY`)."""
        self.closing = False

    def close(self) -> None:
        """Start nothing new (the server is stopping)."""
        self.closing = True

    def pending(self, game_id: str) -> bool:
        """Whether a refresh of ``game_id`` is due or under way."""
        return game_id in self.refreshers or game_id in self._dirty

    def loaded(self, table: Table) -> None:
        """``table`` just came into memory: refresh it at once if a notification newer
        than it passed while it was loading."""
        if self.noted.get(table.id, -1) > table.version:
            self.mark_dirty(table.id)

    def dsn(self) -> str:
        url = self.storage.engine.url.set(drivername="postgresql")
        return url.render_as_string(hide_password=False)

    async def listen(self) -> None:
        """Receive every process's notifications; refresh the cached games behind.

        A notification sent while this process does not listen (its channel was cut,
        the database restarted) is lost: each time the channel opens, the games in
        memory are compared with the database (:meth:`check_cached`), and while it is
        closed they are compared every second.  A channel quiet for
        :data:`LISTEN_CHECK` seconds is tested with a query (one that died without
        a word is opened again)."""
        import psycopg

        while not self.closing:
            try:
                conn = await psycopg.AsyncConnection.connect(
                    self.dsn(),
                    autocommit=True,
                    connect_timeout=max(int(LISTEN_CHECK), 2),
                    application_name=LISTEN_NAME,
                )
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    for attempt in range(3):  # whatever was missed meanwhile
                        try:  # the pool's first query may meet a connection the
                            await self.check_cached()  # restart killed: it renews the pool
                            break
                        except StorageError:
                            if attempt == 2:
                                raise
                            await asyncio.sleep(0.2)
                    while not self.closing:
                        async for note in conn.notifies(timeout=LISTEN_CHECK):
                            self.on_note(note.payload)
                        await asyncio.wait_for(conn.execute("SELECT 1"), LISTEN_CHECK)
            except asyncio.CancelledError:
                raise
            except Exception as err:  # the database went away: listen again soon
                log.warning("lost the notifications channel (%s); reconnecting", err)
            finally:
                self.listening.clear()
            await asyncio.sleep(1.0)
            with contextlib.suppress(Exception):  # the pool may work while LISTEN fails
                await self.check_cached()

    async def check_cached(self) -> int:
        """Compare the games in memory with the stored ones (one query per 500 games)
        and refresh those behind, as a notification would have; how many were.  One
        comparison at a time (one waiting on an unreachable database is not joined by
        more)."""
        if self._checking:
            return 0
        self._checking = True
        tables = self.store.tables
        ids = list(tables)
        behind = 0
        try:
            for first in range(0, len(ids), 500):
                chunk = ids[first : first + 500]
                stored = await self.db.call(self.storage.versions, chunk)
                for game_id in chunk:
                    table = tables.get(game_id)
                    if table is None or game_id not in stored:
                        continue
                    version, seats = stored[game_id]
                    if version > table.version:
                        self.noted[game_id] = max(version, self.noted.pop(game_id, 0))
                    elif seats != table.seats:
                        self._seats_noted.add(game_id)
                    else:
                        continue
                    behind += 1
                    self.mark_dirty(game_id)
        finally:
            self._checking = False
        if behind:
            log.info("%d games changed while notifications were missed: refreshing", behind)
        return behind

    def on_note(self, payload: str) -> None:
        """A notification: ``"<game> <version>"`` (``"<game> <version> seats"`` when its
        seats or status changed too)."""
        parts = payload.split()
        if len(parts) < 2 or not parts[1].isdigit():
            return
        self.noted[parts[0]] = max(int(parts[1]), self.noted.pop(parts[0], 0))
        while len(self.noted) > 4096:
            self.noted.popitem(last=False)
        tables = self.store.tables
        table = tables.get(parts[0])
        if table is None:
            return  # not in memory here: loaded fresh when needed
        if len(parts) > 2:
            self._seats_noted.add(parts[0])
        if int(parts[1]) > table.version or len(parts) > 2:
            idle = table.bot_task is None or table.bot_task.done()
            if not table.subscribers and idle and not table.lock.locked():
                del tables[parts[0]]  # nobody here uses it: reload it when asked
            else:
                self.mark_dirty(parts[0])

    def mark_dirty(self, game_id: str) -> None:
        self._dirty.add(game_id)
        if game_id not in self.refreshers and not self.closing:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return  # outside the server's loop: refreshed on the next notification
            self.refreshers[game_id] = loop.create_task(self._refresher(game_id))

    async def _refresher(self, game_id: str) -> None:
        """Refresh ``game_id`` while it is marked dirty; a refresh that meets a database
        error is tried again (after 1 s, 2 s… at most :data:`MAX_RETRY_DELAY`), or its
        connections would stay behind until the game's next notification."""
        delay = self.retry_delay
        try:
            while game_id in self._dirty and not self.closing:
                self._dirty.discard(game_id)
                table = self.store.tables.get(game_id)
                if table is None:
                    break
                try:
                    async with table.lock:
                        # our own writes come back too: reload only if truly behind
                        if self.behind(table):
                            await self.refresh_locked(table)
                    delay = self.retry_delay
                except StorageError as err:
                    log.warning("cannot refresh game %s (%s); again in %.1f s", game_id, err, delay)
                    self._dirty.add(game_id)
                    await asyncio.sleep(delay)
                    delay = min(2 * delay, MAX_RETRY_DELAY)
                except Exception:
                    log.exception("cannot refresh game %s", game_id)
        finally:
            self.refreshers.pop(game_id, None)

    def behind(self, table: Table) -> bool:
        """Whether a notification says the stored game is newer than ``table``."""
        return table.id in self._seats_noted or self.noted.get(table.id, -1) > table.version

    async def refresh(self, table: Table) -> None:
        """Bring a cached game up to the stored one and push it to its connections."""
        async with table.lock:
            await self.refresh_locked(table)

    async def refresh_locked(self, table: Table) -> None:
        """:meth:`refresh`, with ``table.lock`` already held."""
        self._seats_noted.discard(table.id)
        stored = await self.db.call(self.storage.load_game, table.id)
        if stored is None or stored.status == STATUS_EXPIRED:
            self.store.forget([table.id])
            return
        changed = self.catch_up(table, stored)
        table.seats = stored.seats
        if changed:
            if table.finished and table.bot_task is not None:
                table.bot_task.cancel()
            await self.relay.push(table)
            self.store.release(table)
            self.wake(table)

    def catch_up(self, table: Table, stored: StoredGame) -> bool:
        """Move ``table`` to ``stored`` if that is newer; whether it changed."""
        if stored.version <= table.version:
            return False
        history = list(table.state.history)
        actions = list(stored.actions)
        before_last: State | None = None
        if actions[: len(history)] == history:  # moves on from here: apply the new ones
            state = table.state.clone()
            news = actions[len(history) :]
            for i, action in enumerate(news):
                if i == len(news) - 1:  # kept for undo: no replay from the record
                    before_last = state.clone()
                state.apply_checked(action)
        else:  # an undo: replay
            config = table.state.config
            state = GameRecord(config=config, actions=tuple(actions)).replay()
        table.state = state
        table.prev = None if before_last is None else (state.step, before_last)
        table.prev_reveal = None
        table.version = stored.version
        table.lease_until = 0.0  # whoever wrote holds the lease if a bot is due
        if stored.status != STATUS_RUNNING and not state.is_terminal():
            table.ended = stored.outcome or {"scores": [], "winners": [], "details": {}}
        return True

    async def lease_loop(self) -> None:
        """Take over the bots of games whose lease ran out (their process died)."""
        while not self.closing:
            await asyncio.sleep(self.leases.lease_time / 3)
            try:
                now = time.time()
                ids = await self.db.call(self.storage.expired_leases, now, 64)
                random.shuffle(ids)  # several processes: each takes its share
                for game_id in ids[:8]:
                    await self.take_over(game_id)
            except asyncio.CancelledError:
                raise
            except StorageError as err:
                log.warning("cannot take over games whose bots stopped: %s", err)
            except Exception:
                log.exception("cannot take over games whose bots stopped")

    async def take_over(self, game_id: str) -> None:
        """Run the bots of ``game_id`` here if its lease is free (its process died)."""
        leases = self.leases
        now = time.time()
        until = now + leases.lease_time
        if not await self.db.call(leases.take, game_id, until, now):
            return
        cached = game_id in self.store.tables
        try:
            table = await self.store.fetch(game_id)
            if cached:
                await self.refresh(table)
        except RequestError:
            await self.db.call(leases.drop, game_id)
            return
        async with table.lock:
            if table.finished or table.state.current_player not in table.bots:
                await self.db.call(leases.drop, game_id)
                return
            table.lease_until = until
            log.info("took over the bots of game %s", game_id)
            self.wake(table)
