"""Where the server keeps its games: one interface, SQLite or PostgreSQL behind it.

A stored game is its configuration (game, players, seed, normalized options),
its seat table and the list of accepted actions.  That is enough to rebuild
the exact state by replaying the actions (see :mod:`kingdoms.server.master`).

>>> store = Storage("sqlite://")
>>> store.create_game(StoredGame(id="g1", game="kingdomino", players=2, seed=5,
...                              options={}, seats=[{"kind": "bot", "name": "b1"}]*2))
>>> store.append_action("g1", 0, seat=1, action=7)  # the game's new version
1
>>> store.load_game("g1").actions
[7]
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import sqlite3
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    case,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, IntegrityError, SQLAlchemyError
from sqlalchemy.pool import StaticPool

from kingdoms.core.errors import KingdomsError

log = logging.getLogger(__name__)

STATUS_RUNNING = "running"
STATUS_FINISHED = "finished"
STATUS_ABANDONED = "abandoned"
STATUS_EXPIRED = "expired"
"""Nobody joined the game in time (see :meth:`Storage.expire_unjoined`)."""

metadata = MetaData()


def keys(**types: Any) -> list[Column[Any]]:
    """The primary key columns of a table, in order (``name=type``)."""
    return [Column(name, kind, primary_key=True) for name, kind in types.items()]


def required(**types: Any) -> list[Column[Any]]:
    """Columns that must hold a value, in order (``name=type``)."""
    return [Column(name, kind, nullable=False) for name, kind in types.items()]


games_table = Table(
    "games",
    metadata,
    *keys(id=String(40)),
    *required(game=String(40), players=Integer, seed=BigInteger, options=Text, seats=Text),
    Column("status", String(16), nullable=False, index=True),
    Column("outcome", Text, nullable=True),
    Column("meta", Text, nullable=False, default="{}"),
    Column("num_actions", Integer, nullable=False, default=0),
    *required(created=Float, updated=Float),
    Column("version", Integer, nullable=False, default=0, server_default="0"),
    Column("creator", String(32), nullable=True),
    Index("ix_games_creator", "creator", "status"),
)
"""``creator``: a key of the client address that asked for the game through the lobby
(a hash, not the address; see :meth:`Storage.client_games`)."""

actions_table = Table(
    "actions",
    metadata,
    *keys(game_id=String(40), idx=Integer),
    *required(seat=Integer, action=BigInteger, at=Float),
)


leases_table = Table(
    "bot_leases",
    metadata,
    *keys(game_id=String(40)),
    *required(owner=String(40)),
    Column("until", Float, nullable=False, index=True),
)
"""Which server process runs a game's bots, until when (a row only while a bot is due)."""

POOL_SIZE = 8
"""PostgreSQL connections a process keeps open (the database threads use one each)."""
POOL_OVERFLOW = 4
"""Extra connections a process may open for a moment when all of those are busy."""
POOL_TIMEOUT = 10.0
"""Seconds a request waits for a free connection before it fails (``storage`` error)."""
DB_THREADS = POOL_SIZE
"""Worker threads per process that talk to the database (one connection each)."""

CHANNEL = "kingdoms_games"
"""The PostgreSQL ``NOTIFY`` channel: payload ``"<game id> <version>[ seats]"``."""


SCHEMA_LOCK = 0x6B696E67
"""The PostgreSQL advisory lock held while a process creates or updates the tables."""


def create_tables(
    engine: Engine, meta: MetaData, then: Callable[[Connection], None] | None = None
) -> None:
    """Create the missing tables of ``meta`` (then ``then(conn)``, in the same
    transaction).  On PostgreSQL under an advisory lock: workers starting together on
    a new database would otherwise race to create the same tables, and all but one
    fail."""
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": SCHEMA_LOCK})
        meta.create_all(conn)
        if then is not None:
            then(conn)


class StorageError(KingdomsError):
    """The database refused a write (a conflicting action, an unknown game…)."""


class StorageUnavailable(StorageError):
    """The database could not be reached or did not answer in time (SQLite locked past
    the busy timeout, PostgreSQL restarting or down, a dropped connection, a failed
    ``NOTIFY``): nothing was stored, and the same write may be tried again later."""


_P = ParamSpec("_P")
_T = TypeVar("_T")


def translated(method: Callable[_P, _T]) -> Callable[_P, _T]:
    """Turn the database driver's errors raised by ``method`` into
    :class:`StorageUnavailable`, the one error type callers handle (they retry)."""

    @functools.wraps(method)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        try:
            return method(*args, **kwargs)
        except SQLAlchemyError as err:
            detail = str(getattr(err, "orig", None) or err).strip().splitlines()
            reason = detail[0][:200] if detail else type(err).__name__
            raise StorageUnavailable(f"the database is unavailable: {reason}") from err

    return wrapper


class TooMany(StorageError):
    """A client already has as many games of a kind as its :class:`ClientQuota` allows
    (``what``: ``"waiting"`` for a person, or ``"heavy"``: search bots alone); nothing
    was stored."""

    def __init__(self, what: str, count: int) -> None:
        super().__init__(f"{count} games {what}")
        self.what = what
        self.count = count


@dataclass(frozen=True, slots=True)
class ClientQuota:
    """What one client (``creator``: the key of its address) may have running at once,
    over every process of the database: ``waiting`` games waiting for a person, and,
    when the new game is one of search bots alone, ``heavy`` such games."""

    creator: str
    waiting: int
    heavy: int | None = None


def _is_hex(value: str) -> bool:
    return bool(value) and all(c in "0123456789abcdef" for c in value)


class StaleWrite(StorageError):
    """The write was for a version of the game that is no longer the latest (another
    process moved first): nothing was stored."""


@dataclass(frozen=True, slots=True)
class LeaseChange:
    """Stored with a write: ``owner`` now runs the game's bots until ``until``
    (``owner=None``: no bot is due, the lease is dropped)."""

    owner: str | None
    until: float = 0.0


@dataclass(frozen=True, slots=True)
class _Move:
    """One action to store (the arguments of :meth:`Storage.append_action`)."""

    game_id: str
    index: int
    seat: int
    action: int
    outcome: Mapping[str, Any] | None
    finished: bool
    version: int | None
    lease: LeaseChange | None
    now: float

    def outcome_text(self) -> str | None:
        return None if self.outcome is None else json.dumps(dict(self.outcome))

    def not_next(self) -> StaleWrite:
        return StaleWrite(
            f"cannot store action #{self.index} of game {self.game_id!r}: "
            "unknown game, game over or not the next action"
        )

    def stored_twice(self) -> StaleWrite:
        return StaleWrite(f"action #{self.index} of game {self.game_id!r} is already stored")


@dataclass(slots=True)
class StoredGame:
    """One game as the database holds it."""

    id: str
    game: str
    players: int
    seed: int
    options: Mapping[str, Any]
    seats: list[dict[str, Any]]
    status: str = STATUS_RUNNING
    outcome: dict[str, Any] | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    actions: list[int] = field(default_factory=list)
    created: float = 0.0
    updated: float = 0.0
    version: int = 0
    """Bumped by every change of the actions or the status (moves, undos, endings)."""
    creator: str | None = None
    """The key of the client address that created it through the lobby, if any."""
    steps: int = 0
    """How many actions it holds (its current step; the final one once it is over)."""


SQLITE_BUSY_MS = 5000
"""How long a SQLite write waits for a lock held by another process before it fails
(with :class:`StorageUnavailable`; the server then tries again, see the game master)."""


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")  # acknowledged means on disk, even after a power cut
    cur.execute(f"PRAGMA busy_timeout={int(SQLITE_BUSY_MS)}")
    cur.close()


def _unavailable(err: Exception) -> StorageUnavailable:
    """The driver's error as the one storage error callers handle (see :func:`translated`)."""
    detail = str(err).strip().splitlines()
    return StorageUnavailable(
        f"the database is unavailable: {detail[0][:200] if detail else type(err).__name__}"
    )


def _rollback(raw: Any) -> None:
    """Roll back a driver connection after an error (a connection that cannot is
    dropped by the pool when returned)."""
    with contextlib.suppress(sqlite3.Error):
        raw.rollback()


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite files get WAL mode and their folder created."""
    if url.startswith("sqlite"):
        if url in ("sqlite://", "sqlite:///:memory:"):
            engine = create_engine(
                "sqlite://", connect_args={"check_same_thread": False}, poolclass=StaticPool
            )
        else:
            path = url.split(":///", 1)[1] if ":///" in url else ""
            if path:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            engine = create_engine(url, connect_args={"check_same_thread": False})
            event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    # No ping before each checkout (a round trip per request): a connection found dead
    # invalidates the pool, and the one write that met it is retried (see _write_once).
    return create_engine(
        url, pool_size=POOL_SIZE, max_overflow=POOL_OVERFLOW, pool_timeout=POOL_TIMEOUT
    )


class Storage:
    """Games and their actions in a SQL database (SQLite file or PostgreSQL URL).

    Every write is its own committed transaction: when a method returns, the
    data is on disk (this is what lets the server acknowledge an action only
    after it is safe)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        create_tables(self.engine, metadata, self._add_missing_columns)
        self.shared = self.engine.dialect.name == "postgresql"
        """Whether several server processes may use this database at once (PostgreSQL:
        writes announce themselves with ``NOTIFY`` and bots run under leases)."""
        self._autocommit = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        self.threadsafe = url not in ("sqlite://", "sqlite:///:memory:")
        """Whether worker threads may use it while the event loop does (an in-memory
        SQLite database is one shared connection: no)."""

    def close(self) -> None:
        self.engine.dispose()

    @staticmethod
    def _add_missing_columns(conn: Connection) -> None:
        """Databases made before the ``version`` column get it (0 for every game), and
        the ``creator`` column and its index (empty for the games already there)."""
        columns = {c["name"] for c in inspect(conn).get_columns("games")}
        if "version" not in columns:
            conn.execute(text("ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0"))
        if "creator" not in columns:
            conn.execute(text("ALTER TABLE games ADD COLUMN creator VARCHAR(32)"))
        for index in games_table.indexes:
            index.create(conn, checkfirst=True)

    def _notify(self, conn: Any, game_id: str, version: int, what: str = "") -> None:
        """Tell the other processes (on commit) that ``game_id`` changed."""
        if self.shared:
            payload = f"{game_id} {version}" + (f" {what}" if what else "")
            conn.execute(text("SELECT pg_notify(:c, :p)"), {"c": CHANNEL, "p": payload})

    @staticmethod
    def _change_lease(conn: Any, game_id: str, lease: LeaseChange | None) -> None:
        if lease is None:
            return
        if lease.owner is None:
            conn.execute(delete(leases_table).where(leases_table.c.game_id == game_id))
            return
        res = conn.execute(
            update(leases_table)
            .where(leases_table.c.game_id == game_id)
            .values(owner=lease.owner, until=lease.until)
        )
        if res.rowcount == 0:
            conn.execute(
                insert(leases_table).values(game_id=game_id, owner=lease.owner, until=lease.until)
            )

    @staticmethod
    def _version(conn: Any, game_id: str) -> int:
        return int(
            conn.execute(
                select(games_table.c.version).where(games_table.c.id == game_id)
            ).scalar_one()
        )

    # -- writes -----------------------------------------------------------------------
    @translated
    def create_game(
        self, game: StoredGame, lease: LeaseChange | None = None, quota: ClientQuota | None = None
    ) -> None:
        """Store a new game.  ``quota``: refused (:class:`TooMany`, nothing stored) if
        its creator already has as many games as it allows — checked and stored in one
        transaction, so two processes creating at once cannot both pass."""
        now = time.time()
        game.created = game.created or now
        game.updated = now
        try:
            with self.engine.begin() as conn:
                if quota is not None:
                    self._check_quota(conn, quota)
                conn.execute(
                    insert(games_table).values(
                        id=game.id,
                        game=game.game,
                        players=game.players,
                        seed=game.seed,
                        options=json.dumps(dict(game.options)),
                        seats=json.dumps(game.seats),
                        status=game.status,
                        outcome=None if game.outcome is None else json.dumps(game.outcome),
                        meta=json.dumps(game.meta),
                        creator=game.creator,
                        num_actions=len(game.actions),
                        created=game.created,
                        updated=game.updated,
                    )
                )
                for i, action in enumerate(game.actions):
                    conn.execute(
                        insert(actions_table).values(
                            game_id=game.id, idx=i, seat=-1, action=action, at=now
                        )
                    )
                self._change_lease(conn, game.id, lease)
        except IntegrityError as err:
            raise StorageError(f"game {game.id!r} already exists") from err

    @translated
    def append_action(
        self,
        game_id: str,
        index: int,
        seat: int,
        action: int,
        outcome: Mapping[str, Any] | None = None,
        finished: bool = False,
        version: int | None = None,
        lease: LeaseChange | None = None,
    ) -> int:
        """Store action number ``index`` (0-based); it must be the next one.  Returns
        the game's new version.

        ``finished``: this action ends the game; its status and ``outcome`` are
        stored in the same transaction (a crash never leaves a finished game
        "running").  ``version``: the version the caller saw; if another write came
        first, :class:`StaleWrite` and nothing stored.  ``lease``: who runs the bots
        next, changed in the same transaction."""
        move = _Move(game_id, index, seat, action, outcome, finished, version, lease, time.time())
        if self.shared:
            return self._append_one_statement(move)
        if lease is None and self.engine.dialect.name == "sqlite":
            return self._append_sqlite(move)
        values: dict[str, Any] = {
            "num_actions": index + 1,
            "updated": move.now,
            "version": games_table.c.version + 1,
        }
        if finished:
            values["status"] = STATUS_FINISHED
            values["outcome"] = move.outcome_text()
        try:
            with self.engine.begin() as conn:
                where = [
                    games_table.c.id == game_id,
                    games_table.c.num_actions == index,
                    games_table.c.status == STATUS_RUNNING,
                ]
                if version is not None:
                    where.append(games_table.c.version == version)
                res = conn.execute(update(games_table).where(*where).values(**values))
                if res.rowcount != 1:
                    raise move.not_next()
                conn.execute(
                    insert(actions_table).values(
                        game_id=game_id, idx=index, seat=seat, action=action, at=move.now
                    )
                )
                new_version = self._version(conn, game_id)
                self._change_lease(conn, game_id, lease)
                self._notify(conn, game_id, new_version)
        except IntegrityError as err:
            raise move.stored_twice() from err
        return new_version

    def _append_sqlite(self, move: _Move) -> int:
        """SQLite: the same transaction as the general path (the checked update, the
        action, the new version) as two prepared statements on the driver's connection,
        without building SQL per move; the version comes back from ``RETURNING``."""
        sets = "num_actions = ?, updated = ?, version = version + 1"
        params: list[Any] = [move.index + 1, move.now]
        if move.finished:
            sets += ", status = ?, outcome = ?"
            params += [STATUS_FINISHED, move.outcome_text()]
        where = "id = ? AND num_actions = ? AND status = ?"
        params += [move.game_id, move.index, STATUS_RUNNING]
        if move.version is not None:
            where += " AND version = ?"
            params.append(move.version)
        try:
            raw = self.engine.raw_connection()
        except sqlite3.Error as err:
            raise _unavailable(err) from err
        try:
            cur = raw.cursor()
            try:
                cur.execute(f"UPDATE games SET {sets} WHERE {where} RETURNING version", params)
                row = cur.fetchone()
                if row is None:
                    raw.rollback()
                    raise move.not_next()
                cur.execute(
                    "INSERT INTO actions (game_id, idx, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                    (move.game_id, move.index, move.seat, move.action, move.now),
                )
                raw.commit()
            finally:
                cur.close()
        except sqlite3.IntegrityError as err:
            _rollback(raw)
            raise move.stored_twice() from err
        except sqlite3.Error as err:
            _rollback(raw)
            raise _unavailable(err) from err
        finally:
            raw.close()
        return int(row[0])

    def _append_one_statement(self, move: _Move) -> int:
        """PostgreSQL: the version check, the action, the ending, the lease and the
        ``NOTIFY`` in one statement, so one round trip and its own transaction."""
        params: dict[str, Any] = {
            "id": move.game_id,
            "idx": move.index,
            "next": move.index + 1,
            "seat": move.seat,
            "action": move.action,
            "now": move.now,
            "running": STATUS_RUNNING,
            "channel": CHANNEL,
        }
        sets = "num_actions = :next, updated = :now, version = version + 1"
        if move.finished:
            sets += ", status = :finished, outcome = :outcome"
            params["finished"] = STATUS_FINISHED
            params["outcome"] = move.outcome_text()
        checks = "id = :id AND num_actions = :idx AND status = :running"
        if move.version is not None:
            checks += " AND version = :version"
            params["version"] = move.version
        lease = move.lease
        lease_sql = ""
        if lease is not None and lease.owner is None:
            lease_sql = (
                ", lease AS (DELETE FROM bot_leases WHERE game_id = :id"
                " AND EXISTS (SELECT 1 FROM up))"
            )
        elif lease is not None:
            lease_sql = (
                ", lease AS (INSERT INTO bot_leases (game_id, owner, until)"
                " SELECT :id, :owner, :until FROM up ON CONFLICT (game_id)"
                " DO UPDATE SET owner = EXCLUDED.owner, until = EXCLUDED.until)"
            )
            params["owner"] = lease.owner
            params["until"] = lease.until
        sql = text(
            f"WITH up AS (UPDATE games SET {sets} WHERE {checks} RETURNING version),"
            " ins AS (INSERT INTO actions (game_id, idx, seat, action, at)"
            f" SELECT :id, :idx, :seat, :action, :now FROM up){lease_sql}"
            " SELECT version, pg_notify(:channel, :id || ' ' || version) FROM up"
        )
        try:
            row = self._write_once(sql, params)
        except IntegrityError as err:
            raise move.stored_twice() from err
        if row is None:
            raise move.not_next()
        return int(row[0])

    def _write_once(self, sql: Any, params: Mapping[str, Any]) -> Any:
        """Run one self-contained statement in its own transaction; its first row.

        A connection that died while idle in the pool (the database restarted) is
        found here: the pool is then renewed and the statement run once more (it is
        checked against the game's version, so it can never be stored twice)."""
        for attempt in (1, 2):
            try:
                with self._autocommit.connect() as conn:
                    return conn.execute(sql, params).first()
            except DBAPIError as err:
                if attempt == 2 or not err.connection_invalidated:
                    raise
        raise AssertionError("unreachable")

    @translated
    def truncate_actions(
        self,
        game_id: str,
        length: int,
        version: int | None = None,
        lease: LeaseChange | None = None,
    ) -> int:
        """Drop every action from number ``length`` on (undo); the new version.

        ``version``: the version the caller saw (the game must also still be
        running), else :class:`StaleWrite` and nothing changed."""
        with self.engine.begin() as conn:
            where = [games_table.c.id == game_id]
            if version is not None:
                where += [games_table.c.version == version, games_table.c.status == STATUS_RUNNING]
            res = conn.execute(
                update(games_table)
                .where(*where)
                .values(num_actions=length, updated=time.time(), version=games_table.c.version + 1)
            )
            if res.rowcount != 1:
                raise StaleWrite(f"game {game_id!r} changed meanwhile: nothing undone")
            conn.execute(
                delete(actions_table).where(
                    actions_table.c.game_id == game_id, actions_table.c.idx >= length
                )
            )
            new_version = self._version(conn, game_id)
            self._change_lease(conn, game_id, lease)
            self._notify(conn, game_id, new_version)
        return new_version

    @translated
    def update_seats(self, game_id: str, seats: Sequence[Mapping[str, Any]]) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(games_table)
                .where(games_table.c.id == game_id)
                .values(seats=json.dumps(list(seats)), updated=time.time())
            )
            self._notify(conn, game_id, self._version(conn, game_id), "seats")

    @translated
    def merge_seats(
        self, game_id: str, changes: Mapping[int, Mapping[str, Any]]
    ) -> list[dict[str, Any]]:
        """Set some keys of some seats (``{seat: {key: value}}``) without losing what
        another process set meanwhile (the row is locked while merging); the seats now."""
        with self.engine.begin() as conn:
            row = conn.execute(
                select(games_table.c.seats).where(games_table.c.id == game_id).with_for_update()
            ).first()
            if row is None:
                raise StorageError(f"no game {game_id!r}")
            seats: list[dict[str, Any]] = json.loads(row.seats)
            for i, values in changes.items():
                seats[i].update(values)
            conn.execute(
                update(games_table)
                .where(games_table.c.id == game_id)
                .values(seats=json.dumps(seats), updated=time.time())
            )
            self._notify(conn, game_id, self._version(conn, game_id), "seats")
        return seats

    @translated
    def set_status(
        self,
        game_id: str,
        status: str,
        outcome: Mapping[str, Any] | None = None,
        version: int | None = None,
        idle_before: float | None = None,
    ) -> int:
        """Store how the game ended; its new version.

        ``version``: only if the game is still running at that version;
        ``idle_before``: only if its last change is older than that; otherwise
        :class:`StaleWrite` and nothing changed.  Drops the game's bot lease."""
        with self.engine.begin() as conn:
            where = [games_table.c.id == game_id]
            if version is not None:
                where += [games_table.c.version == version, games_table.c.status == STATUS_RUNNING]
            if idle_before is not None:
                where += [games_table.c.updated < idle_before]
            res = conn.execute(
                update(games_table)
                .where(*where)
                .values(
                    status=status,
                    outcome=None if outcome is None else json.dumps(dict(outcome)),
                    updated=time.time(),
                    version=games_table.c.version + 1,
                )
            )
            if res.rowcount != 1:
                raise StaleWrite(f"game {game_id!r} changed meanwhile: status not stored")
            new_version = self._version(conn, game_id)
            self._change_lease(conn, game_id, LeaseChange(None))
            self._notify(conn, game_id, new_version)
        return new_version

    # -- bot leases ---------------------------------------------------------------------
    @translated
    def take_lease(self, game_id: str, owner: str, until: float, now: float) -> bool:
        """Run the bots of ``game_id`` until ``until`` if nobody else holds a live lease
        (also renews one's own); whether it is now ``owner``'s."""
        try:
            with self.engine.begin() as conn:
                res = conn.execute(
                    update(leases_table)
                    .where(
                        leases_table.c.game_id == game_id,
                        (leases_table.c.owner == owner) | (leases_table.c.until < now),
                    )
                    .values(owner=owner, until=until)
                )
                if res.rowcount == 1:
                    return True
                held = conn.execute(
                    select(leases_table.c.owner).where(leases_table.c.game_id == game_id)
                ).first()
                if held is not None:
                    return False
                conn.execute(insert(leases_table).values(game_id=game_id, owner=owner, until=until))
            return True
        except IntegrityError:  # another process inserted it first
            return False

    @translated
    def release_leases(self, owner: str, game_ids: Sequence[str] | None = None) -> None:
        """Let other processes take ``owner``'s leases at once (all, or of some games)."""
        where = [leases_table.c.owner == owner]
        if game_ids is not None:
            where.append(leases_table.c.game_id.in_(list(game_ids)))
        with self.engine.begin() as conn:
            conn.execute(update(leases_table).where(*where).values(until=0.0))

    @translated
    def drop_lease(self, game_id: str, owner: str) -> None:
        """No bot is due in ``game_id`` after all: forget ``owner``'s lease."""
        with self.engine.begin() as conn:
            conn.execute(
                delete(leases_table).where(
                    leases_table.c.game_id == game_id, leases_table.c.owner == owner
                )
            )

    @translated
    def expired_leases(self, now: float, limit: int = 100) -> list[str]:
        """Running games whose bots are due but whose lease ran out (its process died)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(leases_table.c.game_id)
                .join(games_table, games_table.c.id == leases_table.c.game_id)
                .where(leases_table.c.until < now, games_table.c.status == STATUS_RUNNING)
                .order_by(leases_table.c.until)
                .limit(limit)
            ).all()
        return [r.game_id for r in rows]

    # -- reads ------------------------------------------------------------------------
    @staticmethod
    def _row_to_game(row: Any, actions: list[int] | None = None) -> StoredGame:
        return StoredGame(
            id=row.id,
            game=row.game,
            players=row.players,
            seed=row.seed,
            options=json.loads(row.options),
            seats=json.loads(row.seats),
            status=row.status,
            outcome=None if row.outcome is None else json.loads(row.outcome),
            meta=json.loads(row.meta or "{}"),
            actions=actions if actions is not None else [],
            created=row.created,
            updated=row.updated,
            version=int(row.version or 0),
            creator=row.creator,
            steps=int(row.num_actions or 0),
        )

    @translated
    def load_game(self, game_id: str) -> StoredGame | None:
        """The game with its actions in order, or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(select(games_table).where(games_table.c.id == game_id)).first()
            if row is None:
                return None
            acts = conn.execute(
                select(actions_table.c.action)
                .where(actions_table.c.game_id == game_id)
                .order_by(actions_table.c.idx)
            ).all()
        return self._row_to_game(row, [int(a.action) for a in acts])

    @translated
    def versions(self, game_ids: Sequence[str]) -> dict[str, tuple[int, list[dict[str, Any]]]]:
        """The stored version and seats of each of ``game_ids`` that exists."""
        if not game_ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games_table.c.id, games_table.c.version, games_table.c.seats).where(
                    games_table.c.id.in_(list(game_ids))
                )
            ).all()
        return {r.id: (int(r.version or 0), json.loads(r.seats)) for r in rows}

    def list_games(
        self, status: str | None = None, limit: int = 200, private: bool = False
    ) -> list[StoredGame]:
        """Games newest first (without their actions), optionally of one status;
        private games only if ``private``."""
        query = select(games_table).order_by(games_table.c.updated.desc()).limit(limit)
        if not private:  # meta is stored as json.dumps writes it
            query = query.where(games_table.c.meta.notlike('%"private": true%'))
        if status is not None:
            query = query.where(games_table.c.status == status)
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        games: list[StoredGame] = []
        for row in rows:
            try:
                game = self._row_to_game(row)
                if private or not game.meta.get("private"):
                    games.append(game)
            except (ValueError, TypeError, AttributeError) as err:
                # one damaged record must not hide every other game
                log.error("skipping unreadable game %r in a listing: %s", row.id, err)
        return games

    def unfinished_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games_table.c.id).where(games_table.c.status == STATUS_RUNNING)
            ).all()
        return [r.id for r in rows]

    def unfinished_page(self, after: str = "", limit: int = 500) -> list[tuple[str, str]]:
        """Up to ``limit`` unfinished games with an id after ``after``, as (id, seats JSON),
        in id order: lets a caller walk every running game without holding them all."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games_table.c.id, games_table.c.seats)
                .where(games_table.c.status == STATUS_RUNNING, games_table.c.id > after)
                .order_by(games_table.c.id)
                .limit(limit)
            ).all()
        return [(r.id, r.seats) for r in rows]

    def expire_unjoined(self, before: float, limit: int = 1000) -> list[str]:
        """Mark up to ``limit`` running games created before ``before`` in which no
        person ever joined as expired (all-bot games are left alone); their ids."""
        unjoined = (
            games_table.c.status == STATUS_RUNNING,
            games_table.c.created < before,
            games_table.c.seats.like('%"kind": "human"%'),
            games_table.c.seats.not_like('%"joined": true%'),
        )
        with self.engine.begin() as conn:
            ids = [
                r.id for r in conn.execute(select(games_table.c.id).where(*unjoined).limit(limit))
            ]
            if ids:
                conn.execute(
                    update(games_table)
                    .where(games_table.c.id.in_(ids), *unjoined)
                    .values(
                        status=STATUS_EXPIRED,
                        updated=time.time(),
                        version=games_table.c.version + 1,
                    )
                )
                for game_id in ids:
                    self._notify(conn, game_id, 0, "status")
        return ids

    @translated
    def client_games(self, creator: str) -> tuple[int, int]:
        """How many running games ``creator`` made (every server process's) wait for a
        person to take a seat, and how many are of bots alone that search (their
        ``meta`` names the creator: see :func:`kingdoms.server.limits.bot_heavy`)."""
        with self.engine.connect() as conn:
            return self._client_games(conn, creator)

    @staticmethod
    def _client_games(conn: Connection, creator: str) -> tuple[int, int]:
        waiting = func.sum(case((games_table.c.seats.like('%"joined": false%'), 1), else_=0))
        heavy = func.sum(case((games_table.c.meta.like('%"creator": %'), 1), else_=0))
        row = conn.execute(
            select(waiting, heavy).where(
                games_table.c.creator == creator, games_table.c.status == STATUS_RUNNING
            )
        ).one()
        return int(row[0] or 0), int(row[1] or 0)

    def _check_quota(self, conn: Connection, quota: ClientQuota) -> None:
        """Raise :class:`TooMany` if ``quota.creator`` may not have one game more (on
        PostgreSQL under a lock per creator, held until the transaction ends)."""
        if self.shared:
            key = int(quota.creator[:15], 16) if _is_hex(quota.creator[:15]) else 0
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": key})
        waiting, heavy = self._client_games(conn, quota.creator)
        if waiting >= quota.waiting:
            raise TooMany("waiting", waiting)
        if quota.heavy is not None and heavy >= quota.heavy:
            raise TooMany("heavy", heavy)

    def idle_running(self, before: float, limit: int = 200) -> list[str]:
        """Running games whose last change is older than ``before`` (oldest first)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games_table.c.id)
                .where(games_table.c.status == STATUS_RUNNING, games_table.c.updated < before)
                .order_by(games_table.c.updated)
                .limit(limit)
            ).all()
        return [r.id for r in rows]

    def ping(self) -> None:
        """One round trip to the database (raises when it cannot be reached)."""
        with self.engine.connect() as conn:
            conn.execute(select(1)).scalar_one()

    def count_games(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(games_table)).scalar_one())
