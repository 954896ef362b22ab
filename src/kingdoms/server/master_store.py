"""The table store: creating, loading and finding games, the start-up pass, expiry and
eviction from memory.  One part of :class:`kingdoms.server.master.GameMaster`."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kingdoms.bots.base import Bot, make_bot, seat_options
from kingdoms.core.errors import InvalidConfig, KingdomsError
from kingdoms.core.record import GameRecord
from kingdoms.core.registry import get_game
from kingdoms.core.state import GameConfig
from kingdoms.server.limits import (
    DEFAULT_LIMITS,
    ServerLimits,
    bounded_bot_spec,
    check_text,
    client_key,
)
from kingdoms.server.master_base import (
    Database,
    Leases,
    Wake,
    log,
    no_wake,
)
from kingdoms.server.privacy import check_open, no_such_game
from kingdoms.server.storage import (
    STATUS_EXPIRED,
    STATUS_FINISHED,
    STATUS_RUNNING,
    ClientQuota,
    LeaseChange,
    Storage,
    StorageError,
    StoredGame,
    TooMany,
)
from kingdoms.server.table import (
    BOT,
    HUMAN,
    RequestError,
    Table,
    hash_token,
)

FINISHED_KEPT = 64
"""Finished games kept in memory (the most recently used), for replays and records."""


def _never(_game_id: str) -> bool:
    return False


class TableStore:
    """The games this process holds in memory (:attr:`tables`), made, loaded and dropped.

    ``resident`` is told of each running game that comes into memory (made, loaded or
    resumed); ``in_use`` says whether another part still works on a game (it is then
    never evicted)."""

    def __init__(
        self,
        storage: Storage,
        db: Database,
        leases: Leases,
        limits: ServerLimits = DEFAULT_LIMITS,
        resident: Wake = no_wake,
        in_use: Callable[[str], bool] = _never,
    ) -> None:
        self.storage = storage
        self.db = db
        self.leases = leases
        self.limits = limits
        self.resident = resident
        self.in_use = in_use
        self.tables: dict[str, Table] = {}
        """The running games in memory (and finished ones still watched)."""
        self._finished: OrderedDict[str, Table] = OrderedDict()
        """Recently used finished games (they never change)."""
        self.resumed = asyncio.Event()
        """Set once the start-up pass over the unfinished games is done."""
        self.closing = False

    def close(self) -> None:
        """Start nothing new (the server is stopping)."""
        self.closing = True

    def release(self, table: Table) -> None:
        """Drop ``table`` from memory if it is finished and nobody watches it (it is
        stored: loaded again on demand)."""
        if table.finished and not table.subscribers:
            self.tables.pop(table.id, None)

    async def resume_all(self, page: int = 200) -> None:
        """Walk every unfinished game once, a page at a time, replaying in a worker thread."""
        after = ""
        try:
            while not self.closing:
                rows = await self.db.call(self.storage.unfinished_page, after, page)
                if not rows:
                    break
                after = rows[-1][0]
                for game_id, _seats in rows:
                    if game_id in self.tables or self.closing:
                        continue
                    try:
                        table = await self.db.call(self._replay_stored, game_id)
                    except Exception as err:  # no longer replays: keep the server up
                        log.error("cannot resume game %s: %s", game_id, err)
                        continue
                    if table is None or table.finished or game_id in self.tables:
                        continue
                    if table.state.current_player in table.bots:
                        leases = self.leases
                        if leases.shared:  # only if no live process runs them
                            now = time.time()
                            until = now + leases.lease_time
                            if not await self.db.call(leases.take, game_id, until, now):
                                continue
                            table.lease_until = until
                        self.tables[game_id] = table
                        self.resident(table)
        finally:
            self.resumed.set()

    async def expire_loop(self, after: float) -> None:
        while not self.closing:
            try:
                ids = await self.db.call(self.storage.expire_unjoined, time.time() - after)
            except StorageError as err:  # the database is unwell: try again next time
                log.warning("cannot expire games nobody joined: %s", err)
            except Exception:
                log.exception("cannot expire games nobody joined")
            else:
                self.forget(ids)
            await asyncio.sleep(min(max(after / 4, 1.0), 600.0))

    async def evict_loop(self) -> None:
        every = min(max(self.limits.evict_after / 4, 1.0), 60.0)
        while not self.closing:
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
            and not self.in_use(table.id)
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
        self.forget(ids)
        return ids

    def forget(self, ids: Sequence[str]) -> None:
        """Drop the games ``ids`` (expired) from memory and stop their bots."""
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
        lease = self.leases.after(table, table.state)
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
        lease = self.leases.after(table, table.state)
        try:
            await self.db.write(self.storage.create_game, stored, lease, quota)
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
            return await self.db.call(self.storage.client_games, client_key(address))
        except StorageError as err:
            log.error("cannot count the games of a client: %s", err)
            raise RequestError("storage", "the database is unavailable; try again") from err

    def _opened(self, table: Table, lease: LeaseChange | None) -> None:
        """Keep a game just stored in memory and start its bots."""
        if lease is not None and lease.owner is not None:
            table.lease_until = lease.until
        table.used = time.monotonic()
        self.tables[table.id] = table
        self.resident(table)

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
            # what each bot declares about its seat (a Dominion strategy's start state)
            # goes into the options, so the stored game replays the same deal
            options = seat_options(game, options, [bots.get(i) for i in range(len(table_seats))])
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
            table = self._register(await self.db.call(self._checked_load, game_id))
        return table

    def _known(self, game_id: str) -> Table | None:
        if not isinstance(game_id, str) or not game_id.isalnum() or len(game_id) > 40:
            raise no_such_game()
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
            raise no_such_game()  # the answer a locked private game gets too
        return table

    def _register(self, table: Table) -> Table:
        """Keep a freshly loaded game (or the copy another request loaded meanwhile)."""
        known = self.tables.get(table.id) or self._finished.get(table.id)
        if known is not None:
            return known
        table.used = time.monotonic()
        if table.finished:  # finished games never change: a few kept for replays
            self._finished[table.id] = table
            while len(self._finished) > FINISHED_KEPT:
                self._finished.popitem(last=False)
        else:
            self.tables[table.id] = table
            self.resident(table)
        return table

    def authenticate(self, table: Table, tokens: Sequence[str]) -> tuple[int, ...]:
        if not tokens:
            check_open(table, ())  # a private game: unknown to whoever holds no secret
            raise RequestError("bad_token", "a seat token is needed to play")
        seats: list[int] = []
        for token in tokens:
            seat = table.seat_of(token) if isinstance(token, str) else None
            if seat is None:
                check_open(table, tokens)
                raise RequestError("bad_token", "this token does not belong to any seat")
            if seat not in seats:
                seats.append(seat)
        return tuple(seats)
