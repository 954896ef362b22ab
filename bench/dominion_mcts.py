"""The Dominion search bot (``mcts``) against the best strategy bot of each kingdom.

For each of ``--kingdoms`` random kingdoms (all sets), the opponent is the bundled
strategy with the best win rate against ``big-money-ultimate`` on that kingdom
(``big-money-ultimate`` itself counts, at 50 %), measured first with
``--pick-games`` quick games; then ``mcts`` (the game's defaults, ``--time``
seconds per move) plays ``--games`` 2-player games against it, seats alternating::

    nice .venv/bin/python bench/dominion_mcts.py --kingdoms 20 --games 2 --time 1 \\
        --workers 2 --out /tmp/dominion_mcts.jsonl

``--speed`` measures instead the CPU time of a search decision on both builds: the
same positions (mid-game decisions of seeded games on random kingdoms), searched with
``mcts:iterations=N`` (``--iterations``), by the pure-Python path
(``KINGDOMS_PURE=1``) and by the compiled build, each in its own process as its users
run it; it prints CPU seconds per decision of each and their ratio, and checks that
both builds chose the same moves::

    nice .venv/bin/python bench/dominion_mcts.py --speed --positions 30 --iterations 100

``--coverage`` counts, on the same positions (this build only), the search's rollouts
the native core plays and, for the others, what keeps them on the Python engine::

    nice .venv/bin/python bench/dominion_mcts.py --coverage --positions 20 --iterations 100

Every finished game is appended to ``--out`` as one JSON line (so a run stopped
early still counts); ``--summary FILE`` prints the figures of such a file; ``--first-game 2`` plays
further games on the same kingdoms (new deals) to add to a file; ``--picks FILE``
keeps the opponents picked, so further runs skip picking them again.
A win is the game's own result (Dominion's tie-break by turns); a shared win
counts a half.  Iterations per move: mean over the moves the bot searched (moves
with one sensible answer are made without searching).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

SETS = ["base", "base-1e", "base-2e", "alchemy"]


def kingdom_of(seed: int) -> list[str]:
    from kingdoms.dominion.game import GAME

    return list(GAME.normalize_options({"sets": SETS}, 2, seed)["kingdom"])


def _play(kingdom: Sequence[str], specs: Sequence[str], seed: int) -> dict[str, Any]:
    from kingdoms.bots.base import make_bot
    from kingdoms.bots.mcts import MCTSBot
    from kingdoms.core.registry import new_game
    from kingdoms.core.runner import play_out, seat_rngs

    iterations: list[int] = []
    seconds: list[float] = []

    class Timed:
        """The search bot, its iterations and seconds per move recorded (a wrapper:
        a compiled bot's methods cannot be replaced)."""

        def __init__(self, bot: MCTSBot) -> None:
            self.bot = bot
            self.name = bot.name

        def act(self, view: Any, legal: Any, rng: Any) -> int:
            t0 = time.perf_counter()
            action = int(self.bot.act(view, legal, rng))
            if self.bot.last_iterations:
                iterations.append(self.bot.last_iterations)
                seconds.append(time.perf_counter() - t0)
            return action

    bots: list[Any] = []
    for s in specs:
        bot = make_bot("dominion", s)
        bots.append(Timed(bot) if isinstance(bot, MCTSBot) else bot)
    state = new_game("dominion", 2, seed, {"kingdom": list(kingdom)})
    state.logging = False
    t0 = time.perf_counter()
    play_out(state, bots, seat_rngs(seed, 2))
    out = state.outcome()
    assert out is not None
    return {
        "scores": list(out.scores),
        "winners": list(out.winners),
        "iterations": iterations,
        "move_seconds": seconds,
        "seconds": time.perf_counter() - t0,
    }


def positions(count: int, seed: int) -> list[tuple[list[str], int, int]]:
    """``count`` (kingdom, game seed, step) of decisions worth searching: mid-game
    moves of games between the kingdom's strategy and ``big-money-ultimate``."""
    import random

    from kingdoms.bots.base import make_bot
    from kingdoms.bots.dominion import obvious_action
    from kingdoms.bots.dominion.search import kingdom_strategy
    from kingdoms.core.registry import new_game
    from kingdoms.core.runner import seat_rngs

    out: list[tuple[list[str], int, int]] = []
    rng = random.Random(seed)
    g = 0
    while len(out) < count:
        g += 1
        kingdom = kingdom_of(seed * 1000 + g)
        bots = [make_bot("dominion", kingdom_strategy(tuple(kingdom))),
                make_bot("dominion", "big-money-ultimate")]  # fmt: skip
        state = new_game("dominion", 2, g, {"kingdom": kingdom})
        state.logging = False
        rngs = seat_rngs(g, 2)
        candidates = []
        while state.current_player >= 0:
            p = state.current_player
            legal = state.legal_actions()
            if len(legal) > 1 and obvious_action(state, legal) is None and state.step > 40:
                candidates.append(state.step)
            state.apply(bots[p].act(state.view(p), legal, rngs[p]))
        for step in rng.sample(candidates, min(3, len(candidates))):
            out.append((kingdom, g, step))
    return out[:count]


def state_at(kingdom: list[str], g: int, step: int) -> Any:
    """Game ``g`` of :func:`positions` (the kingdom's strategy against
    ``big-money-ultimate``) played up to ``step``."""
    from kingdoms.bots.base import make_bot
    from kingdoms.bots.dominion.search import kingdom_strategy
    from kingdoms.core.registry import new_game
    from kingdoms.core.runner import seat_rngs

    bots = [make_bot("dominion", kingdom_strategy(tuple(kingdom))),
            make_bot("dominion", "big-money-ultimate")]  # fmt: skip
    state = new_game("dominion", 2, g, {"kingdom": kingdom})
    state.logging = False
    rngs = seat_rngs(g, 2)
    while state.step < step:
        p = state.current_player
        state.apply(bots[p].act(state.view(p), state.legal_actions(), rngs[p]))
    return state


def speed_worker(count: int, iterations: int, seed: int) -> dict[str, Any]:
    """CPU seconds of ``mcts:iterations=N`` decisions on :func:`positions` (this
    process's build)."""
    import random

    from kingdoms._build import build_kind
    from kingdoms.bots.base import make_bot

    moves: list[int] = []
    cpu = 0.0
    spots = positions(count, seed)
    for kingdom, g, step in spots:
        state = state_at(kingdom, g, step)
        p = state.current_player
        bot = make_bot("dominion", f"mcts:iterations={iterations},seed={g}")
        view, legal = state.view(p), state.legal_actions()
        t0 = time.process_time()
        moves.append(int(bot.act(view, legal, random.Random(g))))
        cpu += time.process_time() - t0
    return {"build": build_kind(), "cpu": cpu, "decisions": len(spots), "moves": moves}


def coverage(count: int, iterations: int, seed: int) -> dict[str, Any]:
    """How many of the search's rollouts on :func:`positions` the native core plays
    (this process's build): each rollout's last answer of
    :func:`kingdoms.bots.dominion.native.play_rollout` (1: native), and why the others
    are not (the first card or rule :func:`~kingdoms.bots.dominion.native.native_run`
    names)."""
    import collections
    import random

    from kingdoms.bots.base import make_bot
    from kingdoms.bots.dominion import native

    counts: collections.Counter[str] = collections.Counter()
    real = native.play_rollout

    def counted(state: Any, bots: Any, key: Any, max_steps: int, seed: int | None = None) -> int:
        got = int(real(state, bots, key, max_steps, seed))
        if got == 1:
            counts["native"] += 1
        elif got == -2:
            try:
                native.native_run(
                    state.piles, state.supply, bots, state.config.options,
                    native.owned_cards(state),
                )  # fmt: skip
                why = "?"
            except native.NotNative as err:
                why = str(err)
            counts["engine: " + why] += 1
        elif got == -1:
            counts["engine: too long"] += 1
        return got

    native.play_rollout = counted
    try:
        for kingdom, g, step in positions(count, seed):
            state = state_at(kingdom, g, step)
            p = state.current_player
            bot = make_bot("dominion", f"mcts:iterations={iterations},seed={g}")
            bot.act(state.view(p), state.legal_actions(), random.Random(g))
    finally:
        native.play_rollout = real
    return dict(counts)


def speed(args: argparse.Namespace) -> int:
    """Both builds on the same positions, one process each (run one after the other)."""
    import subprocess

    results = {}
    for build in ("pure", "compiled"):
        env = dict(os.environ)
        env.pop("KINGDOMS_PURE", None)
        if build == "pure":
            env["KINGDOMS_PURE"] = "1"
        code = (
            "import json, sys; sys.path.insert(0, 'bench'); import dominion_mcts as b; "
            f"print(json.dumps(b.speed_worker({args.positions}, {args.iterations}, {args.seed})))"
        )
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
        )
        res = json.loads(out.stdout.strip().splitlines()[-1])
        results[build] = res
        per = res["cpu"] / res["decisions"]
        print(f"{build:8s} (ran as {res['build']}): {res['decisions']} decisions, "
              f"mcts:iterations={args.iterations}: {per * 1000:.1f} ms CPU per decision",
              flush=True)  # fmt: skip
    pure, comp = results["pure"], results["compiled"]
    same = pure["moves"] == comp["moves"]
    ratio = pure["cpu"] / max(comp["cpu"], 1e-9)
    print(f"same moves on both builds: {same}")
    print(f"compiled / pure speed per decision: {ratio:.2f}x")
    return 0 if same else 1


def win_share(winners: Sequence[int], seat: int) -> float:
    if seat not in winners:
        return 0.0
    return 1.0 / len(winners)


def pick_opponent(kingdom: Sequence[str], games: int, seed: int) -> tuple[str, float]:
    """The bundled strategy with the best win rate against big-money-ultimate here."""
    from kingdoms.bots.dominion.bundled import bundled_names

    best, best_rate = "big-money-ultimate", 0.5
    for name in bundled_names():
        if name == "big-money-ultimate":
            continue
        score = 0.0
        for g in range(games):
            seat = g % 2
            specs = ["big-money-ultimate", "big-money-ultimate"]
            specs[seat] = name
            score += win_share(_play(kingdom, specs, seed + g)["winners"], seat)
        rate = score / games
        if rate > best_rate:
            best, best_rate = name, rate
    return best, best_rate


def pick_for(k: int, args: argparse.Namespace) -> tuple[str, float]:
    return pick_opponent(kingdom_of(args.seed + k), args.pick_games, 10_000 * (k + 1))


def load_picks(args: argparse.Namespace, pool: ProcessPoolExecutor) -> dict[int, list[Any]]:
    """The opponent of every kingdom, read from ``--picks`` when it holds them (they
    depend only on the seed, the kingdom's number and ``--pick-games``), else picked
    now and saved there."""
    key = f"seed={args.seed},pick-games={args.pick_games}"
    saved: dict[str, dict[str, list[Any]]] = {}
    if args.picks and os.path.exists(args.picks):
        with open(args.picks, encoding="utf-8") as f:
            saved = json.load(f)
    picks = {int(k): v for k, v in saved.get(key, {}).items()}
    missing = [k for k in range(args.kingdoms) if k not in picks]
    for k, pick in zip(missing, pool.map(pick_for, missing, [args] * len(missing)), strict=True):
        picks[k] = list(pick)
    if args.picks and missing:
        saved[key] = {str(k): v for k, v in sorted(picks.items())}
        with open(args.picks, "w", encoding="utf-8") as f:
            json.dump(saved, f, indent=1)
    return picks


def one_kingdom(k: int, args: argparse.Namespace, pick: Sequence[Any]) -> list[dict[str, Any]]:
    kingdom = kingdom_of(args.seed + k)
    opponent, rate = str(pick[0]), float(pick[1])
    spec = f"mcts:time={args.time},clock=cpu" + (f",{args.params}" if args.params else "")
    rows = []
    for g in range(args.first_game, args.first_game + args.games):
        seat = g % 2
        specs = [opponent, opponent]
        specs[seat] = spec
        seed = args.seed * 1000 + k * 10 + g
        res = _play(kingdom, specs, seed)
        res.update(
            kingdom_no=k,
            kingdom=kingdom,
            opponent=opponent,
            opponent_rate_vs_bmu=rate,
            seat=seat,
            seed=seed,
            spec=spec,
            win=win_share(res["winners"], seat),
        )
        rows.append(res)
    return rows


def summarize(rows: Sequence[dict[str, Any]]) -> str:
    from kingdoms.sim.stats import wilson_interval

    n = len(rows)
    if not n:
        return "no games finished"
    wins = sum(r["win"] for r in rows)
    lo, hi = wilson_interval(wins, n)
    iters = [i for r in rows for i in r["iterations"]]
    secs = [s for r in rows for s in r["move_seconds"]]
    margins = [r["scores"][r["seat"]] - r["scores"][1 - r["seat"]] for r in rows]
    kingdoms = len({r["kingdom_no"] for r in rows})
    by_opponent: dict[str, list[float]] = {}
    for r in rows:
        by_opponent.setdefault(r["opponent"], []).append(r["win"])
    opponents = [
        f"{name} {sum(w):g} of {len(w)}"
        for name, w in sorted(by_opponent.items(), key=lambda item: (-len(item[1]), item[0]))
    ]
    return (
        f"games {n} on {kingdoms} kingdoms: mcts win rate {wins / n:.1%} "
        f"[95% CI {lo:.1%}-{hi:.1%}], mean VP margin {statistics.fmean(margins):+.1f}; "
        f"iterations per searched move: median {statistics.median(iters):.0f}, "
        f"mean {statistics.fmean(iters):.0f}, min {min(iters)}; "
        f"seconds per searched move: mean {statistics.fmean(secs):.2f}, max {max(secs):.2f}; "
        f"wins by opponent: {', '.join(opponents)}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kingdoms", type=int, default=20)
    parser.add_argument("--games", type=int, default=2, help="games per kingdom (seats swap)")
    parser.add_argument("--time", type=float, default=1.0, help="CPU seconds per move")
    parser.add_argument("--params", default="", help="more mcts parameters, e.g. keep=1.5")
    parser.add_argument(
        "--first-game", type=int, default=0, help="number of the first game per kingdom"
    )
    parser.add_argument("--pick-games", type=int, default=20)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--picks", default=None, help="JSON file keeping the opponents picked (reused)"
    )
    parser.add_argument("--out", default=None, help="append one JSON line per game")
    parser.add_argument("--summary", default=None, help="only summarize this JSONL file")
    parser.add_argument("--speed", action="store_true", help="CPU per decision, both builds")
    parser.add_argument("--positions", type=int, default=30, help="positions (with --speed)")
    parser.add_argument("--iterations", type=int, default=100, help="iterations (with --speed)")
    parser.add_argument(
        "--coverage", action="store_true", help="native rollouts on the --positions"
    )
    args = parser.parse_args(argv)
    if args.coverage:
        found = coverage(args.positions, args.iterations, args.seed)
        total = sum(found.values())
        print(f"{args.positions} positions, mcts:iterations={args.iterations}: {total} rollouts")
        for what, n in sorted(found.items(), key=lambda kv: -kv[1]):
            print(f"{n:6d} {100 * n / max(total, 1):5.1f} %  {what}")
        return 0
    if args.speed:
        return speed(args)
    if args.summary:
        with open(args.summary, encoding="utf-8") as f:
            print(summarize([json.loads(line) for line in f if line.strip()]))
        return 0
    rows: list[dict[str, Any]] = []
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        picks = load_picks(args, pool)
        futures = [pool.submit(one_kingdom, k, args, picks[k]) for k in range(args.kingdoms)]
        for fut in as_completed(futures):
            for r in fut.result():
                rows.append(r)
                print(
                    f"kingdom {r['kingdom_no']:2d} vs {r['opponent']} seat {r['seat']} "
                    f"scores {r['scores']} win {r['win']} "
                    f"iters/move {statistics.fmean(r['iterations'] or [0]):.0f} "
                    f"({r['seconds']:.0f}s)",
                    flush=True,
                )
                if args.out:
                    with open(args.out, "a", encoding="utf-8") as f:
                        f.write(json.dumps(r) + "\n")
    print(summarize(rows), f"({time.perf_counter() - start:.0f}s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
