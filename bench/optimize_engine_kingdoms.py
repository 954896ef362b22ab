"""``kingdoms optimize`` with its default budget on the kingdom of every bundled
engine bot, the winner measured on fresh games against that bot and against
big-money-ultimate.

    python bench/optimize_engine_kingdoms.py [--games 2000] [--out DIR] [BOT ...]

Runs one optimize at a time (the CLI, defaults but the seed), then ``kingdoms sim``
with ``--games`` fresh games (another seed) for each measurement; prints a
Markdown table (kingdom/bot, optimize wall time and budget spent, winner's
template, score vs the bot and vs big-money-ultimate with 95 % intervals).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import tomllib
from importlib import resources
from pathlib import Path

ENGINE_BOTS = (
    "chapel-lab",
    "chapel-lab-militia",
    "village-smithy",
    "throne-room-smithy",
    "witch-lab",
    "familiar-lab",
    "workshop-gardens",
    "bureaucrat-gardens",
)


def kingdom_of(bot: str) -> list[str]:
    path = resources.files("kingdoms.bots.dominion") / "strategies" / f"{bot}.toml"
    return list(tomllib.loads(path.read_text(encoding="utf-8"))["kingdom"])


def cli(*args: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", "from kingdoms.cli import main; main()", *args, "--json"],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return json.loads(out.stdout)


def measure(file: str, opponent: str, kingdom: str, games: int, seed: int) -> str:
    data = cli("sim", "dominion", "--bots", f"{file},{opponent}", "-n", str(games),
               "--seed", str(seed), "--kingdom", kingdom, "--workers", "2")  # fmt: skip
    s, (lo, hi) = data["score"][0], data["score_ci95"][0]
    return f"{s:.1%} [{lo:.1%}–{hi:.1%}]"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("bots", nargs="*", default=list(ENGINE_BOTS))
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--out", default="optimize-bench")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(exist_ok=True)
    done: dict[frozenset[str], str] = {}
    rows = []
    for bot in args.bots:
        cards = kingdom_of(bot)
        kingdom = ",".join(cards)
        key = frozenset(cards)
        file = done.get(key)
        if file is None:  # bots sharing a kingdom share its optimize run
            file = str(out / f"{bot}-kingdom.toml")
            t0 = time.monotonic()
            res = cli("optimize", "dominion", "--kingdom", kingdom, "--vs",
                      "big-money-ultimate", "--seed", str(args.seed), "-o", file)  # fmt: skip
            wall = time.monotonic() - t0
            (out / f"{bot}-kingdom.json").write_text(json.dumps(res, indent=1))
            done[key] = file
            how = (f"{wall:.0f} s ({res['budget_seconds']:.0f} s budget, "
                   f"{res['generations']} gen.)")  # fmt: skip
            template = res["template"]
        else:
            how, template = "(same kingdom as above)", json.loads(
                (out / f"{Path(file).stem}.json").read_text())["template"]  # fmt: skip
        vs_bot = measure(file, bot, kingdom, args.games, 7 + args.seed)
        vs_bmu = measure(file, "big-money-ultimate", kingdom, args.games, 7 + args.seed)
        rows.append(f"| `{bot}` | {how} | {template} | {vs_bot} | {vs_bmu} |")
        print(rows[-1], flush=True)
    print("| kingdom of | optimize time | winner | vs that bot | vs big-money-ultimate |")
    print("|---|---|---|---:|---:|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
