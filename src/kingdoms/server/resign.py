"""Ending a game early: a player resigns, or a game nobody touches is abandoned.

A resignation ends the game for everyone (the rules of our games have no way to
play on without a seat): the resigning seat comes last, the others are ranked by
their scores at that moment.  A running game idle for longer than the server's
``idle_limit`` is marked *abandoned* by a periodic sweep.  Both are stored with
the game (its status and outcome), so lists, replays and ratings see them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any

from kingdoms.server.master import GameMaster, RequestError, Table
from kingdoms.server.spectate import current_scores
from kingdoms.server.storage import STATUS_ABANDONED, STATUS_FINISHED

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


async def _end(master: GameMaster, table: Table, status: str, outcome: dict[str, Any]) -> None:
    """Store and announce an early end (call with ``table.lock`` held)."""
    master.storage.set_status(table.id, status, outcome)
    table.ended = outcome
    if table.bot_task is not None and not table.bot_task.done():
        table.bot_task.cancel()
    master.finished_game(table)
    await master.push(table)
    if not table.subscribers:
        master.tables.pop(table.id, None)


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
        if table.finished:
            raise RequestError("finished", "the game is over")
        await _end(master, table, STATUS_FINISHED, early_outcome(table, "resigned", wanted))


async def abandon_idle(
    master: GameMaster, idle_limit: float, now: float | None = None
) -> list[str]:
    """Mark every running game idle for over ``idle_limit`` seconds abandoned; their ids."""
    now = time.time() if now is None else now
    done: list[str] = []
    for table in list(master.tables.values()):
        if table.finished:
            continue
        stored = master.storage.load_game(table.id)
        if stored is None or now - stored.updated <= idle_limit:
            continue
        async with table.lock:
            if table.finished:
                continue
            await _end(master, table, STATUS_ABANDONED, early_outcome(table, "abandoned"))
        done.append(table.id)
    return done


async def sweep(master: GameMaster, idle_limit: float, every: float) -> None:
    """Run :func:`abandon_idle` every ``every`` seconds until cancelled."""
    while True:
        await asyncio.sleep(every)
        with contextlib.suppress(Exception):
            gone = await abandon_idle(master, idle_limit)
            if gone:
                log.info("abandoned idle games: %s", ", ".join(gone))
