"""The authoritative game master: generic over every registered game.

It owns the live games (``Table``), checks every request (credential, seat,
turn, freshness, legality), applies the action to a clone, stores it, and only
then swaps the clone in and pushes each seat its own view.  Bots seated in a
game act here, in asyncio tasks, after a small visible delay.

Games are loaded on demand (replaying their actions) and dropped from memory
once finished and unwatched.  After a start, a background pass walks every
unfinished game: it repairs records whose last action ended the game, and lets
the bots of games waiting on a bot resume, within the server's bot limits
(:mod:`kingdoms.server.limits`, :mod:`kingdoms.server.botpool`).

Several processes may serve the same PostgreSQL database at once.  The database
decides: every write names the version of the game it was made from and is
refused (``stale``, nothing stored) if another process wrote first.  Each write
sends a ``NOTIFY``; every process listens and refreshes the games it holds in
memory (its cache) when it is behind, then pushes the new views to its
connections.  A game's bots are run by the one process holding its *lease* (a
row with an owner and an expiry, changed in the same transaction as the move that
makes a bot due); a process that dies stops renewing, and another one takes the
game over once the lease has run out (``lease_time`` seconds).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from kingdoms.bots.base import Bot, make_bot
from kingdoms.core.errors import IllegalAction, InvalidConfig, KingdomsError, ParseError
from kingdoms.core.record import GameRecord
from kingdoms.core.registry import get_game
from kingdoms.core.state import GameConfig, State
from kingdoms.i18n import LANGUAGES
from kingdoms.server.botpool import BotPool
from kingdoms.server.limits import (
    DEFAULT_LIMITS,
    ServerLimits,
    bounded_bot_spec,
    check_text,
    client_key,
)
from kingdoms.server.replays import Replays
from kingdoms.server.spectate import public_frames
from kingdoms.server.storage import (
    CHANNEL,
    DB_THREADS,
    STATUS_EXPIRED,
    STATUS_FINISHED,
    STATUS_RUNNING,
    ClientQuota,
    LeaseChange,
    StaleWrite,
    Storage,
    StorageError,
    StoredGame,
    TooMany,
)
from kingdoms.server.table import (
    BOT,
    HUMAN,
    Outbox,
    RequestError,
    Sender,
    Subscriber,
    Table,
    hash_token,
    public_seats,
    state_message,
)
from kingdoms.server.undo import previous_state, undo_refusal

log = logging.getLogger(__name__)

T = TypeVar("T")

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

__all__ = ["GameMaster", "RequestError", "Subscriber", "Table", "public_seats"]


class GameMaster:
    """Runs every live game of one server process."""

    def __init__(
        self,
        storage: Storage,
        bot_delay: float = 0.3,
        limits: ServerLimits = DEFAULT_LIMITS,
        expire_after: float | None = 24 * 3600.0,
        lease_time: float = 6.0,
    ) -> None:
        self.storage = storage
        self.shared = storage.shared
        """Other processes may use the same database (listen, run bots under leases)."""
        self.node = secrets.token_hex(8)
        """This process's name in the bot leases."""
        self.lease_time = lease_time
        """Seconds a bot lease lasts unless renewed (another process takes over after)."""
        self.listening = asyncio.Event()
        """Set while this process receives the other processes' notifications."""
        self._dirty: set[str] = set()
        self._seats_noted: set[str] = set()
        """Games whose seats or status another process changed (a reload is due)."""
        self._noted: OrderedDict[str, int] = OrderedDict()
        """The newest version notified per game (recent ones): a game loaded while a
        notification passed is refreshed at once."""
        self._refreshers: dict[str, asyncio.Task[None]] = {}
        self._checking = False
        """Whether :meth:`check_cached` is under way."""
        self.bot_delay = bot_delay
        self.limits = limits
        self.expire_after = expire_after
        """Seconds after which a game nobody joined expires (``None``: never)."""
        self.retry_delay = 1.0
        """Seconds a bot waits before trying again when its action could not be stored
        (doubled after each failure in a row, up to :data:`MAX_RETRY_DELAY`)."""
        self.bot_spent: dict[str, float] = {}
        """Seconds of bot thinking used so far per game of bots alone (this process);
        past ``limits.bot_game_seconds`` its bots answer at once."""
        self.sweep_interval = BOT_SWEEP_INTERVAL
        """Seconds between two sweeps that restart the bots of games whose bot task
        ended (see :meth:`_sweep_bots`)."""
        self.tables: dict[str, Table] = {}
        self.finish_hooks: list[Callable[[Table], None]] = []
        """Called once when a game ends (by its rules, a resignation or abandonment)."""
        self.bot_pool = BotPool(limits.bot_workers)
        self._turn_lock = asyncio.Lock()
        self._db_threads = ThreadPoolExecutor(DB_THREADS, thread_name_prefix="db")
        self._write_thread = ThreadPoolExecutor(1, thread_name_prefix="db-write")
        """Where database calls wait, so that the event loop never does (at most one
        connection of the pool per thread)."""
        self.replays = Replays()
        self._finished: OrderedDict[str, Table] = OrderedDict()
        """Recently used finished games (they never change)."""
        self.resumed = asyncio.Event()
        """Set once the start-up pass over the unfinished games is done."""
        self._closing = False
        self._background: list[asyncio.Task[None]] = []
        self._watchers: dict[str, int] = {}
        """Spectator connections per client address."""

    # -- life cycle ---------------------------------------------------------------------
    async def start(self, resume: bool = True) -> None:
        """Start the background work: the pass over unfinished games (repairs, bots
        waiting to move) and the expiry of games nobody joined.  Returns at once."""
        loop = asyncio.get_running_loop()
        if resume:
            self._background.append(loop.create_task(self._resume_all()))
        else:
            self.resumed.set()
        if self.expire_after is not None:
            self._background.append(loop.create_task(self._expire_loop(self.expire_after)))
        self._background.append(loop.create_task(self._evict_loop()))
        self._background.append(loop.create_task(self._sweep_bots()))
        if self.shared:
            self._background.append(loop.create_task(self._listen()))
            self._background.append(loop.create_task(self._lease_loop()))

    async def stop(self) -> None:
        self._closing = True
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None]
        tasks += self._background + list(self._refreshers.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.shared:  # let another process take our games' bots at once
            with contextlib.suppress(Exception):
                self.storage.release_leases(self.node)
        self._db_threads.shutdown(wait=False, cancel_futures=True)
        self._write_thread.shutdown(wait=False, cancel_futures=True)

    # -- several processes on one database ----------------------------------------------
    def _lease_after(self, table: Table, state: State) -> LeaseChange | None:
        """The lease change to store with a write that leads to ``state``."""
        if not self.shared:
            return None
        if state.is_terminal() or state.current_player not in table.bots:
            return LeaseChange(None)
        return LeaseChange(self.node, time.time() + self.lease_time)

    def _dsn(self) -> str:
        url = self.storage.engine.url.set(drivername="postgresql")
        return url.render_as_string(hide_password=False)

    async def _listen(self) -> None:
        """Receive every process's notifications; refresh the cached games behind.

        A notification sent while this process does not listen (its channel was cut,
        the database restarted) is lost: each time the channel opens, the games in
        memory are compared with the database (:meth:`check_cached`), and while it is
        closed they are compared every second.  A channel quiet for
        :data:`LISTEN_CHECK` seconds is tested with a query (one that died without
        a word is opened again)."""
        import psycopg

        while not self._closing:
            try:
                conn = await psycopg.AsyncConnection.connect(
                    self._dsn(),
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
                    while not self._closing:
                        async for note in conn.notifies(timeout=LISTEN_CHECK):
                            self._on_note(note.payload)
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
        ids = list(self.tables)
        behind = 0
        try:
            for first in range(0, len(ids), 500):
                chunk = ids[first : first + 500]
                stored = await self._off_loop(self.storage.versions, chunk)
                for game_id in chunk:
                    table = self.tables.get(game_id)
                    if table is None or game_id not in stored:
                        continue
                    version, seats = stored[game_id]
                    if version > table.version:
                        self._noted[game_id] = max(version, self._noted.pop(game_id, 0))
                    elif seats != table.seats:
                        self._seats_noted.add(game_id)
                    else:
                        continue
                    behind += 1
                    self._mark_dirty(game_id)
        finally:
            self._checking = False
        if behind:
            log.info("%d games changed while notifications were missed: refreshing", behind)
        return behind

    def _on_note(self, payload: str) -> None:
        parts = payload.split()
        if len(parts) < 2 or not parts[1].isdigit():
            return
        self._noted[parts[0]] = max(int(parts[1]), self._noted.pop(parts[0], 0))
        while len(self._noted) > 4096:
            self._noted.popitem(last=False)
        table = self.tables.get(parts[0])
        if table is None:
            return  # not in memory here: loaded fresh when needed
        if len(parts) > 2:
            self._seats_noted.add(parts[0])
        if int(parts[1]) > table.version or len(parts) > 2:
            idle = table.bot_task is None or table.bot_task.done()
            if not table.subscribers and idle and not table.lock.locked():
                del self.tables[parts[0]]  # nobody here uses it: reload it when asked
            else:
                self._mark_dirty(parts[0])

    def _mark_dirty(self, game_id: str) -> None:
        self._dirty.add(game_id)
        if game_id not in self._refreshers and not self._closing:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return  # outside the server's loop: refreshed on the next notification
            self._refreshers[game_id] = loop.create_task(self._refresher(game_id))

    async def _refresher(self, game_id: str) -> None:
        """Refresh ``game_id`` while it is marked dirty; a refresh that meets a database
        error is tried again (after 1 s, 2 s… at most :data:`MAX_RETRY_DELAY`), or its
        connections would stay behind until the game's next notification."""
        delay = self.retry_delay
        try:
            while game_id in self._dirty and not self._closing:
                self._dirty.discard(game_id)
                table = self.tables.get(game_id)
                if table is None:
                    break
                try:
                    async with table.lock:
                        # our own writes come back too: reload only if truly behind
                        if self._behind(table):
                            await self._refresh_locked(table)
                    delay = self.retry_delay
                except StorageError as err:
                    log.warning("cannot refresh game %s (%s); again in %.1f s", game_id, err, delay)
                    self._dirty.add(game_id)
                    await asyncio.sleep(delay)
                    delay = min(2 * delay, MAX_RETRY_DELAY)
                except Exception:
                    log.exception("cannot refresh game %s", game_id)
        finally:
            self._refreshers.pop(game_id, None)

    def _behind(self, table: Table) -> bool:
        """Whether a notification says the stored game is newer than ``table``."""
        return table.id in self._seats_noted or self._noted.get(table.id, -1) > table.version

    async def refresh(self, table: Table) -> None:
        """Bring a cached game up to the stored one and push it to its connections."""
        async with table.lock:
            await self._refresh_locked(table)

    async def _refresh_locked(self, table: Table) -> None:
        self._seats_noted.discard(table.id)
        stored = await self._off_loop(self.storage.load_game, table.id)
        if stored is None or stored.status == STATUS_EXPIRED:
            self._forget([table.id])
            return
        changed = self._catch_up(table, stored)
        table.seats = stored.seats
        if changed:
            if table.finished and table.bot_task is not None:
                table.bot_task.cancel()
            await self.push(table)
            if table.finished and not table.subscribers:
                self.tables.pop(table.id, None)
            self._schedule_bots(table)

    def _catch_up(self, table: Table, stored: StoredGame) -> bool:
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

    async def _lease_loop(self) -> None:
        """Take over the bots of games whose lease ran out (their process died)."""
        while not self._closing:
            await asyncio.sleep(self.lease_time / 3)
            try:
                now = time.time()
                ids = await self._off_loop(self.storage.expired_leases, now, 64)
                random.shuffle(ids)  # several processes: each takes its share
                for game_id in ids[:8]:
                    await self._take_over(game_id)
            except asyncio.CancelledError:
                raise
            except StorageError as err:
                log.warning("cannot take over games whose bots stopped: %s", err)
            except Exception:
                log.exception("cannot take over games whose bots stopped")

    async def _take_over(self, game_id: str) -> None:
        now = time.time()
        until = now + self.lease_time
        if not await self._off_loop(self.storage.take_lease, game_id, self.node, until, now):
            return
        cached = game_id in self.tables
        try:
            table = await self.fetch(game_id)
            if cached:
                await self.refresh(table)
        except RequestError:
            await self._off_loop(self.storage.drop_lease, game_id, self.node)
            return
        async with table.lock:
            if table.finished or table.state.current_player not in table.bots:
                await self._off_loop(self.storage.drop_lease, game_id, self.node)
                return
            table.lease_until = until
            log.info("took over the bots of game %s", game_id)
            self._schedule_bots(table)

    async def _resume_all(self, page: int = 200) -> None:
        """Walk every unfinished game once, a page at a time, replaying in a worker thread."""
        after = ""
        try:
            while not self._closing:
                rows = await self._off_loop(self.storage.unfinished_page, after, page)
                if not rows:
                    break
                after = rows[-1][0]
                for game_id, _seats in rows:
                    if game_id in self.tables or self._closing:
                        continue
                    try:
                        table = await self._off_loop(self._replay_stored, game_id)
                    except Exception as err:  # no longer replays: keep the server up
                        log.error("cannot resume game %s: %s", game_id, err)
                        continue
                    if table is None or table.finished or game_id in self.tables:
                        continue
                    if table.state.current_player in table.bots:
                        if self.shared:  # only if no live process runs them
                            now = time.time()
                            until = now + self.lease_time
                            take = self.storage.take_lease
                            if not await self._off_loop(take, game_id, self.node, until, now):
                                continue
                            table.lease_until = until
                        self.tables[game_id] = table
                        self._schedule_bots(table)
        finally:
            self.resumed.set()

    async def _expire_loop(self, after: float) -> None:
        while not self._closing:
            try:
                ids = await self._off_loop(self.storage.expire_unjoined, time.time() - after)
            except StorageError as err:  # the database is unwell: try again next time
                log.warning("cannot expire games nobody joined: %s", err)
            except Exception:
                log.exception("cannot expire games nobody joined")
            else:
                self._forget(ids)
            await asyncio.sleep(min(max(after / 4, 1.0), 600.0))

    async def _evict_loop(self) -> None:
        every = min(max(self.limits.evict_after / 4, 1.0), 60.0)
        while not self._closing:
            await asyncio.sleep(every)
            try:
                self.evict_idle()
            except Exception:
                log.exception("cannot drop idle games from memory")

    def _idle(self, table: Table) -> bool:
        """Whether nothing holds ``table`` in memory: no connection, no running bot,
        no request or refresh under way."""
        busy_bots = table.bot_task is not None and not table.bot_task.done()
        return (
            not table.subscribers
            and not busy_bots
            and not table.lock.locked()
            and table.id not in self._refreshers
            and table.id not in self._dirty
        )

    def evict_idle(self, now: float | None = None) -> int:
        """Drop from memory the games idle for ``limits.evict_after`` seconds, and the
        least recently used idle ones beyond ``limits.max_resident`` (they are stored:
        the next request replays them).  Returns how many were dropped."""
        now = time.monotonic() if now is None else now
        limits = self.limits
        idle = sorted((t for t in self.tables.values() if self._idle(t)), key=lambda t: t.used)
        over = len(self.tables) - limits.max_resident
        dropped = 0
        for table in idle:
            if over <= 0 and now - table.used < limits.evict_after:
                break
            del self.tables[table.id]
            over -= 1
            dropped += 1
        if dropped:
            log.info("dropped %d idle games from memory (%d left)", dropped, len(self.tables))
        return dropped

    def expire_unjoined(self, before: float) -> list[str]:
        """Expire the games created before ``before`` that no person joined."""
        ids = self.storage.expire_unjoined(before)
        self._forget(ids)
        return ids

    async def _off_loop(self, func: Callable[..., T], *args: Any) -> T:
        """``func(*args)`` in a worker thread when the storage allows it (every write:
        one waiting on a database lock holds up no other request)."""
        if self.storage.threadsafe:
            return await asyncio.get_running_loop().run_in_executor(self._db_threads, func, *args)
        await asyncio.sleep(0)
        return func(*args)

    async def _write(self, func: Callable[..., T], *args: Any) -> T:
        """A storage write, off the event loop: with PostgreSQL in the database threads,
        with SQLite (one writer at a time) in a thread of its own, in order — threads
        competing for the file's lock would wait in SQLite's busy loop, unfairly."""
        if self.shared or not self.storage.threadsafe:
            return await self._off_loop(func, *args)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._write_thread, func, *args)

    def _forget(self, ids: Sequence[str]) -> None:
        for game_id in ids:
            table = self.tables.pop(game_id, None)
            if table is not None and table.bot_task is not None:
                table.bot_task.cancel()
        if ids:
            log.info("expired %d games nobody joined", len(ids))

    # -- creating and finding games -------------------------------------------------------
    def create_game(
        self,
        game: str,
        seats: Sequence[Mapping[str, Any]],
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> tuple[Table, list[str | None]]:
        """Start a game; returns the table and one fresh token per human seat (None for bots).

        ``seats`` is a list of ``{"kind": "human"|"bot", "name": str, "bot": spec}``."""
        stored, table, tokens = self._new_game(game, seats, options, seed, meta)
        lease = self._lease_after(table, table.state)
        self.storage.create_game(stored, lease)
        self._opened(table, lease)
        return table, tokens

    async def open_game(
        self,
        game: str,
        seats: Sequence[Mapping[str, Any]],
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        meta: Mapping[str, Any] | None = None,
        address: str | None = None,
    ) -> tuple[Table, list[str | None]]:
        """:meth:`create_game` for a client at ``address``: stored in a worker thread,
        and refused (``too_many``) while that address already has
        ``limits.unjoined_per_address`` games waiting for their players, or
        (``too_many_bot_games``) ``limits.bot_games_per_client`` games of search bots
        alone if this is one (``meta["creator"]`` set) — counted in the database when
        the game is stored, so over every server process of it."""
        stored, table, tokens = self._new_game(game, seats, options, seed, meta)
        quota = None
        if address is not None:
            stored.creator = client_key(address)
            heavy = self.limits.bot_games_per_client if stored.meta.get("creator") else None
            quota = ClientQuota(stored.creator, self.limits.unjoined_per_address, heavy)
        lease = self._lease_after(table, table.state)
        try:
            await self._write(self.storage.create_game, stored, lease, quota)
        except TooMany as err:
            if err.what == "heavy":
                raise RequestError(
                    "too_many_bot_games",
                    f"at most {self.limits.bot_games_per_client} games of search bots alone "
                    "may run at once per client; wait until one ends",
                ) from err
            raise RequestError(
                "too_many",
                f"you have {err.count} games nobody has joined yet: "
                "join or let them expire before creating more",
            ) from err
        except StorageError as err:
            log.error("cannot store a new game: %s", err)
            raise RequestError("storage", "the game could not be saved; try again") from err
        self._opened(table, lease)
        return table, tokens

    async def client_games(self, address: str) -> tuple[int, int]:
        """How many running games the client at ``address`` created wait for a person,
        and how many are of search bots alone (see :meth:`Storage.client_games`)."""
        try:
            return await self._off_loop(self.storage.client_games, client_key(address))
        except StorageError as err:
            log.error("cannot count the games of a client: %s", err)
            raise RequestError("storage", "the database is unavailable; try again") from err

    def _opened(self, table: Table, lease: LeaseChange | None) -> None:
        """Keep a game just stored in memory and start its bots."""
        if lease is not None and lease.owner is not None:
            table.lease_until = lease.until
        table.used = time.monotonic()
        self.tables[table.id] = table
        self._schedule_bots(table)

    def _new_game(
        self,
        game: str,
        seats: Sequence[Mapping[str, Any]],
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> tuple[StoredGame, Table, list[str | None]]:
        """A new game checked and built, not yet stored."""
        try:
            spec = get_game(game)
        except InvalidConfig as err:
            raise RequestError("bad_config", str(err)) from err
        if not isinstance(seats, Sequence) or not seats:
            raise RequestError("bad_config", "seats must be a non-empty list")
        table_seats: list[dict[str, Any]] = []
        tokens: list[str | None] = []
        bots: dict[int, Bot] = {}
        for i, seat in enumerate(seats):
            if not isinstance(seat, Mapping):
                raise RequestError("bad_config", f"seat {i + 1} must be an object")
            kind = seat.get("kind", HUMAN)
            for key, most in (("name", self.limits.max_name), ("bot", self.limits.max_text)):
                if key in seat:  # checked whatever the kind: nothing malformed is stored
                    check_text(seat[key], f"seat {i + 1}: {key}", most)
            name = seat.get("name") or f"Player {i + 1}"
            if kind == HUMAN:
                token = secrets.token_urlsafe(18)
                tokens.append(token)
                table_seats.append(
                    {"kind": HUMAN, "name": name, "token_hash": hash_token(token), "joined": False}
                )
            elif kind == BOT:
                bot_spec = seat.get("bot") or "random"
                if not isinstance(bot_spec, str):
                    raise RequestError("bad_config", f"seat {i + 1}: bot must be a name")
                try:
                    bot_spec = bounded_bot_spec(bot_spec, self.limits)
                except RequestError as err:
                    raise RequestError(err.code, f"seat {i + 1}: {err}") from err
                try:
                    bots[i] = make_bot(game, bot_spec)
                except InvalidConfig as err:
                    raise RequestError("bad_config", f"seat {i + 1}: {err}") from err
                tokens.append(None)
                table_seats.append({"kind": BOT, "name": name, "bot": bot_spec})
            else:
                raise RequestError(
                    "bad_config", f"seat {i + 1}: kind must be 'human' or 'bot', not {kind!r}"
                )
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise RequestError("bad_config", "seed must be an integer")
        try:
            config = spec.config(len(table_seats), seed, dict(options or {}))
            state = spec.create(config)
        except InvalidConfig as err:
            raise RequestError("bad_config", str(err), getattr(err, "detail", None)) from err
        game_id = secrets.token_hex(6)
        stored = StoredGame(
            id=game_id,
            game=config.game,
            players=config.players,
            seed=config.seed,
            options=dict(config.options),
            seats=table_seats,
            meta=dict(meta or {}),
        )
        table = Table(game_id, state, table_seats, dict(meta or {}), bots)
        return stored, table, tokens

    def _replay_stored(self, game_id: str) -> Table | None:
        """The stored game rebuilt (not registered); repairs a finished game still
        marked running.  Safe to call in a worker thread."""
        stored = self.storage.load_game(game_id)
        if stored is None:
            return None
        if stored.status == STATUS_EXPIRED:
            raise RequestError("expired", "nobody joined this game in time: it has expired")
        config = GameConfig(stored.game, stored.players, stored.seed, stored.options)
        state = GameRecord(config=config, actions=tuple(stored.actions)).replay()
        if state.is_terminal() and stored.status == STATUS_RUNNING:
            outcome = state.outcome()
            log.warning("game %s is over but was stored as running: repaired", game_id)
            self.storage.set_status(
                game_id, STATUS_FINISHED, None if outcome is None else outcome.to_json()
            )
        bots: dict[int, Bot] = {}
        for i, s in enumerate(stored.seats):
            if s.get("kind") == BOT:
                # stored before the limits were lowered (or tampered with): run within them
                try:
                    spec = bounded_bot_spec(s.get("bot") or "random", self.limits, clamp=True)
                except RequestError:
                    spec = "random"
                try:
                    bots[i] = make_bot(stored.game, spec)
                except InvalidConfig:  # an option refused since (e.g. an unknown playout)
                    bots[i] = make_bot(stored.game, "random")
        table = Table(stored.id, state, stored.seats, stored.meta, bots, version=stored.version)
        if stored.status != STATUS_RUNNING and not state.is_terminal():  # resigned, abandoned
            table.ended = stored.outcome or {"scores": [], "winners": [], "details": {}}
        return table

    def get(self, game_id: str) -> Table:
        """The live game ``game_id``, loaded (on this thread) if need be."""
        table = self._known(game_id)
        if table is None:
            table = self._register(self._checked_load(game_id))
        return table

    async def fetch(self, game_id: str) -> Table:
        """Like :meth:`get`, replaying a stored game in a worker thread."""
        table = self._known(game_id)
        if table is None:
            table = self._register(await self._off_loop(self._checked_load, game_id))
        return table

    def _known(self, game_id: str) -> Table | None:
        if not isinstance(game_id, str) or not game_id.isalnum() or len(game_id) > 40:
            raise RequestError("no_game", "no such game")
        table = self.tables.get(game_id)
        if table is None:
            table = self._finished.get(game_id)
            if table is not None:
                self._finished.move_to_end(game_id)
        if table is not None:
            table.used = time.monotonic()
        return table

    def _checked_load(self, game_id: str) -> Table:
        try:
            table = self._replay_stored(game_id)
        except RequestError:
            raise
        except KingdomsError as err:  # e.g. a record the current rules no longer accept
            log.error("cannot load game %s: %s", game_id, err)
            raise RequestError("broken_game", f"game {game_id!r} cannot be loaded") from err
        if table is None:
            raise RequestError("no_game", f"no game {game_id!r}")
        return table

    def _register(self, table: Table) -> Table:
        """Keep a freshly loaded game (or the copy another request loaded meanwhile)."""
        known = self.tables.get(table.id) or self._finished.get(table.id)
        if known is not None:
            return known
        table.used = time.monotonic()
        if table.finished:  # finished games never change: a few kept for replays
            self._finished[table.id] = table
            while len(self._finished) > 64:
                self._finished.popitem(last=False)
        else:
            self.tables[table.id] = table
            if self._noted.get(table.id, -1) > table.version:  # changed while loading
                self._mark_dirty(table.id)
            self._schedule_bots(table)
        return table

    def authenticate(self, table: Table, tokens: Sequence[str]) -> tuple[int, ...]:
        if not tokens:
            raise RequestError("bad_token", "a seat token is needed to play")
        seats: list[int] = []
        for token in tokens:
            seat = table.seat_of(token) if isinstance(token, str) else None
            if seat is None:
                raise RequestError("bad_token", "this token does not belong to any seat")
            if seat not in seats:
                seats.append(seat)
        return tuple(seats)

    # -- connections ---------------------------------------------------------------------
    async def subscribe(
        self, game_id: str, tokens: Sequence[str], send: Sender, lang: str = "en"
    ) -> tuple[Table, Subscriber]:
        table = await self.fetch(game_id)
        seats = self.authenticate(table, tokens)
        if lang not in LANGUAGES:
            lang = "en"
        sub = Subscriber(seats, send, lang)
        async with table.lock:
            newly = [s for s in seats if not table.seats[s].get("joined")]
            if newly:
                # merged with what other processes set meanwhile; if the database fails,
                # nothing changed here either (the client says hello again)
                merge = functools.partial(
                    self.storage.merge_seats, table.id, {s: {"joined": True} for s in newly}
                )
                table.seats = await self._write(merge)
            table.subscribers.append(sub)
            await self.push(table, [sub])
        self._schedule_bots(table)  # a bot that stopped goes on when someone comes back
        return table, sub

    def add_spectator(self, table: Table, sub: Subscriber) -> None:
        """Count ``sub`` in: refused past the spectators per game or per address."""
        limits = self.limits
        if sum(1 for s in table.subscribers if not s.seats) >= limits.spectators_per_game:
            raise RequestError("too_many", "this game has as many spectators as it may have")
        if sub.address is not None:
            held = self._watchers.get(sub.address, 0)
            if held >= limits.spectators_per_address:
                raise RequestError(
                    "too_many", f"at most {limits.spectators_per_address} games watched at once"
                )
            self._watchers[sub.address] = held + 1
        table.subscribers.append(sub)

    def unsubscribe(self, table: Table, sub: Subscriber) -> None:
        try:
            table.subscribers.remove(sub)
        except ValueError:
            return
        if not sub.seats and sub.address is not None:
            left = self._watchers.get(sub.address, 0) - 1
            if left > 0:
                self._watchers[sub.address] = left
            else:
                self._watchers.pop(sub.address, None)
        if table.finished and not table.subscribers:
            self.tables.pop(table.id, None)  # finished and unwatched: reload on demand

    def seat_message(self, table: Table, seat: int, sub: Subscriber) -> dict[str, Any]:
        """Everything one seat may know now (its view, its log, its choices)."""
        state = table.state
        lang = sub.lang
        msg = state_message(table, sub, seat, state.view(seat))
        msg["seat"] = seat
        if state.current_player == seat and not table.finished:
            # Games may describe actions as data (``action_info(a)``, e.g. which card or
            # which square) so that boards can make those things clickable: still no rules
            # in the client, it only maps the server's legal actions onto the board.
            game = get_game(state.config.game)
            legal: list[dict[str, Any]] = []
            for a in state.legal_actions():
                entry: dict[str, Any] = {"action": a, "text": state.action_to_str(a, lang)}
                info = game.action_info(state, a)
                if info is not None:
                    entry["info"] = info
                legal.append(entry)
            msg["legal"] = legal
        if not table.finished:
            msg["can_undo"] = self.undo_refusal(table, seat) is None
        return msg

    async def push(self, table: Table, subs: Sequence[Subscriber] | None = None) -> None:
        """Send each subscriber (all by default) the current state of each of its seats.

        Call with ``table.lock`` held.  A connection's messages are only queued in its
        :class:`~kingdoms.server.table.Outbox` (nothing here waits on a socket); one
        that has fallen too far behind is dropped.  Spectators share one message."""
        targets = list(table.subscribers if subs is None else subs)
        outbox: list[tuple[Subscriber, list[dict[str, Any] | str]]] = []
        async with self._turn():
            frames = None
            for sub in targets:
                if not sub.seats:  # a spectator: the public view only, built once
                    try:
                        if frames is None:
                            frames = public_frames(table)
                        msg, text = frames.message(sub)
                    except Exception:  # an engine bug: drop the watcher
                        log.exception("cannot update a spectator of game %s", table.id)
                        self.unsubscribe(table, sub)
                        continue
                    outbox.append((sub, [text if isinstance(sub.send, Outbox) else msg]))
                    continue
                msgs: list[dict[str, Any] | str] = []
                for seat in sub.seats:
                    try:
                        msgs.append(self.seat_message(table, seat, sub))
                    except Exception:  # an engine bug: report it, keep the game and the socket
                        log.exception("cannot build the view of seat %s in game %s", seat, table.id)
                        msgs.append(INTERNAL_ERROR)
                outbox.append((sub, msgs))
        later: list[tuple[Subscriber, str]] = []
        for sub, msgs in outbox:
            for item in msgs:
                if isinstance(sub.send, Outbox):
                    if not sub.seats and isinstance(item, str):
                        later.append((sub, item))
                        break
                    if sub.send.post(item):
                        continue
                    self.unsubscribe(table, sub)  # it fell behind (or left): dropped
                    break
                try:  # an in-process receiver
                    await sub.send(item if isinstance(item, dict) else json.loads(item))
                except Exception as err:  # a closed connection must not stop the game
                    log.info("dropped a connection of game %s: %r", table.id, err)
                    self.unsubscribe(table, sub)
                    break
        if later:
            # after the players' messages and the mover's acknowledgement: those are
            # written first, the spectators' (as many as they are) on the next pass
            asyncio.get_running_loop().call_soon(self._post_to_spectators, table, later)

    def _post_to_spectators(self, table: Table, posts: list[tuple[Subscriber, str]]) -> None:
        for sub, text in posts:
            if isinstance(sub.send, Outbox) and not sub.send.post(text):
                self.unsubscribe(table, sub)  # it fell behind (or left): dropped

    @contextlib.asynccontextmanager
    async def _turn(self) -> AsyncIterator[None]:
        """One game's share of the event loop: the work of building its views.

        Games take turns, one per pass of the event loop, so that between two of
        them the loop reads the sockets (WebSocket pings answered, new messages
        taken in) however many games are busy.  Without it, a pass ran every ready
        game's work at once: with hundreds of games that took longer than the
        clients' ping timeout and they closed their connections."""
        async with self._turn_lock:
            yield
            await asyncio.sleep(0)  # keep the turn until the loop has polled the sockets

    # -- actions --------------------------------------------------------------------------
    def _resolve_action(self, state: State, message: Mapping[str, Any], lang: str) -> int:
        action = message.get("action")
        text = message.get("text")
        if action is not None:
            if type(action) is not int:
                raise RequestError("bad_message", "'action' must be an integer")
            return action
        if isinstance(text, str):
            try:
                return state.parse_action(text, lang)
            except ParseError as err:
                raise RequestError("illegal", str(err)) from err
        raise RequestError("bad_message", "an action message needs 'action' (int) or 'text'")

    def _check_turn(self, table: Table, seats: Sequence[int], message: Mapping[str, Any]) -> int:
        state = table.state
        if table.finished:
            raise RequestError("finished", "the game is over")
        state_id = message.get("state_id")
        if type(state_id) is not int:
            raise RequestError("bad_message", "'state_id' (the step you saw) must be an integer")
        if state_id != state.step:
            raise RequestError(
                "stale", f"the game has moved on (step {state.step}, you saw {state_id})"
            )
        wanted = message.get("seat")
        if wanted is not None:
            if type(wanted) is not int or wanted not in seats:
                raise RequestError("wrong_seat", "you do not hold that seat")
            seat = wanted
        elif state.current_player in seats:
            seat = state.current_player
        else:
            seat = seats[0]
        if state.current_player != seat:
            raise RequestError(
                "not_your_turn", f"it is player {state.current_player + 1}'s decision, not yours"
            )
        return seat

    async def act(
        self, table: Table, seats: Sequence[int], message: Mapping[str, Any], lang: str = "en"
    ) -> int:
        """Check and carry out a player's action; returns the new state id."""
        async with table.lock:
            seat = self._check_turn(table, seats, message)
            action = self._resolve_action(table.state, message, lang)
            await self._commit(table, seat, action)
            return table.state.step

    async def _commit(self, table: Table, seat: int, action: int) -> None:
        """Apply to a clone, persist, then publish (call with the table lock held)."""
        state = table.state
        new = state.clone()
        try:
            new.apply_checked(action)
        except IllegalAction as err:
            raise RequestError("illegal", str(err)) from err
        action = new.history[-1]  # as the game records it (a double's placement: one form)
        finished = new.is_terminal()
        outcome = new.outcome() if finished else None
        lease = self._lease_after(table, new)
        store = functools.partial(
            self.storage.append_action,
            table.id,
            state.step,
            seat,
            action,
            outcome=None if outcome is None else outcome.to_json(),
            finished=finished,
            version=table.version,
            lease=lease,
        )
        try:
            # the game's end goes in the same transaction as its last action; with several
            # processes the event loop serves the other games while the database works
            table.version = await self._write(store)
        except StaleWrite as err:  # another process stored a move first
            await self._refresh_locked(table)
            raise RequestError("stale", "the game has moved on; nothing was stored") from err
        except StorageError as err:
            log.error("game %s: %s", table.id, err)
            raise RequestError("storage", "the action could not be saved; try again") from err
        if lease is not None:
            table.lease_until = lease.until if lease.owner is not None else 0.0
        table.state = new
        table.prev = (new.step, state)
        if new.is_terminal():
            self.finished_game(table)
        await self.push(table)
        if new.is_terminal() and not table.subscribers:
            self.tables.pop(table.id, None)
        self._schedule_bots(table)

    def finished_game(self, table: Table) -> None:
        """Run the finish hooks (ratings…); a failing hook never stops the game."""
        self.bot_spent.pop(table.id, None)
        for hook in self.finish_hooks:
            try:
                hook(table)
            except Exception:
                log.exception("a finish hook failed for game %s", table.id)

    # -- undo -----------------------------------------------------------------------------
    def undo_refusal(self, table: Table, seat: int) -> str | None:
        """Why ``seat`` may not take back the last action now (``None``: it may)."""
        return undo_refusal(table, seat)

    async def undo(self, table: Table, seats: Sequence[int], message: Mapping[str, Any]) -> int:
        async with table.lock:
            state_id = message.get("state_id")
            if type(state_id) is not int:
                raise RequestError("bad_message", "'state_id' must be an integer")
            if state_id != table.state.step:
                raise RequestError("stale", "the game has moved on")
            wanted = message.get("seat")
            candidates = [wanted] if wanted is not None else list(seats)
            if wanted is not None and (type(wanted) is not int or wanted not in seats):
                raise RequestError("wrong_seat", "you do not hold that seat")
            reason = "nothing to undo"
            for seat in candidates:
                refusal = self.undo_refusal(table, seat)
                if refusal is None:
                    prev = previous_state(table)
                    lease = self._lease_after(table, prev)
                    try:
                        table.version = await self._write(
                            functools.partial(
                                self.storage.truncate_actions,
                                table.id,
                                prev.step,
                                version=table.version,
                                lease=lease,
                            )
                        )
                    except StaleWrite as err:
                        await self._refresh_locked(table)
                        raise RequestError("stale", "the game has moved on") from err
                    if lease is not None:
                        table.lease_until = lease.until if lease.owner is not None else 0.0
                    table.state = prev.clone()
                    table.prev = None
                    await self.push(table)
                    self._schedule_bots(table)
                    return table.state.step
                reason = refusal
            raise RequestError("cannot_undo", f"cannot undo: {reason}")

    # -- bots -----------------------------------------------------------------------------
    def _schedule_bots(self, table: Table) -> None:
        state = table.state
        if self._closing or table.finished or state.current_player not in table.bots:
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        if self.shared and table.lease_until <= time.time():
            return  # another process runs them (or will take them over)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop yet (created outside the server): start() will schedule
        table.bot_task = loop.create_task(self._run_bots(table))

    async def _run_bots(self, table: Table) -> None:
        """The bots of ``table`` until a person is to move or the game ends: whatever
        fails (the database, a bug) is logged and tried again after a pause that
        doubles each time, never the end of the task."""
        delay = self.retry_delay
        while not self._closing:
            try:
                await self._bot_loop(table)
                return
            except asyncio.CancelledError:
                raise
            except Exception:  # never let a bot failure pass silently
                log.exception("bots stopped in game %s; again in %.1f s", table.id, delay)
            await asyncio.sleep(delay)
            delay = min(2 * delay, MAX_RETRY_DELAY)

    async def _sweep_bots(self) -> None:
        """Every :attr:`sweep_interval` seconds, start the bots of every loaded game
        whose bot is to move and whose bot task has ended (for any reason)."""
        while not self._closing:
            await asyncio.sleep(self.sweep_interval)
            for table in list(self.tables.values()):
                self._schedule_bots(table)

    async def _bot_loop(self, table: Table) -> None:
        failures = 0  # storage failures in a row (the pause before a retry doubles)
        while not self._closing:
            state = table.state
            seat = state.current_player
            if table.finished or seat not in table.bots:
                return
            if self.shared and not await self._keep_lease(table):
                return  # another process runs them now
            if self.bot_delay > 0:
                await asyncio.sleep(self.bot_delay)
            step = state.step
            view, legal = state.view(seat), state.legal_actions()
            rng = random.Random(f"{state.config.seed}:{seat}:{step}")
            bot = table.bots[seat]
            people = self._people_waiting(table)
            try:
                if not people and self.bot_spent.get(table.id, 0.0) >= self.limits.bot_game_seconds:
                    # this game of bots alone has used its thinking time: answer at once
                    action = legal[rng.randrange(len(legal))]
                else:
                    # one move at a time per game, in turn with every other game's bots
                    async with self.bot_pool.slot(people):
                        if table.state.step != step:
                            continue
                        began = time.monotonic()
                        try:
                            action = await asyncio.to_thread(bot.act, view, legal, rng)
                        finally:
                            if not people:
                                spent = self.bot_spent.get(table.id, 0.0)
                                self.bot_spent[table.id] = spent + time.monotonic() - began
            except Exception:
                log.exception("bot %s failed in game %s; playing randomly", bot.name, table.id)
                action = legal[rng.randrange(len(legal))]
            retry = False
            if failures:
                log.info("game %s: trying the bot's move again", table.id)
            async with table.lock:
                if table.state.step != step:  # someone undid meanwhile: think again
                    continue
                # while this task runs, _commit schedules no other: this loop goes on
                try:
                    await self._commit(table, seat, action)
                except RequestError as err:
                    if err.code == "storage":
                        retry = True  # the database is unwell: try again shortly
                    elif err.code == "stale":
                        continue  # another process moved first: think again
                    else:
                        log.error("bot %s chose an illegal action in game %s", bot.name, table.id)
                        await self._commit(table, seat, legal[0])
            if retry:
                await asyncio.sleep(min(self.retry_delay * 2**failures, MAX_RETRY_DELAY))
                failures += 1
            else:
                failures = 0

    async def _keep_lease(self, table: Table) -> bool:
        """Renew this process's bot lease on ``table`` when half of it is gone."""
        now = time.time()
        if table.lease_until - now > self.lease_time / 2:
            return True
        until = now + self.lease_time
        take = self.storage.take_lease
        try:
            held = await self._off_loop(take, table.id, self.node, until, now)
        except Exception as err:  # the database is unwell: keep what we have while it lasts
            if isinstance(err, StorageError):
                log.warning("cannot renew the bot lease of game %s: %s", table.id, err)
            else:
                log.exception("cannot renew the bot lease of game %s", table.id)
            return table.lease_until > now
        table.lease_until = until if held else 0.0
        return held

    @staticmethod
    def _people_waiting(table: Table) -> bool:
        """Whether a person plays in this game (its bots go before bots-only games)."""
        return any(s.get("kind") == HUMAN for s in table.seats)

    # -- summaries ------------------------------------------------------------------------
    def summary(self, stored: StoredGame) -> dict[str, Any]:
        live = self.tables.get(stored.id)
        seats = live.seats if live is not None else stored.seats
        return {
            "id": stored.id,
            "game": stored.game,
            "players": stored.players,
            "status": stored.status
            if live is None or live.ended is not None
            else (STATUS_FINISHED if live.finished else STATUS_RUNNING),
            "open_seats": [
                i for i, s in enumerate(seats) if s.get("kind") == HUMAN and not s.get("joined")
            ],
            "seats": public_seats(seats),
            "options": dict(stored.options),
            "rated": bool(stored.meta.get("rated")),
            "step": live.state.step if live is not None else stored.steps,
            "outcome": stored.outcome,
            "created": stored.created,
            "updated": stored.updated,
        }
