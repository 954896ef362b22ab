"""Several real server processes on one PostgreSQL database.

Any process serves any game: seat 0 plays through one process and seat 1 through
the other, each sees the other's moves (``NOTIFY``), a move sent through both at
once is taken once, and a bots-only game goes on after its process is killed.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import statistics
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from click.testing import CliRunner
from serverproc import serve

from kingdoms.cli.serve import serve as serve_command
from kingdoms.core.record import GameRecord
from kingdoms.core.state import GameConfig
from kingdoms.server.storage import STATUS_FINISHED, Storage

pytestmark = pytest.mark.postgres

NO_RATES = ("--rate", "create=0", "--rate", "replay=0", "--rate", "record=0")


class Conn:
    """One WebSocket connection holding one seat: the latest state, acks and errors."""

    def __init__(self, ws: Any, seat: int) -> None:
        self.ws = ws
        self.seat = seat
        self.state: dict[str, Any] | None = None
        self.seen: dict[int, float] = {}
        """state_id → when it arrived."""
        self.replies: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        async for raw in self.ws:
            msg = json.loads(raw)
            if msg["type"] == "state":
                self.state = msg
                self.seen.setdefault(msg["state_id"], time.monotonic())
            elif msg["type"] in ("ack", "error"):
                await self.replies.put(msg)

    async def wait_for(self, step: int, timeout: float = 10.0) -> float:
        """Wait until state ``step`` arrived here; when it did."""
        end = time.monotonic() + timeout
        while step not in self.seen:
            assert time.monotonic() < end, f"seat {self.seat} never saw step {step}"
            await asyncio.sleep(0.002)
        return self.seen[step]

    async def act(self, action: int, step: int, ref: int) -> None:
        msg = {"type": "action", "action": action, "state_id": step, "ref": ref}
        await self.ws.send(json.dumps({**msg, "seat": self.seat}))


async def _connect(base: str, game_id: str, token: str, seat: int) -> Conn:
    uri = base.replace("http", "ws", 1) + f"/ws/{game_id}"
    ws = await websockets.connect(uri, max_size=None, open_timeout=10)
    await ws.send(json.dumps({"type": "hello", "tokens": [token]}))
    conn = Conn(ws, seat)
    await conn.wait_for(0)
    return conn


async def _split_game(a: str, b: str, game_id: str, tokens: list[str]) -> dict[str, Any]:
    """Seat 0 plays through ``a``, seat 1 through ``b``; each seat also watches through
    the other process.  The first few moves are sent through both processes at once."""
    main = [await _connect(a, game_id, tokens[0], 0), await _connect(b, game_id, tokens[1], 1)]
    other = [await _connect(b, game_id, tokens[0], 0), await _connect(a, game_id, tokens[1], 1)]
    lags: list[float] = []
    races = {"acked": 0, "stale": 0}
    step, ref = 0, 0
    try:
        while True:
            state = main[0].state if main[0].state and main[0].state["state_id"] == step else None
            assert state is not None
            if state["finished"]:
                break
            seat = state["current_player"]
            mover = main[seat]
            assert mover.state is not None and mover.state["state_id"] == step
            legal = [x["action"] for x in mover.state["legal"]]
            action = legal[step % len(legal)]
            if step < 6:  # the same move through both processes at once: taken once
                ref += 2
                await asyncio.gather(
                    mover.act(action, step, ref), other[seat].act(legal[-1], step, ref + 1)
                )
                replies = [await mover.replies.get(), await other[seat].replies.get()]
                kinds = sorted(r["type"] if r["type"] == "ack" else r["code"] for r in replies)
                assert kinds == ["ack", "stale"], replies
                races["acked"] += 1
                races["stale"] += 1
            else:
                ref += 1
                sent = time.monotonic()
                await mover.act(action, step, ref)
                reply = await mover.replies.get()
                assert reply["type"] == "ack", reply
                # the other seat, on the other process, sees the move
                lags.append(await main[1 - seat].wait_for(step + 1) - sent)
            step += 1
            for conn in (*main, *other):
                await conn.wait_for(step)
        final = [c.state for c in (*main, *other)]
        assert all(s is not None and s["finished"] and s["state_id"] == step for s in final)
        outcomes = {json.dumps(s["outcome"], sort_keys=True) for s in final if s is not None}
        assert len(outcomes) == 1
        return {"steps": step, "lags": lags, "races": races, "outcome": final[0]["outcome"]}
    finally:
        for conn in (*main, *other):
            await conn.ws.close()
            conn.reader.cancel()


def test_two_processes_play_one_game_and_race_for_the_same_step(tmp_path: Path, pg: str) -> None:
    with (
        serve(tmp_path, *NO_RATES, db=pg, name="a") as (a, _pa),
        serve(tmp_path, *NO_RATES, db=pg, name="b") as (b, _pb),
    ):
        seats = [{"kind": "human"}, {"kind": "human"}]
        res = httpx.post(a + "/api/games", json={"game": "kingdomino", "seats": seats}, timeout=10)
        assert res.status_code == 201, res.text
        data = res.json()
        tokens = [s["token"] for s in data["seats"]]
        result = asyncio.run(_split_game(a, b, data["id"], tokens))
    assert result["races"] == {"acked": 6, "stale": 6}
    lags = sorted(result["lags"])
    print(
        f"\n{result['steps']} steps; move seen on the other process after "
        f"p50 {statistics.median(lags) * 1000:.1f} ms, max {lags[-1] * 1000:.1f} ms"
    )
    assert statistics.median(lags) < 0.5  # tens of ms when idle; a loaded CI machine
    store = Storage(pg)
    try:
        stored = store.load_game(data["id"])
    finally:
        store.close()
    assert stored is not None and stored.status == STATUS_FINISHED
    assert len(stored.actions) == result["steps"]  # each raced step stored once
    config = GameConfig(stored.game, stored.players, stored.seed, stored.options)
    end = GameRecord(config=config, actions=tuple(stored.actions)).replay()
    assert end.is_terminal()
    outcome = end.outcome()
    assert outcome is not None and outcome.to_json() == result["outcome"] == stored.outcome


def _stored_steps(url: str, game_id: str) -> tuple[int, str]:
    store = Storage(url)
    try:
        stored = store.load_game(game_id)
    finally:
        store.close()
    assert stored is not None
    return len(stored.actions), stored.status


def test_bots_go_on_through_another_process_after_kill_9(tmp_path: Path, pg: str) -> None:
    args = (*NO_RATES, "--bot-delay", "0.05", "--lease-time", "2")
    with (
        serve(tmp_path, *args, db=pg, name="a") as (a, proc_a),
        serve(tmp_path, *args, db=pg, name="b") as (_b, _pb),
    ):
        seats = [{"kind": "bot", "bot": "random"}] * 2
        res = httpx.post(a + "/api/games", json={"game": "kingdomino", "seats": seats}, timeout=10)
        assert res.status_code == 201, res.text
        game_id = res.json()["id"]
        end = time.monotonic() + 30
        while _stored_steps(pg, game_id)[0] < 4:
            assert time.monotonic() < end, "the bots never started"
            time.sleep(0.05)
        os.kill(proc_a.pid, signal.SIGKILL)
        proc_a.wait()
        killed_at = time.monotonic()
        at_kill = _stored_steps(pg, game_id)[0]
        taken_over = None
        while True:
            steps, status = _stored_steps(pg, game_id)
            if taken_over is None and steps > at_kill:
                taken_over = time.monotonic() - killed_at
            if status == STATUS_FINISHED:
                break
            assert time.monotonic() - killed_at < 90, f"stuck at {steps} steps"
            time.sleep(0.1)
        assert taken_over is not None and taken_over < 10
        print(f"\nbots taken over {taken_over:.1f} s after kill -9 (lease 2 s)")


def test_workers_need_postgres() -> None:
    result = CliRunner().invoke(
        serve_command, ["--workers", "2", "--db", "sqlite:///nowhere/k.sqlite"]
    )
    assert result.exit_code != 0
    assert "--workers 2 needs a PostgreSQL database" in result.output


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (an unreaped zombie does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(x) for x in path.read_text().split()]


def test_workers_share_one_port_and_come_back(tmp_path: Path, pg: str) -> None:
    with serve(tmp_path, "--workers", "2", *NO_RATES, db=pg) as (base, proc):
        end = time.monotonic() + 20
        while len(_children(proc.pid)) != 2:
            assert time.monotonic() < end, "two workers never started"
            time.sleep(0.1)
        first = _children(proc.pid)
        # each worker is a session of its own: its own CPU share under Linux's autogroup
        while not all(os.getsid(w) == w for w in first):
            assert time.monotonic() < end, "the workers stayed in their parent's session"
            time.sleep(0.1)
        assert os.getsid(proc.pid) not in first
        ids = []
        for _ in range(6):
            seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
            res = httpx.post(base + "/api/games", json={"game": "kingdomino", "seats": seats})
            assert res.status_code == 201, res.text
            ids.append(res.json()["id"])
        os.kill(first[0], signal.SIGKILL)  # a worker dies: another one is started
        while True:
            now = _children(proc.pid)
            if len(now) == 2 and first[0] not in now:
                break
            assert time.monotonic() < end + 20, "the dead worker was not replaced"
            time.sleep(0.1)
        listed = httpx.get(base + "/api/games", timeout=10).json()
        games = listed["games"] if isinstance(listed, dict) else listed
        assert set(ids) <= {g["id"] for g in games}
        workers = _children(proc.pid)
    # stopping the parent stops every worker
    assert not [pid for pid in workers if _alive(pid)]


# -- two masters in one test process (no notifications): the database decides ----------
PASS = 7  # the toy game's pass (tests/server/toygame.py)


def _two_masters(url: str) -> tuple[Any, Any]:
    from kingdoms.server.master import GameMaster

    return GameMaster(Storage(url), bot_delay=0), GameMaster(Storage(url), bot_delay=0)


def test_a_process_behind_is_refused_stale_even_after_an_undo_and_a_new_move(pg: str) -> None:
    from kingdoms.server.master import RequestError

    async def main() -> None:
        gm_a, gm_b = _two_masters(pg)
        table_a, _tokens = gm_a.create_game("toy", [{"kind": "human"}] * 2)
        table_b = await gm_b.fetch(table_a.id)
        first = table_a.state.current_player
        await gm_a.act(table_a, (first,), {"action": PASS, "state_id": 0})
        with pytest.raises(RequestError) as err:  # b still holds step 0
            await gm_b.act(table_b, (first,), {"action": PASS, "state_id": 0})
        assert err.value.code == "stale"
        assert table_b.state.step == 1  # refreshed from the database meanwhile
        second = table_b.state.current_player
        await gm_a.act(table_a, (second,), {"action": PASS, "state_id": 1})
        await gm_b.refresh(table_b)
        assert table_b.state.history == table_a.state.history
        # a undoes and plays something else: the same step number, another game
        assert await gm_a.undo(table_a, (second,), {"state_id": 2}) == 1
        card = table_a.state.legal_actions()[0]
        assert card != PASS
        await gm_a.act(table_a, (second,), {"action": card, "state_id": 1})
        assert table_b.state.step == table_a.state.step == 2
        mover = table_b.state.current_player
        with pytest.raises(RequestError) as err:  # the step matches, the version does not
            await gm_b.act(table_b, (mover,), {"action": PASS, "state_id": 2})
        assert err.value.code == "stale"
        assert table_b.state.history == table_a.state.history
        stored = gm_a.storage.load_game(table_a.id)
        assert stored is not None and stored.actions == list(table_a.state.history)
        # an undo from behind is refused too, and changes nothing
        await gm_a.act(table_a, (mover,), {"action": PASS, "state_id": 2})
        with pytest.raises(RequestError) as err:
            await gm_b.undo(table_b, (mover,), {"state_id": 3})
        assert err.value.code in ("stale", "cannot_undo")
        await gm_b.refresh(table_b)
        assert table_b.state.history == table_a.state.history
        gm_a.storage.close()
        gm_b.storage.close()

    asyncio.run(main())


def test_resign_and_the_idle_sweep_act_once_across_processes(pg: str) -> None:
    from kingdoms.server.resign import abandon_idle, resign

    async def main() -> None:
        gm_a, gm_b = _two_masters(pg)
        ended: list[str] = []
        for gm in (gm_a, gm_b):
            gm.finish_hooks.append(lambda t: ended.append(t.id))
        # resigning through a process that is behind resigns the current game
        table_a, _ = gm_a.create_game("toy", [{"kind": "human"}] * 2)
        table_b = await gm_b.fetch(table_a.id)
        first = table_a.state.current_player
        await gm_a.act(table_a, (first,), {"action": PASS, "state_id": 0})
        await resign(gm_b, table_b, (first,), {})
        stored = gm_a.storage.load_game(table_a.id)
        assert stored is not None and stored.status == STATUS_FINISHED
        assert stored.outcome is not None and stored.outcome["details"]["step"] == 1
        # idle games: both processes sweep at once, each game ends once, loaded or not
        idle = [gm_a.create_game("toy", [{"kind": "human"}] * 2)[0].id for _ in range(3)]
        later = time.time() + 7200
        done = await asyncio.gather(
            abandon_idle(gm_a, 3600.0, now=later), abandon_idle(gm_b, 3600.0, now=later)
        )
        assert sorted(done[0] + done[1]) == sorted(idle)
        assert sorted(ended) == sorted([table_a.id, *idle])
        gm_a.storage.close()
        gm_b.storage.close()

    asyncio.run(main())


def test_two_processes_killed_mid_play_lose_no_acknowledged_move(pg: str) -> None:
    """Short version of ``make soak-server-multi``: two processes, each game played
    through both at once, both SIGKILLed one after the other at random moments."""
    from test_server_durability import _soak

    tally = _soak().soak(pg, cycles=2, games_at_once=4, seed=5, processes=2)
    assert tally.acknowledged > 20 and tally.games >= 4
    assert tally.lost == 0 and tally.inconsistent == 0, tally.problems


def test_notifications_refresh_watched_games_and_drop_unwatched_ones(pg: str) -> None:
    async def main() -> None:
        gm_a, gm_b = _two_masters(pg)
        for gm in (gm_a, gm_b):
            gm.expire_after = None
            await gm.start(resume=False)
        try:
            await asyncio.wait_for(gm_b.listening.wait(), 10)
            watched, tokens = gm_a.create_game("toy", [{"kind": "human"}] * 2)
            unwatched, _ = gm_a.create_game("toy", [{"kind": "human"}] * 2)
            seen: list[dict[str, Any]] = []

            async def inbox(msg: dict[str, Any]) -> None:
                seen.append(msg)

            other = 1 - watched.state.current_player
            await gm_b.subscribe(watched.id, [tokens[other]], inbox)  # type: ignore[list-item]
            idle_b = await gm_b.fetch(unwatched.id)
            for table in (watched, unwatched):
                seat = table.state.current_player
                await gm_a.act(table, (seat,), {"action": PASS, "state_id": 0})
            end = time.monotonic() + 10
            while not seen or seen[-1]["state_id"] != 1 or unwatched.id in gm_b.tables:
                assert time.monotonic() < end, "process B never heard of the moves"
                await asyncio.sleep(0.01)
            assert seen[-1]["seat"] == other and seen[-1]["current_player"] == other
            assert idle_b.state.step == 0  # dropped, not refreshed: loaded again when asked
            assert (await gm_b.fetch(unwatched.id)).state.step == 1
        finally:
            for gm in (gm_a, gm_b):
                await gm.stop()
                gm.storage.close()

    asyncio.run(main())


def test_workers_stop_when_their_parent_is_killed(tmp_path: Path, pg: str) -> None:
    with serve(tmp_path, "--workers", "2", db=pg) as (_base, proc):
        end = time.monotonic() + 20
        while len(_children(proc.pid)) != 2:
            assert time.monotonic() < end, "two workers never started"
            time.sleep(0.1)
        workers = _children(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        end = time.monotonic() + 20
        while [pid for pid in workers if _alive(pid)]:
            assert time.monotonic() < end, "workers outlived their parent"
            time.sleep(0.1)
