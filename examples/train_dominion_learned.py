"""Train ``learned``: a network that plays every Dominion decision, across random kingdoms.

The pipeline (every budget counted in games or gradient steps, every step seeded):

1. **Kingdoms.**  ``--kingdoms`` random kingdoms (the game's own random kingdom
   rule, default options) drawn from the training seed.  The evaluation draws its
   kingdoms from a generator of its own and drops any that training used.
2. **A teacher per kingdom.**  Candidates: ``big-money-ultimate`` and, for each of
   the kingdom's ten cards, Big Money Ultimate plus one or two copies of it
   (``bmu+card:N``, as ``kingdoms rank`` builds them).  Each candidate plays
   ``--select-games`` games against ``big-money-ultimate`` and as many against
   ``smithy`` (seats alternating); the best total score teaches on that kingdom.
3. **Behaviour cloning on every decision.**  The teacher plays ``--games`` games
   per kingdom against ``big-money-ultimate``, ``smithy`` and itself; every decision
   of its seat (each seat in the mirror games) with two or more legal actions is a
   sample: the seat's observation vector, its legal actions, the teacher's action.
   Plays, buys, every card's choice — all of them.
4. **DAgger rounds** (``--dagger``): the network plays the teacher's seat, the
   teacher labels the states the network reaches, the samples join the set, and the
   network is trained again: the states its own mistakes lead to are in its data.
5. The network (a multilayer perceptron on the observation, scaled per feature; the
   "bought this turn" flag is left out, as a seat's JSON view does not show it)
   learns with a masked cross-entropy (only legal actions compete), Adam,
   ``--epochs`` passes over the samples per round.

After each round the network is measured on the curve games (the evaluation's
generator, fixed seeds); at the end on ``--eval-games`` games against each of
``big-money-ultimate`` and ``smithy`` over ``--eval-kingdoms`` kingdoms it never
trained on, with 95 % Wilson intervals.  Same seed, same build: same samples, same
weights, same curve (one thread).

The shipped checkpoint (``src/kingdoms/bots/dominion/data/learned.npz``; the
defaults are its settings: 100 kingdoms, 8 selection games, 30 teacher games,
2 DAgger rounds of 12 games, 4 epochs, two hidden layers of 256)::

    nice -n 19 .venv/bin/python examples/train_dominion_learned.py --seed 0 \\
        --save src/kingdoms/bots/dominion/data/learned.npz --report runs/learned-0.json

Measure a saved checkpoint only::

    nice -n 19 .venv/bin/python examples/train_dominion_learned.py --load \\
        src/kingdoms/bots/dominion/data/learned.npz --eval-games 1000

Needs the ``rl`` extra (torch) to train; the bot itself plays with NumPy only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch
from torch import nn

from kingdoms.bots.base import Bot, make_bot
from kingdoms.bots.dominion.learned import LearnedBot, Network, load_network, save_network
from kingdoms.core.registry import get_game
from kingdoms.core.state import TERMINAL
from kingdoms.dominion.actions import NUM_ACTIONS
from kingdoms.dominion.state import DominionState
from kingdoms.rl.dominion_obs import DominionEncoder

OPPONENTS = ("big-money-ultimate", "smithy")
"""The goal's opponents: teachers are chosen against them, the agent measured on them."""

GAME = get_game("dominion")


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a score (wins + half the shared wins) / games."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


def draw_kingdoms(
    rng: random.Random, n: int, avoid: Sequence[Sequence[str]] = ()
) -> list[list[str]]:
    """``n`` distinct random kingdoms (the game's default random rule), none in ``avoid``."""
    seen = {tuple(sorted(k)) for k in avoid}
    out: list[list[str]] = []
    while len(out) < n:
        kingdom = list(GAME.config(2, rng.getrandbits(48), {}).options["kingdom"])
        key = tuple(sorted(kingdom))
        if key not in seen:
            seen.add(key)
            out.append(kingdom)
    return out


def training_kingdoms(seed: int, n: int) -> list[list[str]]:
    return draw_kingdoms(random.Random(f"learned-train-{seed}"), n)


def evaluation_kingdoms(seed: int, n: int, train: Sequence[Sequence[str]]) -> list[list[str]]:
    """The evaluation's kingdoms: their own generator, none that training used."""
    return draw_kingdoms(random.Random(f"learned-eval-{seed}"), n, avoid=train)


# -- playing ---------------------------------------------------------------------------
Recorder = list[tuple[np.ndarray, list[int], int]]


def play(
    kingdom: Sequence[str],
    seed: int,
    bots: Sequence[Bot],
    rng: random.Random,
    record: dict[int, Bot] | None = None,
    out: Recorder | None = None,
    encoder: DominionEncoder | None = None,
) -> list[float]:
    """One two-player game on ``kingdom`` (``bots[s]`` plays seat ``s``); its
    returns.  For the seats in ``record``, each decision with 2+ legal actions is
    appended to ``out`` as (observation, legal actions, ``record[seat]``'s action)."""
    state = GAME.create(GAME.config(2, seed, {"kingdom": list(kingdom)}))
    assert isinstance(state, DominionState)
    state.logging = False
    steps = 0
    while state.current_player != TERMINAL:
        p = state.current_player
        legal = state.legal_actions()
        bot = bots[p]
        if len(legal) == 1:
            action = legal[0]
        elif record is not None and p in record:
            assert out is not None and encoder is not None
            obs = encoder.encode(state, p)
            teacher = record[p]
            label = teacher.act(state.view(p), legal, rng)
            out.append((obs, list(legal), label))
            action = label if bot is teacher else _act(bot, state, p, legal, rng)
        else:
            action = _act(bot, state, p, legal, rng)
        state.apply(action)
        steps += 1
        if steps > 5000:  # a game that does not end: a draw
            return [0.0, 0.0]
    return list(state.returns())


def _act(bot: Bot, state: DominionState, p: int, legal: Sequence[int], rng: random.Random) -> int:
    if isinstance(bot, LearnedBot):
        return bot.act(bot.observe(state, p), legal, rng)
    return bot.act(state.view(p), legal, rng)


def score(ret: float) -> float:
    """A game's result for the score: win 1, shared win ½, loss 0."""
    return 1.0 if ret > 0 else 0.5 if ret == 0 else 0.0


def match(kingdom: Sequence[str], a: Bot, b: Bot, games: int, seed: int) -> float:
    """``a``'s total score in ``games`` games against ``b`` (seats alternating)."""
    rng = random.Random(seed)
    total = 0.0
    for g in range(games):
        seat = g % 2
        bots = [a, b] if seat == 0 else [b, a]
        total += score(play(kingdom, rng.getrandbits(48), bots, rng)[seat])
    return total


def candidates(kingdom: Sequence[str]) -> list[str]:
    out = ["big-money-ultimate"]
    for card in kingdom:
        out += [f"bmu+{card}", f"bmu+{card}:2"]
    return out


def choose_teacher(kingdom: Sequence[str], games: int, seed: int) -> tuple[str, float]:
    """The candidate with the best score against the goal's opponents on ``kingdom``."""
    opponents = [make_bot("dominion", o) for o in OPPONENTS]
    best, best_score = "big-money-ultimate", -1.0
    for i, spec in enumerate(candidates(kingdom)):
        bot = make_bot("dominion", spec)
        s = sum(match(kingdom, bot, o, games, seed + 1000 * i + j) for j, o in enumerate(opponents))
        if s > best_score:
            best, best_score = spec, s
    return best, best_score / (games * len(opponents))


# -- the network -------------------------------------------------------------------------
class Net(nn.Module):
    def __init__(self, size: int, hidden: Sequence[int], inv_scale: np.ndarray) -> None:
        super().__init__()
        self.register_buffer("inv_scale", torch.tensor(inv_scale, dtype=torch.float32))
        layers: list[nn.Module] = []
        last = size
        for h in hidden:
            layers += [nn.Linear(last, h), nn.ReLU()]
            last = h
        layers.append(nn.Linear(last, NUM_ACTIONS))
        self.body = nn.Sequential(*layers)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x * self.inv_scale)

    def arrays(self) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {"inv_scale": self.inv_scale.numpy().copy()}
        linears = [m for m in self.body if isinstance(m, nn.Linear)]
        for i, lin in enumerate(linears):
            out[f"w{i}"] = lin.weight.detach().numpy().T.copy()
            out[f"b{i}"] = lin.bias.detach().numpy().copy()
        return out


def feature_scale(obs: np.ndarray, encoder: DominionEncoder) -> np.ndarray:
    """1 / the largest magnitude of each feature in the samples (at least 1); 0 for
    the "bought this turn" flag, which a seat's JSON view does not show."""
    peak = np.maximum(np.abs(obs).max(axis=0).astype(np.float32), 1.0)
    inv = 1.0 / peak
    inv[encoder.layout["bought"]] = 0.0
    return inv.astype(np.float32)


@dataclass
class Samples:
    obs: list[np.ndarray] = field(default_factory=list)
    legal: list[list[int]] = field(default_factory=list)
    label: list[int] = field(default_factory=list)

    def add(self, rec: Recorder) -> None:
        for o, legal, a in rec:
            self.obs.append(o)
            self.legal.append(legal)
            self.label.append(a)

    def __len__(self) -> int:
        return len(self.label)


def fit(
    net: Net, data: Samples, epochs: int, batch: int, lr: float, seed: int
) -> tuple[int, float]:
    """``epochs`` passes of masked cross-entropy; (gradient steps, last epoch's loss)."""
    gen = np.random.default_rng(seed)
    obs = torch.from_numpy(np.stack(data.obs))  # int16: converted a batch at a time
    labels = torch.tensor(data.label, dtype=torch.int64)
    width = max(len(legal) for legal in data.legal)
    # legal actions padded with an extra column, dropped after the scatter
    padded = np.full((len(data), width), NUM_ACTIONS, np.int64)
    for r, legal in enumerate(data.legal):
        padded[r, : len(legal)] = legal
    legal_idx = torch.from_numpy(padded)
    n = len(data)
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    steps, loss_sum, seen = 0, 0.0, 0
    for _ in range(epochs):
        order = torch.from_numpy(gen.permutation(n))
        loss_sum, seen = 0.0, 0
        for start in range(0, n, batch):
            idx = order[start : start + batch]
            mask = torch.zeros((len(idx), NUM_ACTIONS + 1), dtype=torch.bool)
            mask.scatter_(1, legal_idx[idx], True)
            logits = net(obs[idx].float()).masked_fill(~mask[:, :NUM_ACTIONS], -1e9)
            loss = nn.functional.cross_entropy(logits, labels[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            steps += 1
            loss_sum += float(loss.detach()) * len(idx)
            seen += len(idx)
    return steps, loss_sum / max(seen, 1)


def to_network(net: Net, meta: dict[str, Any]) -> Network:
    return Network(net.arrays(), meta)


# -- evaluation --------------------------------------------------------------------------
def evaluate(
    agent: Bot, kingdoms: Sequence[Sequence[str]], opponent: str, games: int, seed: int
) -> dict[str, Any]:
    """``games`` games against ``opponent`` spread evenly over ``kingdoms`` (seats
    alternating), seeds from ``seed`` (the evaluation's own)."""
    opp = make_bot("dominion", opponent)
    per = [games // len(kingdoms) + (i < games % len(kingdoms)) for i in range(len(kingdoms))]
    total = 0.0
    for i, (k, n) in enumerate(zip(kingdoms, per, strict=True)):
        if n:
            total += match(k, agent, opp, n, seed * 1_000_003 + i)
    low, high = wilson(total, games)
    return {
        "opponent": opponent,
        "games": games,
        "score": round(total / games, 4),
        "ci95": [round(low, 4), round(high, 4)],
    }


def train(
    seed: int = 0,
    kingdoms: int = 100,
    select_games: int = 8,
    games: int = 30,
    dagger: int = 2,
    dagger_games: int = 12,
    epochs: int = 4,
    hidden: Sequence[int] = (256, 256),
    batch: int = 256,
    lr: float = 1e-3,
    curve_games: int = 100,
    curve_kingdoms: int = 10,
    log: bool = True,
) -> tuple[Net, dict[str, Any]]:
    """The whole pipeline; the trained network and its report (budget, curve)."""
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    cpu0 = time.process_time()
    rng = random.Random(seed)
    encoder = DominionEncoder(2)
    train_k = training_kingdoms(seed, kingdoms)
    curve_k = evaluation_kingdoms(seed, curve_kingdoms, train_k)
    budget = {"selection_games": 0, "teacher_games": 0, "dagger_games": 0, "gradient_steps": 0}

    def say(text: str) -> None:
        if log:
            print(text, flush=True)

    teachers: list[str] = []
    for i, k in enumerate(train_k):
        spec, s = choose_teacher(k, select_games, seed * 7919 + i * 97)
        teachers.append(spec)
        budget["selection_games"] += select_games * len(OPPONENTS) * len(candidates(k))
        say(f"kingdom {i}: teacher {spec} ({s:.0%})")
    data = Samples()
    for k, spec in zip(train_k, teachers, strict=True):
        teacher = make_bot("dominion", spec)
        opps = [make_bot("dominion", o) for o in OPPONENTS] + [teacher]
        for g in range(games):
            opp = opps[g % len(opps)]
            seat = (g // len(opps)) % 2
            bots = [teacher, opp] if seat == 0 else [opp, teacher]
            record = {seat: teacher} if opp is not teacher else {0: teacher, 1: teacher}
            rec: Recorder = []
            play(k, rng.getrandbits(48), bots, rng, record, rec, encoder)
            data.add(rec)
        budget["teacher_games"] += games
    say(f"{len(data)} samples from {budget['teacher_games']} teacher games")
    inv = feature_scale(np.stack(data.obs), encoder)
    net = Net(encoder.size, hidden, inv)
    curve: list[dict[str, Any]] = []
    meta: dict[str, Any] = {"hidden": list(hidden), "seed": seed}
    for rnd in range(dagger + 1):
        steps, loss = fit(net, data, epochs, batch, lr, seed * 31 + rnd)
        budget["gradient_steps"] += steps
        agent = LearnedBot(to_network(net, meta))
        point: dict[str, Any] = {
            "round": rnd,
            "samples": len(data),
            "games": budget["selection_games"] + budget["teacher_games"] + budget["dagger_games"],
            "gradient_steps": budget["gradient_steps"],
            "loss": round(loss, 4),
        }
        if curve_games:
            for o in OPPONENTS:
                point[f"vs {o}"] = evaluate(agent, curve_k, o, curve_games, seed=900 + seed)[
                    "score"
                ]
        curve.append(point)
        say(json.dumps(point))
        if rnd == dagger:
            break
        # DAgger: the network plays the teacher's seat, the teacher labels its states
        for i, (k, spec) in enumerate(zip(train_k, teachers, strict=True)):
            teacher = make_bot("dominion", spec)
            opps = [make_bot("dominion", o) for o in OPPONENTS] + [teacher]
            for g in range(dagger_games):
                opp = opps[(g + i) % len(opps)]
                seat = g % 2
                bots: list[Bot] = [agent, opp] if seat == 0 else [opp, agent]
                rec = []
                play(k, rng.getrandbits(48), bots, rng, {seat: teacher}, rec, encoder)
                data.add(rec)
            budget["dagger_games"] += dagger_games
    digest = hashlib.sha256()
    for name, arr in sorted(net.arrays().items()):
        digest.update(name.encode())
        digest.update(np.ascontiguousarray(arr).tobytes())
    report: dict[str, Any] = {
        "seed": seed,
        "settings": {
            "kingdoms": kingdoms,
            "select_games": select_games,
            "games": games,
            "dagger": dagger,
            "dagger_games": dagger_games,
            "epochs": epochs,
            "hidden": list(hidden),
            "batch": batch,
            "lr": lr,
        },
        "budget": budget,
        "samples": len(data),
        "training_kingdoms": train_k,
        "teachers": teachers,
        "curve": curve,
        "weights_sha256": digest.hexdigest(),
        "cpu_seconds": round(time.process_time() - cpu0, 1),
    }
    return net, report


def plot(reports: Sequence[dict[str, Any]], path: str) -> None:
    """The curves of several runs (one line per seed and opponent) against the games
    played, into a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for rep in reports:
        games = [p["games"] for p in rep["curve"]]
        for o, style in zip(OPPONENTS, ("-", "--"), strict=True):
            ax.plot(
                games,
                [p[f"vs {o}"] for p in rep["curve"]],
                style,
                marker="o",
                label=f"seed {rep['seed']} vs {o}",
            )
    ax.axhline(0.5, color="grey", linewidth=0.8)
    ax.set_xlabel("games played (teacher choice, teacher games, DAgger games)")
    ax.set_ylabel("score on unseen kingdoms")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=7)
    ax.set_title("learned: behaviour cloning, then DAgger rounds")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--kingdoms", type=int, default=100, help="training kingdoms")
    parser.add_argument("--select-games", type=int, default=8, help="per candidate and opponent")
    parser.add_argument("--games", type=int, default=30, help="teacher games per kingdom")
    parser.add_argument("--dagger", type=int, default=2, help="DAgger rounds")
    parser.add_argument("--dagger-games", type=int, default=12, help="per kingdom and round")
    parser.add_argument("--epochs", type=int, default=4, help="passes over the samples per round")
    parser.add_argument("--hidden", default="256,256", help="hidden layer sizes")
    parser.add_argument("--curve-games", type=int, default=100, help="per opponent and round")
    parser.add_argument("--eval-games", type=int, default=1000, help="per opponent, at the end")
    parser.add_argument("--eval-kingdoms", type=int, default=20)
    parser.add_argument("--eval-seed", type=int, default=12345, help="the evaluation's generator")
    parser.add_argument("--save", help="write the checkpoint (.npz) here")
    parser.add_argument("--load", help="measure this checkpoint only (no training)")
    parser.add_argument("--report", help="write the report (JSON) here")
    parser.add_argument("--plot", nargs="+", help="reports (JSON) to draw into --curve")
    parser.add_argument("--curve", help="the PNG --plot writes")
    args = parser.parse_args(argv)
    if args.plot:
        reports = []
        for name in args.plot:
            with open(name, encoding="utf-8") as f:
                reports.append(json.load(f))
        plot(reports, args.curve or "learned_curve.png")
        return {"plotted": len(reports)}
    hidden = tuple(int(h) for h in args.hidden.split(","))
    if args.load:
        with open(args.load, "rb") as f:
            network = load_network(f.read())
        report: dict[str, Any] = {"checkpoint": args.load, "meta": network.meta}
        train_k = network.meta.get("training_kingdoms", [])
    else:
        net, report = train(
            args.seed,
            args.kingdoms,
            args.select_games,
            args.games,
            args.dagger,
            args.dagger_games,
            args.epochs,
            hidden,
            curve_games=args.curve_games,
        )
        train_k = report["training_kingdoms"]
        meta = {k: v for k, v in report.items() if k not in ("curve",)}
        meta["curve"] = report["curve"]
        network = to_network(net, meta)
        if args.save:
            save_network(args.save, net.arrays(), meta)
            with open(args.save, "rb") as f:  # measure what was saved (float16)
                network = load_network(f.read())
    if args.eval_games:
        eval_k = evaluation_kingdoms(args.eval_seed, args.eval_kingdoms, train_k)
        agent = LearnedBot(network)
        report["evaluation"] = {
            "kingdoms": eval_k,
            "results": [
                evaluate(agent, eval_k, o, args.eval_games, seed=args.eval_seed) for o in OPPONENTS
            ],
        }
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=1)
    summary = {k: report[k] for k in ("budget", "cpu_seconds", "evaluation") if k in report}
    print(json.dumps(summary, indent=1))
    return report


if __name__ == "__main__":
    main()
