"""Differential soak: the native Dominion core against the Python engine (``make soak-native``).

Each seed draws a game (2–6 players, each seat a bundled strategy, a kingdom holding
the cards their buy rules name filled at random from every set, either edition) and
plays it twice from the same state: on the native core and on the Python engine, the
reference (:func:`kingdoms.bots.dominion.native.differential_game`).  The two must be
the same game: the same history and the same final state (zones, supply, turns, the
random generator...).  A game the native core cannot play (a card whose steps are
not native, a condition it does not read) is counted as a fallback::

    .venv/bin/python bench/dominion_native_soak.py --games 100000 --workers 2

``--rollouts`` plays instead the search's rollouts from seeded random mid-game states
of random kingdoms (:func:`kingdoms.bots.dominion.native.differential_rollout`): the
native core's part of each rollout against the Python engine's whole rollout.

The last line is ``games: N native: M differences: D`` (D must be 0; each difference
is printed with its seed: replay it with ``--seed0 S --games 1``).  Needs the
compiled build (the native core is a Cython extension).
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from kingdoms.bots.dominion import native as native_module
from kingdoms.bots.dominion.native import available, differential_game, differential_rollout
from kingdoms.dominion import actions as A
from kingdoms.dominion.data import CARDS, NUM_CARDS


def run_batch(
    seeds: range, rollouts: bool = False
) -> tuple[int, int, list[str], collections.Counter[str]]:
    """The seeds' games (or rollouts): how many, how many native, the differences and,
    for whole games, the Action cards played in the native games (plays per card)."""
    played = 0
    diffs: list[str] = []
    plays: collections.Counter[str] = collections.Counter()
    check = differential_rollout if rollouts else differential_game
    real = native_module.play_state

    def counted(state: Any, bots: Any, max_steps: int) -> bool:
        done = real(state, bots, max_steps)
        if done:
            for x in state.history:
                if x // NUM_CARDS == A.PLAY:
                    plays[CARDS[x % NUM_CARDS].id] += 1
        return done

    native_module.play_state = counted
    try:
        for seed in seeds:
            native, diff = check(seed)
            played += native
            if diff:
                diffs.append(f"seed {seed}: {diff}")
    finally:
        native_module.play_state = real
    return len(seeds), played, diffs, plays


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--seed0", type=int, default=0)
    ap.add_argument("--batch", type=int, default=500)
    ap.add_argument(
        "--rollouts",
        action="store_true",
        help="search rollouts from random mid-game states instead of whole games",
    )
    args = ap.parse_args(argv)
    if not available():
        print("the native core is not built (compiled build needed; see make setup)")
        return 1
    t0 = time.process_time()
    starts = range(args.seed0, args.seed0 + args.games, args.batch)
    chunks = [range(s, min(s + args.batch, args.seed0 + args.games)) for s in starts]
    games = native = 0
    diffs: list[str] = []
    plays: collections.Counter[str] = collections.Counter()
    with ProcessPoolExecutor(max_workers=max(args.workers, 1)) as pool:
        for n, played, found, cards in pool.map(run_batch, chunks, [args.rollouts] * len(chunks)):
            games += n
            native += played
            diffs += found
            plays.update(cards)
            for line in found:
                print(line, flush=True)
            if games % 10_000 < args.batch:
                print(f"... {games} games, {native} native, {len(diffs)} differences", flush=True)
    if plays:
        counts = ", ".join(f"{c} {n}" for c, n in sorted(plays.items()))
        print(f"plays in the native games: {counts}")
    print(f"CPU (this process): {time.process_time() - t0:.1f}s")
    print(f"games: {games} native: {native} differences: {len(diffs)}")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
