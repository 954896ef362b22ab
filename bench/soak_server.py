"""Crash soak for the web server: ``kill -9`` it at random moments, restart, check.

Each cycle starts ``kingdoms serve`` as a real process over one database, plays
``--games`` games at once over WebSockets (random legal actions; every game
hot-seat human, some with a bot seat), kills the process with SIGKILL after a
random time, then reads the database directly and checks:

* **lost**: an action the server acknowledged that is not stored at its step;
* **inconsistent**: a record that does not replay, or replays to a different
  status than the one stored (over but "running", or "finished" but not over).

Finished games are replaced by new ones, unfinished ones continue in the next
cycle.  Prints one JSON line per database with games, acknowledged moves,
lost, inconsistent.

With ``--processes 2`` (PostgreSQL) each cycle runs two server processes on the
database; every game is played through both at once (each connection holds every
seat, so the two race for each step and one of them is answered ``stale``), and the
processes are killed one after the other at random moments (the survivor goes on
alone for a while, taking over the bots of the dead one).

    python bench/soak_server.py --cycles 25                  # SQLite and PostgreSQL
    python bench/soak_server.py --cycles 3 --db sqlite       # one database
    python bench/soak_server.py --cycles 25 --db postgres --processes 2
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from kingdoms.core.record import GameRecord
from kingdoms.core.state import GameConfig
from kingdoms.server.storage import STATUS_FINISHED, STATUS_RUNNING, Storage


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class SoakGame:
    id: str
    tokens: list[str]
    acked: dict[int, int] = field(default_factory=dict)
    """Step → action the server acknowledged at that step."""
    twice: list[int] = field(default_factory=list)
    """Steps at which two different actions were acknowledged (through two processes)."""
    done: bool = False


@dataclass
class Tally:
    games: int = 0
    acknowledged: int = 0
    lost: int = 0
    inconsistent: int = 0
    cycles: int = 0
    restart_seconds: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


class ServerProcess:
    """``kingdoms serve`` in a child process on a free loopback port."""

    def __init__(self, db: str, bot_delay: float = 0.0, *extra: str) -> None:
        self.db = db
        self.extra = extra
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.bot_delay = bot_delay
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 30.0) -> float:
        """Start and wait until it answers; returns the seconds that took."""
        kingdoms = Path(sys.executable).with_name("kingdoms")
        cmd = [str(kingdoms)] if kingdoms.exists() else [sys.executable, "-m", "kingdoms.cli"]
        cmd += [
            "serve",
            "--port",
            str(self.port),
            "--db",
            self.db,
            "--bot-delay",
            str(self.bot_delay),
            "--rate",
            "create=0",
            "--rate",
            "replay=0",
            "--rate",
            "record=0",
            *self.extra,
        ]
        begin = time.monotonic()
        self.proc = subprocess.Popen(
            cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        while time.monotonic() - begin < timeout:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.base + "/api/catalog", timeout=1).is_success:
                    return time.monotonic() - begin
            time.sleep(0.05)
        self.kill()
        raise RuntimeError("server did not start in time")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.proc = None


async def _play(base: str, game: SoakGame, rng: random.Random) -> None:
    """Play random legal actions until the game ends or the server goes away."""
    uri = base.replace("http", "ws", 1) + f"/ws/{game.id}"
    pending: dict[int, tuple[int, int]] = {}
    ref = 0
    try:
        async with websockets.connect(uri, max_size=None, open_timeout=5) as ws:
            await ws.send(json.dumps({"type": "hello", "tokens": game.tokens}))
            latest: dict[int, dict[str, Any]] = {}
            while True:
                msg = json.loads(await ws.recv())
                if msg["type"] == "state":
                    latest[msg["seat"]] = msg
                    if msg["finished"]:
                        game.done = True
                        return
                elif msg["type"] == "ack":
                    step, action = pending.pop(msg["ref"])
                    if game.acked.setdefault(step, action) != action:
                        game.twice.append(step)  # two moves acknowledged for one step
                elif msg["type"] == "error":
                    if msg.get("ref") is not None:
                        pending.pop(msg["ref"], None)
                    if msg["code"] in ("stale", "not_your_turn"):
                        continue
                    raise RuntimeError(f"game {game.id}: {msg}")
                if pending or not latest:
                    continue
                newest = max(m["state_id"] for m in latest.values())
                st = next(
                    (
                        m
                        for m in latest.values()
                        if m["state_id"] == newest
                        and m["legal"]
                        and m["current_player"] == m["seat"]
                    ),
                    None,
                )
                if st is None:
                    continue
                choice = st["legal"][rng.randrange(len(st["legal"]))]["action"]
                ref += 1
                pending[ref] = (st["state_id"], choice)
                await ws.send(
                    json.dumps(
                        {
                            "type": "action",
                            "action": choice,
                            "state_id": st["state_id"],
                            "seat": st["seat"],
                            "ref": ref,
                        }
                    )
                )
    except (TimeoutError, OSError, websockets.ConnectionClosed):
        return  # the server was killed: what was acknowledged is what counts


async def _create(base: str, rng: random.Random) -> SoakGame:
    seats: list[dict[str, str]] = [{"kind": "human"}, {"kind": "human"}]
    if rng.random() < 0.3:
        seats[1] = {"kind": "bot", "bot": "random"}
    async with httpx.AsyncClient(base_url=base, timeout=10) as http:
        res = await http.post("/api/games", json={"game": "kingdomino", "seats": seats})
        res.raise_for_status()
        data = res.json()
    return SoakGame(data["id"], [s["token"] for s in data["seats"] if "token" in s])


def check(db: str, games: list[SoakGame], tally: Tally) -> None:
    """Compare the database with what was acknowledged; count lost and inconsistent."""
    store = Storage(db)
    try:
        for game in games:
            stored = store.load_game(game.id)
            if stored is None:
                tally.lost += len(game.acked)
                tally.problems.append(f"{game.id}: missing")
                continue
            for step in game.twice:
                tally.lost += 1
                tally.problems.append(f"{game.id}: two actions acknowledged at step {step}")
            for step, action in game.acked.items():
                if step >= len(stored.actions) or stored.actions[step] != action:
                    tally.lost += 1
                    tally.problems.append(f"{game.id}: acknowledged step {step} lost")
            config = GameConfig(stored.game, stored.players, stored.seed, stored.options)
            try:
                state = GameRecord(config=config, actions=tuple(stored.actions)).replay()
            except Exception as err:
                tally.inconsistent += 1
                tally.problems.append(f"{game.id}: does not replay: {err}")
                continue
            over = state.is_terminal()
            expected = STATUS_FINISHED if over else STATUS_RUNNING
            outcome = state.outcome() if over else None
            if stored.status != expected or (
                over and stored.outcome != (outcome.to_json() if outcome else None)
            ):
                tally.inconsistent += 1
                tally.problems.append(f"{game.id}: stored {stored.status}, replays over={over}")
            game.done = over
    finally:
        store.close()


def soak(db: str, cycles: int, games_at_once: int = 12, seed: int = 1, processes: int = 1) -> Tally:
    """Run ``cycles`` kill-and-restart cycles over ``db`` with ``processes`` server
    processes at once; returns the tally."""
    rng = random.Random(seed)
    tally = Tally()
    live: list[SoakGame] = []
    every: list[SoakGame] = []
    extra = ("--lease-time", "1") if processes > 1 else ()
    for _ in range(cycles):
        servers = [ServerProcess(db, 0.0, *extra) for _ in range(processes)]
        try:
            for server in servers:
                tally.restart_seconds.append(server.start())

            async def cycle(srvs: list[ServerProcess] = servers) -> None:
                while len(live) < games_at_once:
                    game = await _create(rng.choice(srvs).base, rng)
                    live.append(game)
                    every.append(game)
                tasks = [
                    asyncio.create_task(_play(srv.base, g, random.Random(rng.random())))
                    for g in live
                    for srv in srvs
                ]
                for srv in rng.sample(srvs, len(srvs)):
                    await asyncio.sleep(rng.uniform(0.2, 1.5))
                    srv.kill()  # SIGKILL mid-play, while actions are in flight
                await asyncio.gather(*tasks, return_exceptions=True)

            asyncio.run(cycle())
        finally:
            for server in servers:
                server.kill()
        check(db, live, tally)
        live[:] = [g for g in live if not g.done]
        tally.cycles += 1
    tally.games = len(every)
    tally.acknowledged = sum(len(g.acked) for g in every)
    check_all = Tally()
    check(db, every, check_all)  # the final state of every game ever played
    tally.lost = max(tally.lost, check_all.lost)
    tally.inconsistent = max(tally.inconsistent, check_all.inconsistent)
    tally.problems += check_all.problems
    return tally


def report(name: str, tally: Tally, processes: int = 1) -> dict[str, Any]:
    return {
        "database": name,
        "processes": processes,
        "cycles": tally.cycles,
        "games": tally.games,
        "acknowledged_moves": tally.acknowledged,
        "lost": tally.lost,
        "inconsistent": tally.inconsistent,
        "restart_s_max": round(max(tally.restart_seconds, default=0.0), 2),
        "problems": tally.problems[:10],
    }


def _postgres() -> Any:
    """A throwaway PostgreSQL cluster (the one the tests start)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "server"))
    from pgcluster import temp_postgres

    return temp_postgres()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=25)
    parser.add_argument("--games", type=int, default=12, help="games in play at once")
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--processes", type=int, default=1, help="server processes at once (PostgreSQL)"
    )
    args = parser.parse_args()
    if args.processes > 1 and args.db != "postgres":
        parser.error("--processes > 1 needs --db postgres")
    failed = False
    if args.db in ("sqlite", "both"):
        with tempfile.TemporaryDirectory(prefix="kingdoms-soak-") as tmp:
            tally = soak(f"sqlite:///{tmp}/soak.sqlite", args.cycles, args.games, args.seed)
            out = report("sqlite", tally)
            print(json.dumps(out), flush=True)
            failed |= bool(out["lost"] or out["inconsistent"])
    if args.db in ("postgres", "both"):
        with _postgres() as url:
            tally = soak(url, args.cycles, args.games, args.seed, args.processes)
            out = report("postgres", tally, args.processes)
            print(json.dumps(out), flush=True)
            failed |= bool(out["lost"] or out["inconsistent"])
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
