"""The bots: each game's bot task, its turn in the bot pool, its lease kept, its retries.
One part of :class:`kingdoms.server.master.GameMaster`."""

from __future__ import annotations

import asyncio
import random
import time

from kingdoms.server.master_base import (
    MAX_RETRY_DELAY,
    MasterBase,
    log,
)
from kingdoms.server.storage import (
    StorageError,
)
from kingdoms.server.table import (
    HUMAN,
    RequestError,
    Table,
)


class BotsPart(MasterBase):
    """The bots: each game's bot task, its turn in the bot pool, its lease kept, its
    retries."""

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
