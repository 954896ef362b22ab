"""Train a Dominion agent with masked PPO (sb3-contrib) against a fixed bot.

The agent plays one seat of ``kingdoms.rl.dominion_env`` (its seat drawn at random
each game) against a kingdoms bot; illegal actions are masked out.  After
training it is measured on fresh games against the opponent and against
``random``, with the number of wins and a 95 % Wilson interval.

Short run (about a minute on two CPU cores; beats ``random`` clearly)::

    .venv/bin/python examples/train_dominion.py --opponent random --steps 20000

Long run (hours; the figure it reaches is in the README)::

    nice .venv/bin/python examples/train_dominion.py --opponent big-money --reward margin \\
        --warmup 20000 --steps 100000 --eval-games 100 --progress 10000 --save runs/dominion-ppo

Needs the ``rl`` extra: ``pip install 'kingdoms[rl]'``.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv, VecNormalize

from kingdoms.bots.base import make_bot
from kingdoms.rl import VersusBots, dominion_raw_env

KINGDOM = "First Game"


@dataclass
class Result:
    opponent: str
    games: int
    wins: int
    win_rate: float
    ci95: tuple[float, float]


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a win rate."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


def make_env(opponent: str, reward: str = "outcome", max_steps: int = 3000) -> VersusBots:
    env = dominion_raw_env(kingdom=KINGDOM, max_steps=max_steps)
    return VersusBots(env, [opponent], reward=reward)


class Progress(BaseCallback):  # type: ignore[misc]
    """Prints the win rate of the training games every ``every`` decisions."""

    def __init__(self, every: int) -> None:
        super().__init__()
        self.every = every
        self.games = self.wins = 0
        self.next = every
        self.start = time.perf_counter()

    def _on_step(self) -> bool:
        for info, done in zip(self.locals["infos"], self.locals["dones"], strict=True):
            if done:
                self.games += 1
                self.wins += bool(info.get("won"))
        if self.num_timesteps >= self.next and self.games:
            rate = self.wins / self.games
            minutes = (time.perf_counter() - self.start) / 60
            print(
                f"{self.num_timesteps} decisions, {minutes:.0f} min: won {self.wins} of "
                f"{self.games} training games ({rate:.0%})",
                flush=True,
            )
            self.games = self.wins = 0
            self.next += self.every
        return True


def train(
    opponent: str,
    steps: int,
    seed: int = 0,
    progress: int = 0,
    reward: str = "outcome",
    warmup: int = 0,
) -> tuple[MaskablePPO, VecNormalize]:
    """Train for ``steps`` decisions against ``opponent``, after ``warmup`` decisions
    against ``random`` (a curriculum: first learn to buy at all)."""
    torch.set_num_threads(1)
    first = "random" if warmup else opponent
    env = make_env(first, reward)
    venv = VecNormalize(DummyVecEnv([lambda: env]), norm_obs=True, norm_reward=False)
    venv.seed(seed)
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        learning_rate=3e-4,
        n_steps=1024,
        batch_size=256,
        n_epochs=4,
        gamma=0.995,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [128, 128]},
        seed=seed,
        device="cpu",
        verbose=0,
    )
    callback = Progress(progress) if progress else None
    if warmup:
        model.learn(total_timesteps=warmup, callback=callback)
        # the same environment, now against the real opponent
        env.opponents = [make_bot("dominion", opponent)]
    model.learn(total_timesteps=steps, callback=callback, reset_num_timesteps=not warmup)
    return model, venv


def evaluate(
    model: MaskablePPO | None, norm: VecNormalize | None, opponent: str, games: int, seed: int
) -> Result:
    """Play ``games`` games against ``opponent``; ``model=None`` plays random legal actions."""
    env = make_env(opponent)
    rng = np.random.default_rng(seed)
    wins = 0
    for g in range(games):
        obs, _info = env.reset(seed=seed + g)
        while True:
            mask = env.action_masks()
            if model is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                x = norm.normalize_obs(obs) if norm is not None else obs
                action, _ = model.predict(x, action_masks=mask, deterministic=True)
            obs, _reward, terminated, truncated, info = env.step(int(action))
            if terminated or truncated:
                wins += bool(info.get("won"))
                break
    return Result(opponent, games, wins, wins / games, wilson(wins, games))


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", default="random", help="bot to train against")
    parser.add_argument("--steps", type=int, default=20_000, help="learner decisions to train")
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", help="folder to save the model and the normalisation in")
    parser.add_argument("--progress", type=int, default=0, help="report every N decisions")
    parser.add_argument(
        "--warmup", type=int, default=0, help="decisions against random before the opponent"
    )
    parser.add_argument(
        "--reward",
        choices=["outcome", "margin"],
        default="outcome",
        help="end-of-game reward: the result, or the result plus the VP margin / 20",
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    model, venv = train(
        args.opponent, args.steps, args.seed, args.progress, args.reward, args.warmup
    )
    trained = time.perf_counter() - start
    venv.training = False
    report: dict[str, Any] = {
        "steps": args.steps,
        "warmup": args.warmup,
        "reward": args.reward,
        "train_seconds": round(trained, 1),
    }
    for opponent in dict.fromkeys([args.opponent, "random", "big-money"]):
        res = evaluate(model, venv, opponent, args.eval_games, seed=10_000 + args.seed)
        report[f"vs {opponent}"] = asdict(res)
    if args.save:
        model.save(f"{args.save}/model")
        venv.save(f"{args.save}/vecnormalize.pkl")
    print(json.dumps(report, indent=2))
    return report


if __name__ == "__main__":
    main()
