"""Reviews never delay play: a bot's move latency with reviews running flat out,
against the same with no review, in one run.

One game of a person against a search bot (``--bot``, a fixed number of iterations so
every move costs the same) is played on an in-process game master over SQLite; the
person answers after ``--think`` seconds (when the reviews run) with a random legal
action, and each bot move's latency is the
wall time from the person's action to the bot's answer reaching the person's
connection.  Other finished games (``--games``, Kingdomino between greedy bots) are
meanwhile reviewed by the server's review service, at the server's own budget per
decision (``SERVER_BUDGET``) and ``--review-workers`` processes — as ``kingdoms
serve`` runs them.  Phases with and without reviews alternate (``--rounds`` of each,
``--moves`` bot moves per phase) so that the machine's other load falls on both alike;
the ratios of the medians and of the 99th percentiles (with / without) are the result
(the goal: at most 1.5 and 2).  The CPU the review processes used while play went on
is reported too, to show they did run flat out between the bot's moves.

    python bench/review_isolation.py
    python bench/review_isolation.py --bot mcts:iterations=40 --moves 30 --rounds 2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from kingdoms.bots.base import make_bot
from kingdoms.core.runner import run_game
from kingdoms.review import Budget
from kingdoms.server.limits import ServerLimits
from kingdoms.server.master import GameMaster
from kingdoms.server.review import SERVER_BUDGET, ReviewService
from kingdoms.server.storage import STATUS_FINISHED, Storage, StoredGame
from kingdoms.server.table import hash_token


def _store_finished(storage: Storage, count: int) -> list[str]:
    ids = []
    for seed in range(count):
        state = run_game("kingdomino", [make_bot("kingdomino", "greedy")] * 2, seed=seed)
        outcome = state.outcome()
        seats = [
            {"kind": "human", "name": f"P{i}", "token_hash": hash_token(f"t{seed}-{i}")}
            for i in range(2)
        ]
        game_id = f"done{seed}"
        storage.create_game(
            StoredGame(
                id=game_id, game="kingdomino", players=2, seed=seed,
                options=dict(state.config.options), seats=seats, status=STATUS_FINISHED,
                outcome=outcome.to_json() if outcome else None, actions=list(state.history),
            )
        )  # fmt: skip
        ids.append(game_id)
    return ids


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _bot_moves(
    master: GameMaster, bot: str, moves: int, seed: int, think: float
) -> list[float]:
    """Latencies (s) of ``moves`` bot moves in a fresh person-vs-bot game whose person
    thinks ``think`` seconds (the reviews' time to run) before each action."""
    out: list[float] = []
    rng = random.Random(seed)
    while len(out) < moves:
        seats = [{"kind": "human"}, {"kind": "bot", "bot": bot}]
        table, tokens = master.create_game("kingdomino", seats, seed=seed + len(out))
        mine = asyncio.Event()

        async def send(msg: dict[str, Any], mine: asyncio.Event = mine) -> None:
            if msg.get("type") == "state" and (msg["finished"] or msg["legal"]):
                mine.set()

        await master.subscribe(table.id, [t for t in tokens if t], send)
        while len(out) < moves:
            await mine.wait()
            mine.clear()
            state = table.state
            if table.finished:
                break
            action = rng.choice(state.legal_actions())
            await asyncio.sleep(think)
            began = time.perf_counter()
            await master.act(table, (0,), {"action": action, "state_id": state.step})
            if table.state.current_player == 1:  # the bot's turn: wait for its answer
                await mine.wait()
                mine.clear()
                out.append(time.perf_counter() - began)
                mine.set()  # our turn (or the end) is here already
            else:
                mine.set()
    return out


async def _under_way(service: ReviewService, games: list[str]) -> None:
    """Wait for the event: the review processes are up and have stored a first step."""
    while True:
        if service.gate.pids:
            for game_id in games:
                stored = await asyncio.to_thread(service.store.get, game_id)
                if stored and stored["decisions"]:
                    return
        await asyncio.sleep(0.05)


def _review_cpu(service: ReviewService) -> float:
    """CPU seconds (user + system) used so far by the review processes alive."""
    total = 0.0
    tick = 100.0
    for pid in list(service.gate.pids):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


async def _run(
    bot: str, moves: int, rounds: int, games: int, workers: int, budget: Budget, think: float
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        storage = Storage(f"sqlite:///{tmp}/bench.sqlite")
        finished = _store_finished(storage, games)
        limits = ServerLimits(bot_workers=2, review_workers=workers, review_queue=games)
        master = GameMaster(storage, bot_delay=0, limits=limits, expire_after=None)
        await master.start(resume=False)
        service = ReviewService(master, budget, workers=workers, max_queue=games)
        await service.start()
        quiet: list[float] = []
        busy: list[float] = []
        review_cpu = 0.0
        try:
            for game_id in finished:
                await service.request(await master.fetch(game_id), f"client-{game_id}")
            await _under_way(service, finished)
            listeners = master.bot_pool.listeners
            for r in range(rounds):
                # the peer phase: every review process stopped throughout (no review runs)
                listeners.remove(service.gate.update)
                service.gate.update(True)
                quiet += await _bot_moves(master, bot, moves, 1000 * r, think)
                listeners.append(service.gate.update)
                service.gate.update(False)
                before = _review_cpu(service)
                busy += await _bot_moves(master, bot, moves, 1000 * r + 500, think)
                review_cpu += _review_cpu(service) - before
        finally:
            await service.stop()
            await master.stop()
            storage.close()
    q50, b50 = statistics.median(quiet), statistics.median(busy)
    q90, b90 = _percentile(quiet, 0.9), _percentile(busy, 0.9)
    q99, b99 = _percentile(quiet, 0.99), _percentile(busy, 0.99)
    return {
        "bot": bot,
        "bot_moves_each": len(quiet),
        "think_seconds": think,
        "review_workers": workers,
        "reviews_queued": games,
        "review_cpu_seconds_during_play": round(review_cpu, 2),
        "no_reviews_ms_p50": round(q50 * 1000, 1),
        "no_reviews_ms_p99": round(q99 * 1000, 1),
        "reviews_ms_p50": round(b50 * 1000, 1),
        "reviews_ms_p99": round(b99 * 1000, 1),
        "ratio_p50": round(b50 / q50, 3),
        "ratio_p90": round(b90 / q90, 3),
        "ratio_p99": round(b99 / q99, 3),
    }


def run_bench(
    bot: str = "mcts:iterations=40",
    moves: int = 30,
    rounds: int = 2,
    games: int = 6,
    workers: int = 2,
    budget: Budget = SERVER_BUDGET,
    think: float = 0.2,
) -> dict[str, Any]:
    return asyncio.run(_run(bot, moves, rounds, games, workers, budget, think))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="mcts:iterations=40")
    parser.add_argument("--moves", type=int, default=30, help="bot moves per phase")
    parser.add_argument("--rounds", type=int, default=2, help="phases of each kind")
    parser.add_argument("--games", type=int, default=6, help="finished games to review")
    parser.add_argument("--review-workers", type=int, default=2)
    parser.add_argument("--think", type=float, default=0.2, help="the person's pause (s)")
    args = parser.parse_args()
    report = run_bench(
        args.bot, args.moves, args.rounds, args.games, args.review_workers, think=args.think
    )
    print(
        "peers: the same person-vs-bot play with no review, alternating in this run; "
        "server parts in-process as kingdoms serve runs them (SQLite, reviews in "
        "nice-19 processes at SERVER_BUDGET)"
    )
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
