"""Crashes, restarts and big databases: nothing acknowledged is lost, starts stay fast."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert
from toygame import PASS

from kingdoms.server.master import GameMaster
from kingdoms.server.storage import Storage, StoredGame, games_table

ROOT = Path(__file__).resolve().parents[2]
HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


def _soak() -> Any:
    spec = importlib.util.spec_from_file_location("soak_server", ROOT / "bench" / "soak_server.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("soak_server", module)  # dataclasses look their module up
    spec.loader.exec_module(sys.modules["soak_server"])
    return sys.modules["soak_server"]


def test_kill_9_mid_play_loses_no_acknowledged_move(storage_url: str) -> None:
    """A real server process, SIGKILLed at random moments and restarted (short version
    of ``make soak-server``)."""
    soak = _soak()
    if storage_url.startswith("sqlite"):
        Path(storage_url.split(":///", 1)[1]).parent.mkdir(parents=True, exist_ok=True)
    tally = soak.soak(storage_url, cycles=3, games_at_once=6, seed=3)
    assert tally.acknowledged > 20 and tally.games >= 6
    assert tally.lost == 0 and tally.inconsistent == 0, tally.problems


def test_the_last_move_and_the_end_are_stored_together(
    storage_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def main() -> str:
        gm = GameMaster(Storage(storage_url), bot_delay=0)

        def crash(*args: Any, **kwargs: Any) -> None:  # the process dies after the move
            raise KeyboardInterrupt

        monkeypatch.setattr(gm.storage, "set_status", crash)
        table, _ = gm.create_game("toy", HUMANS, seed=2)
        while not table.finished:
            seat = table.state.current_player
            await gm.act(table, (seat,), {"action": PASS, "state_id": table.state.step})
        return table.id

    gid = asyncio.run(main())
    stored = Storage(storage_url).load_game(gid)
    assert stored is not None and stored.status == "finished" and stored.outcome is not None


def test_a_finished_game_stored_as_running_is_repaired_at_start(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/k.sqlite"
    store = Storage(url)
    gm = GameMaster(store, bot_delay=0)
    table, _ = gm.create_game("toy", HUMANS, seed=2)
    for step in range(12):  # what an older server left after a crash: over, but "running"
        store.append_action(table.id, step, step % 2, PASS)
    assert store.load_game(table.id).status == "running"  # type: ignore[union-attr]

    async def restart() -> None:
        fresh = GameMaster(Storage(url), bot_delay=0)
        await fresh.start()
        await asyncio.wait_for(fresh.resumed.wait(), 10)
        await fresh.stop()

    asyncio.run(restart())
    stored = Storage(url).load_game(table.id)
    assert stored is not None and stored.status == "finished" and stored.outcome is not None


def test_bots_only_games_resume_by_themselves_after_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/k.sqlite"
    gm = GameMaster(Storage(url), bot_delay=0)
    table, _ = gm.create_game("toy", [{"kind": "bot"}] * 2, seed=5)  # no loop: not started

    async def restart() -> bool:
        fresh = GameMaster(Storage(url), bot_delay=0)
        await fresh.start()
        end = time.monotonic() + 120  # the event: stored as finished (the bound: a hang)
        while time.monotonic() < end:
            stored = fresh.storage.load_game(table.id)
            if stored is not None and stored.status == "finished":
                break
            await asyncio.sleep(0.01)
        await fresh.stop()
        return stored is not None and stored.status == "finished"

    assert asyncio.run(restart())


def _fill(url: str, games: int) -> list[str]:
    """``games`` unfinished toy games written straight into the database."""
    store = Storage(url)
    seats = json.dumps([{"kind": "human", "name": "Ann", "token_hash": "x", "joined": True}] * 2)
    now = time.time()
    rows = [
        {
            "id": f"g{i:07d}",
            "game": "toy",
            "players": 2,
            "seed": i,
            "options": '{"hand": 3}',
            "seats": seats,
            "status": "running",
            "outcome": None,
            "meta": "{}",
            "num_actions": 0,
            "created": now,
            "updated": now,
        }
        for i in range(games)
    ]
    with store.engine.begin() as conn:
        conn.execute(insert(games_table), rows)
    store.close()
    return [r["id"] for r in rows]


START_PROBE = """
import asyncio, json, sys, time
sys.path.insert(0, {tests!r})
from types import MappingProxyType
from kingdoms.core import registry
games = {{**registry._entry_points(), "toy": "toygame:GAME"}}
registry._entry_points = lambda: MappingProxyType(games)
from kingdoms.server.master import GameMaster
from kingdoms.server.storage import Storage

async def main():
    gm = GameMaster(Storage({url!r}), bot_delay=0)
    begin = time.perf_counter()
    await gm.start()
    started = time.perf_counter() - begin
    loaded = len(gm.tables)
    table = await gm.fetch("g0099999")
    await gm.stop()
    # the peak of this process alone (ru_maxrss would include the forking parent's)
    with open("/proc/self/status") as fh:
        rss = next(int(x.split()[1]) for x in fh if x.startswith("VmHWM:")) / 1024
    print(json.dumps({{"start_s": started, "loaded": loaded, "step": table.state.step,
                      "rss_mb": rss}}))

asyncio.run(main())
"""


def test_start_stays_fast_and_small_with_100_000_stored_games(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/big.sqlite"
    ids = _fill(url, 100_000)
    assert ids[-1] == "g0099999"
    code = START_PROBE.format(tests=str(Path(__file__).parent), url=url)
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert out.returncode == 0, out.stderr
    probe = json.loads(out.stdout)
    assert probe["start_s"] < 0.5 and probe["loaded"] == 0  # nothing replayed up front
    assert probe["step"] == 0  # any game still loads on demand
    assert probe["rss_mb"] < 250, probe  # about 45 MB


def test_replays_are_served_from_snapshots(monkeypatch: pytest.MonkeyPatch) -> None:
    from starlette.testclient import TestClient

    from kingdoms.core.record import GameRecord
    from kingdoms.server.app import create_app

    with TestClient(create_app("sqlite://", bot_delay=0, allow_seeds=True)) as client:
        game = client.post(
            "/api/games", json={"game": "toy", "seats": [{"kind": "bot"}] * 2, "seed": 3}
        ).json()
        master = client.app.state.master  # type: ignore[attr-defined]
        end = time.monotonic() + 120  # the event: the game ended (the bound: a hang)
        while client.get(f"/api/games/{game['id']}").json()["status"] != "finished":
            assert time.monotonic() < end, "the bots never finished"
            time.sleep(0.01)
        record = master.get(game["id"]).record()
        expected = [record.replay(step).view(0) for step in range(13)]
        replays = [0]
        real = GameRecord.replay

        def counted(self: GameRecord, upto: int | None = None) -> Any:
            replays[0] += 1
            return real(self, upto)

        monkeypatch.setattr(GameRecord, "replay", counted)
        for step in range(13):
            res = client.get(f"/api/games/{game['id']}/replay?step={step}")
            assert res.status_code == 200 and res.json()["view"] == expected[step]
        assert replays[0] <= 1  # built once, then every step from a snapshot


def test_stored_game_helper_kept() -> None:
    """The storage's own record type still round-trips (used by the fill helper's rows)."""
    store = Storage("sqlite://")
    store.create_game(StoredGame("a1", "toy", 2, 1, {"hand": 3}, HUMANS))
    assert store.unfinished_page() == [("a1", json.dumps(HUMANS))]
