"""``best`` against the strongest bots of each kingdom: the matchup table of docs/best.md.

Kingdoms: the cards of six of Geronimoo's DominionSimulator bots (Workshop/Gardens,
Bureaucrat/Gardens, Spy/Thief, Witch and Moat, Council Room/Militia,
Lab/Militia/Chapel), each filled up to ten cards with base-game cards drawn from a
seeded generator, and ``--random`` random kingdoms of base (1st and 2nd edition) and
Alchemy.  On each, ``best`` (``--spec``) plays 2-player games against:

* ``geronimoo`` — that kingdom's bot imported from DominionSimulator's ``DomBots.xml``
  with ``kingdoms strategy import`` (Geronimoo kingdoms only, and only with
  ``--geronimoo PATH/TO/DomBots.xml``);
* ``bundled`` — the best bundled bot for the kingdom: of the bundled strategies whose
  cards are all in it, the one with the best mean score against the others
  (the precomputed round robin, ``bench/best_table.py``);
* ``optimized`` — the winner of ``kingdoms optimize dominion --vs big-money-ultimate``
  on the kingdom (run as its users run it, one worker, ``--optimize-minutes`` of its own
  budget, which it counts in wall-clock minutes;
  cached in ``--cache``: the same seed and budget reuse the file).

Score = wins + ½ shared wins (Dominion's tie-break by turns decides first), seats
alternated game by game, with the 95 % Wilson interval.  Games are played round by
round over all matchups (game 0 of every matchup, then game 1, …), each appended to
``--out`` as a JSON line, so a run stopped early is still balanced and a rerun with
the same ``--out`` continues where it stopped::

    nice .venv/bin/python bench/best_matchups.py --geronimoo \\
        /path/to/DominionSim/src/main/java/be/aga/dominionSimulator/DomBots.xml \\
        --games 1000 --out /tmp/best.jsonl
    .venv/bin/python bench/best_matchups.py --summary /tmp/best.jsonl --markdown

``--jobs N`` plays on N processes (one per free core) into the one ``--out``: games
are handed out in the same order, so every matchup still advances evenly.  Each
process counts its own CPU time, so ``best``'s budgets are what they are in one
process.  Processes may also split the matchups with ``--only`` and one ``--out`` file
each (on several machines); ``--summary`` merges their files, and ``--first N`` keeps
games 0 to N-1 of every matchup, so a run stopped early reports the same games (seats
alternated) for each.

``--plans N`` plays no ``best``: every plan ``best`` weighs on each kingdom is played
alone, as a fixed strategy with no search, against each opponent on the deals of the
table's games 0 to N-1.  A matchup where no plan alone comes near the opponent is lost
in the plans; one where ``best`` scores below its own plan alone is lost in the play.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import multiprocessing
import os
import random
import subprocess
import sys
import time
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, as_completed, wait
from pathlib import Path
from typing import Any

PINNED = Path(__file__).resolve().parent / "data" / "best-matchups"
"""The optimize winners (and the games) of the table in docs/best.md, committed."""
SETS = ["base", "base-1e", "base-2e", "alchemy"]
GERONIMOO: list[tuple[str, str, list[str]]] = [
    ("Workshop/Gardens", "workshop-gardens", ["workshop", "gardens"]),
    ("Bureaucrat/Gardens", "bureaucrat-gardens", ["bureaucrat", "gardens"]),
    ("Spy/Thief", "spy-thief", ["spy", "thief"]),
    ("Witch and Moat", "witch-and-moat-for-3-or-4", ["witch", "moat"]),
    ("Council Room/Militia", "council-room-militia", ["council_room", "militia"]),
    ("Lab/Militia/Chapel", "lab-militia-chapel", ["laboratory", "militia", "chapel"]),
]
"""(kingdom's name, the imported bot's file name, its Kingdom cards)."""


def base_cards() -> list[str]:
    from kingdoms.dominion.data import CARDS

    return sorted(c.id for c in CARDS if c.set in ("base", "base-1e") and c.is_kingdom)


def kingdoms(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Every kingdom of the table: name, cards, the Geronimoo bot's file stem."""
    from kingdoms.dominion.game import GAME

    out: list[dict[str, Any]] = []
    pool = base_cards()
    for name, stem, cards in GERONIMOO:
        rng = random.Random(f"best-matchups {args.seed} {name}")
        fill = [c for c in pool if c not in cards]
        rng.shuffle(fill)
        out.append({"name": name, "cards": cards + sorted(fill[: 10 - len(cards)]), "bot": stem})
    for i in range(args.random):
        seed = args.seed * 1000 + i
        cards = list(GAME.normalize_options({"sets": SETS}, 2, seed)["kingdom"])
        out.append({"name": f"random {i + 1}", "cards": cards, "bot": None})
    return out


def imported(args: argparse.Namespace) -> Path | None:
    """The directory of ``kingdoms strategy import`` of ``--geronimoo`` (made once)."""
    if not args.geronimoo:
        return None
    out = Path(args.cache) / "geronimoo"
    if not out.exists():
        out.mkdir(parents=True)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "kingdoms",
                "strategy",
                "import",
                args.geronimoo,
                "-o",
                str(out),
            ],
            check=True,
            capture_output=True,
        )
    return out


def optimized(cards: Sequence[str], args: argparse.Namespace) -> str | None:
    """``kingdoms optimize dominion``'s winner on ``cards`` (a strategy file): the one
    pinned in ``--pinned`` for these cards, seed and budget, else the cache's, else a
    new run into the cache; None with ``--optimize-cached-only`` when neither has it.

    optimize's budget is wall-clock minutes, so two runs find different winners: the
    winners the published table was played against are committed in ``--pinned``."""
    key = hashlib.sha256(
        f"{','.join(cards)} {args.seed} {args.optimize_minutes} {args.optimize_final}".encode()
    ).hexdigest()[:12]
    name = f"optimized-{key}.toml"
    pinned = Path(args.pinned) / name if args.pinned else None
    if pinned is not None and pinned.exists():
        return str(pinned)
    path = Path(args.cache) / name
    if not path.exists() and args.optimize_cached_only:
        return None
    if not path.exists():
        Path(args.cache).mkdir(parents=True, exist_ok=True)
        cmd = [sys.executable, "-m", "kingdoms", "optimize", "dominion", "--kingdom",
               ",".join(cards), "--vs", "big-money-ultimate", "-o", str(path), "--seed",
               str(args.seed), "--minutes", str(args.optimize_minutes), "--final-games",
               str(args.optimize_final), "--workers", "1"]  # fmt: skip
        print(f"optimizing {','.join(cards)} ({args.optimize_minutes} min)...", flush=True)
        subprocess.run(cmd, check=True, capture_output=True)
    return str(path)


def read_rows(name: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The games of an ``--out`` file, plain or gzipped (``.gz``)."""
    opener = gzip.open if str(name).endswith(".gz") else open
    with opener(name, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def wanted(args: argparse.Namespace, kingdom: str, kind: str) -> bool:
    """Whether this process plays (and so prepares) the matchup: every one without
    ``--only``; with it, only those named (another process plays the rest)."""
    return not args.only or f"{kingdom}:{kind}" in args.only


def matchups(args: argparse.Namespace) -> list[dict[str, Any]]:
    from kingdoms.bots.dominion.search import kingdom_plans

    folder = imported(args)
    out = []
    for k in kingdoms(args):
        cards = k["cards"]
        opponents: list[tuple[str, str]] = []
        if folder is not None and k["bot"]:
            opponents.append(("geronimoo", str(folder / f"{k['bot']}.toml")))
        opponents.append(("bundled", kingdom_plans(tuple(cards))[0]))
        if args.optimize_minutes > 0 and wanted(args, k["name"], "optimized"):
            found = optimized(cards, args)
            if found is not None:
                opponents.append(("optimized", found))
        for kind, spec in opponents:
            if not wanted(args, k["name"], kind):
                continue
            out.append({"kingdom": k["name"], "cards": cards, "kind": kind, "opponent": spec})
    return out


def game_seed(m: dict[str, Any], game: int) -> int:
    """The seed of game ``game`` of matchup ``m`` (``best`` in seat ``game % 2``)."""
    seed = int(hashlib.sha256(f"{m['kingdom']} {m['kind']} {game}".encode()).hexdigest(), 16)
    return seed % 2**31


STALL_STEPS = 20_000
"""Steps after which ``--plans`` gives up a game of two fixed strategies as shared: two
such strategies can leave every pile standing forever (neither buys the last cards),
which ``best``, searching its moves, does not."""


def plan_rows(m: dict[str, Any], games: int) -> list[dict[str, Any]]:
    """Every plan ``best`` weighs on the matchup's kingdom, and the plans of two cards
    it weighs with ``pairs=on``, each played as a fixed strategy
    (:func:`~kingdoms.bots.dominion.best.plan_bot`, no search) against the matchup's
    opponent on the deals of the table's games ``0 .. games-1``, in ``best``'s seat:
    what the plans alone are worth there.  One row per plan, in the plan search's
    order (the first: the plan kept unless another is shown better)."""
    from kingdoms.bots.base import make_bot
    from kingdoms.bots.dominion.best import level_plans, plan_bot
    from kingdoms.core.errors import IllegalAction
    from kingdoms.core.registry import new_game
    from kingdoms.core.runner import play_out, seat_rngs

    cards = tuple(m["cards"])
    default = level_plans(cards)
    out = []
    for name in level_plans(cards, pairs=True):
        wins = 0.0
        stalled = 0
        t0 = time.process_time()
        for game in range(games):
            seat, seed = game % 2, game_seed(m, game)
            bots = [make_bot("dominion", m["opponent"], files=True) for _ in range(2)]
            bots[seat] = plan_bot(name)
            state = new_game("dominion", 2, seed, {"kingdom": list(cards)})
            state.logging = False
            try:
                play_out(state, bots, seat_rngs(seed, 2), max_steps=STALL_STEPS)
            except IllegalAction:  # two fixed strategies that never end the game
                stalled += 1
                wins += 0.5
                continue
            outcome = state.outcome()
            assert outcome is not None
            wins += 0.0 if seat not in outcome.winners else 1.0 / len(outcome.winners)
        out.append({"kingdom": m["kingdom"], "kind": m["kind"], "opponent": m["opponent"],
                    "plan": name, "pairs_only": name not in default, "games": games,
                    "win": wins, "stalled": stalled,
                    "cpu": round(time.process_time() - t0, 2)})  # fmt: skip
    return out


def by_matchup(rows: Sequence[dict[str, Any]]) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """``rows`` grouped by (kingdom, kind of opponent), in their order."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault((r["kingdom"], r["kind"]), []).append(r)
    return groups


def opponent_label(row: dict[str, Any]) -> str:
    """The opponent's name: a bundled bot's, or a strategy file's stem."""
    return str(row["opponent"]) if row["kind"] == "bundled" else Path(row["opponent"]).stem


def plans_table(rows: Sequence[dict[str, Any]], markdown: bool) -> str:
    """Per matchup: the score of the plan ``best`` starts from (the table's), of the
    strongest plan alone with its 95 % interval, and how many plans alone reach 55 %."""
    from kingdoms.sim.stats import wilson_interval

    groups = by_matchup(rows)
    lines = []
    if markdown:
        lines += ["| Kingdom | Opponent | Plans | Games each | the table's plan | "
                  "the strongest plan alone | 95 % interval | plans ≥ 55 % |",
                  "|---|---|---:|---:|---|---|---|---:|"]  # fmt: skip
    for (kingdom, kind), rs in groups.items():
        first, top = rs[0], max(rs, key=lambda r: r["win"])
        n = top["games"]
        lo, hi = wilson_interval(top["win"], n)
        opp = opponent_label(rs[0])
        star = " (pairs=on)" if top["pairs_only"] else ""
        over = sum(r["win"] / r["games"] >= 0.55 for r in rs)
        stalled = sum(r["stalled"] for r in rs)
        note = f" ({stalled} stalled games, counted shared)" if stalled else ""
        if markdown:
            lines.append(f"| {kingdom} | {kind}: `{opp}` | {len(rs)} | {n} "
                         f"| `{first['plan']}` {first['win'] / n:.1%} "
                         f"| `{top['plan']}`{star} {top['win'] / n:.1%} "
                         f"| {lo:.1%}–{hi:.1%} | {over}{note} |")  # fmt: skip
        else:
            lines.append(f"{kingdom:22s} {kind:9s} {opp:28s} {len(rs):3d} plans x {n} games: "
                         f"table's {first['plan']} {first['win'] / n:.1%}; strongest "
                         f"{top['plan']}{star} {top['win'] / n:.1%} [{lo:.1%}-{hi:.1%}]; "
                         f"{over} at >= 55%{note}")  # fmt: skip
    return "\n".join(lines)


def play(m: dict[str, Any], game: int, args: argparse.Namespace) -> dict[str, Any]:
    from kingdoms.bots.base import make_bot
    from kingdoms.core.registry import new_game
    from kingdoms.core.runner import play_out, seat_rngs

    seat = game % 2
    specs = [m["opponent"], m["opponent"]]
    specs[seat] = args.spec
    seed = game_seed(m, game)
    bots = [make_bot("dominion", s, files=True) for s in specs]
    state = new_game("dominion", 2, seed, {"kingdom": list(m["cards"])})
    state.logging = False
    t0 = time.process_time()
    play_out(state, bots, seat_rngs(seed, 2))
    out = state.outcome()
    assert out is not None
    win = 0.0 if seat not in out.winners else 1.0 / len(out.winners)
    cpu = round(time.process_time() - t0, 2)
    return {"kingdom": m["kingdom"], "kind": m["kind"], "opponent": m["opponent"],
            "cards": m["cards"], "game": game, "seat": seat, "seed": seed, "spec": args.spec,
            "scores": list(out.scores), "win": win, "cpu": cpu}  # fmt: skip


def cut(rows: Sequence[dict[str, Any]], games: int | None) -> list[dict[str, Any]]:
    """The rows of games ``0 .. games-1`` of every matchup (all rows when ``games`` is
    None), each game once, in the table's order: a run stopped early, or split over
    several ``--out`` files, is summarised with the same games for every matchup."""
    seen: set[tuple[str, str, str, int]] = set()
    out = []
    for r in rows:
        key = (r["kingdom"], r["kind"], r["spec"], r["game"])
        if key in seen or (games is not None and r["game"] >= games):
            continue
        seen.add(key)
        out.append(r)
    return sorted(out, key=_order)


def _order(row: dict[str, Any]) -> tuple[int, str, int, int]:
    """Kingdoms as :func:`kingdoms` lists them, then Geronimoo, bundled, optimized."""
    name = str(row["kingdom"])
    names = [k for k, _, _ in GERONIMOO]
    if name in names:
        rank = names.index(name)
    elif name.startswith("random ") and name[7:].isdigit():
        rank = len(names) + int(name[7:])
    else:
        rank = 10**6
    kinds = ("geronimoo", "bundled", "optimized")
    kind = kinds.index(row["kind"]) if row["kind"] in kinds else len(kinds)
    return (rank, name, kind, int(row["game"]))


def table(rows: Sequence[dict[str, Any]], markdown: bool) -> str:
    """Per matchup: games, ``best``'s score, its 95 % Wilson interval, whether the
    score is at least 55 % and whether the interval's lower bound is above 50 % (the
    goal needs both); then the pooled score against each kind of opponent and overall."""
    from kingdoms.sim.stats import wilson_interval

    groups = by_matchup(rows)
    lines = []
    if markdown:
        lines += ["| Kingdom | Opponent | Games | best's score | 95 % interval | ≥ 55 %? "
                  "| lower bound > 50 %? |",
                  "|---|---|---:|---:|---|---|---|"]  # fmt: skip
    missed = under = unclear = 0
    for (kingdom, kind), rs in groups.items():
        n = len(rs)
        wins = sum(r["win"] for r in rs)
        lo, hi = wilson_interval(wins, n)
        opp = opponent_label(rs[0])
        high, clear = wins / n >= 0.55, lo > 0.5
        missed += not (high and clear)
        under += not high
        unclear += not clear
        if markdown:
            lines.append(f"| {kingdom} | {kind}: `{opp}` | {n} | {wins / n:.1%} "
                         f"| {lo:.1%}–{hi:.1%} | {'yes' if high else '**no**'} "
                         f"| {'yes' if clear else '**no**'} |")  # fmt: skip
        else:
            lines.append(f"{kingdom:22s} {kind:9s} {opp:28s} {n:5d} {wins / n:6.1%} "
                         f"[{lo:.1%}-{hi:.1%}] >=55%: {'yes' if high else 'no '}  "
                         f"low>50%: {'yes' if clear else 'no '}  "
                         f"{'met' if high and clear else 'MISSED'}")  # fmt: skip
    total = len(rows)
    score = sum(r["win"] for r in rows)
    cpu = sum(r["cpu"] for r in rows)
    brk = "  " if markdown else ""
    lines.append("")
    for kind in ("geronimoo", "bundled", "optimized"):
        rs = [r for r in rows if r["kind"] == kind]
        if rs:
            wins = sum(r["win"] for r in rs)
            lo, hi = wilson_interval(wins, len(rs))
            lines.append(f"all kingdoms against {kind}: {len(rs)} games, {wins / len(rs):.1%} "
                         f"[{lo:.1%}-{hi:.1%}]" + brk)  # fmt: skip
    lo, hi = wilson_interval(score, total) if total else (0.0, 1.0)
    counts = sorted({len(rs) for rs in groups.values()}) or [0]
    per = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
    lines.append(f"all matchups: {total} games, {score / max(total, 1):.1%} "
                 f"[{lo:.1%}-{hi:.1%}]; {per} games a matchup; {cpu:.0f} CPU s, "
                 f"{cpu / max(total, 1):.2f} CPU s a game" + brk)  # fmt: skip
    lines.append(f"{missed} of {len(groups)} matchups miss the goal (>= 55 % and the lower "
                 f"bound above 50 %): {under} under 55 %, {unclear} with the lower bound "
                 f"at or below 50 %")  # fmt: skip
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per matchup")
    parser.add_argument("--random", type=int, default=12, help="random kingdoms")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--spec", default="best", help="the bot measured")
    parser.add_argument("--geronimoo", default=None, help="path to DomBots.xml")
    parser.add_argument("--optimize-minutes", type=float, default=3.0,
                        help="optimize's --minutes a kingdom (wall time; 0: skip)")  # fmt: skip
    parser.add_argument("--optimize-final", type=int, default=200,
                        help="optimize's --final-games")  # fmt: skip
    parser.add_argument("--optimize-cached-only", action="store_true",
                        help="only optimize winners already in --cache (run none)")  # fmt: skip
    parser.add_argument("--cache", default=os.path.expanduser("~/.cache/kingdoms-best-bench"))
    parser.add_argument("--pinned", default=str(PINNED),
                        help="optimize winners looked up before --cache ('' for none)")  # fmt: skip
    parser.add_argument("--out", default=None, help="append one JSON line per game (resumes)")
    parser.add_argument("--summary", nargs="+", default=None, metavar="FILE",
                        help="only print the table of these --out files (merged)")  # fmt: skip
    parser.add_argument("--first", type=int, default=None, metavar="N",
                        help="with --summary: only games 0..N-1 of every matchup")  # fmt: skip
    parser.add_argument("--markdown", action="store_true", help="the table in Markdown")
    parser.add_argument("--only", action="append", default=[], metavar="KINGDOM:KIND",
                        help="only this matchup (repeatable): 'random 7:bundled'")  # fmt: skip
    parser.add_argument("--plans", type=int, default=None, metavar="N",
                        help="instead: every plan best weighs, played alone (no search) "
                        "against each opponent on the table's games 0..N-1")  # fmt: skip
    parser.add_argument("--cpu-limit", type=float, default=None,
                        help="stop starting games once they used this many CPU s")  # fmt: skip
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="play on N processes (one per free core), games in the table's "
                        "order, so every matchup advances evenly")  # fmt: skip
    args = parser.parse_args(argv)
    if args.plans is not None and args.plans < 1:
        parser.error(f"--plans must be 1 or more games a plan, not {args.plans}")
    if args.plans is not None:
        rows = [r for m in matchups(args) for r in plan_rows(m, args.plans)]
        print(plans_table(rows, args.markdown))
        return 0
    if args.summary:
        found: list[dict[str, Any]] = []
        for name in args.summary:
            found += read_rows(name)
        print(table(cut(found, args.first), args.markdown))
        return 0
    if args.jobs < 1:
        parser.error(f"--jobs must be 1 or more processes, not {args.jobs}")
    done: set[tuple[str, str, int]] = set()
    rows: list[dict[str, Any]] = []
    if args.out and os.path.exists(args.out):
        rows = read_rows(args.out)
        done = {(r["kingdom"], r["kind"], r["game"]) for r in rows if r["spec"] == args.spec}
    ms = matchups(args)
    processes = "1 process" if args.jobs == 1 else f"{args.jobs} processes"
    print(f"{len(ms)} matchups; {args.spec} as run by `kingdoms sim` (make_bot), {processes}",
          flush=True)  # fmt: skip
    todo = (
        (m, g) for g in range(args.games) for m in ms if (m["kingdom"], m["kind"], g) not in done
    )
    spent = [0.0]

    def record(r: dict[str, Any]) -> None:
        rows.append(r)
        spent[0] += r["cpu"]
        print(f"{r['kingdom']:22s} {r['kind']:9s} game {r['game']} seat {r['seat']} "
              f"scores {r['scores']} win {r['win']} ({r['cpu']} s)", flush=True)  # fmt: skip
        if args.out:
            with open(args.out, "a", encoding="utf-8") as f:
                f.write(json.dumps(r) + "\n")

    def over() -> bool:
        return args.cpu_limit is not None and spent[0] > args.cpu_limit

    if args.jobs == 1:
        for m, g in todo:
            if over():
                break
            record(play(m, g, args))
    else:
        # games handed out in the table's order, one per process at a time: every
        # matchup advances evenly, whichever process is faster
        pool = ProcessPoolExecutor(args.jobs, mp_context=multiprocessing.get_context("fork"))
        with pool:
            running: set[Future[dict[str, Any]]] = set()
            for m, g in todo:
                while len(running) >= args.jobs:
                    finished, running = wait(running, return_when=FIRST_COMPLETED)
                    for f in finished:
                        record(f.result())
                if over():
                    break
                running.add(pool.submit(play, m, g, args))
            for f in as_completed(running):
                record(f.result())
    print(table(rows, args.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
