"""Train a Dominion agent that beats ``big-money-ultimate`` on "First Game".

The design, chosen to learn fast on two CPU cores:

* **Buy decisions only.**  In Dominion the deck a seat builds decides the game; the
  agent decides what to buy (one card, or nothing, at each buy of its Buy phase —
  one output per card and one for "nothing").  Everything else of its turns —
  playing Actions, Treasures (all at once), answering attacks — is played for it
  by the bundled bots' default policy (a *helper*: the ``big-money-ultimate`` bot
  for the agent's seat, which plays any Action it holds sensibly).
* **Perfect-recall features.**  The agent reads its seat's observation vector
  (:mod:`kingdoms.rl.dominion_obs`): its own cards (every card it owns, wherever
  it is: what the seat has seen), the opponent's owned cards, the supply, coins and
  buys, scores and turns — scaled by 1/10.
* **A head start by imitation, then PPO.**  First the network copies the buys of
  ``big-money-ultimate`` (behaviour cloning, a few hundred games: a policy as good
  as the opponent), then masked PPO improves on it against a league
  (:class:`kingdoms.rl.OpponentPool`: ``big-money-ultimate``, ``big-money``,
  ``random`` and the bundled strategies, drawn by their openskill rating against
  the agent), with the outcome (+1/-1) plus a small score-margin bonus.

Train (the figure in ``docs/rl.md``), then measure on 1,000 fresh games per bot::

    nice .venv/bin/python examples/train_dominion_buys.py --minutes 40 \\
        --save runs/buys.pt --curve docs/img/dominion_buys_curve.png --eval-games 1000

Evaluate a saved agent only::

    nice .venv/bin/python examples/train_dominion_buys.py --load runs/buys.pt --minutes 0

Needs the ``rl`` extra (torch).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import random
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch
from torch import nn

from kingdoms.bots.base import Bot, make_bot
from kingdoms.core.registry import get_game
from kingdoms.core.state import TERMINAL
from kingdoms.dominion.actions import A_END_PHASE, BUY, END_PHASE, decode, encode
from kingdoms.dominion.data import CARDS, NUM_CARDS
from kingdoms.dominion.state import BUY_PHASE, DominionState
from kingdoms.rl import OpponentPool
from kingdoms.rl.dominion_obs import DominionEncoder

KINGDOM = "First Game"
PASS = NUM_CARDS
"""The output "buy nothing more" (ends the Buy phase)."""
OUTPUTS = NUM_CARDS + 1
HELPER = "big-money-ultimate"
LEAGUE = ("big-money-ultimate", "big-money", "random", "smithy", "militia")
SCALE = 0.1


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a win rate."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


class Net(nn.Module):
    """Policy (one logit per card to buy, and "nothing") and value, from the features."""

    def __init__(self, size: int, hidden: int = 256) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(size, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()
        )
        self.policy = nn.Linear(hidden, OUTPUTS)
        self.value = nn.Linear(hidden, 1)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(x)
        logits = self.policy(h).masked_fill(~mask, -1e9)
        return logits, self.value(h).squeeze(-1)


def buy_mask(legal: Sequence[int]) -> np.ndarray | None:
    """The agent's outputs legal at a state, or None when the state is not a buy
    decision (something else is legal: Treasures to play, a card's decision…)."""
    mask = np.zeros(OUTPUTS, bool)
    for a in legal:
        kind, card = decode(a)
        if kind == BUY:
            mask[card] = True
        elif kind == END_PHASE:
            mask[PASS] = True
        else:
            return None
    return mask


def to_action(output: int) -> int:
    return A_END_PHASE if output == PASS else encode(BUY, output)


def from_action(action: int) -> int:
    kind, card = decode(action)
    return PASS if kind == END_PHASE else card


@dataclass
class Match:
    """One game: the agent's seat, its opponent, the helper for its other decisions."""

    state: DominionState
    seat: int
    opponent: Bot
    opponent_name: str
    helper: Bot
    rng: random.Random
    steps: list[tuple[np.ndarray, np.ndarray, int, float, float]] = field(default_factory=list)

    def advance(self) -> np.ndarray | None:
        """Play until the agent's next buy decision (its mask) or the end (None)."""
        st = self.state
        while st.current_player != TERMINAL:
            p = st.current_player
            legal = st.legal_actions()
            if p == self.seat:
                mask = buy_mask(legal) if st.phase == BUY_PHASE and not st.stack else None
                if mask is not None:
                    if mask.sum() == 1:  # nothing to buy: end the phase
                        st.apply(to_action(int(np.flatnonzero(mask)[0])))
                        continue
                    return mask
                st.apply(self.helper.act(st.view(p), legal, self.rng))
            else:
                st.apply(self.opponent.act(st.view(p), legal, self.rng))
        return None

    def reward(self, margin_weight: float) -> tuple[float, bool]:
        outcome = self.state.outcome()
        assert outcome is not None
        ret = outcome.returns()[self.seat]
        margin = outcome.scores[self.seat] - outcome.scores[1 - self.seat]
        return ret + margin_weight * margin / 20.0, outcome.winners == (self.seat,)


class Trainer:
    def __init__(self, seed: int, threads: int = 1) -> None:
        torch.manual_seed(seed)
        torch.set_num_threads(threads)
        self.rng = random.Random(seed)
        self.game = get_game("dominion")
        self.encoder = DominionEncoder(2)
        self.net = Net(self.encoder.size)
        self.opt = torch.optim.Adam(self.net.parameters(), lr=3e-4)
        self.helpers = [make_bot("dominion", HELPER) for _ in range(2)]
        self.bots = {name: make_bot("dominion", name) for name in LEAGUE}
        self.pool = OpponentPool(floor=0.05)
        for name in LEAGUE:
            self.pool.add(name, name)
        self.curve: list[dict[str, Any]] = []
        self.start = time.perf_counter()
        self.cpu = 0.0
        """Seconds of CPU time spent training (this process, all its threads)."""
        self.games = 0
        self.owned: dict[str, float] = {}
        """The agent's cards at the end of the last :meth:`evaluate`'s games (mean)."""

    @contextlib.contextmanager
    def timed(self) -> Iterator[None]:
        """Count the CPU time of the block as training time."""
        before = time.process_time()
        try:
            yield
        finally:
            self.cpu += time.process_time() - before

    # -- games -------------------------------------------------------------------------
    def new_match(self, opponent: str | None = None, seed: int | None = None) -> Match:
        rng = self.rng
        if opponent is None:
            self.pool.sample(rng)
            opponent = self.pool.last[0]
        config = self.game.config(
            2, rng.getrandbits(48) if seed is None else seed, {"kingdom": KINGDOM}
        )
        state = self.game.create(config)
        assert isinstance(state, DominionState)
        state.logging = False
        seat = rng.randrange(2) if seed is None else seed % 2
        return Match(
            state, seat, self.bots[opponent], opponent, self.helpers[0], random.Random(rng.random())
        )

    def features(self, match: Match) -> np.ndarray:
        return self.encoder.encode(match.state, match.seat).astype(np.float32) * SCALE

    # -- imitation ---------------------------------------------------------------------
    def imitate(self, games: int, epochs: int = 6) -> float:
        """Behaviour cloning of the helper's own buys (``big-money-ultimate``)."""
        xs, ms, ys = [], [], []
        for _ in range(games):
            match = self.new_match("big-money-ultimate")
            while (mask := match.advance()) is not None:
                st = match.state
                action = match.helper.act(st.view(match.seat), st.legal_actions(), match.rng)
                xs.append(self.features(match))
                ms.append(mask)
                ys.append(from_action(action))
                st.apply(action)
        x, m, y = torch.tensor(np.array(xs)), torch.tensor(np.array(ms)), torch.tensor(ys)
        loss = torch.zeros(())
        for _ in range(epochs):
            order = torch.randperm(len(y))
            for i in range(0, len(y), 256):
                idx = order[i : i + 256]
                logits, _ = self.net(x[idx], m[idx])
                # a little entropy kept: PPO explores from here
                entropy = torch.distributions.Categorical(logits=logits).entropy().mean()
                loss = nn.functional.cross_entropy(logits, y[idx]) - 0.05 * entropy
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
        return loss.item()

    # -- PPO -----------------------------------------------------------------------------
    def collect(self, games: int, parallel: int, margin_weight: float) -> list[Match]:
        """``games`` finished games, played ``parallel`` at a time (one batched forward
        pass per round of decisions)."""
        done: list[Match] = []
        live = [self.new_match() for _ in range(parallel)]
        started = parallel
        while live:
            pending, masks = [], []
            for match in list(live):
                mask = match.advance()
                if mask is None:
                    live.remove(match)
                    done.append(match)
                    outcome = match.state.outcome()
                    assert outcome is not None
                    ret = outcome.returns()
                    self.pool.report([match.opponent_name], [ret[match.seat], ret[1 - match.seat]])
                    if started < games:
                        live.append(self.new_match())
                        started += 1
                    continue
                pending.append(match)
                masks.append(mask)
            if not pending:
                continue
            x = torch.tensor(np.array([self.features(m) for m in pending]))
            mk = torch.tensor(np.array(masks))
            with torch.no_grad():
                logits, values = self.net(x, mk)
                dist = torch.distributions.Categorical(logits=logits)
                outs = dist.sample()
                logps = dist.log_prob(outs)
            for i, match in enumerate(pending):
                out = int(outs[i])
                match.steps.append((x[i].numpy(), masks[i], out, float(logps[i]), float(values[i])))
                match.state.apply(to_action(out))
        self.games += len(done)
        return done

    def update(self, matches: list[Match], margin_weight: float, epochs: int = 4) -> None:
        xs, ms, acts, old, rets, vals = [], [], [], [], [], []
        for match in matches:
            reward, _won = match.reward(margin_weight)
            for x, mask, out, logp, value in match.steps:
                xs.append(x)
                ms.append(mask)
                acts.append(out)
                old.append(logp)
                rets.append(reward)
                vals.append(value)
        x, m = torch.tensor(np.array(xs)), torch.tensor(np.array(ms))
        a, old_logp = torch.tensor(acts), torch.tensor(old)
        ret, val = torch.tensor(rets), torch.tensor(vals)
        adv = ret - val
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        for _ in range(epochs):
            order = torch.randperm(len(a))
            for i in range(0, len(a), 512):
                idx = order[i : i + 512]
                logits, value = self.net(x[idx], m[idx])
                dist = torch.distributions.Categorical(logits=logits)
                ratio = torch.exp(dist.log_prob(a[idx]) - old_logp[idx])
                clipped = torch.clamp(ratio, 0.8, 1.2)
                policy_loss = -torch.min(ratio * adv[idx], clipped * adv[idx]).mean()
                value_loss = ((value - ret[idx]) ** 2).mean()
                loss = policy_loss + 0.5 * value_loss - 0.01 * dist.entropy().mean()
                self.opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.net.parameters(), 0.5)
                self.opt.step()

    # -- measuring -----------------------------------------------------------------------
    def evaluate(self, opponent: str, games: int, seed: int = 10**9) -> tuple[int, int]:
        """Wins of the greedy agent (its most likely buy) in ``games`` fresh games
        (seeds ``seed …``, seats alternating; nothing learned)."""
        wins = 0
        owned: dict[str, float] = {}
        live = [self.new_match(opponent, seed + i) for i in range(games)]
        while live:
            pending, masks = [], []
            for match in list(live):
                mask = match.advance()
                if mask is None:
                    live.remove(match)
                    st = match.state
                    wins += st.outcome().winners == (match.seat,)  # type: ignore[union-attr]
                    for c, n in enumerate(st.owned_counts[match.seat]):
                        if n:
                            owned[CARDS[c].id] = owned.get(CARDS[c].id, 0.0) + n / games
                else:
                    pending.append(match)
                    masks.append(mask)
            if pending:
                x = torch.tensor(np.array([self.features(m) for m in pending]))
                with torch.no_grad():
                    logits, _ = self.net(x, torch.tensor(np.array(masks)))
                for match, out in zip(pending, logits.argmax(dim=1).tolist(), strict=True):
                    match.state.apply(to_action(out))
        self.owned = dict(sorted(owned.items(), key=lambda kv: -kv[1]))
        return wins, games

    def record(self, games: int) -> dict[str, Any]:
        point: dict[str, Any] = {
            "minutes": self.cpu / 60,
            "wall_minutes": (time.perf_counter() - self.start) / 60,
            "games": self.games,
        }
        for name in ("big-money-ultimate", "random"):
            wins, n = self.evaluate(name, games, seed=7_000_000)
            point[name] = wins / n
        self.curve.append(point)
        print(
            json.dumps({k: round(v, 3) if isinstance(v, float) else v for k, v in point.items()}),
            flush=True,
        )
        return point


def train(
    minutes: float,
    seed: int = 0,
    imitation_games: int = 300,
    batch_games: int = 64,
    parallel: int = 32,
    margin_weight: float = 0.5,
    eval_every: float = 5.0,
    eval_games: int = 100,
    threads: int = 1,
    max_wall: float | None = None,
) -> Trainer:
    """Imitation, then PPO for ``minutes`` of training CPU time (imitation included,
    the curve's measurements not), or until ``max_wall`` minutes of wall clock."""
    t = Trainer(seed, threads)
    wall_deadline = None if max_wall is None else time.perf_counter() + max_wall * 60
    if imitation_games:
        with t.timed():
            t.imitate(imitation_games)
    next_eval = 0.0
    while t.cpu < minutes * 60:
        if wall_deadline is not None and time.perf_counter() > wall_deadline:
            break
        if eval_every and t.cpu >= next_eval:
            t.record(eval_games)
            next_eval = t.cpu + eval_every * 60
        with t.timed():
            t.update(t.collect(batch_games, parallel, margin_weight), margin_weight)
    if eval_every:
        t.record(eval_games)
    return t


def plot(curve: list[dict[str, Any]], path: str, command: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    minutes = [p["minutes"] for p in curve]
    for name in ("big-money-ultimate", "random"):
        ax.plot(minutes, [100 * p[name] for p in curve], marker="o", label=f"vs {name}")
    ax.axhline(55, color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel("training time (CPU minutes, one process)")
    ax.set_ylabel("games won (%)")
    ax.set_ylim(0, 100)
    ax.set_title('Dominion "First Game": buy-decision agent (imitation, then PPO)')
    ax.legend(loc="lower right")
    fig.text(0.01, 0.01, command, fontsize=5, color="grey")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(path, dpi=110)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=40.0, help="training CPU minutes")
    parser.add_argument("--max-wall", type=float, help="stop after this many wall-clock minutes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument(
        "--eval-every", type=float, default=5.0, help="minutes between curve points"
    )
    parser.add_argument("--curve-games", type=int, default=100)
    parser.add_argument("--eval-games", type=int, default=1000)
    parser.add_argument("--save")
    parser.add_argument("--load")
    parser.add_argument("--curve", help="write the learning curve to this PNG")
    args = parser.parse_args(argv)
    if args.load:
        t = Trainer(args.seed, args.threads)
        t.net.load_state_dict(torch.load(args.load))
    else:
        t = train(
            args.minutes,
            args.seed,
            eval_every=args.eval_every,
            eval_games=args.curve_games,
            threads=args.threads,
            max_wall=args.max_wall,
        )
    if args.save:
        torch.save(t.net.state_dict(), args.save)
        with open(args.save + ".curve.json", "w") as f:
            json.dump(t.curve, f, indent=1)
    if args.curve and t.curve:
        command = "nice .venv/bin/python examples/train_dominion_buys.py " + " ".join(
            sys.argv[1:] if argv is None else argv
        )
        plot(t.curve, args.curve, command)
    wall = (time.perf_counter() - t.start) / 60
    print(f"trained {t.cpu / 60:.1f} CPU min ({wall:.1f} min wall clock), {t.games} games")
    for name in ("big-money-ultimate", "random"):
        wins, n = t.evaluate(name, args.eval_games, seed=2_000_000_000)
        low, high = wilson(wins, n)
        print(
            f"vs {name}: {wins}/{n} = {wins / n:.1%} (95 % interval {low:.1%}–{high:.1%})",
            flush=True,
        )
        deck = ", ".join(f"{card} {count:.1f}" for card, count in t.owned.items())
        print(f"  the agent's cards at the end (mean per game): {deck}", flush=True)


if __name__ == "__main__":
    main()
