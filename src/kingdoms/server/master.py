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

The master is made of parts with one job each (:mod:`kingdoms.server.master_base`):
the table store and its eviction (:mod:`~kingdoms.server.master_store`), the relay
to subscribers (:mod:`~kingdoms.server.master_relay`), the turn and undo rules
(:mod:`~kingdoms.server.master_turns`), the bots (:mod:`~kingdoms.server.master_bots`)
and the cross-process sync (:mod:`~kingdoms.server.master_sync`); game reviews run
apart (:mod:`kingdoms.server.review`).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from kingdoms.server.master_base import MasterBase
from kingdoms.server.master_bots import BotsPart
from kingdoms.server.master_relay import RelayPart
from kingdoms.server.master_store import StorePart
from kingdoms.server.master_sync import SyncPart
from kingdoms.server.master_turns import TurnsPart
from kingdoms.server.storage import (
    STATUS_FINISHED,
    STATUS_RUNNING,
    StoredGame,
)
from kingdoms.server.table import (
    HUMAN,
    RequestError,
    Subscriber,
    Table,
    public_seats,
)

__all__ = ["GameMaster", "MasterBase", "RequestError", "Subscriber", "Table", "public_seats"]


class GameMaster(StorePart, RelayPart, TurnsPart, BotsPart, SyncPart):
    """Runs every live game of one server process: its parts (see
    :mod:`kingdoms.server.master_base`) and their life cycle."""

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
