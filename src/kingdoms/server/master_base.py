"""The state the parts of the game master share, and what they ask of each other.

:class:`kingdoms.server.master.GameMaster` is made of parts with one job each, every
one a subclass of :class:`MasterBase`: the table store (:mod:`~kingdoms.server.master_store`),
the relay to subscribers (:mod:`~kingdoms.server.master_relay`), the turn and undo rules
(:mod:`~kingdoms.server.master_turns`), the bots (:mod:`~kingdoms.server.master_bots`) and
the cross-process sync (:mod:`~kingdoms.server.master_sync`).  Reviews are apart
(:mod:`kingdoms.server.review`)."""

from __future__ import annotations

import abc
import asyncio
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from kingdoms.core.state import State
from kingdoms.server.botpool import BotPool
from kingdoms.server.limits import (
    DEFAULT_LIMITS,
    ServerLimits,
)
from kingdoms.server.replays import Replays
from kingdoms.server.storage import (
    DB_THREADS,
    LeaseChange,
    Storage,
)
from kingdoms.server.table import (
    Subscriber,
    Table,
)

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


class MasterBase(abc.ABC):
    """The shared state of one server process's game master."""

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

    # -- what the parts ask of each other (each abstract here, defined by one part) -------
    @abc.abstractmethod
    async def _off_loop(self, func: Callable[..., T], *args: Any) -> T:
        """Defined by :class:`MasterStore`."""

    @abc.abstractmethod
    async def _write(self, func: Callable[..., T], *args: Any) -> T:
        """Defined by :class:`MasterStore`."""

    @abc.abstractmethod
    def _forget(self, ids: Sequence[str]) -> None:
        """Defined by :class:`MasterStore`."""

    @abc.abstractmethod
    async def fetch(self, game_id: str) -> Table:
        """Defined by :class:`MasterStore`."""

    @abc.abstractmethod
    def authenticate(self, table: Table, tokens: Sequence[str]) -> tuple[int, ...]:
        """Defined by :class:`MasterStore`."""

    @abc.abstractmethod
    async def push(self, table: Table, subs: Sequence[Subscriber] | None = None) -> None:
        """Defined by :class:`MasterRelay`."""

    @abc.abstractmethod
    def undo_refusal(self, table: Table, seat: int) -> str | None:
        """Defined by :class:`MasterTurns`."""

    @abc.abstractmethod
    async def _commit(self, table: Table, seat: int, action: int) -> None:
        """Defined by :class:`MasterTurns`."""

    @abc.abstractmethod
    def _schedule_bots(self, table: Table) -> None:
        """Defined by :class:`MasterBots`."""

    @abc.abstractmethod
    def _lease_after(self, table: Table, state: State) -> LeaseChange | None:
        """Defined by :class:`MasterSync`."""

    @abc.abstractmethod
    def _mark_dirty(self, game_id: str) -> None:
        """Defined by :class:`MasterSync`."""

    @abc.abstractmethod
    async def _refresh_locked(self, table: Table) -> None:
        """Defined by :class:`MasterSync`."""
