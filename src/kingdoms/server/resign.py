"""Ending a game early: a player resigns, or a game nobody touches is abandoned.

A resignation ends the game for everyone (the rules of our games have no way to
play on without a seat): the resigning seat comes last, the others are ranked by
their scores at that moment.  A running game idle for longer than the server's
``idle_limit`` is marked *abandoned* by a periodic sweep, which asks the database
for such games (not only those this process holds in memory).  Both are stored with
the game (its status and outcome), so lists, replays and ratings see them.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any

from kingdoms.server.master import GameMaster, RequestError, Table
from kingdoms.server.spectate import current_scores
from kingdoms.server.storage import STATUS_ABANDONED, STATUS_FINISHED, StaleWrite

log = logging.getLogger(__name__)

DEFAULT_IDLE_LIMIT = 7 * 24 * 3600.0
"""Seconds without a move after which a running game is abandoned (a week)."""


def early_outcome(table: Table, reason: str, seat: int | None = None) -> dict[str, Any]:
    """The outcome of a game ended before its end: current scores, winners among the
    seats that did not resign (best score), and why it ended."""
    n = table.state.num_players
    scores = current_scores(table.state) or [0.0] * n
    contenders = [i for i in range(n) if i != seat]
    winners: list[int] = []
    if reason == "resigned" and contenders:
        best = max(scores[i] for i in contenders)
        winners = [i for i in contenders if scores[i] == best]
    details: dict[str, Any] = {"ended": reason, "step": table.state.step}
    if seat is not None:
        details["resigned"] = seat
    return {"scores": scores, "winners": winners, "details": details}


async def _end(
    master: GameMaster,
    table: Table,
    status: str,
    outcome: dict[str, Any],
    idle_before: float | None = None,
) -> None:
    """Store and announce an early end (call with ``table.lock`` held).

    Raises :class:`StaleWrite` (nothing stored) if the stored game moved on from the
    version this process holds (another process wrote first)."""
    write = functools.partial(
        master.storage.set_status,
        table.id,
        status,
        outcome,
        version=table.version,
        idle_before=idle_before,
    )
    table.version = await master.db.write(write)  # the event loop never waits on it
    table.ended = outcome
    if table.bot_task is not None and not table.bot_task.done():
        table.bot_task.cancel()
    master.finished_game(table)
    await master.push(table)
    master.store.release(table)


async def resign(
    master: GameMaster, table: Table, seats: Sequence[int], message: Mapping[str, Any]
) -> None:
    """The seat named in ``message`` (or the connection's only seat) resigns."""
    wanted = message.get("seat")
    if wanted is None:
        if len(seats) != 1:
            raise RequestError("wrong_seat", "say which seat resigns")
        wanted = seats[0]
    if type(wanted) is not int or wanted not in seats:
        raise RequestError("wrong_seat", "you do not hold that seat")
    async with table.lock:
        for _attempt in range(5):
            if table.finished:
                raise RequestError("finished", "the game is over")
            try:
                await _end(master, table, STATUS_FINISHED, early_outcome(table, "resigned", wanted))
                return
            except StaleWrite:  # moved on through another process: resign from there
                await master.sync.refresh_locked(table)
        raise RequestError("stale", "the game keeps moving; try again")


async def abandon_idle(
    master: GameMaster, idle_limit: float, now: float | None = None, limit: int = 200
) -> list[str]:
    """Mark up to ``limit`` running games idle for over ``idle_limit`` seconds abandoned
    (the database says which: loaded or not, whichever process served them); their ids.

    Several processes may sweep at once: each game is ended by exactly one of them."""
    now = time.time() if now is None else now
    before = now - idle_limit
    done: list[str] = []
    for game_id in await master.db.call(master.storage.idle_running, before, limit):
        try:
            table = await master.fetch(game_id)
        except RequestError as err:  # e.g. a record that no longer replays: leave it
            log.warning("cannot abandon game %s: %s", game_id, err)
            continue
        async with table.lock:
            if table.finished:
                continue
            try:
                outcome = early_outcome(table, "abandoned")
                await _end(master, table, STATUS_ABANDONED, outcome, idle_before=before)
            except StaleWrite:  # moved or ended meanwhile (here or elsewhere)
                await master.sync.refresh_locked(table)
                continue
        done.append(game_id)
    return done


async def sweep(master: GameMaster, idle_limit: float, every: float) -> None:
    """Run :func:`abandon_idle` every ``every`` seconds until cancelled."""
    while True:
        await asyncio.sleep(every)
        try:
            gone = await abandon_idle(master, idle_limit)
        except asyncio.CancelledError:
            raise
        except Exception:  # the database is unwell: try again next time
            log.exception("cannot abandon idle games")
        else:
            if gone:
                log.info("abandoned idle games: %s", ", ".join(gone))
