"""Benchmark: 2-player Big Money mirror, kingdoms vs pyminion 0.4.0, in one run.

Both engines run in this process (one core), one after the other, each for the
same wall-clock budget::

    .venv/bin/python bench/dominion_bigmoney.py --seconds 10

The kingdoms side goes through the public API only: ``new_game`` + the
``big-money`` bot + ``play_out`` with logging off.  The last line printed is
``ratio: X`` (kingdoms games/s divided by pyminion games/s).

``--profile`` runs the kingdoms side under cProfile and prints the top costs.
"""

from __future__ import annotations

import argparse
import cProfile
import logging
import pstats
import random
import sys
import time
from collections.abc import Callable


def kingdoms_runner(seed0: int) -> Callable[[int], None]:
    from kingdoms.bots import make_bot
    from kingdoms.core import new_game
    from kingdoms.core.runner import play_out, seat_rngs

    bots = [make_bot("dominion", "big-money"), make_bot("dominion", "big-money")]

    def one(i: int) -> None:
        seed = seed0 + i
        state = new_game("dominion", players=2, seed=seed, options={"kingdom": "First Game"})
        state.logging = False
        play_out(state, bots, seat_rngs(seed, 2))
        if not state.is_terminal():  # pragma: no cover - play_out raises instead
            raise RuntimeError("game did not end")

    return one


def pyminion_runner(seed0: int) -> Callable[[int], None]:
    # pyminion logs through the root logger; keep it quiet without adding handlers
    # that print (a NullHandler stops logging.info() from calling basicConfig()).
    root = logging.getLogger()
    if not root.handlers:
        root.addHandler(logging.NullHandler())
    root.setLevel(logging.WARNING)
    from pyminion.bots.examples import BigMoney
    from pyminion.expansions.base import base_set
    from pyminion.game import Game

    def one(i: int) -> None:
        random.seed(seed0 + i)  # pyminion shuffles with the global generator
        players = [BigMoney(player_id="bm1"), BigMoney(player_id="bm2")]
        game = Game(players=players, expansions=[base_set], log_stdout=False, log_file=False)
        game.play()

    return one


def measure(run_one: Callable[[int], None], seconds: float) -> tuple[int, float]:
    """Games played and elapsed time: whole games until ``seconds`` have passed."""
    run_one(0)  # warm up (imports, caches)
    games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        run_one(games + 1)
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            return games, now - start


def measure_interleaved(
    runners: list[Callable[[int], None]], seconds: float, slice_s: float = 0.25
) -> list[tuple[int, float]]:
    """Like :func:`measure` for several engines, alternating short time slices so
    that a change in machine load affects every engine alike."""
    for run_one in runners:
        run_one(0)
    games = [0] * len(runners)
    spent = [0.0] * len(runners)
    while min(spent) < seconds:
        for i, run_one in enumerate(runners):
            if spent[i] >= seconds:
                continue
            start = time.perf_counter()
            end = start + min(slice_s, seconds - spent[i])
            while True:
                run_one(games[i] + 1)
                games[i] += 1
                now = time.perf_counter()
                if now >= end:
                    break
            spent[i] += now - start
    return list(zip(games, spent, strict=True))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="time budget per engine")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="cProfile the kingdoms side")
    parser.add_argument("--top", type=int, default=25, help="rows of the profile to print")
    args = parser.parse_args(argv)

    ours = kingdoms_runner(args.seed)
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        n, elapsed = measure(ours, args.seconds)
        prof.disable()
        print(f"kingdoms (profiled): {n} games in {elapsed:.2f}s")
        stats = pstats.Stats(prof, stream=sys.stdout)
        stats.sort_stats("tottime").print_stats(args.top)
        stats.sort_stats("cumulative").print_stats(args.top)
        return 0

    try:
        theirs = pyminion_runner(args.seed)
    except ImportError as err:
        print(f"pyminion not installed ({err}); install the 'bench' extra")
        return 1
    (n_ours, t_ours), (n_theirs, t_theirs) = measure_interleaved([ours, theirs], args.seconds)
    rate_ours = n_ours / t_ours
    rate_theirs = n_theirs / t_theirs
    print(f"kingdoms big-money mirror: {n_ours} games in {t_ours:.2f}s = {rate_ours:.1f} games/s")
    print(
        f"pyminion 0.4.0 BigMoney mirror: {n_theirs} games in {t_theirs:.2f}s "
        f"= {rate_theirs:.1f} games/s"
    )
    print(f"ratio: {rate_ours / rate_theirs:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
