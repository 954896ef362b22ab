"""Load benchmark for the web server: many games played at once over WebSockets.

Starts the app with uvicorn in this process (its own thread) over a fresh
database, creates ``--games`` games with every seat human, and plays each one
from a client that holds all its seats (hot-seat protocol), picking random
legal actions.  Reports actions per second, the latency from sending an
action to receiving its acknowledgement (which comes after it is stored) at the
50th/95th/99th percentiles, and the server process's memory per open game
(resident memory grown while the games are created and their sockets opened,
divided by the number of games).

    python bench/server_load.py --game dominion --games 200 --actions 100
    python bench/server_load.py --game kingdomino --games 200
    python bench/server_load.py --db postgresql+psycopg://user@host/db
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import uvicorn
import websockets

from kingdoms.server.app import create_app


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _play(
    base: str, game: dict[str, Any], max_actions: int, seed: int, think: float = 0.0
) -> list[float]:
    rng = random.Random(seed)
    tokens = [s["token"] for s in game["seats"] if "token" in s]
    latencies: list[float] = []
    uri = base.replace("http", "ws", 1) + f"/ws/{game['id']}"
    async with websockets.connect(uri, max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "tokens": tokens}))
        latest: dict[int, dict[str, Any]] = {}
        sent_at = 0.0
        waiting = False
        while len(latencies) < max_actions:
            msg = json.loads(await ws.recv())
            if msg["type"] == "state":
                latest[msg["seat"]] = msg
            elif msg["type"] == "ack":
                latencies.append(time.perf_counter() - sent_at)
                waiting = False
            elif msg["type"] == "error":
                raise RuntimeError(msg["message"])
            if waiting or not latest:
                continue
            any_state = next(iter(latest.values()))
            if any_state["finished"]:
                break
            seat = any_state["current_player"]
            st = latest.get(seat)
            if st is None or st["state_id"] != any_state["state_id"] or not st["legal"]:
                continue
            choice = st["legal"][rng.randrange(len(st["legal"]))]["action"]
            if think:
                # a bot's visible pause (random, so that games do not move in lockstep)
                await asyncio.sleep(think * (0.5 + rng.random()))
            sent_at = time.perf_counter()
            waiting = True
            await ws.send(
                json.dumps(
                    {"type": "action", "action": choice, "state_id": st["state_id"], "seat": seat}
                )
            )
    return latencies


def rss_mb() -> float:
    """Resident memory of this process in MB (Linux)."""
    with open("/proc/self/statm") as fh:
        pages = int(fh.read().split()[1])
    return pages * 4096 / 2**20


async def _run(
    base: str, game: str, games: int, players: int, max_actions: int, think: float = 0.0
) -> dict[str, Any]:
    before = rss_mb()
    async with httpx.AsyncClient(base_url=base) as http:
        created = []
        for _ in range(games):
            res = await http.post("/api/games", json={"game": game, "players": players})
            res.raise_for_status()
            created.append(res.json())
    start = time.perf_counter()
    results = await asyncio.gather(
        *(_play(base, g, max_actions, i, think) for i, g in enumerate(created))
    )
    wall = time.perf_counter() - start
    peak = rss_mb()
    lat = sorted(x for r in results for x in r)
    if not lat:
        raise RuntimeError("no action was played")
    return {
        "games": games,
        "actions": len(lat),
        "seconds": round(wall, 3),
        "actions_per_second": round(len(lat) / wall, 1),
        "latency_ms_p50": round(1000 * statistics.median(lat), 2),
        "latency_ms_p95": round(1000 * lat[int(0.95 * (len(lat) - 1))], 2),
        "latency_ms_p99": round(1000 * lat[int(0.99 * (len(lat) - 1))], 2),
        "latency_ms_max": round(1000 * lat[-1], 2),
        "memory_mb_per_game": round((peak - before) / games, 3),
    }


def run_bench(
    game: str,
    games: int = 20,
    players: int = 2,
    max_actions: int = 200,
    db: str | None = None,
    think: float = 0.0,
) -> dict[str, Any]:
    """Serve, play ``games`` games concurrently, stop; returns the measurements."""
    tmp = tempfile.TemporaryDirectory(prefix="kingdoms-bench-")
    url = db or f"sqlite:///{Path(tmp.name) / 'bench.sqlite'}"
    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(url, bot_delay=0, message_rate=None),
            host="127.0.0.1",
            port=port,
            log_level="warning",
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(500):
            if server.started:
                break
            time.sleep(0.01)
        report = asyncio.run(
            _run(f"http://127.0.0.1:{port}", game, games, players, max_actions, think)
        )
        report.update(game=game, players=players, database=url.split(":", 1)[0], think=think)
        return report
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        tmp.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="kingdomino")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--actions", type=int, default=200, help="most actions per game")
    parser.add_argument("--db", default=None, help="database URL (default: a temp SQLite file)")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean pause before each action, seconds (0: as fast as possible, saturating)",
    )
    args = parser.parse_args()
    report = run_bench(args.game, args.games, args.players, args.actions, args.db, args.think)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
