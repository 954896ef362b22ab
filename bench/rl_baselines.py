"""The baseline table: round-robins of the bundled players (and the trained agent,
and OpenSpiel's IS-MCTS) with scores and 95 % intervals, as Markdown.

Dominion: ``random``, every bundled strategy, ``mcts`` at the given times, and the
trained buy agent (``--agent``: weights saved by ``examples/train_dominion_buys.py``)
— on "First Game" and on ``--kingdoms`` random kingdoms (the kingdoms of seeds 1 …
k, pooled).  Kingdomino: ``random``, ``greedy``, ``full-greedy``,
``planning-greedy``, ``mcts`` and OpenSpiel's IS-MCTS (``--ismcts`` simulations a
move; needs the ``openspiel`` extra).

Every pair of players meets in ``--games`` 2-player games per kingdom and seed,
seats alternating (``--slow-games`` for pairs with a searching player: mcts,
IS-MCTS), for each of ``--seeds`` seeds (the games of seed ``s`` start from
``--seed + 100000 s``; the bots' own generators too).  A player's score is its mean
result over all its games (win 1, shared win ½, loss 0) with a 95 % Wilson interval
over those games; beside it, its score under each seed and the mean of those with a
95 % Student-t interval over the seeds (how much a rerun with other seeds moves
it).  The searchers' budget is fixed in simulations a move (``--mcts-iterations``;
``--mcts-times`` for seconds instead, which depend on the machine).  The output
lists the kingdoms played (their cards) and the budgets: games, decisions, seeds.
One command makes the tables in docs/rl.md::

    nice .venv/bin/python bench/rl_baselines.py --agent runs/buys.pt > runs/baselines.md

(``--quick`` for a fast look: fewer games and players; ``--dominion-players`` to
play only some of the bundled Dominion players; ``--kingdoms 0`` for "First Game"
alone.)
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
import math
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from kingdoms.bots.base import bot_names, make_bot
from kingdoms.core.registry import get_game
from kingdoms.core.state import TERMINAL, State

Player = Any
"""A bot (``act(view, legal, rng)``) or an object with ``act_state(state, seat, rng)``."""


def wilson(score: float, games: int, z: float = 1.96) -> tuple[float, float]:
    if games == 0:
        return (0.0, 1.0)
    p = score / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


class BuyAgent:
    """The trained Dominion buy agent (examples/train_dominion_buys.py) as a player:
    its network decides the buys from its seat's observation, the helper the rest."""

    def __init__(self, weights: str) -> None:
        path = Path(__file__).resolve().parents[1] / "examples" / "train_dominion_buys.py"
        spec = importlib.util.spec_from_file_location("train_dominion_buys", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["train_dominion_buys"] = module
        spec.loader.exec_module(module)
        import torch

        self.torch = torch
        self.m = module
        self.trainer = module.Trainer(0)
        self.trainer.net.load_state_dict(torch.load(weights))
        self.helper = make_bot("dominion", module.HELPER)

    def act_state(self, state: State, seat: int, rng: random.Random) -> int:
        legal = state.legal_actions()
        st: Any = state
        mask = self.m.buy_mask(legal) if st.phase == self.m.BUY_PHASE and not st.stack else None
        if mask is None or mask.sum() == 1:
            if mask is not None:
                return int(self.m.to_action(int(mask.nonzero()[0][0])))
            return int(self.helper.act(state.view(seat), legal, rng))
        torch = self.torch
        x = self.trainer.encoder.encode(state, seat).astype("float32") * self.m.SCALE
        with torch.no_grad():
            logits, _ = self.trainer.net(torch.tensor(x[None]), torch.tensor(mask[None]))
        return int(self.m.to_action(int(logits.argmax())))


class ISMCTSPlayer:
    """OpenSpiel's Python IS-MCTS on the engine state (through kingdoms.rl.openspiel)."""

    def __init__(self, simulations: int, seed: int = 0) -> None:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts

        from kingdoms.rl import openspiel as ks

        self.ks = ks
        self.game = pyspiel.load_game(ks.KINGDOMINO, {"players": 2})
        rs = np.random.RandomState(seed)
        self.bot = ismcts.ISMCTSBot(
            self.game, mcts.RandomRolloutEvaluator(1, rs), 2.0, simulations, random_state=rs
        )
        self.bot.set_resampler(ks.resampler(seed))

    def act_state(self, state: State, seat: int, rng: random.Random) -> int:
        # the seat's determinization of the engine state, as an OpenSpiel state
        spiel = self.ks.state_from_engine(self.game, state.determinize(seat, rng))
        return int(self.bot.step(spiel))


DECISIONS = [0]
"""Decisions taken in the games played so far (the budget reported)."""

T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26}
"""Student-t 97.5 % quantiles by degrees of freedom (≥ 10: 2.23 down to 1.96)."""


def t_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and 95 % Student-t interval of ``values`` (one per seed)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, mean, mean
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = T95.get(n - 1, 2.0) * sd / math.sqrt(n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def play(game: str, options: dict[str, Any], players: Sequence[Player], seed: int) -> list[float]:
    """One game; each seat's result (1 win, 0.5 shared win, 0 loss)."""
    g = get_game(game)
    state = g.create(g.config(len(players), seed, options))
    state.logging = False
    rng = random.Random(seed)
    while state.current_player != TERMINAL:
        p = state.current_player
        player = players[p]
        if hasattr(player, "act_state"):
            action = player.act_state(state, p, rng)
        else:
            action = player.act(state.view(p), state.legal_actions(), rng)
        state.apply(action)
    DECISIONS[0] += state.step
    outcome = state.outcome()
    assert outcome is not None
    share = 1.0 / len(outcome.winners)
    return [share if q in outcome.winners else 0.0 for q in range(len(players))]


def round_robin(
    title: str,
    game: str,
    kingdoms: Sequence[dict[str, Any]],
    makers: dict[str, Callable[[], Player]],
    games: Callable[[str, str], int],
    seed: int,
    cache: dict[str, list[list[float]]],
    save: Callable[[], None],
) -> dict[str, list[float]]:
    """Every pair's games (``games(a, b)`` per kingdom); pairs found in ``cache``
    (by title, seed and names) are not played again."""
    results: dict[str, list[float]] = defaultdict(list)
    names = list(makers)
    instances: dict[str, Player] = {}
    for a, b in itertools.combinations(names, 2):
        key = f"{title}|{seed}|{a}|{b}"
        if key not in cache:
            mine: list[float] = []
            theirs: list[float] = []
            for name in (a, b):
                if name not in instances:
                    instances[name] = makers[name]()
            for k, options in enumerate(kingdoms):
                for i in range(games(a, b)):
                    first, second = (a, b) if i % 2 == 0 else (b, a)
                    pair = [instances[first], instances[second]]
                    r = play(game, options, pair, seed + 1000 * k + i)
                    mine.append(r[0] if first == a else r[1])
                    theirs.append(r[1] if first == a else r[0])
            cache[key] = [mine, theirs]
            save()
            print(f"  {title}: {a} vs {b}: {sum(mine)}-{sum(theirs)}", file=sys.stderr, flush=True)
        results[a] += cache[key][0]
        results[b] += cache[key][1]
    return results


def table(title: str, per_seed: list[dict[str, list[float]]]) -> str:
    """The Markdown table of a round-robin played under several seeds."""
    pooled: dict[str, list[float]] = defaultdict(list)
    for results in per_seed:
        for name, scores in results.items():
            pooled[name] += scores
    rows = sorted(pooled.items(), key=lambda kv: -sum(kv[1]) / len(kv[1]))
    lines = [
        f"**{title}**",
        "",
        "| player | score | 95 % interval (games) | per seed | mean of seeds, 95 % t | games |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for name, scores in rows:
        s, n = sum(scores), len(scores)
        low, high = wilson(s, n)
        seeds = [sum(r[name]) / len(r[name]) for r in per_seed if r.get(name)]
        mean, tlow, thigh = t_interval(seeds)
        each = " / ".join(f"{v:.0%}" for v in seeds)
        lines.append(
            f"| {name} | {s / n:.1%} | {low:.1%}–{high:.1%} | {each} | "
            f"{mean:.1%} ({tlow:.1%}–{thigh:.1%}) | {n} |"
        )
    return "\n".join(lines) + "\n"


QUICK_PLAYERS = "random,big-money,big-money-ultimate,smithy,witch,learned"
"""The Dominion players of ``--quick`` (unless ``--dominion-players`` names others)."""


def best_player(iterations: int, seed: int) -> Any:
    """``best`` with a budget in rollouts, not seconds (the same play on any machine),
    exactly ``iterations`` a decision: no budget banked from one decision to the next
    (``bank=off``), so "best N sims" is one bot whatever the default's banking."""
    return make_bot("dominion", f"best:iterations={iterations},seed={seed},bank=off")


def main(argv: Sequence[str] | None = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per pair and kingdom")
    parser.add_argument("--slow-games", type=int, default=2, help="the same, with a searcher")
    parser.add_argument("--kingdoms", type=int, default=5, help="random Dominion kingdoms")
    parser.add_argument(
        "--mcts-iterations",
        default="100,1000",
        help="mcts simulations a move (comma-separated; the budget that does not depend "
        "on the machine)",
    )
    parser.add_argument(
        "--mcts-times", default="", help="mcts seconds a move instead (comma-separated)"
    )
    parser.add_argument("--seeds", type=int, default=3, help="seeds: the round-robins repeated")
    parser.add_argument("--ismcts", type=int, default=100, help="IS-MCTS simulations a move")
    parser.add_argument(
        "--best-iterations",
        type=int,
        default=800,
        help="Dominion: rollouts a decision of `best` (about its 0.075 s default on this "
        "machine's compiled build; a budget that does not depend on the machine)",
    )
    parser.add_argument("--agent", help="weights of the trained Dominion buy agent")
    parser.add_argument(
        "--dominion-players",
        default="",
        help="Dominion: only these bundled players (comma-separated names; default all)",
    )
    parser.add_argument("--games-only", default="dominion,kingdomino")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a fast look: 4 games per pair (1 with a searcher), 1 random kingdom, 2 seeds, "
        f"mcts 30 and IS-MCTS 10 simulations, Dominion players {QUICK_PLAYERS} "
        "(flags given beside it win)",
    )
    parser.add_argument("--cache", help="JSON file of finished pairs (kept; rerun adds players)")
    parser.add_argument(
        "--searchers-first-game-only",
        action="store_true",
        help="Dominion: searching players play on First Game only (they take seconds a move)",
    )
    if "--quick" in argv:
        parser.set_defaults(
            games=4, slow_games=1, kingdoms=1, mcts_iterations="30", seeds=2, ismcts=10,
            dominion_players=QUICK_PLAYERS, best_iterations=100,
        )  # fmt: skip
    args = parser.parse_args(argv)
    cache: dict[str, list[list[float]]] = {}
    if args.cache and Path(args.cache).exists():
        cache = json.loads(Path(args.cache).read_text())

    def save() -> None:
        if args.cache:
            Path(args.cache).write_text(json.dumps(cache))

    start = time.perf_counter()
    cpu = time.process_time()
    out = []
    times = [float(t) for t in args.mcts_times.split(",") if t]
    iterations = [int(i) for i in args.mcts_iterations.split(",") if i]
    seeds = [args.seed + 100_000 * k for k in range(args.seeds)]
    notes: list[str] = []
    best_played = False
    if "dominion" in args.games_only:
        makers: dict[str, Callable[[], Player]] = {}
        chosen = [n for n in args.dominion_players.split(",") if n]
        unknown = sorted(set(chosen) - set(bot_names("dominion")))
        if unknown:
            parser.error(f"--dominion-players: no such Dominion player: {', '.join(unknown)}")
        for name in bot_names("dominion"):
            if name == "best" and (not chosen or name in chosen):
                best_played = True
                makers[f"best {args.best_iterations} sims"] = lambda: best_player(
                    args.best_iterations, args.seed
                )
            elif name != "mcts" and (not chosen or name in chosen):
                makers[name] = lambda name=name: make_bot("dominion", name)
        for t in times:
            makers[f"mcts {t:g} s"] = lambda t=t: make_bot("dominion", f"mcts:time={t}")
        for it in iterations:
            makers[f"mcts {it} sims"] = lambda it=it: make_bot(
                "dominion", f"mcts:iterations={it},seed={args.seed}"
            )
        if args.agent:
            makers["trained buy agent"] = lambda: BuyAgent(args.agent)
        slow = {n for n in makers if n.startswith(("mcts", "best"))}
        g = get_game("dominion")
        first = [{"kingdom": "First Game"}]
        randoms = [
            {"kingdom": list(g.config(2, k + 1, {}).options["kingdom"])}
            for k in range(args.kingdoms)
        ]
        notes.append(
            "Dominion kingdoms: First Game ("
            + ", ".join(g.config(2, 0, first[0]).options["kingdom"])
            + "); random: "
            + "; ".join(f"seed {k + 1}: {', '.join(r['kingdom'])}" for k, r in enumerate(randoms))
        )
        tables = [('Dominion, "First Game"', first)]
        if randoms:  # (``--kingdoms 0``: First Game only)
            tables.append((f"Dominion, {args.kingdoms} random kingdoms", randoms))
        for title, kingdoms in tables:
            print(title, file=sys.stderr, flush=True)
            players = dict(makers)
            if args.searchers_first_game_only and kingdoms is randoms:
                players = {n: m for n, m in makers.items() if n not in slow}

            def count(a: str, b: str, slow: set[str] = slow) -> int:
                return int(args.slow_games if {a, b} & slow else args.games)

            per_seed = [
                round_robin(title, "dominion", kingdoms, players, count, sd, cache, save)
                for sd in seeds
            ]
            out.append(table(title, per_seed))
    if "kingdomino" in args.games_only:
        kmakers: dict[str, Callable[[], Player]] = {}
        for name in ("random", "greedy", "full-greedy", "planning-greedy"):
            kmakers[name] = lambda name=name: make_bot("kingdomino", name)
        for t in times:
            kmakers[f"mcts {t:g} s"] = lambda t=t: make_bot("kingdomino", f"mcts:time={t}")
        for it in iterations:
            kmakers[f"mcts {it} sims"] = lambda it=it: make_bot(
                "kingdomino", f"mcts:iterations={it},seed={args.seed}"
            )
        try:
            import pyspiel  # noqa: F401

            kmakers[f"OpenSpiel IS-MCTS {args.ismcts}"] = lambda: ISMCTSPlayer(args.ismcts)
        except ImportError:
            print("(no open-spiel: IS-MCTS left out)", file=sys.stderr)
        kslow = {n for n in kmakers if "MCTS" in n or n.startswith("mcts")}
        print("Kingdomino", file=sys.stderr, flush=True)

        def kcount(a: str, b: str) -> int:
            return int(args.slow_games if {a, b} & kslow else args.games)

        title = "Kingdomino (2 players)"
        per_seed = [
            round_robin(title, "kingdomino", [{}], kmakers, kcount, sd, cache, save) for sd in seeds
        ]
        out.append(table(title, per_seed))
    print("\n".join(out))
    print(
        f"_Budget: {args.games} games per pair, kingdom and seed ({args.slow_games} with a "
        f"searcher), seats alternating, seeds {', '.join(map(str, seeds))}; searchers: "
        + ", ".join(
            [f"{i} simulations a move" for i in iterations]
            + [f"{t:g} s a move" for t in times]
            + ([f"best {args.best_iterations} rollouts a decision"] if best_played else [])
        )
        + f"; {DECISIONS[0]:,} decisions played in this run (cached pairs not counted); "
        f"{time.perf_counter() - start:.0f} s, {time.process_time() - cpu:.0f} CPU s._"
    )
    for note in notes:
        print(f"\n_{note}._")


if __name__ == "__main__":
    main()
