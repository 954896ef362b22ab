"""Benchmark: does the game review flag real mistakes?

Plays games between ``big-money-ultimate`` and a weakened copy that, at each buy, with
probability ``--noise`` buys a random affordable card (or nothing), reviews every game
and reports the *precision* (share of the flagged decisions that are the weakened bot's
random buys) and the *recall* (share of those random buys flagged)::

    nice -n 10 .venv/bin/python bench/review_precision.py --games 200 --budget iterations=60,width=3
    nice .venv/bin/python bench/review_precision.py --games 60 --budget iterations=100,width=3
    .venv/bin/python bench/review_precision.py --kingdom random      # each seed's random kingdom

The default kingdom holds none of the cards of the bundled strategies (its Workshop
became a Harbinger: with Gardens it made ``workshop-gardens``, which beats Big Money)
nor one that helps Big Money much, so the search's rollouts play Big Money there and
``big-money-ultimate`` is the plan it knows best; on random kingdoms
(``--kingdom random``) the review also flags ``big-money-ultimate`` itself where a
Witch or a Smithy would have been better.
The last line printed is ``precision: X``.
"""

from __future__ import annotations

import argparse
import time

from kingdoms.review import Budget, default_workers
from kingdoms.review.precision import MONEY_KINGDOM, GameCount, Totals, measure


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--noise", type=float, default=0.15)
    parser.add_argument("--budget", default="iterations=60,width=3")
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--kingdom", default="money", help="money (default) or random")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--backend", default="local", help="local (processes) or ray")
    parser.add_argument("--address", default=None, help="a Ray cluster (with --backend ray)")
    args = parser.parse_args()
    budget = Budget.parse(args.budget)
    options = None if args.kingdom == "random" else {"kingdom": MONEY_KINGDOM}
    started = time.perf_counter()

    def each(totals: Totals, game: GameCount) -> None:
        randoms = set(game.random_buys)
        marks = ["R" if s in randoms else ("s" if seat != game.noisy_seat else "n")
                 for s, seat in game.flagged]  # fmt: skip
        print(f"game {game.seed}: {len(randoms)} random buys, flagged {''.join(marks) or '-'}"
              f" | {totals.line()}", flush=True)  # fmt: skip

    seeds = range(args.seed, args.seed + args.games)
    totals = measure(
        seeds, args.noise, budget, args.workers, options, each, args.backend, args.address
    )
    print(totals.line())
    print(f"wall: {time.perf_counter() - started:.0f} s, budget {budget.to_json()}")
    print(f"precision: {totals.precision:.3f}")


if __name__ == "__main__":
    main()
