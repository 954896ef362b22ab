"""Real server processes: ``kingdoms serve`` subprocesses on one database (two on
PostgreSQL, one on SQLite), clients on WebSockets and HTTP.

Storage faults made from outside (another process holding the SQLite file's lock,
PostgreSQL restarted with ``pg_ctl``, the notifications channel cut, ``pg_notify``
failing): every time, the games go on once the database is back, a client of the other
process sees the moves made through the first one, and no acknowledged move is lost.
The per-address limits count the games of every process; a second process on one
SQLite file is refused.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from pgcluster import restart_postgres
from serverproc import serve
from sqlalchemy import create_engine, text

from kingdoms.server.storage import STATUS_FINISHED, Storage, StorageUnavailable


async def _until(check: Any, timeout: float = 120.0) -> None:
    """Wait for the event ``check`` tells of (polled); the bound only ends a hang (a
    loaded machine is slow), the test's own assertion then fails."""
    end = time.monotonic() + timeout
    while not check() and time.monotonic() < end:
        await asyncio.sleep(0.01)


NO_RATES = ("--rate", "create=0", "--rate", "replay=0", "--rate", "record=0", "--message-rate", "0")
HUMANS = [{"kind": "human"}, {"kind": "human"}]
BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]


class Client:
    """One WebSocket on one game (seats by token, or a spectator): every state it was
    sent, by step, and the replies to its requests."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.states: dict[int, dict[str, Any]] = {}
        """Step → the message holding the choices of the seat to move (if ours)."""
        self.replies: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.reader = asyncio.get_running_loop().create_task(self._read())
        self.ref = 0

    @classmethod
    async def open(cls, base: str, game_id: str, tokens: list[str] | None = None) -> Client:
        uri = base.replace("http", "ws", 1) + f"/ws/{game_id}"
        ws = await websockets.connect(uri, max_size=None, open_timeout=10)
        hello = {"type": "hello", "tokens": tokens} if tokens else {"type": "hello", "watch": True}
        await ws.send(json.dumps(hello))
        client = cls(ws)
        await client.wait_past(-1)
        return client

    async def _read(self) -> None:
        async for raw in self.ws:
            msg = json.loads(raw)
            if msg["type"] == "state":
                known = self.states.get(msg["state_id"])
                if known is None or msg.get("legal"):
                    self.states[msg["state_id"]] = msg
            elif msg["type"] in ("ack", "error"):
                await self.replies.put(msg)

    @property
    def step(self) -> int:
        return max(self.states, default=-1)

    async def wait_for(self, step: int, timeout: float = 10.0) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while step not in self.states:
            assert time.monotonic() < end, f"step {step} never arrived (last: {self.step})"
            await asyncio.sleep(0.005)
        return self.states[step]

    async def wait_past(self, step: int, timeout: float = 10.0) -> int:
        """Wait until a state after ``step`` arrived; the latest step."""
        end = time.monotonic() + timeout
        while self.step <= step:
            assert time.monotonic() < end, f"no step after {step} arrived"
            await asyncio.sleep(0.005)
        return self.step

    async def wait_choices(self, timeout: float = 10.0) -> int:
        """Wait until the latest state came with the choices of the seat to move (each
        seat's message comes on its own); its step."""
        end = time.monotonic() + timeout
        while not (self.states and self.states[self.step].get("legal")):
            assert time.monotonic() < end, f"no choices at step {self.step}"
            await asyncio.sleep(0.005)
        return self.step

    async def wait_finished(self, timeout: float) -> dict[str, Any]:
        end = time.monotonic() + timeout
        while not (self.states and self.states[self.step]["finished"]):
            assert time.monotonic() < end, f"the game never ended (last step: {self.step})"
            await asyncio.sleep(0.02)
        return self.states[self.step]

    async def move(self, acked: list[tuple[int, int]], patience: float = 30.0) -> int:
        """Play the first legal action of the seat to move (this connection holds every
        seat) and wait for its acknowledgement, sending it again after each ``storage``
        error; records ``(step, action)`` in ``acked``.  Returns the new step.

        A ``stale`` answer (a try whose answer was lost with its connection was stored
        after all: the game moved on) is not an acknowledgement: the new state is
        awaited and its step returned."""
        step = await self.wait_choices()
        msg = self.states[step]
        action = msg["legal"][0]["action"]
        end = time.monotonic() + patience
        while True:
            self.ref += 1
            order = {"type": "action", "action": action, "state_id": step, "ref": self.ref}
            await self.ws.send(json.dumps({**order, "seat": msg["current_player"]}))
            reply = await asyncio.wait_for(self.replies.get(), patience)
            if reply["type"] == "ack":
                acked.append((step, action))
                return int(reply["state_id"])
            if reply["code"] == "stale":
                return await self.wait_past(step)
            assert reply["code"] == "storage", reply
            assert time.monotonic() < end, "the move was never stored"
            await asyncio.sleep(0.2)

    async def close(self) -> None:
        self.reader.cancel()
        await self.ws.close()


def _create(base: str, seats: list[dict[str, Any]]) -> tuple[str, list[str]]:
    res = httpx.post(base + "/api/games", json={"game": "kingdomino", "seats": seats}, timeout=10)
    assert res.status_code == 201, res.text
    data = res.json()
    return data["id"], [s["token"] for s in data["seats"] if "token" in s]


def _stored(url: str, game_id: str) -> Any:
    store = Storage(url)
    try:
        return store.load_game(game_id)
    finally:
        store.close()


def _check_acked(url: str, game_id: str, acked: list[tuple[int, int]]) -> None:
    """Every acknowledged move is stored, at its place."""
    stored = _stored(url, game_id)
    assert stored is not None
    for step, action in acked:
        assert stored.actions[step] == action, (step, action, stored.actions)


@pytest.fixture
def admin(pg: str) -> Iterator[Any]:
    """An autocommit engine on the test cluster's ``postgres`` database."""
    engine = create_engine(pg.rsplit("/", 1)[0] + "/postgres", isolation_level="AUTOCOMMIT")
    yield engine
    engine.dispose()


def _listeners(admin: Any) -> list[int]:
    """The backends of the server processes' notification channels."""
    with admin.connect() as conn:
        rows = conn.execute(
            text(
                "SELECT pid FROM pg_stat_activity WHERE datname = 'kingdoms'"
                " AND application_name = 'kingdoms-listen'"
            )
        ).all()
    return [int(r.pid) for r in rows]


def _wait_listeners(admin: Any, count: int, timeout: float = 10.0) -> list[int]:
    end = time.monotonic() + timeout
    while len(pids := _listeners(admin)) != count:
        assert time.monotonic() < end, f"{len(pids)} notification channels, not {count}"
        time.sleep(0.02)
    return pids


# -- PostgreSQL, two processes --------------------------------------------------------------
@pytest.mark.postgres
def test_a_move_made_while_the_other_process_lost_its_channel_reaches_it(
    tmp_path: Path, pg: str, admin: Any
) -> None:
    """Process B's ``LISTEN`` connection is cut (its backend terminated, as a network
    fault or a database failover does); a move made through A before B listens again
    never reaches B as a notification.  B must find it anyway, at once when it listens
    again, and send it to its player."""
    with (
        serve(tmp_path, *NO_RATES, db=pg, name="a") as (a, _pa),
        serve(tmp_path, *NO_RATES, db=pg, name="b") as (b, _pb),
    ):
        game_id, tokens = _create(a, HUMANS)

        async def main() -> None:
            mover = await Client.open(a, game_id, tokens)
            player = await Client.open(b, game_id, tokens[1:])
            acked: list[tuple[int, int]] = []
            _wait_listeners(admin, 2)
            await player.wait_for(await mover.move(acked))  # through NOTIFY, as usual
            cut = _listeners(admin)
            with admin.connect() as conn:  # cut both processes' channels
                for pid in cut:
                    conn.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid})
            end = time.monotonic() + 10
            while set(cut) & set(_listeners(admin)):
                assert time.monotonic() < end, "the channels were not cut"
                time.sleep(0.01)
            step = await mover.move(acked)  # nobody listens: its NOTIFY reaches nobody
            began = time.monotonic()
            await player.wait_for(step, timeout=8)
            lag = time.monotonic() - began
            print(f"\nthe missed move reached the other process after {lag:.2f} s")
            await player.wait_for(await mover.move(acked))  # and the game goes on
            for client in (mover, player):
                await client.close()
            _check_acked(pg, game_id, acked)

        asyncio.run(main())


@pytest.mark.postgres
def test_a_process_that_missed_notifications_compares_its_games_with_the_database(
    pg: str,
) -> None:
    """The comparison a process makes when it listens again (two masters in this test
    process; the second never listens): a game moved or joined meanwhile is refreshed
    and pushed to its connections (a refresh that meets a database error is tried
    again), one unchanged is left alone."""
    from kingdoms.server.master import GameMaster

    async def main() -> None:
        gm_a, gm_b = GameMaster(Storage(pg), bot_delay=0), GameMaster(Storage(pg), bot_delay=0)
        moved, tokens = gm_a.create_game("toy", HUMANS)
        joined, _ = gm_a.create_game("toy", HUMANS)
        quiet, _ = gm_a.create_game("toy", HUMANS)
        seen: list[dict[str, Any]] = []

        async def inbox(msg: dict[str, Any]) -> None:
            seen.append(msg)

        await gm_b.subscribe(moved.id, [str(tokens[1])], inbox)
        for game in (joined, quiet):
            await gm_b.fetch(game.id)
        assert await gm_b.check_cached() == 0
        seat = moved.state.current_player
        await gm_a.act(moved, [seat], {"action": moved.state.legal_actions()[0], "state_id": 0})
        gm_a.storage.merge_seats(joined.id, {0: {"joined": True}})
        load, failed = gm_b.storage.load_game, []

        def flaky_load(game_id: str) -> Any:  # the first reload meets a database error
            if not failed:
                failed.append(game_id)
                raise StorageUnavailable("the database is unavailable: test")
            return load(game_id)

        gm_b.storage.load_game = flaky_load  # type: ignore[method-assign]
        gm_b.retry_delay = 0.05
        assert await gm_b.check_cached() == 2
        await _until(lambda: not gm_b.sync.refreshers)
        assert gm_b.tables[moved.id].state.step == 1 and seen[-1]["state_id"] == 1
        assert gm_b.tables[joined.id].seats[0]["joined"] and failed  # tried again
        assert await gm_b.check_cached() == 0
        for gm in (gm_a, gm_b):
            await gm.stop()
            gm.storage.close()

    asyncio.run(main())


@pytest.mark.postgres
def test_games_go_on_through_a_postgres_restart_with_two_processes(tmp_path: Path, pg: str) -> None:
    """PostgreSQL stopped (every connection dropped), down half a second, started again
    (``pg_ctl``): a game of bots run by A goes on to its end, watched through B; the
    moves of a person through A that met the outage are refused (``storage``), sent
    again and taken, and B's player sees each; every acknowledged move is stored."""
    args = (*NO_RATES, "--bot-delay", "0.05", "--lease-time", "3")
    with (
        serve(tmp_path, *args, db=pg, name="a") as (a, _pa),
        serve(tmp_path, *args, db=pg, name="b") as (b, _pb),
    ):
        bots_id, _ = _create(a, BOTS)
        game_id, tokens = _create(a, HUMANS)

        async def main() -> None:
            watcher = await Client.open(b, bots_id)
            mover = await Client.open(a, game_id, tokens)
            player = await Client.open(b, game_id, tokens[1:])
            acked: list[tuple[int, int]] = []
            for _ in range(2):
                await player.wait_for(await mover.move(acked))
            await watcher.wait_past(2)
            before = watcher.step
            stopped = threading.Event()
            loop = asyncio.get_running_loop()
            down = loop.run_in_executor(None, restart_postgres, pg, 0.5, stopped)
            # the event: the database is down (the bound only ends a hang)
            assert await loop.run_in_executor(None, stopped.wait, 120), "it never stopped"
            for _ in range(4):  # the first ones meet the outage: sent again until taken
                await player.wait_for(await mover.move(acked, patience=30), timeout=10)
            await down
            last = await watcher.wait_finished(40)  # the bots went on to the end
            assert last["state_id"] > before + 5
            for client in (watcher, mover, player):
                await client.close()
            _check_acked(pg, game_id, acked)
            stored = _stored(pg, bots_id)
            assert stored.status == STATUS_FINISHED and len(stored.actions) == last["state_id"]

        asyncio.run(main())


@pytest.mark.postgres
def test_a_failing_notify_stores_nothing_and_the_games_go_on(
    tmp_path: Path, pg: str, admin: Any
) -> None:
    """``pg_notify`` fails inside the database (a function of that name raising an
    error shadows the built-in one for the server processes' sessions): a move's write
    and its notification are one transaction, so the move is refused (``storage``)
    and nothing is stored — no process can have a move the others never hear of.
    Once it works again, the refused move sent again is taken and B's player sees it,
    and the bots of a game run by A, stuck meanwhile, go on to the end."""
    args = (*NO_RATES, "--bot-delay", "0.05", "--lease-time", "3")
    fault = create_engine(pg, isolation_level="AUTOCOMMIT")

    def broken(on: bool) -> None:
        with fault.connect() as conn:
            if on:
                # each refused notification counts one on its game's sequence, if it
                # has one (a sequence's count outlives the rollback): the tests' event
                conn.execute(
                    text(
                        "CREATE FUNCTION public.pg_notify(text, text) RETURNS void"
                        " LANGUAGE plpgsql AS $$DECLARE seq text := quote_ident("
                        "'refused_' || split_part($2, ' ', 1)); BEGIN"
                        " IF to_regclass(seq) IS NOT NULL THEN PERFORM nextval(seq); END IF;"
                        " RAISE EXCEPTION 'notify failed'; END$$"
                    )
                )
                conn.execute(text("ALTER DATABASE kingdoms SET search_path = public, pg_catalog"))
                # the processes' sessions open again (with the new search path)
                conn.execute(
                    text(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                        " WHERE datname = 'kingdoms' AND pid <> pg_backend_pid()"
                        " AND application_name <> 'kingdoms-listen'"
                    )
                )
            else:
                conn.execute(text("DROP FUNCTION IF EXISTS public.pg_notify(text, text)"))
                conn.execute(text("ALTER DATABASE kingdoms RESET search_path"))

    try:
        with (
            serve(tmp_path, *args, db=pg, name="a") as (a, _pa),
            serve(tmp_path, *args, db=pg, name="b") as (b, _pb),
        ):
            bots_id, _ = _create(a, BOTS)
            game_id, tokens = _create(a, HUMANS)
            with fault.connect() as conn:
                conn.execute(text(f'CREATE SEQUENCE "refused_{bots_id}"'))

            def refused_writes(game: str) -> int:
                with fault.connect() as conn:
                    seq = f'"refused_{game}"'
                    return int(
                        conn.execute(
                            text(f"SELECT is_called::int * last_value FROM {seq}")
                        ).scalar_one()
                    )

            async def main() -> None:
                watcher = await Client.open(b, bots_id)
                mover = await Client.open(a, game_id, tokens)
                player = await Client.open(b, game_id, tokens[1:])
                acked: list[tuple[int, int]] = []
                await player.wait_for(await mover.move(acked))
                await watcher.wait_past(1)
                broken(True)
                try:
                    step = await mover.wait_choices()
                    refused = 0
                    end = time.monotonic() + 10
                    while refused < 2:  # each try refused, nothing stored
                        msg = mover.states[step]
                        mover.ref += 1
                        order = {"type": "action", "action": msg["legal"][0]["action"]}
                        await mover.ws.send(
                            json.dumps(
                                {
                                    **order,
                                    "state_id": step,
                                    "ref": mover.ref,
                                    "seat": msg["current_player"],
                                }
                            )
                        )
                        reply = await asyncio.wait_for(mover.replies.get(), 10)
                        assert reply["type"] == "error" and reply["code"] == "storage", reply
                        refused += 1
                        assert time.monotonic() < end
                    stuck = watcher.step
                    # the event: two more of the bots' writes were refused meanwhile
                    tries = refused_writes(bots_id)
                    end = time.monotonic() + 120
                    while refused_writes(bots_id) < tries + 2:
                        assert time.monotonic() < end, "the bots' writes were never refused"
                        await asyncio.sleep(0.05)
                    assert watcher.step <= stuck + 1  # the bots cannot store either
                    stored = _stored(pg, game_id)
                    assert len(stored.actions) == step
                finally:
                    broken(False)
                await player.wait_for(await mover.move(acked))  # sent again: taken
                await player.wait_for(await mover.move(acked))
                last = await watcher.wait_finished(40)
                assert last["state_id"] > stuck + 5
                for client in (watcher, mover, player):
                    await client.close()
                _check_acked(pg, game_id, acked)
                stored = _stored(pg, bots_id)
                assert stored.status == STATUS_FINISHED
                assert len(stored.actions) == last["state_id"]

            asyncio.run(main())
            assert "notify failed" in (tmp_path / "a.log").read_text()  # what was refused
    finally:
        broken(False)
        fault.dispose()


# -- SQLite: the file locked by another process -----------------------------------------------
def test_a_sqlite_server_goes_on_after_another_process_holds_the_lock_past_the_timeout(
    tmp_path: Path,
) -> None:
    """Another process (this test) holds the database file's write lock for 6 s, past
    the server's 5 s busy timeout: the bots' writes and a person's move fail meanwhile
    (the move is refused with ``storage``, nothing stored), then the game of bots goes
    on to its end and the move sent again is taken; a spectator sees all of it."""
    path = tmp_path / "k.sqlite"
    args = (*NO_RATES, "--bot-delay", "0.05")
    with serve(tmp_path, *args, db=f"sqlite:///{path}") as (base, _proc):
        bots_id, _ = _create(base, BOTS)
        game_id, tokens = _create(base, HUMANS)

        async def main() -> None:
            watcher = await Client.open(base, bots_id)
            mover = await Client.open(base, game_id, tokens)
            acked: list[tuple[int, int]] = []
            await mover.move(acked)
            await watcher.wait_past(1)
            locker = sqlite3.connect(path, isolation_level=None)
            locker.execute("BEGIN EXCLUSIVE")
            try:
                before = watcher.step
                step = await mover.wait_choices()
                mover.ref += 1
                msg = mover.states[step]
                order = {"type": "action", "action": msg["legal"][0]["action"], "state_id": step}
                await mover.ws.send(
                    json.dumps({**order, "ref": mover.ref, "seat": msg["current_player"]})
                )
                # writes wait their turn (one writer): maybe behind a bot's, 5 s each
                reply = await asyncio.wait_for(mover.replies.get(), 20)
                assert reply["type"] == "error" and reply["code"] == "storage", reply
                # the event: a write of the bots' game failed too, past the busy timeout
                log = tmp_path / "server.log"
                failed = f"game {bots_id}: the database is unavailable"
                end = time.monotonic() + 120
                while failed not in log.read_text():
                    assert time.monotonic() < end, "the bots' write never failed"
                    await asyncio.sleep(0.05)
                assert watcher.step <= before + 1  # nothing (or the one in flight) stored
            finally:
                locker.execute("COMMIT")
                locker.close()
            await mover.move(acked)  # sent again: taken now
            last = await watcher.wait_finished(30)
            assert last["state_id"] > before + 5
            for client in (watcher, mover):
                await client.close()
            _check_acked(f"sqlite:///{path}", game_id, acked)
            stored = _stored(f"sqlite:///{path}", bots_id)
            assert stored.status == STATUS_FINISHED and len(stored.actions) == last["state_id"]

        asyncio.run(main())


def test_a_second_server_process_on_one_sqlite_file_is_refused(tmp_path: Path) -> None:
    """Two processes on one SQLite file would each keep their own view of the games
    (no notifications, no bot leases): the second is refused with a clear message, and
    once the first is gone (even killed) another may serve the file."""
    path = tmp_path / "k.sqlite"
    kingdoms = str(Path(sys.executable).with_name("kingdoms"))
    second = [kingdoms, "serve", "--port", "0", "--db", f"sqlite:///{path}"]
    with serve(tmp_path, db=f"sqlite:///{path}") as (base, proc):
        game_id, _ = _create(base, HUMANS)
        refused = subprocess.run(second, capture_output=True, text=True, timeout=60)
        assert refused.returncode != 0
        assert "another kingdoms serve process uses" in refused.stderr, refused.stderr
        assert "PostgreSQL" in refused.stderr
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    with serve(tmp_path, db=f"sqlite:///{path}", name="again") as (base, _proc):
        assert httpx.get(f"{base}/api/games/{game_id}", timeout=10).status_code == 200


# -- the per-address limits, over two processes ---------------------------------------------
@pytest.mark.postgres
def test_the_per_address_limits_count_the_games_of_every_process(tmp_path: Path, pg: str) -> None:
    """One address may have 100 games waiting for their players and 2 games of search
    bots alone running: counted in the database as each game is stored, so two
    processes behind one address give it no more than one would, even when its
    requests reach both at once."""
    args = (*NO_RATES, "--bot-delay", "5")
    with (
        serve(tmp_path, *args, db=pg, name="a") as (a, _pa),
        serve(tmp_path, *args, db=pg, name="b") as (b, _pb),
    ):

        async def burst(seats: list[dict[str, Any]], count: int) -> list[Any]:
            async with httpx.AsyncClient(timeout=60) as http:
                new = {"game": "kingdomino", "seats": seats}
                return await asyncio.gather(
                    *(http.post((a if i % 2 else b) + "/api/games", json=new) for i in range(count))
                )

        heavy = [{"kind": "bot", "bot": "mcts:time=0.05"}] * 2
        replies = asyncio.run(burst(heavy, 6))
        assert sorted(r.status_code for r in replies) == [201] * 2 + [429] * 4
        refused = [r.json() for r in replies if r.status_code == 429]
        assert {r["error"] for r in refused} == {"too_many_bot_games"}
        replies = asyncio.run(burst(HUMANS, 110))
        assert sorted(r.status_code for r in replies) == [201] * 100 + [429] * 10
        assert {r.json()["error"] for r in replies if r.status_code == 429} == {"too_many"}
