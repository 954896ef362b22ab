"""The bots: each game's bot task, its turn in the bot pool, its lease kept, its retries.
One part of :class:`kingdoms.server.master.GameMaster`."""

from __future__ import annotations

import asyncio
import random
import time

from kingdoms.server.botpool import BotPool
from kingdoms.server.limits import DEFAULT_LIMITS, ServerLimits
from kingdoms.server.master_base import (
    BOT_SWEEP_INTERVAL,
    MAX_RETRY_DELAY,
    Database,
    Leases,
    log,
)
from kingdoms.server.master_store import TableStore
from kingdoms.server.master_turns import Turns
from kingdoms.server.storage import (
    StorageError,
)
from kingdoms.server.table import (
    HUMAN,
    RequestError,
    Table,
)


class Bots:
    """The bots: each game's bot task, its turn in the bot pool, its lease kept, its
    retries.

    A bot's move is played through ``turns`` like a person's; the bots of the games in
    ``store`` that stopped are started again every :attr:`sweep_interval` seconds.
    With a shared storage a game's bots run only under this process's lease
    (``leases``, renewed through ``db``)."""

    def __init__(
        self,
        db: Database,
        leases: Leases,
        store: TableStore,
        turns: Turns,
        limits: ServerLimits = DEFAULT_LIMITS,
        delay: float = 0.3,
    ) -> None:
        self.db = db
        self.leases = leases
        self.store = store
        self.turns = turns
        self.limits = limits
        self.delay = delay
        """Seconds a bot waits before it moves (so that people see what it does)."""
        self.pool = BotPool(limits.bot_workers)
        self.retry_delay = 1.0
        """Seconds a bot waits before trying again when its action could not be stored
        (doubled after each failure in a row, up to :data:`MAX_RETRY_DELAY`)."""
        self.spent: dict[str, float] = {}
        """Seconds of bot thinking used so far per game of bots alone (this process);
        past ``limits.bot_game_seconds`` its bots answer at once."""
        self.sweep_interval = BOT_SWEEP_INTERVAL
        """Seconds between two sweeps that restart the bots of games whose bot task
        ended (see :meth:`sweep`)."""
        self.closing = False

    def close(self) -> None:
        """Start no bot any more (the server is stopping)."""
        self.closing = True

    def game_ended(self, table: Table) -> None:
        """A finish hook: forget the thinking time ``table``'s bots used."""
        self.spent.pop(table.id, None)

    def schedule(self, table: Table) -> None:
        """Start the bot task of ``table`` if a bot of it is to move and none runs."""
        state = table.state
        if self.closing or table.finished or state.current_player not in table.bots:
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        if self.leases.shared and table.lease_until <= time.time():
            return  # another process runs them (or will take them over)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop yet (created outside the server): start() will schedule
        table.bot_task = loop.create_task(self._run(table))

    async def _run(self, table: Table) -> None:
        """The bots of ``table`` until a person is to move or the game ends: whatever
        fails (the database, a bug) is logged and tried again after a pause that
        doubles each time, never the end of the task."""
        delay = self.retry_delay
        while not self.closing:
            try:
                await self._loop(table)
                return
            except asyncio.CancelledError:
                raise
            except Exception:  # never let a bot failure pass silently
                log.exception("bots stopped in game %s; again in %.1f s", table.id, delay)
            await asyncio.sleep(delay)
            delay = min(2 * delay, MAX_RETRY_DELAY)

    async def sweep(self) -> None:
        """Every :attr:`sweep_interval` seconds, start the bots of every loaded game
        whose bot is to move and whose bot task has ended (for any reason)."""
        while not self.closing:
            await asyncio.sleep(self.sweep_interval)
            for table in list(self.store.tables.values()):
                self.schedule(table)

    async def _loop(self, table: Table) -> None:
        failures = 0  # storage failures in a row (the pause before a retry doubles)
        while not self.closing:
            state = table.state
            seat = state.current_player
            if table.finished or seat not in table.bots:
                return
            if self.leases.shared and not await self._keep_lease(table):
                return  # another process runs them now
            if self.delay > 0:
                await asyncio.sleep(self.delay)
            step = state.step
            view, legal = state.view(seat), state.legal_actions()
            rng = random.Random(f"{state.config.seed}:{seat}:{step}")
            bot = table.bots[seat]
            people = self._people_waiting(table)
            try:
                if not people and self.spent.get(table.id, 0.0) >= self.limits.bot_game_seconds:
                    # this game of bots alone has used its thinking time: answer at once
                    action = legal[rng.randrange(len(legal))]
                else:
                    # one move at a time per game, in turn with every other game's bots
                    async with self.pool.slot(people):
                        if table.state.step != step:
                            continue
                        began = time.monotonic()
                        try:
                            action = await asyncio.to_thread(bot.act, view, legal, rng)
                        finally:
                            if not people:
                                spent = self.spent.get(table.id, 0.0)
                                self.spent[table.id] = spent + time.monotonic() - began
            except Exception:
                log.exception("bot %s failed in game %s; playing randomly", bot.name, table.id)
                action = legal[rng.randrange(len(legal))]
            retry = False
            if failures:
                log.info("game %s: trying the bot's move again", table.id)
            async with table.lock:
                if table.state.step != step:  # someone undid meanwhile: think again
                    continue
                # while this task runs, commit schedules no other: this loop goes on
                try:
                    await self.turns.commit(table, seat, action)
                except RequestError as err:
                    if err.code == "storage":
                        retry = True  # the database is unwell: try again shortly
                    elif err.code == "stale":
                        continue  # another process moved first: think again
                    else:
                        log.error("bot %s chose an illegal action in game %s", bot.name, table.id)
                        await self.turns.commit(table, seat, legal[0])
            if retry:
                await asyncio.sleep(min(self.retry_delay * 2**failures, MAX_RETRY_DELAY))
                failures += 1
            else:
                failures = 0

    async def _keep_lease(self, table: Table) -> bool:
        """Renew this process's bot lease on ``table`` when half of it is gone."""
        now = time.time()
        lease_time = self.leases.lease_time
        if table.lease_until - now > lease_time / 2:
            return True
        until = now + lease_time
        try:
            held = await self.db.call(self.leases.take, table.id, until, now)
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
