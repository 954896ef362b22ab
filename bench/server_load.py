"""Load benchmark for the web server: many games played at once over WebSockets.

Starts the server over a fresh database — by default ``kingdoms serve`` as its
own process (``--in-process``: uvicorn in a thread of this one) — creates
``--games`` games with every seat human, and plays each one from a client that
holds all its seats (hot-seat protocol), picking random legal actions after a
random pause around ``--think`` seconds, as people would.  Reports actions per
second, the latency from sending an action to receiving its acknowledgement
(which comes after it is stored) at the 50th/95th/99th percentiles, the errors
(refused actions, dropped connections) and the server's memory (resident and
peak; per open game when in-process).

    python bench/server_load.py --game kingdomino --games 50,200,500 --think 0.5
    python bench/server_load.py --game dominion --games 200 --actions 100
    python bench/server_load.py --db postgresql+psycopg://user@host/db

Every run with the server in its own process also reports the server's CPU time
per move (user + system, read from ``/proc/<pid>/stat`` of the server and its
worker processes — not the load generator's), for both games:

    python bench/server_load.py --game dominion --games 50 --think 0.05
    python bench/server_load.py --game kingdomino --games 50 --think 0.05

``--spectators 1000`` opens that many spectator connections on the first game
(each reads everything it is sent) and reports that game's move latency apart
(``watched_latency_ms_p50``/``p99``):

    python bench/server_load.py --game dominion --games 1 --spectators 1000 --think 0.2

``--processes 1,2`` runs the same load against ``kingdoms serve --workers 1`` and
``--workers 2`` over one PostgreSQL database (``--db``, or a throwaway cluster
like the tests' one), each run on fresh tables, and prints the ratio of the
second to the first (moves per second, p50, p99), measured in the same run:

    python bench/server_load.py --processes 1,2 --games 200 --think 0.05

``--baseline OTHER/src`` serves the same load from another source tree (an older
checkout, say) and from this one, alternately ``--rounds`` times, and prints the
ratio of the server's CPU per move (this one / the baseline), measured in one run;
every report says the build (``compiled``/``pure``) and source tree the server ran:

    python bench/server_load.py --game dominion --games 20 --think 0.05 --actions 100 \\
        --baseline /path/to/older/checkout/src --rounds 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import uvicorn
import websockets

from kingdoms.server.app import create_app

ERRORS: list[str] = []
"""What went wrong in the games of the current run (reported by kind)."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _play(
    base: str, game: dict[str, Any], max_actions: int, seed: int, think: float = 0.0
) -> tuple[list[float], int]:
    """Play one game; returns the acknowledgement latencies and the number of errors."""
    latencies: list[float] = []
    try:
        return await _play_inner(base, game, max_actions, seed, think, latencies), 0
    except Exception as err:  # every failure counts, whatever its kind
        ERRORS.append(f"{type(err).__name__}: {err}"[:120])
        return latencies, 1


async def _play_inner(
    base: str,
    game: dict[str, Any],
    max_actions: int,
    seed: int,
    think: float,
    latencies: list[float],
) -> list[float]:
    rng = random.Random(seed)
    tokens = [s["token"] for s in game["seats"] if "token" in s]
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


def _kinds(errors: list[str], most: int = 8) -> dict[str, int]:
    """How many games ended on each kind of error (digits blurred: one kind per cause)."""
    counts: dict[str, int] = {}
    for err in errors:
        kind = re.sub(r"\d+", "N", err)
        counts[kind] = counts.get(kind, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: -kv[1])[:most])


def rss_mb(pid: int | str = "self") -> float:
    """Resident memory of a process in MB (Linux)."""
    with open(f"/proc/{pid}/statm") as fh:
        pages = int(fh.read().split()[1])
    return pages * 4096 / 2**20


def tree_rss_mb(pid: int | str = "self") -> float:
    """Resident memory of a process and its children (the workers) in MB (Linux)."""
    real = os.getpid() if pid == "self" else int(pid)
    total = rss_mb(real)
    try:
        with open(f"/proc/{real}/task/{real}/children") as fh:
            kids = fh.read().split()
    except OSError:
        kids = []
    for kid in kids:
        try:
            total += rss_mb(kid)
        except OSError:
            continue
    return total


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as fh:
            return [int(k) for k in fh.read().split()]
    except OSError:
        return []


def tree_cpu_seconds(pid: int | str = "self") -> float:
    """CPU time (user + system) of a process and its children (the workers), in
    seconds, from ``/proc/<pid>/stat`` (Linux).  Finished children are not counted:
    compare readings of the same live processes."""
    real = os.getpid() if pid == "self" else int(pid)
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for proc in (real, *_children(real)):
        try:
            with open(f"/proc/{proc}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


async def _spectate(base: str, game_id: str, connected: Any) -> None:
    """One spectator: says hello as a watcher and reads everything until stopped."""
    uri = base.replace("http", "ws", 1) + f"/ws/{game_id}"
    async with websockets.connect(uri, max_size=None, compression=None) as ws:
        await ws.send(json.dumps({"type": "hello", "watch": True}))
        first = json.loads(await ws.recv())
        if first.get("type") != "state":
            raise RuntimeError(f"spectator refused: {first}")
        with connected.get_lock():
            connected.value += 1
        async for _msg in ws:  # read, and drop
            pass


def _spectators(base: str, game_id: str, count: int, connected: Any) -> None:
    """A process of its own holding ``count`` spectators of ``game_id`` (so that their
    reading does not delay the players' clients in this one)."""

    async def main() -> None:
        tasks = []
        for _ in range(count):
            tasks.append(asyncio.create_task(_spectate(base, game_id, connected)))
            await asyncio.sleep(0.002)  # not all handshakes in one burst
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(main())


def peak_mb(pid: int | str = "self") -> float:
    """Peak resident memory of a process in MB (Linux)."""
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0.0


async def _run(
    base: str,
    game: str,
    games: int,
    players: int,
    max_actions: int,
    think: float = 0.0,
    pid: int | str = "self",
    spectators: int = 0,
) -> dict[str, Any]:
    ERRORS.clear()
    before = tree_rss_mb(pid)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        created = []
        for _ in range(games):
            res = await http.post("/api/games", json={"game": game, "players": players})
            res.raise_for_status()
            created.append(res.json())
    watchers = None
    connected = multiprocessing.get_context("fork").Value("i", 0)
    if spectators:
        watchers = multiprocessing.get_context("fork").Process(
            target=_spectators, args=(base, created[0]["id"], spectators, connected), daemon=True
        )
        watchers.start()
        for _ in range(1200):
            if connected.value >= spectators:
                break
            await asyncio.sleep(0.1)
    cpu_before = tree_cpu_seconds(pid)
    start = time.perf_counter()
    results = await asyncio.gather(
        *(_play(base, g, max_actions, i, think) for i, g in enumerate(created))
    )
    wall = time.perf_counter() - start
    cpu = tree_cpu_seconds(pid) - cpu_before
    watching = connected.value
    if watchers is not None:
        watchers.terminate()
        watchers.join(10)
    peak = tree_rss_mb(pid)
    lat = sorted(x for r, _ in results for x in r)
    errors = sum(e for _, e in results)
    if not lat:
        raise RuntimeError("no action was played")
    extra: dict[str, Any] = {}
    if pid != "self":  # the server alone (in-process, the clients would count too)
        extra["server_cpu_ms_per_move"] = round(1000 * cpu / len(lat), 3)
        extra["server_cpu_share"] = round(cpu / wall, 2)
    if spectators:
        watched = sorted(results[0][0])
        extra.update(
            spectators=spectators,
            spectators_connected=watching,
            watched_moves=len(watched),
            watched_latency_ms_p50=round(1000 * statistics.median(watched), 2),
            watched_latency_ms_p99=round(1000 * watched[int(0.99 * (len(watched) - 1))], 2),
        )
    return extra | {
        "games": games,
        "actions": len(lat),
        "seconds": round(wall, 3),
        "actions_per_second": round(len(lat) / wall, 1),
        "latency_ms_p50": round(1000 * statistics.median(lat), 2),
        "latency_ms_p95": round(1000 * lat[int(0.95 * (len(lat) - 1))], 2),
        "latency_ms_p99": round(1000 * lat[int(0.99 * (len(lat) - 1))], 2),
        "latency_ms_max": round(1000 * lat[-1], 2),
        "errors": errors,
        "error_kinds": _kinds(ERRORS),
        "server_rss_mb": round(peak, 1),
        "server_peak_mb": round(peak_mb(pid), 1),
        "memory_mb_per_game": round((peak - before) / games, 3),
    }


def run_bench(
    game: str,
    games: int = 20,
    players: int = 2,
    max_actions: int = 200,
    db: str | None = None,
    think: float = 0.0,
    in_process: bool = True,
    spectators: int = 0,
    server_log: str | None = None,
) -> dict[str, Any]:
    """Serve, play ``games`` games concurrently, stop; returns the measurements."""
    tmp = tempfile.TemporaryDirectory(prefix="kingdoms-bench-")
    url = db or f"sqlite:///{Path(tmp.name) / 'bench.sqlite'}"
    if not in_process:
        try:
            return _run_separate(
                url,
                game,
                games,
                players,
                max_actions,
                think,
                spectators=spectators,
                server_log=server_log,
            )
        finally:
            tmp.cleanup()
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
            _run(
                f"http://127.0.0.1:{port}",
                game,
                games,
                players,
                max_actions,
                think,
                spectators=spectators,
            )
        )
        report.update(game=game, players=players, database=url.split(":", 1)[0], think=think)
        return report
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        tmp.cleanup()


def _run_separate(
    url: str,
    game: str,
    games: int,
    players: int,
    max_actions: int,
    think: float,
    processes: int = 1,
    server_log: str | None = None,
    spectators: int = 0,
    source: str | None = None,
) -> dict[str, Any]:
    """The server as ``kingdoms serve`` in its own process (its memory measured alone);
    ``processes`` > 1: ``--workers`` on one port (memory: all of them); ``source``: a
    source tree (a checkout's ``src``) the server imports ``kingdoms`` from."""
    port = _free_port()
    workers = ["--workers", str(processes)] if processes > 1 else []
    kingdoms = Path(sys.executable).with_name("kingdoms")
    log_file: Any = subprocess.DEVNULL
    if server_log:
        log_file = open(server_log, "a")  # noqa: SIM115 (closed below)
    proc = subprocess.Popen(
        [
            str(kingdoms),
            "serve",
            "--port",
            str(port),
            "--db",
            url,
            "--bot-delay",
            "0",
            "--rate",
            "create=0",
            "--max-connections",
            str(4 * games + spectators + 100),
            "--max-connections-per-address",
            "0",  # every client of this bench comes from 127.0.0.1
            "--message-rate",
            "0",
            "--spectators-per-address",
            str(max(spectators, 16)),
            "--spectators-per-game",
            str(max(spectators, 1000)),
            *workers,
        ],
        stdout=subprocess.DEVNULL,
        stderr=log_file,
        env=_server_env(source),
        start_new_session=True,  # a server's own CPU share, apart from this load generator
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                if httpx.get(base + "/api/catalog", timeout=1).is_success:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        load_before = os.getloadavg()[0]
        report = asyncio.run(
            _run(base, game, games, players, max_actions, think, proc.pid, spectators)
        )
        report.update(
            build=_build_of(source),
            source=source or "installed",
            load_average=[round(load_before, 1), round(os.getloadavg()[0], 1)],
            game=game,
            players=players,
            database=url.split(":", 1)[0],
            think=think,
            server="process",
            processes=processes,
        )
        return report
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if log_file is not subprocess.DEVNULL:
            log_file.close()


def _server_env(source: str | None) -> dict[str, str]:
    env = dict(os.environ)
    if source:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (source, env.get("PYTHONPATH")) if p)
    return env


def _build_of(source: str | None) -> str:
    """Which build of the engine the server runs (``compiled`` or ``pure``)."""
    code = "from kingdoms._build import build_kind; print(build_kind())"
    out = subprocess.run(
        [sys.executable, "-c", code], env=_server_env(source), capture_output=True, text=True
    )
    return out.stdout.strip() or "unknown"


def ratio(new: float | None, base: float | None) -> float | None:
    """``new / base`` to two places; ``None`` when there is no base to divide by (for
    CPU: a run too short to use one 10 ms clock tick — run more ``--actions``).

    >>> ratio(0.9, 1.2), ratio(1.0, 0.0), ratio(None, 1.0)
    (0.75, None, None)
    """
    if new is None or not base:
        return None
    return round(new / base, 2)


def compare_sources(args: argparse.Namespace) -> None:
    """The same load against the server from two source trees (``--baseline`` first, then
    this one's), alternating ``--rounds`` times; prints each run and the ratios of
    server CPU per move and latency (this one / the baseline)."""
    here = str(Path(__file__).resolve().parents[1] / "src")
    for games in (int(n) for n in str(args.games).split(",")):
        pairs: list[list[dict[str, Any]]] = [[], []]
        for _round in range(args.rounds):
            for i, source in enumerate((args.baseline, here)):
                tmp = tempfile.TemporaryDirectory(prefix="kingdoms-bench-")
                try:
                    url = f"sqlite:///{Path(tmp.name) / 'bench.sqlite'}"
                    report = _run_separate(
                        url,
                        args.game,
                        games,
                        args.players,
                        args.actions,
                        args.think,
                        server_log=args.server_log,
                        source=source,
                    )
                finally:
                    tmp.cleanup()
                pairs[i].append(report)
                print(json.dumps(report), flush=True)
        base, new = (statistics.median(r["server_cpu_ms_per_move"] for r in p) for p in pairs)
        p50 = [statistics.median(r["latency_ms_p50"] for r in p) for p in pairs]
        print(
            json.dumps(
                {
                    "compare": "this tree / baseline (medians over the rounds)",
                    "games": games,
                    "server_cpu_ms_per_move": [round(base, 3), round(new, 3)],
                    "cpu_ratio": ratio(new, base),
                    "p50_ratio": ratio(p50[1], p50[0]),
                }
            ),
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="kingdomino")
    parser.add_argument("--games", default="20", help="concurrent games; several runs: 50,200,500")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--actions", type=int, default=200, help="most actions per game")
    parser.add_argument("--db", default=None, help="database URL (default: a temp SQLite file)")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean pause before each action, seconds (0: as fast as possible, saturating)",
    )
    parser.add_argument(
        "--in-process", action="store_true", help="run the server in a thread of this process"
    )
    parser.add_argument(
        "--processes",
        default=None,
        help="server processes on PostgreSQL, compared in one run: 1,2 (kingdoms serve --workers)",
    )
    parser.add_argument(
        "--rounds", type=int, default=1, help="with --processes: runs of each, alternating"
    )
    parser.add_argument("--server-log", default=None, help="append the servers' stderr here")
    parser.add_argument(
        "--spectators",
        type=int,
        default=0,
        help="spectator connections on the first game (its move latency is reported apart)",
    )
    parser.add_argument(
        "--baseline",
        default=None,
        help="another source tree (a checkout's src): its server and this one's, alternately "
        "(--rounds times, SQLite, own process), with the ratio of CPU per move",
    )
    args = parser.parse_args()
    if args.baseline:
        compare_sources(args)
        return
    if args.processes:
        compare_processes(args)
        return
    for games in (int(n) for n in str(args.games).split(",")):
        report = run_bench(
            args.game,
            games,
            args.players,
            args.actions,
            args.db,
            args.think,
            in_process=args.in_process,
            spectators=args.spectators,
            server_log=args.server_log,
        )
        print(json.dumps(report), flush=True)


def _postgres() -> Any:
    """A throwaway PostgreSQL cluster (the one the tests start)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "server"))
    from pgcluster import temp_postgres

    return temp_postgres()


def compare_processes(args: argparse.Namespace) -> None:
    """The same load against 1, 2… server processes on one PostgreSQL database."""
    import contextlib

    from kingdoms.server.storage import Storage, metadata

    counts = [int(n) for n in str(args.processes).split(",")]
    with contextlib.ExitStack() as stack:
        url = args.db or stack.enter_context(_postgres())
        for games in (int(n) for n in str(args.games).split(",")):
            for _round in range(args.rounds):
                reports = []
                for n in counts:  # alternating, so the machine's load hits each alike
                    store = Storage(url)  # fresh tables for each run
                    metadata.drop_all(store.engine)
                    store.close()
                    report = _run_separate(
                        url,
                        args.game,
                        games,
                        args.players,
                        args.actions,
                        args.think,
                        n,
                        server_log=args.server_log,
                        spectators=args.spectators,
                    )
                    reports.append(report)
                    print(json.dumps(report), flush=True)
                _print_ratios(counts, reports)


def _print_ratios(counts: list[int], reports: list[dict[str, Any]]) -> None:
    base = reports[0]
    for n, report in zip(counts[1:], reports[1:], strict=True):
        ratios = {
            "compare": f"{n} processes / {counts[0]}",
            "games": base["games"],
            "moves_per_second": ratio(report["actions_per_second"], base["actions_per_second"]),
            "p50": ratio(report["latency_ms_p50"], base["latency_ms_p50"]),
            "p99": ratio(report["latency_ms_p99"], base["latency_ms_p99"]),
            "errors": [base["errors"], report["errors"]],
            "server_cpu_ms_per_move": [
                base.get("server_cpu_ms_per_move"),
                report.get("server_cpu_ms_per_move"),
            ],
        }
        print(json.dumps(ratios), flush=True)


if __name__ == "__main__":
    main()
