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

The master is a small façade over parts with one job each, every one an object with
its own state, given the others it needs (:mod:`kingdoms.server.master_base`): the
database threads and the bot leases (:mod:`~kingdoms.server.master_base`), the table
store and its eviction (:mod:`~kingdoms.server.master_store`), the relay to subscribers
(:mod:`~kingdoms.server.master_relay`), the cross-process sync
(:mod:`~kingdoms.server.master_sync`), the turn and undo rules
(:mod:`~kingdoms.server.master_turns`) and the bots (:mod:`~kingdoms.server.master_bots`);
game reviews run apart (:mod:`kingdoms.server.review`).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from kingdoms.server.limits import DEFAULT_LIMITS, ServerLimits
from kingdoms.server.master_base import Database, Leases
from kingdoms.server.master_bots import Bots
from kingdoms.server.master_relay import Relay
from kingdoms.server.master_store import TableStore
from kingdoms.server.master_sync import Sync
from kingdoms.server.master_turns import Turns
from kingdoms.server.replays import Replays
from kingdoms.server.storage import (
    STATUS_FINISHED,
    STATUS_RUNNING,
    Storage,
    StoredGame,
)
from kingdoms.server.table import (
    HUMAN,
    RequestError,
    Subscriber,
    Table,
    public_seats,
)

__all__ = ["GameMaster", "RequestError", "Subscriber", "Table", "public_seats"]


class GameMaster:
    """Runs every live game of one server process: makes its parts, wires them
    together, starts and stops their background work, and answers for them."""

    def __init__(
        self,
        storage: Storage,
        bot_delay: float = 0.3,
        limits: ServerLimits = DEFAULT_LIMITS,
        expire_after: float | None = 24 * 3600.0,
        lease_time: float = 6.0,
    ) -> None:
        self.storage = storage
        self.limits = limits
        self.expire_after = expire_after
        """Seconds after which a game nobody joined expires (``None``: never)."""
        self.replays = Replays()
        self.db = Database(storage)
        self.leases = Leases(storage, lease_time)
        self.store = TableStore(storage, self.db, self.leases, limits, self._resident)
        self.relay = Relay(self.store, self.db, limits, self._wake)
        self.sync = Sync(storage, self.db, self.leases, self.store, self.relay, self._wake)
        self.store.in_use = self.sync.pending
        self.turns = Turns(
            storage, self.db, self.leases, self.store, self.relay, self.sync, self._wake
        )
        self.bots = Bots(self.db, self.leases, self.store, self.turns, limits, bot_delay)
        self.turns.finish_hooks.append(self.bots.game_ended)
        self._background: list[asyncio.Task[None]] = []

        # -- what the server asks, answered by the part whose job it is -----------------
        self.shared = self.leases.shared
        """Other processes may use the same database (listen, run bots under leases)."""
        self.node = self.leases.node
        """This process's name in the bot leases."""
        self.lease_time = lease_time
        self.tables = self.store.tables
        """The running games in memory (see :class:`TableStore`)."""
        self.resumed = self.store.resumed
        """Set once the start-up pass over the unfinished games is done."""
        self.listening = self.sync.listening
        """Set while this process receives the other processes' notifications."""
        self.finish_hooks = self.turns.finish_hooks
        """Called once when a game ends (by its rules, a resignation or abandonment)."""
        self.bot_pool = self.bots.pool
        self.bot_spent = self.bots.spent
        self.create_game = self.store.create_game
        self.open_game = self.store.open_game
        self.client_games = self.store.client_games
        self.get = self.store.get
        self.fetch = self.store.fetch
        self.authenticate = self.store.authenticate
        self.evict_idle = self.store.evict_idle
        self.expire_unjoined = self.store.expire_unjoined
        self.subscribe = self.relay.subscribe
        self.add_spectator = self.relay.add_spectator
        self.unsubscribe = self.relay.unsubscribe
        self.push = self.relay.push
        self.act = self.turns.act
        self.undo = self.turns.undo
        self.undo_refusal = self.turns.undo_refusal
        self.finished_game = self.turns.finished_game
        self.refresh = self.sync.refresh
        self.check_cached = self.sync.check_cached

    def _wake(self, table: Table) -> None:
        self.bots.schedule(table)

    def _resident(self, table: Table) -> None:
        self.sync.loaded(table)
        self.bots.schedule(table)

    # -- life cycle ---------------------------------------------------------------------
    async def start(self, resume: bool = True) -> None:
        """Start the background work: the pass over unfinished games (repairs, bots
        waiting to move) and the expiry of games nobody joined.  Returns at once."""
        loop = asyncio.get_running_loop()
        store = self.store
        if resume:
            self._background.append(loop.create_task(store.resume_all()))
        else:
            store.resumed.set()
        if self.expire_after is not None:
            self._background.append(loop.create_task(store.expire_loop(self.expire_after)))
        self._background.append(loop.create_task(store.evict_loop()))
        self._background.append(loop.create_task(self.bots.sweep()))
        if self.shared:
            self._background.append(loop.create_task(self.sync.listen()))
            self._background.append(loop.create_task(self.sync.lease_loop()))

    async def stop(self) -> None:
        for part in (self.store, self.sync, self.bots):
            part.close()
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None]
        tasks += self._background + list(self.sync.refreshers.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.shared:  # let another process take our games' bots at once
            with contextlib.suppress(Exception):
                self.leases.release_all()
        self.db.shutdown()

    # -- settings the tests and the command line change -----------------------------------
    @property
    def bot_delay(self) -> float:
        return self.bots.delay

    @bot_delay.setter
    def bot_delay(self, seconds: float) -> None:
        self.bots.delay = seconds

    @property
    def retry_delay(self) -> float:
        """Seconds before a bot's move or a refresh that met a database error is tried
        again (doubled after each failure in a row)."""
        return self.bots.retry_delay

    @retry_delay.setter
    def retry_delay(self, seconds: float) -> None:
        self.bots.retry_delay = self.sync.retry_delay = seconds

    @property
    def sweep_interval(self) -> float:
        return self.bots.sweep_interval

    @sweep_interval.setter
    def sweep_interval(self, seconds: float) -> None:
        self.bots.sweep_interval = seconds

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
