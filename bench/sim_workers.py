"""Benchmark: the simulator's scaling with local worker processes, in one run.

The same simulation (same seed, so the same games) runs with ``--workers 1`` and
then with ``--workers N``; the last line printed is ``ratio: X`` (games/s with N
workers divided by games/s with one).  Results are checked to be identical::

    .venv/bin/python bench/sim_workers.py --games 2000 --workers 2

The ratio is only meaningful on an otherwise idle machine: the load average is
printed next to it, and so are the CPU seconds per game and the cores the run
actually got (CPU time / wall time).  On a busy Linux machine with session
autogroups the run gets one session's share of the CPU however many processes
it starts; then equal CPU seconds per game in both modes show the parallel part
costs nothing extra, while the wall-clock ratio stays near 1.
"""

from __future__ import annotations

import argparse
import os
import resource
import time

from kingdoms.sim import simulate


def _cpu() -> float:
    """CPU seconds of this process and its finished worker processes."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        r = resource.getrusage(who)
        total += r.ru_utime + r.ru_stime
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--bots", default="smithy,big-money-ultimate")
    parser.add_argument("--kingdom", default="First Game")
    args = parser.parse_args()
    bots = args.bots.split(",")
    options = {"kingdom": args.kingdom}
    rates = []
    reports = []
    for workers in (1, args.workers):
        cpu0 = _cpu()
        start = time.perf_counter()
        report = simulate("dominion", bots, args.games, seed=1, options=options, workers=workers)
        seconds = time.perf_counter() - start
        cpu = _cpu() - cpu0
        rates.append(args.games / seconds)
        reports.append(report)
        print(
            f"workers={workers}: {args.games} games in {seconds:.2f}s = {rates[-1]:.1f} games/s; "
            f"{1000 * cpu / args.games:.2f} CPU ms/game; cores used {cpu / seconds:.2f}"
        )
    if reports[0].results != reports[1].results:
        raise SystemExit("results differ between worker counts")
    print(f"cores: {os.cpu_count()}; load average: {os.getloadavg()[0]:.2f}")
    print(f"ratio: {rates[1] / rates[0]:.2f}")


if __name__ == "__main__":
    main()
