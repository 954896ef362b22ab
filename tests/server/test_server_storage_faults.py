"""Bots survive storage faults: SQLite locked past its busy timeout, PostgreSQL down or
dropping connections.  Every such error becomes :class:`StorageUnavailable`, the move
is tried again with backoff, and a bot whose task ended for any reason is started
again by the next event of its game (a subscription, the periodic sweep)."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from kingdoms.server import storage as storage_module
from kingdoms.server.master import GameMaster, Table
from kingdoms.server.storage import Storage, StorageUnavailable

BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]


async def _until(check: Any, timeout: float) -> bool:
    """Wait for the event ``check`` tells of (polled); ``timeout`` only ends a hang."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return True
        await asyncio.sleep(0.02)
    return bool(check())


def _failed_writes(caplog: pytest.LogCaptureFixture, game_id: str) -> int:
    """How many writes of ``game_id`` the database refused so far (as logged)."""
    head = f"game {game_id}: the database is unavailable"
    return sum(r.getMessage().startswith(head) for r in caplog.records)


async def _inbox(msg: dict[str, Any]) -> None:
    pass


def test_a_bot_goes_on_after_sqlite_stays_locked_past_the_busy_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Another process holds the database file's write lock longer than the busy
    timeout: the bot's write fails (sqlalchemy's OperationalError, now a storage
    error), is tried again, and the game goes on once the lock is gone."""
    monkeypatch.setattr(storage_module, "SQLITE_BUSY_MS", 50)
    path = tmp_path / "k.sqlite"

    async def main() -> None:
        gm = GameMaster(Storage(f"sqlite:///{path}"), bot_delay=0)
        gm.retry_delay = 0.05
        await gm.start(resume=False)
        locker = sqlite3.connect(path, isolation_level=None)
        table, _ = gm.create_game("kingdomino", BOTS, seed=3)
        locker.execute("BEGIN EXCLUSIVE")  # before the bot's first write
        try:
            # the event: the bot's write was refused, and refused again when tried again
            assert await _until(lambda: _failed_writes(caplog, table.id) >= 2, 60)
            assert table.state.step == 0  # nothing could be stored meanwhile
        finally:
            locker.execute("COMMIT")
            locker.close()
        assert await _until(lambda: table.finished, 20), table.state.step
        stored = gm.storage.load_game(table.id)
        assert stored is not None and stored.actions == table.state.history
        await gm.stop()

    with caplog.at_level(logging.INFO):
        asyncio.run(main())
    assert "the database is unavailable: database is locked" in caplog.text


def test_storage_errors_of_the_driver_become_storage_unavailable(tmp_path: Path) -> None:
    store = Storage(f"sqlite:///{tmp_path / 'k.sqlite'}")
    store.engine.dispose()
    (tmp_path / "k.sqlite").unlink()
    (tmp_path / "k.sqlite").mkdir()  # the file is now a folder: every access fails
    with pytest.raises(StorageUnavailable, match="the database is unavailable"):
        store.load_game("nope")
    with pytest.raises(StorageUnavailable):
        store.append_action("nope", 0, 0, 1)


def _kill_task(table: Table) -> None:
    assert table.bot_task is not None
    table.bot_task.cancel()


def test_a_bot_whose_task_ended_is_restarted_by_a_subscription_and_by_the_sweep(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        gm = GameMaster(Storage(f"sqlite:///{tmp_path / 'k.sqlite'}"), bot_delay=0)
        gm.sweep_interval = 3600  # first: only a subscription restarts it
        await gm.start(resume=False)
        seats = [{"kind": "bot", "bot": "random"}, {"kind": "human", "name": "Ann"}]
        table, tokens = gm.create_game("toy", seats, seed=1)
        task = table.bot_task
        _kill_task(table)  # ended before its first move (as after any failure)
        assert task is not None
        await asyncio.wait([task], timeout=60)  # the event: the task has ended
        assert task.cancelled() and table.state.step == 0
        assert table.bot_task is task  # and nothing started another one meanwhile
        await gm.subscribe(table.id, [str(tokens[1])], _inbox)
        assert await _until(lambda: table.state.step > 0, 5)
        await gm.stop()

        gm = GameMaster(Storage(f"sqlite:///{tmp_path / 'k2.sqlite'}"), bot_delay=0)
        gm.sweep_interval = 0.1
        await gm.start(resume=False)
        table, _ = gm.create_game("kingdomino", BOTS, seed=2)
        _kill_task(table)
        assert await _until(lambda: table.finished, 20), table.state.step
        await gm.stop()

    asyncio.run(main())


def _admin(url: str) -> Any:
    """An autocommit engine on the cluster's ``postgres`` database."""
    return create_engine(url.rsplit("/", 1)[0] + "/postgres", isolation_level="AUTOCOMMIT")


@pytest.mark.postgres
def test_bots_go_on_after_postgres_refuses_and_drops_connections(
    pg: str, caplog: pytest.LogCaptureFixture
) -> None:
    """PostgreSQL down for a while (new connections refused, open ones dropped, as in
    a restart): the bots' writes fail, are tried again, and the game goes on within
    seconds of the database's return — in one process and with a second one."""
    admin = _admin(pg)

    def outage(on: bool) -> None:
        with admin.connect() as conn:
            conn.execute(text(f"ALTER DATABASE kingdoms ALLOW_CONNECTIONS {str(not on).lower()}"))
            if on:
                conn.execute(
                    text(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        "WHERE datname = 'kingdoms' AND pid <> pg_backend_pid()"
                    )
                )

    async def main() -> None:
        first = GameMaster(Storage(pg), bot_delay=0.01, lease_time=30)
        second = GameMaster(Storage(pg), bot_delay=0.01, lease_time=30)
        for gm in (first, second):
            gm.retry_delay = 0.05
            await gm.start(resume=False)
        tables = [first.create_game("kingdomino", BOTS, seed=s)[0] for s in (1, 2)]
        tables.append(second.create_game("kingdomino", BOTS, seed=3)[0])
        assert await _until(lambda: all(t.state.step > 2 for t in tables), 10)
        outage(True)
        try:
            # the event: each game's bot had a write refused; then, once each was
            # refused again, no game has moved (nothing stored while down)
            failed = lambda n: all(_failed_writes(caplog, t.id) >= n for t in tables)  # noqa: E731
            assert await _until(lambda: failed(1), 60)
            steps = [t.state.step for t in tables]
            before = [_failed_writes(caplog, t.id) for t in tables]
            again = lambda: all(  # noqa: E731
                _failed_writes(caplog, t.id) > n for t, n in zip(tables, before, strict=True)
            )
            assert await _until(again, 60)
            assert [t.state.step for t in tables] == steps
        finally:
            outage(False)
        back = time.monotonic()
        moved = lambda: all(t.state.step > s for t, s in zip(tables, steps, strict=True))  # noqa: E731
        assert await _until(moved, 8)
        assert time.monotonic() - back < 8
        assert all((t.bot_task is not None and not t.bot_task.done()) or t.finished for t in tables)
        assert await _until(lambda: all(t.finished for t in tables), 60)
        for gm in (first, second):
            await gm.stop()
        check = Storage(pg)
        for t in tables:
            stored = check.load_game(t.id)
            assert stored is not None and stored.actions == t.state.history
        check.close()

    try:
        with caplog.at_level(logging.INFO):
            asyncio.run(main())
    finally:
        outage(False)
        admin.dispose()


def test_a_hello_that_meets_a_locked_database_changes_nothing_and_may_be_said_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The seat is marked joined only once the database took it: a failed hello leaves
    no subscriber behind and no seat joined, so the next hello tries the write again."""
    monkeypatch.setattr(storage_module, "SQLITE_BUSY_MS", 50)
    path = tmp_path / "k.sqlite"

    async def main() -> None:
        gm = GameMaster(Storage(f"sqlite:///{path}"), bot_delay=0)
        table, tokens = gm.create_game("toy", [{"kind": "human"}, {"kind": "human"}], seed=1)
        locker = sqlite3.connect(path, isolation_level=None)
        locker.execute("BEGIN EXCLUSIVE")
        try:
            with pytest.raises(StorageUnavailable):
                await gm.subscribe(table.id, [str(tokens[0])], _inbox)
            assert table.subscribers == [] and not table.seats[0].get("joined")
        finally:
            locker.execute("COMMIT")
            locker.close()
        await gm.subscribe(table.id, [str(tokens[0])], _inbox)
        assert len(table.subscribers) == 1 and table.seats[0]["joined"]
        stored = gm.storage.load_game(table.id)
        assert stored is not None and stored.seats[0]["joined"]
        await gm.stop()

    asyncio.run(main())
