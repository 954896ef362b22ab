"""MCTS strength against three full-greedy bots (4 players, Middle Kingdom + Harmony).

The reference (Gedda, Lagerkvist & Butler, CIG 2018): flat Monte Carlo with
greedy playouts at 10 s per move won 74 % with a mean margin of +9.6.

    .venv/bin/python bench/kingdomino_mcts.py --games 24 --time 1

(by default the ``mcts`` bot of Kingdomino: drafting playouts, width 6; ``--time``
counts the search thread's CPU seconds, so the bot plays alike on a loaded machine;
``--clock wall`` for wall-clock seconds as the study used).

Win = strictly highest score (no tie-break); margin = own score - best opponent's.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from kingdoms.bots.base import make_bot
from kingdoms.core.registry import new_game
from kingdoms.core.runner import play_out
from kingdoms.sim.stats import wilson_interval

VARIANT_OPTIONS = {"variants": ["middle-kingdom", "harmony"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--time", type=float, default=1.0, help="seconds per move")
    parser.add_argument("--iterations", type=int, default=None, help="instead of --time")
    parser.add_argument("--playout", default=None, help="default: the game's (drafting)")
    parser.add_argument("--algorithm", default="flat", choices=["flat", "uct"])
    parser.add_argument("--scoring", default="relative", choices=["win", "score", "relative"])
    parser.add_argument("--c", type=float, default=None)
    parser.add_argument("--width", type=int, default=None, help="default: the game's (6); 0: all")
    parser.add_argument(
        "--clock",
        default="cpu",
        choices=["wall", "cpu"],
        help="what --time counts: wall-clock seconds, or the search thread's CPU seconds "
        "(fair on a loaded machine)",
    )
    parser.add_argument("--opponent", default="full-greedy")
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args(argv)

    budget = f"iterations={args.iterations}" if args.iterations else f"time={args.time}"
    spec = f"mcts:{budget},algorithm={args.algorithm},scoring={args.scoring}"
    if args.playout is not None:
        spec += f",playout={args.playout}"
    if args.c is not None:
        spec += f",c={args.c}"
    if args.width is not None:
        spec += f",width={args.width}"
    if args.clock != "cpu":  # the bot's default
        spec += f",clock={args.clock}"
    probe = make_bot("kingdomino", spec)  # the game's defaults fill what the spec leaves out
    used = f"playout={getattr(probe, 'playout', '?')}, width={getattr(probe, 'width', '?')}"
    print(f"# {spec} ({used}) vs 3x {args.opponent}, 4 players, {VARIANT_OPTIONS}", flush=True)
    wins = 0
    margins: list[float] = []
    scores: list[float] = []
    start = time.process_time()
    for g in range(args.games):
        seat = g % 4
        bots = [make_bot("kingdomino", args.opponent) for _ in range(4)]
        bots[seat] = make_bot("kingdomino", spec)
        state = new_game("kingdomino", players=4, seed=args.seed + g, options=VARIANT_OPTIONS)
        state.logging = False
        t0 = time.process_time()
        play_out(state, bots, checked=True)
        out = state.outcome()
        assert out is not None
        own = out.scores[seat]
        best_opp = max(s for p, s in enumerate(out.scores) if p != seat)
        win = own > best_opp
        wins += win
        margins.append(own - best_opp)
        scores.append(own)
        print(
            f"game {g + 1:3d} seat {seat} scores {list(out.scores)} "
            f"margin {own - best_opp:+.0f} {'WIN' if win else 'loss'} "
            f"({time.process_time() - t0:.0f} CPU s)",
            flush=True,
        )
    n = len(margins)
    lo, hi = wilson_interval(wins, n)
    half = 1.96 * statistics.stdev(margins) / n**0.5 if n > 1 else float("nan")
    mm = statistics.fmean(margins)
    print(
        f"games {n}  win rate {wins / n:.1%} [95% CI {lo:.1%}–{hi:.1%}]"
        f"  mean margin {mm:+.2f} [95% CI {mm - half:+.2f} to {mm + half:+.2f}]"
        f"  mean score {statistics.fmean(scores):.1f}"
        f"  ({time.process_time() - start:.0f} CPU s)"
    )
    print("reference: flat MC + greedy playouts at 10 s/move: 74 % wins, margin +9.6")
    return 0


if __name__ == "__main__":
    sys.exit(main())
