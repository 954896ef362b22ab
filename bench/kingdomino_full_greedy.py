"""The study's full-greedy against the figures of the study (Gedda, Lagerkvist & Butler,
"Monte Carlo Methods for the Game Kingdomino", CIG 2018), 4 players, Middle Kingdom +
Harmony, with the former full-greedy (``planning-greedy``) measured in the same run:

* full-greedy vs three random players: 97.7 % wins, mean score 55.7;
* four full-greedy players (the mirror): mean score 51.4.

    .venv/bin/python bench/kingdomino_full_greedy.py --games 1000
"""

from __future__ import annotations

import argparse
import statistics
import sys

from kingdoms.sim import simulate

OPTIONS = {"variants": ["middle-kingdom", "harmony"]}


def _line(label: str, bots: list[str], games: int, seed: int) -> None:
    report = simulate("kingdomino", bots, games, seed, OPTIONS)
    js = report.to_json()
    lo, hi = js["win_rate_ci95"][0]
    mirror = len(set(bots)) == 1
    mean = statistics.fmean(js["mean_score"]) if mirror else js["mean_score"][0]
    print(
        f"{label:<32} games {games:5d}  "
        + ("" if mirror else f"win rate {js['wins'][0] / games:6.1%} [{lo:.1%}–{hi:.1%}]  ")
        + f"mean score {mean:.2f}  ({js['games_per_second']:.0f} games/s)",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2018)
    args = parser.parse_args(argv)
    n, seed = args.games, args.seed
    print("study: full-greedy vs 3 random 97.7 % wins, mean 55.7; mirror mean 51.4")
    for bot in ("full-greedy", "planning-greedy"):
        _line(f"{bot} vs 3 random", [bot, "random", "random", "random"], n, seed)
        _line(f"{bot} x4 (mirror)", [bot] * 4, max(n // 2, 1), seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
