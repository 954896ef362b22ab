"""Fair shares of the server's bot CPU.

Bots think in worker threads; :class:`BotPool` decides whose turn it is.  Each
game asks for one move at a time (its bot task waits for its slot, thinks,
stores the move, then asks again at the back of the line), so games take
turns round-robin.  Games where a person is waiting are served first; games of
bots alone get every ``share``-th slot while people wait, so they slow down but
never stop.  At most ``workers`` moves are computed at once, whatever clients
ask for: with the think-time cap of :mod:`kingdoms.server.limits` this bounds
the server's total bot CPU.

Background work (game reviews) never takes a slot: it runs in processes of its own
and listens (:attr:`BotPool.listeners`) for whether a bot move waits or runs, to
give way at once (see :class:`kingdoms.server.review.ReviewGate`).

>>> import asyncio
>>> async def demo() -> list[str]:
...     pool, order = BotPool(workers=1), []
...     async def move(name: str, human: bool) -> None:
...         async with pool.slot(human):
...             order.append(name)
...             await asyncio.sleep(0)
...     await asyncio.gather(move("bots-1", False), move("bots-2", False), move("people", True))
...     return order
>>> asyncio.run(demo())
['bots-1', 'people', 'bots-2']
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncIterator, Callable


class BotPool:
    """At most ``workers`` bot moves at once; people's games first, in arrival order."""

    def __init__(self, workers: int = 2, share: int = 4) -> None:
        if workers < 1:
            raise ValueError("workers must be at least 1")
        self.workers = workers
        self.share = share
        self.busy = 0
        self._waiting: dict[bool, deque[asyncio.Future[None]]] = {True: deque(), False: deque()}
        self._people_in_a_row = 0
        self.listeners: list[Callable[[bool], None]] = []
        """Called with ``True`` when a bot move starts to wait or run while none did,
        ``False`` when the last one is done (background work gives way meanwhile)."""
        self._active = False

    def _changed(self) -> None:
        active = self.busy > 0 or self.queued > 0
        if active != self._active:
            self._active = active
            for listener in list(self.listeners):
                listener(active)

    @property
    def queued(self) -> int:
        return sum(len(q) for q in self._waiting.values())

    @contextlib.asynccontextmanager
    async def slot(self, people_waiting: bool) -> AsyncIterator[None]:
        """Hold one worker slot for one move (``people_waiting``: a person waits on it)."""
        if self.busy < self.workers and not self.queued:
            self.busy += 1
            self._changed()
        else:
            fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            queue = self._waiting[people_waiting]
            queue.append(fut)
            self._changed()
            try:
                await fut  # the releaser counted us as busy already
            except asyncio.CancelledError:
                if fut.done() and not fut.cancelled():
                    self._release()  # granted but not used: hand it on
                else:
                    with contextlib.suppress(ValueError):
                        queue.remove(fut)
                    self._changed()
                raise
        try:
            yield
        finally:
            self._release()

    def _release(self) -> None:
        self.busy -= 1
        while self.busy < self.workers:
            fut = self._next()
            if fut is None:
                break
            if not fut.done():
                self.busy += 1
                fut.set_result(None)
        self._changed()

    def _next(self) -> asyncio.Future[None] | None:
        people, bots = self._waiting[True], self._waiting[False]
        if people and (not bots or self._people_in_a_row < self.share - 1):
            self._people_in_a_row += 1
            return people.popleft()
        self._people_in_a_row = 0
        if bots:
            return bots.popleft()
        return None
