"""Under load on PostgreSQL: a move costs one round trip and never blocks the event loop.

The causes found by ``make bench-server-multi`` (many games on one or two processes):
each move waited on several database round trips on the event loop itself, so every
other game on that process (and its WebSocket pings) waited too, and a write behind
a locked row froze the whole process.
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
from sqlalchemy import event, select, text

from kingdoms.server.master import GameMaster
from kingdoms.server.storage import (
    STATUS_FINISHED,
    LeaseChange,
    StaleWrite,
    Storage,
    StoredGame,
    leases_table,
    metadata,
)

PASS = 7  # the toy game's pass (tests/server/toygame.py)


def _statements(store: Storage) -> list[str]:
    seen: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(statement)

    event.listen(store.engine, "before_cursor_execute", count)
    return seen


@pytest.mark.postgres
def test_a_move_is_one_statement_with_its_lease_and_notification(pg: str) -> None:
    store = Storage(pg)
    store.create_game(
        StoredGame(id="g1", game="toy", players=2, seed=1, options={}, seats=[{}, {}])
    )
    seen = _statements(store)
    with store.engine.connect() as listener:
        listener.execute(text("LISTEN kingdoms_games"))
        listener.commit()
        seen.clear()
        # a bot is due next: the lease is written with the move
        assert store.append_action("g1", 0, 0, PASS, version=0, lease=LeaseChange("a", 9.0)) == 1
        assert len(seen) == 1
        with store.engine.connect() as conn:
            lease = conn.execute(select(leases_table)).one()
        assert (lease.owner, lease.until) == ("a", 9.0)
        # a person is due next: the lease goes, in the same statement
        seen.clear()
        assert store.append_action("g1", 1, 1, 3, version=1, lease=LeaseChange(None)) == 2
        assert len(seen) == 1
        with store.engine.connect() as conn:
            assert conn.execute(select(leases_table)).all() == []
        # the last move and the game's end
        outcome = {"scores": [1, 2], "winners": [1]}
        seen.clear()
        store.append_action("g1", 2, 0, 4, outcome=outcome, finished=True, version=2)
        assert len(seen) == 1
        raw = listener.connection.dbapi_connection
        assert raw is not None
        payloads = [n.payload for n in raw.notifies(timeout=1, stop_after=3)]  # type: ignore[attr-defined]
        assert payloads == ["g1 1", "g1 2", "g1 3"]
    # refused writes store nothing and announce nothing
    for index, version in ((3, 2), (2, 3), (3, 3)):
        with pytest.raises(StaleWrite):
            store.append_action("g1", index, 0, 1, version=version)
    stored = store.load_game("g1")
    assert stored is not None
    assert (stored.actions, stored.version, stored.status) == ([PASS, 3, 4], 3, STATUS_FINISHED)
    assert stored.outcome == outcome
    store.close()


@pytest.mark.postgres
def test_a_move_waiting_on_a_locked_game_leaves_the_event_loop_free(pg: str) -> None:
    """Another transaction holds the game's row: the move waits for it, the process's
    other work (other games, WebSocket pings) does not.  Event by event, not by the
    clock: the lock is released only once PostgreSQL shows the move's session waiting
    on it and the event loop has gone on ticking since, so a loaded machine only
    makes the test slower."""
    ticks = 0
    seen_waiting = threading.Event()
    released = threading.Event()
    ticked_while_waiting = [0]

    def release(blocker: Any, watcher: Any) -> None:
        """Commit the blocker once the move waits on its lock and the loop has ticked
        five times since (each step gives up after 30 s, and the asserts say which)."""
        deadline = time.monotonic() + 30
        query = text("SELECT count(*) FROM pg_locks WHERE NOT granted")  # live, not cached
        while time.monotonic() < deadline:
            waiting = watcher.execute(query).scalar_one()
            watcher.rollback()
            if waiting > 0:
                seen_waiting.set()
                break
            time.sleep(0.01)
        start = ticks
        while seen_waiting.is_set() and time.monotonic() < deadline and ticks - start < 5:
            time.sleep(0.01)
        ticked_while_waiting[0] = ticks - start
        # set before the commit: once the row is free the move may finish before this
        # thread runs again, and nothing can pass the lock before the commit
        released.set()
        blocker.commit()

    async def main() -> None:
        nonlocal ticks
        gm = GameMaster(Storage(pg), bot_delay=0)
        table, _ = gm.create_game("toy", [{"kind": "human"}] * 2)
        blocker = gm.storage.engine.connect()
        watcher = gm.storage.engine.connect()
        blocker.execute(text("SELECT 1 FROM games WHERE id = :id FOR UPDATE"), {"id": table.id})

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        tick_task = asyncio.create_task(ticker())
        releaser = threading.Thread(target=release, args=(blocker, watcher))
        releaser.start()
        seat = table.state.current_player
        await gm.act(table, (seat,), {"action": PASS, "state_id": 0})
        done_after_release = released.is_set()
        tick_task.cancel()
        releaser.join()
        blocker.close()
        watcher.close()
        assert seen_waiting.is_set(), "the move never waited on the locked row"
        assert ticked_while_waiting[0] >= 5, "the event loop stood still while the move waited"
        assert done_after_release  # the move went through only once the row was free
        assert table.state.step == 1 and table.version == 1
        await gm.stop()
        gm.storage.close()

    asyncio.run(main())


@pytest.mark.postgres
def test_a_process_does_not_reload_a_game_for_its_own_writes(pg: str) -> None:
    async def main() -> None:
        gm = GameMaster(Storage(pg), bot_delay=0, expire_after=None)
        await gm.start(resume=False)
        loads = 0
        real_load = gm.storage.load_game

        def counted(game_id: str) -> StoredGame | None:
            nonlocal loads
            loads += 1
            return real_load(game_id)

        gm.storage.load_game = counted  # type: ignore[method-assign]
        try:
            await asyncio.wait_for(gm.listening.wait(), 10)
            table, tokens = gm.create_game("toy", [{"kind": "human"}] * 2)
            inbox: list[dict[str, Any]] = []

            async def send(msg: dict[str, Any]) -> None:
                inbox.append(msg)

            async def heard_back() -> None:
                """The event: this process has heard its own notifications up to the
                game's version, and any refresh they started has ended."""
                while gm.sync.noted.get(table.id, -1) < table.version or gm.sync.pending(table.id):
                    await asyncio.sleep(0.01)

            await gm.subscribe(table.id, [t for t in tokens if t], send)
            # joining changed the seats: that may reload once
            await asyncio.wait_for(heard_back(), 60)
            loads = 0
            for step in range(8):
                seat = table.state.current_player
                await gm.act(table, (seat,), {"action": PASS, "state_id": step})
            await asyncio.wait_for(heard_back(), 60)  # every notification of ours is back
            assert loads == 0  # moves: never
            assert table.state.step == 8
        finally:
            await gm.stop()
            gm.storage.close()

    asyncio.run(main())


def test_busy_games_take_turns_with_the_sockets() -> None:
    """Twenty games move at once: between the views of two of them the event loop
    passes again (where it reads the sockets and answers pings), never twenty in a row."""

    async def main() -> None:
        gm = GameMaster(Storage("sqlite://"), bot_delay=0)
        events: list[str] = []
        real_message = gm.relay.seat_message

        def recorded(table: Any, seat: int, sub: Any, *shared: Any) -> dict[str, Any]:
            events.append("view")
            return real_message(table, seat, sub, *shared)

        gm.relay.seat_message = recorded  # type: ignore[method-assign]

        async def send(_msg: dict[str, Any]) -> None:
            pass

        tables = []
        for _ in range(20):
            table, tokens = gm.create_game("toy", [{"kind": "human"}] * 2)
            await gm.subscribe(table.id, [t for t in tokens if t], send)
            tables.append(table)
        events.clear()
        running = True

        async def loop_passes() -> None:
            while running:
                events.append("pass")
                await asyncio.sleep(0)  # once per pass of the event loop

        ticker = asyncio.create_task(loop_passes())
        await asyncio.sleep(0)
        await asyncio.gather(
            *(gm.act(t, (t.state.current_player,), {"action": PASS, "state_id": 0}) for t in tables)
        )
        running = False
        await ticker
        runs = "".join("v" if e == "view" else " " for e in events).split()
        assert events.count("view") == 40  # two seats in each of twenty games
        assert max(len(r) for r in runs) == 2  # one game's views per pass
        gm.storage.close()

    asyncio.run(main())


@pytest.mark.postgres
def test_a_move_goes_through_after_the_pools_connection_died(pg: str) -> None:
    """No ping before each use: a connection the database dropped (a restart) is
    found by the move itself, which is sent once more on a fresh connection."""
    store = Storage(pg)
    store.create_game(
        StoredGame(id="g2", game="toy", players=2, seed=1, options={}, seats=[{}, {}])
    )
    with store.engine.connect() as conn:  # the pool's one connection
        pid = conn.execute(text("SELECT pg_backend_pid()")).scalar_one()
    other = Storage(pg)
    with other.engine.connect() as conn:
        assert conn.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid}).scalar_one()
    other.close()
    assert store.append_action("g2", 0, 0, PASS, version=0) == 1
    stored = store.load_game("g2")
    assert stored is not None and stored.actions == [PASS] and stored.version == 1
    store.close()


@pytest.mark.postgres
def test_workers_starting_together_on_a_new_database_all_start(pg: str) -> None:
    """Each worker creates the missing tables as it starts: at once on an empty
    database they raced, and all but one failed on a duplicate table."""
    for _ in range(3):
        store = Storage(pg)
        metadata.drop_all(store.engine)
        store.close()
        ready = threading.Barrier(4)
        failures: list[BaseException] = []

        def start(
            ready: threading.Barrier = ready, failures: list[BaseException] = failures
        ) -> None:
            ready.wait()
            try:
                Storage(pg).close()
            except BaseException as err:  # reported below
                failures.append(err)

        threads = [threading.Thread(target=start) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert failures == []
