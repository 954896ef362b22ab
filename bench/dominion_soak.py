"""Soak: Dominion card conservation over many random games (``make soak``).

Each game draws its own setup from its seed (random kingdoms from every set with
Possession, Golem and the trashers often, 2–6 players, both editions and errata
settings, random and default-policy seats) and checks after every action that every
card is in exactly one place and each card's total never changes
(:mod:`kingdoms.bots.dominion.soak`)::

    .venv/bin/python bench/dominion_soak.py --games 100000 --workers 2

Prints progress, the failing seeds (replay one with ``--seed0 S --games 1``) and a
last line ``games: N violations: V`` (``--seconds`` stops early at a time limit).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

from kingdoms.bots.dominion.soak import play_soak_game

Batch = tuple[int, int, int, int, list[str]]  # games, violations, possessions, golems, notes


def run_batch(seeds: range) -> Batch:
    games = bad = possessions = golems = 0
    notes: list[str] = []
    for seed in seeds:
        r = play_soak_game(seed)
        games += 1
        possessions += r.possessions > 0
        golems += r.golems > 0
        if r.violations or not r.ended:
            bad += 1
            why = r.violations[0] if r.violations else "did not end"
            notes.append(f"seed {seed} ({r.players} players, {r.options}): {why}")
    return games, bad, possessions, golems, notes


def batches(seed0: int, games: int, size: int) -> Iterator[range]:
    for start in range(seed0, seed0 + games, size):
        yield range(start, min(start + size, seed0 + games))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--seed0", type=int, default=0)
    ap.add_argument("--batch", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=0.0, help="stop after this long (0: never)")
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    total = [0, 0, 0, 0]
    todo = batches(args.seed0, args.games, args.batch)
    next_report = t0 + 30
    with ProcessPoolExecutor(max_workers=max(args.workers, 1)) as pool:
        running: set[Future[Batch]] = set()

        def refill() -> None:
            while len(running) < 2 * max(args.workers, 1):
                chunk = next(todo, None)
                if chunk is None:
                    return
                running.add(pool.submit(run_batch, chunk))

        refill()
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for fut in done:
                running.discard(fut)
                games, bad, possessions, golems, notes = fut.result()
                for i, v in enumerate((games, bad, possessions, golems)):
                    total[i] += v
                for note in notes:
                    print("VIOLATION", note, flush=True)
            now = time.monotonic()
            if now >= next_report:
                rate = total[0] / (now - t0)
                print(
                    f"... {total[0]} games, {total[1]} violations ({rate:.0f} games/s)", flush=True
                )
                next_report = now + 30
            if args.seconds and now - t0 >= args.seconds:
                for fut in running:
                    fut.cancel()
                todo = iter(())
                for fut in running:
                    if not fut.cancelled():
                        games, bad, possessions, golems, notes = fut.result()
                        for i, v in enumerate((games, bad, possessions, golems)):
                            total[i] += v
                        for note in notes:
                            print("VIOLATION", note, flush=True)
                running.clear()
            else:
                refill()
    elapsed = time.monotonic() - t0
    print(
        f"games with Possession played: {total[2]}, with Golem played: {total[3]}, "
        f"{elapsed:.0f} s with {args.workers} workers"
    )
    print(f"games: {total[0]} violations: {total[1]}")
    return 1 if total[1] else 0


if __name__ == "__main__":
    sys.exit(main())
