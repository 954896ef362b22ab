"""Game reviews on the server: asked for from a finished game's page, computed in the
background at the lowest priority, kept in the database.

* **Never in the way of play.**  Reviews run in processes of their own
  (``limits.review_workers``, at ``nice 19``), never in the bots' slots, and are
  stopped (``SIGSTOP``) the moment a bot move waits or runs, until none does
  (:class:`ReviewGate`): a bot move's latency is what it would be with no review.
* **Fair.**  A game's own players (a seat's token or its share key) are served first
  and never refused; strangers may ask for public finished games only, at most
  ``limits.reviews_per_client`` waiting per client and ``limits.review_queue`` in all.
* **Cached per game.**  A game is reviewed once, every seat; every later request reads
  the stored review.
* **Stored and resumable.**  Each analysed decision is stored as it is made (table
  ``reviews``); after a restart the unfinished reviews are queued again and continue
  where they stopped.
* **Visibility.**  A seat's part of a review (its curve and mistakes) is shown to the
  holder of that seat's token; to anyone else only when the seat's owner shared it, the
  seat is a bot's, or the game is public (all finished games except those created with
  ``"private": true``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing as mp
import os
import signal
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from sqlalchemy import Column, Float, Integer, MetaData, String, Table, Text, insert, select, update
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from kingdoms.core.errors import KingdomsError
from kingdoms.review.analysis import Budget, Decision
from kingdoms.review.game import analyse_steps, positions
from kingdoms.server.botnames import display_names
from kingdoms.server.limits import parse_json
from kingdoms.server.master import GameMaster, RequestError
from kingdoms.server.privacy import check_open, holds_share_key, no_such_game, request_tokens
from kingdoms.server.ratings import profile_client
from kingdoms.server.storage import Storage, create_tables, keys, required
from kingdoms.server.table import BOT, HUMAN
from kingdoms.server.table import Table as GameTable

log = logging.getLogger(__name__)

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"

SERVER_BUDGET = Budget(iterations=1000, seconds=2.0)
"""Per decision: at most 1000 samples or 2 CPU seconds (a bot slot is held that long)."""

metadata = MetaData()

reviews_table = Table(
    "reviews",
    metadata,
    *keys(game_id=String(40)),
    *required(status=String(16), client=String(64), requested=Float, updated=Float),
    Column("budget", Text, nullable=False, default="{}"),
    Column("total", Integer, nullable=False, default=0),
    Column("decisions", Text, nullable=False, default="{}"),  # step -> analysis JSON
    Column("shared", Text, nullable=False, default="[]"),
    Column("cpu", Float, nullable=False, default=0.0),
    Column("error", Text, nullable=True),
)


class ReviewStore:
    """The ``reviews`` table (created with the storage layer's :func:`create_tables`)."""

    def __init__(self, storage: Storage) -> None:
        self.engine = storage.engine
        create_tables(self.engine, metadata)

    def get(self, game_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(reviews_table).where(reviews_table.c.game_id == game_id)
            ).first()
        if row is None:
            return None
        return {
            "game_id": row.game_id,
            "status": row.status,
            "client": row.client,
            "total": row.total,
            "decisions": json.loads(row.decisions),
            "shared": json.loads(row.shared),
            "cpu": row.cpu,
            "error": row.error,
        }

    def request(self, game_id: str, client: str, budget: Budget) -> bool:
        """Queue a review of ``game_id``; False when one exists already."""
        now = time.time()
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(reviews_table).values(
                        game_id=game_id,
                        status=QUEUED,
                        client=client,
                        requested=now,
                        updated=now,
                        budget=json.dumps(budget.to_json()),
                        decisions="{}",
                        shared="[]",
                        total=0,
                        cpu=0.0,
                    )
                )
        except Exception:  # the row exists (another request or process was first)
            if self.get(game_id) is None:
                raise
            return False
        return True

    def _set(self, game_id: str, **values: Any) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(reviews_table)
                .where(reviews_table.c.game_id == game_id)
                .values(updated=time.time(), **values)
            )

    def start(self, game_id: str, total: int) -> None:
        self._set(game_id, status=RUNNING, total=total)

    def finish(self, game_id: str, error: str | None = None) -> None:
        self._set(game_id, status=FAILED if error else DONE, error=error)

    def add(self, game_id: str, results: list[tuple[int, Decision | None]], cpu: float) -> None:
        """Store analysed decisions (read, merge and write in one transaction)."""
        with self.engine.begin() as conn:
            row = conn.execute(
                select(reviews_table.c.decisions, reviews_table.c.cpu)
                .where(reviews_table.c.game_id == game_id)
                .with_for_update()
            ).first()
            if row is None:
                return
            decisions = json.loads(row.decisions)
            for step, decision in results:
                decisions[str(step)] = None if decision is None else decision.to_json()
            conn.execute(
                update(reviews_table)
                .where(reviews_table.c.game_id == game_id)
                .values(decisions=json.dumps(decisions), cpu=row.cpu + cpu, updated=time.time())
            )

    def share(self, game_id: str, seat: int, shared: bool) -> list[int]:
        with self.engine.begin() as conn:
            row = conn.execute(
                select(reviews_table.c.shared)
                .where(reviews_table.c.game_id == game_id)
                .with_for_update()
            ).first()
            if row is None:
                raise RequestError("no_review", "nobody asked for a review of this game yet")
            seats = set(json.loads(row.shared))
            if shared:
                seats.add(seat)
            else:
                seats.discard(seat)
            conn.execute(
                update(reviews_table)
                .where(reviews_table.c.game_id == game_id)
                .values(shared=json.dumps(sorted(seats)))
            )
        return sorted(seats)

    def pending(self) -> list[str]:
        """Reviews waiting or interrupted (a restart), oldest request first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(reviews_table.c.game_id)
                .where(reviews_table.c.status.in_([QUEUED, RUNNING]))
                .order_by(reviews_table.c.requested)
            ).all()
        return [r.game_id for r in rows]

    def waiting_for(self, client: str) -> int:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(reviews_table.c.game_id).where(
                    reviews_table.c.client == client,
                    reviews_table.c.status.in_([QUEUED, RUNNING]),
                )
            ).all()
        return len(rows)


def _lowest_priority() -> None:
    with contextlib.suppress(OSError):
        os.nice(19)


OWN, STRANGER = 0, 1
"""Priorities in the queue: a game's own players (or holders of its share key) first."""


class ReviewGate:
    """Reviews give way to play: while any bot move waits or is computed, the review
    processes are stopped (``SIGSTOP``), and they go on (``SIGCONT``) once no bot move
    is due.  A review step so never holds a CPU a bot move could use, however long it
    runs, and its budget (CPU seconds) does not run while it is stopped."""

    def __init__(self) -> None:
        self.pids: set[int] = set()
        self.paused = False
        self.pauses = 0
        """How many times the reviews gave way (for tests and figures)."""

    def update(self, play_waits: bool) -> None:
        if play_waits == self.paused:
            return
        self.paused = play_waits
        if play_waits:
            self.pauses += 1
        sig = signal.SIGSTOP if play_waits else signal.SIGCONT
        for pid in list(self.pids):
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                self.pids.discard(pid)
            except OSError as err:  # not ours to signal (never expected): say so once
                log.warning("cannot pause the review process %s: %s", pid, err)
                self.pids.discard(pid)

    def adopt(self, pids: set[int]) -> None:
        """Watch the review processes ``pids`` (a new one joins the current state)."""
        for pid in pids - self.pids:
            self.pids.add(pid)
            if self.paused:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGSTOP)

    def release(self) -> None:
        """Let every review process go on (before the pool is shut down)."""
        for pid in list(self.pids):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGCONT)
        self.pids.clear()
        self.paused = False


class ReviewService:
    """The queue of reviews and the background task that works through it.

    * **Its own workers.**  Reviews run in a pool of their own processes (``workers``,
      at ``nice 19``), never in the bots' slots; the :class:`ReviewGate` stops them
      whenever a bot move waits or runs.
    * **Fair.**  A game is reviewed once, for every seat, and the result shared.  Its
      own players (seat tokens, or its share key) go ahead of anyone else: a review
      they ask for is taken before any stranger's, and one under way for a stranger
      gives way (its analysed steps are kept) when a player's request comes in.
      Strangers may ask only for public finished games, at most
      ``limits.reviews_per_client`` waiting per client and ``limits.review_queue`` in
      all; a full queue never refuses a game's own players."""

    def __init__(
        self,
        master: GameMaster,
        budget: Budget = SERVER_BUDGET,
        per_client: int | None = None,
        max_queue: int | None = None,
        workers: int = 1,
    ) -> None:
        self.master = master
        self.store = ReviewStore(master.storage)
        self.budget = budget
        limits = master.limits
        self.per_client = limits.reviews_per_client if per_client is None else per_client
        self.max_queue = limits.review_queue if max_queue is None else max_queue
        self.workers = max(1, workers)
        self.queue: asyncio.PriorityQueue[tuple[int, int, str]] = asyncio.PriorityQueue()
        self._queued: dict[str, int] = {}
        """Games waiting or under way, with their priority (:data:`OWN`, :data:`STRANGER`)."""
        self._strangers: dict[str, str] = {}
        """Strangers' reviews waiting or under way: game -> the client who asked."""
        self._seq = 0
        self._task: asyncio.Task[None] | None = None
        self._pool: ProcessPoolExecutor | None = None
        self.gate = ReviewGate()
        self._writing = asyncio.Lock()
        """One merge of analyses at a time (SQLite has no row locks to keep two apart)."""

    async def start(self) -> None:
        for game_id in await asyncio.to_thread(self.store.pending):
            self._enqueue(game_id, STRANGER)
        self.master.bot_pool.listeners.append(self.gate.update)
        self._task = asyncio.get_running_loop().create_task(self._work())

    async def stop(self) -> None:
        with contextlib.suppress(ValueError):
            self.master.bot_pool.listeners.remove(self.gate.update)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        self.gate.release()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    def _enqueue(self, game_id: str, priority: int) -> None:
        """Queue ``game_id`` (again, ahead, if its priority rose); stale entries are
        skipped when taken."""
        if self._queued.get(game_id, STRANGER + 1) <= priority:
            return
        self._queued[game_id] = priority
        self._seq += 1
        self.queue.put_nowait((priority, self._seq, game_id))

    def strangers_waiting(self, client: str | None = None) -> int:
        return sum(1 for c in self._strangers.values() if client is None or c == client)

    async def request(
        self, table: GameTable, client: str, own: bool | None = None
    ) -> dict[str, Any]:
        """Ask for the review of ``table`` for ``client``; ``own``: the client holds one
        of its seats or its share key (then never refused, and served first)."""
        if not table.finished:
            raise RequestError("not_finished", "a game is reviewed once it is over")
        if own is None:
            own = False
        if not own and table.meta.get("private"):
            raise no_such_game()
        known = await asyncio.to_thread(self.store.get, table.id)
        if known is not None and known["status"] not in (QUEUED, RUNNING):
            return {"status": known["status"]}
        priority = OWN if own else STRANGER
        if known is None and not own:
            if self.strangers_waiting() >= self.max_queue:
                raise RequestError("busy", "too many reviews are waiting; try again later")
            waiting = self.strangers_waiting(client)
            if waiting >= self.per_client:
                raise RequestError(
                    "busy", f"you have {waiting} reviews waiting already; wait for them"
                )
        if known is None:
            await asyncio.to_thread(self.store.request, table.id, client, self.budget)
            if not own:
                self._strangers[table.id] = client
        elif own:
            self._strangers.pop(table.id, None)  # its players' now: counted for nobody
        self._enqueue(table.id, priority)
        return {"status": QUEUED, "queued": len(self._queued)}

    # -- the work ------------------------------------------------------------------------
    async def _work(self) -> None:
        while True:
            priority, _seq, game_id = await self.queue.get()
            if self._queued.get(game_id) != priority:
                continue  # a stale entry: queued again ahead, or done
            try:
                finished = await self._review(game_id, priority)
            except asyncio.CancelledError:
                raise
            except Exception as err:  # one broken game must not stop the others
                log.exception("review of game %s failed", game_id)
                with contextlib.suppress(Exception):
                    await asyncio.to_thread(self.store.finish, game_id, str(err) or "error")
                finished = True
            if finished:
                self._queued.pop(game_id, None)
                self._strangers.pop(game_id, None)
            else:  # gave way to a game's own players: on again after them
                self._queued.pop(game_id, None)
                self._enqueue(game_id, priority)

    def _ahead(self, priority: int) -> bool:
        """Whether a review of a higher priority than ``priority`` waits."""
        return any(p < priority for p in self._queued.values())

    async def _review(self, game_id: str, priority: int) -> bool:
        """Review ``game_id`` (the decisions not analysed yet); False if it gave way to
        a game's own players before the end."""
        table = await self.master.fetch(game_id)
        record = table.record()
        stored = await asyncio.to_thread(self.store.get, game_id)
        done = {int(k) for k in (stored or {}).get("decisions", {})}
        steps = await asyncio.to_thread(positions, record, None, self.budget.width)
        await asyncio.to_thread(self.store.start, game_id, len(steps))
        todo = [s for s in steps if s not in done]
        if self._pool is None:
            # spawned, not forked: a fork of the server's threads (event loop, database)
            # could copy locks held by them
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=mp.get_context("spawn"), initializer=_lowest_priority
            )
        loop = asyncio.get_running_loop()
        pool = self._pool

        async def one(step: int) -> None:
            started = time.perf_counter()
            future = loop.run_in_executor(pool, analyse_steps, record, [step], self.budget)
            self.gate.adopt(set(getattr(pool, "_processes", None) or {}))
            results = await future
            cpu = sum(d.cpu_seconds for _, d in results if d is not None)
            log.debug("review %s step %s: %.2f s", game_id, step, time.perf_counter() - started)
            async with self._writing:
                await asyncio.to_thread(self.store.add, game_id, results, cpu)

        running: set[asyncio.Task[None]] = set()
        gave_way = False
        for step in todo:
            while len(running) >= self.workers:
                finished, running = await asyncio.wait(running, return_when="FIRST_COMPLETED")
                for task in finished:
                    task.result()
            if self._ahead(priority):
                gave_way = True
                break
            running.add(loop.create_task(one(step)))
        if running:
            for outcome in await asyncio.gather(*running, return_exceptions=True):
                if isinstance(outcome, BaseException):
                    raise outcome
        if gave_way:
            return False
        await asyncio.to_thread(self.store.finish, game_id)
        return True


# -- what a client may see --------------------------------------------------------------
def visible_seats(table: GameTable, mine: set[int], shared: list[int]) -> list[int]:
    public = table.finished and not table.meta.get("private")
    out = []
    for seat, info in enumerate(table.seats):
        if seat in mine or seat in shared or public or info.get("kind") == BOT:
            out.append(seat)
    return out


def review_body(
    table: GameTable, stored: dict[str, Any], mine: set[int], lang: str
) -> dict[str, Any]:
    decisions = [Decision.from_json(d) for d in stored["decisions"].values() if d is not None]
    decisions.sort(key=lambda d: d.step)
    seats = visible_seats(table, mine, stored["shared"])

    def text(texts: dict[str, str]) -> str:
        return texts.get(lang, texts["en"])

    out_seats = []
    names = display_names(table.seats, lang)
    for seat in range(len(table.seats)):
        entry: dict[str, Any] = {
            "seat": seat,
            "name": names[seat],
            "visible": seat in seats,
            "mine": seat in mine,
            "shared": seat in stored["shared"],
        }
        if seat in seats:
            own = [d for d in decisions if d.seat == seat]
            entry["curve"] = [
                {
                    "step": d.step,
                    "turn": d.turn,
                    "win": d.win,
                    "se": d.win_se,
                    "move": text(d.chosen_text),
                }
                for d in own
            ]
            flagged = sorted((d for d in own if d.flagged), key=lambda d: (-d.loss, d.step))
            entry["mistakes"] = [
                {
                    "step": d.step,
                    "turn": d.turn,
                    "move": text(d.chosen_text),
                    "best": text(d.best_text),
                    "loss": d.loss,
                    "loss_se": d.loss_se,
                    "win": d.win,
                    "iterations": d.iterations,
                }
                for d in flagged[:3]
            ]
        out_seats.append(entry)
    return {
        "game_id": table.id,
        "status": stored["status"],
        "done": len(stored["decisions"]),
        "total": stored["total"],
        "cpu_seconds": round(stored["cpu"], 1),
        "seats": out_seats,
    }


def _service(request: Request) -> ReviewService:
    service: ReviewService = request.app.state.reviews
    return service


def _tokens(request: Request) -> list[str]:
    return request_tokens(request)


def _mine(table: GameTable, tokens: list[str]) -> set[int]:
    seats = {table.seat_of(t) for t in tokens}
    return {s for s in seats if s is not None}


def _error(err: RequestError) -> JSONResponse:
    status = {"no_game": 404, "not_finished": 409, "busy": 429, "no_review": 404,
              "bad_token": 403, "broken_game": 409,
              "rate_limited": 429}.get(err.code, 400)  # fmt: skip
    return JSONResponse({"error": err.code, "message": str(err)}, status_code=status)


async def _client(request: Request) -> str:
    """Who asks for a review, in the per-client quota: its address, or the profile
    proven in the optional body ``{"profile": {"name", "secret"}}``."""
    address = request.client.host if request.client else "?"
    raw = await request.body()
    if not raw.strip():
        return address
    data = parse_json(raw, _service(request).master.limits.max_json_depth)  # or bad_json
    if not isinstance(data, dict):
        raise RequestError("bad_request", "the body must be a JSON object")
    if data.get("profile") is None:
        return address
    return await profile_client(request, data["profile"], address)


async def review_endpoint(request: Request) -> Response:
    """GET: the review as this client may see it; POST: ask for it."""
    service = _service(request)
    try:
        table = await service.master.fetch(request.path_params["game_id"])
        check_open(table, _tokens(request))  # a private game: its secrets first
        if request.method == "POST":
            client = await _client(request)  # checked before anything changes
            tokens = _tokens(request)
            own = bool(_mine(table, tokens)) or holds_share_key(table, tokens)
            await service.request(table, client, own=own)
        stored = await asyncio.to_thread(service.store.get, table.id)
    except RequestError as err:
        return _error(err)
    except KingdomsError as err:
        return _error(RequestError("bad_request", str(err)))
    if stored is None:
        return JSONResponse({"game_id": table.id, "status": "none"})
    lang = request.query_params.get("lang", "en")
    body = review_body(table, stored, _mine(table, _tokens(request)), lang)
    return JSONResponse(body, status_code=202 if request.method == "POST" else 200)


async def share_endpoint(request: Request) -> Response:
    """POST ``{"shared": true|false}`` with the seat's token: show (or hide) the seat's
    review to everyone."""
    service = _service(request)
    try:
        table = await service.master.fetch(request.path_params["game_id"])
        check_open(table, _tokens(request))
        mine = _mine(table, _tokens(request))
        if not mine:
            raise RequestError("bad_token", "only a seat's player may share its review")
        try:
            data = json.loads(await request.body() or b"{}")
        except ValueError:
            raise RequestError("bad_request", "the body must be JSON") from None
        shared = data.get("shared", True) if isinstance(data, dict) else None
        if not isinstance(shared, bool):
            raise RequestError("bad_request", "'shared' must be true or false")
        seats: list[int] = []
        for seat in sorted(mine):
            if table.seats[seat].get("kind") == HUMAN:
                seats = await asyncio.to_thread(service.store.share, table.id, seat, shared)
    except RequestError as err:
        return _error(err)
    return JSONResponse({"shared": seats})


ROUTES = [
    Route("/api/games/{game_id}/review", review_endpoint, methods=["GET", "POST"]),
    Route("/api/games/{game_id}/review/share", share_endpoint, methods=["POST"]),
]
