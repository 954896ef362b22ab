"""Steps per second of :class:`kingdoms.rl.VectorGames` (N games in one process,
batched NumPy observations and masks) against N separate AEC environments stepped
one by one, and against the bare engine.

One "step" is one action of one seat in random 2-player games; the vector loop
draws every game's action from its batched mask (one ``argmax`` over random scores
on the mask: what a batched policy does), the AEC loop as a learner does with
``last()`` and ``step()``, the engine loop with ``legal_actions()`` and ``apply``.

    nice .venv/bin/python bench/rl_vector_speed.py [--seconds 5] [--envs 16] \
        [--games dominion,kingdomino]

Prints steps per second of each loop and the vector loop's cost per step over the
AEC loop's (the price of batching) and over the engine's.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np

from kingdoms.core.registry import get_game
from kingdoms.core.state import TERMINAL
from kingdoms.rl import VectorGames, dominion_raw_env, kingdomino_raw_env

MAKERS: dict[str, Callable[[], object]] = {
    "dominion": lambda: dominion_raw_env(kingdom="First Game"),
    "kingdomino": lambda: kingdomino_raw_env(players=2),
}
OPTIONS = {"dominion": {"kingdom": "First Game"}, "kingdomino": {}}


def vector_loop(game: str, envs: int, seconds: float) -> float:
    games = VectorGames(MAKERS[game], envs)  # type: ignore[arg-type]
    batch = games.reset(seed=1)
    rng = np.random.default_rng(1)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        scores = rng.random(batch.masks.shape) * batch.masks
        batch = games.step(scores.argmax(axis=1))
        steps += envs
    return steps / (time.perf_counter() - start)


def aec_loop(game: str, envs: int, seconds: float) -> float:
    many = [MAKERS[game]() for _ in range(envs)]
    for i, env in enumerate(many):
        env.reset(seed=i)  # type: ignore[attr-defined]
    rng = random.Random(1)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for env in many:
            obs, _r, term, trunc, _i = env.last()  # type: ignore[attr-defined]
            if term or trunc:
                env.reset()  # type: ignore[attr-defined]
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))  # type: ignore[attr-defined]
            steps += 1
    return steps / (time.perf_counter() - start)


def engine_loop(game: str, seconds: float) -> float:
    g = get_game(game)
    rng = random.Random(1)
    steps, start, seed = 0, time.perf_counter(), 0
    state = g.create(g.config(2, seed, OPTIONS[game]))
    while time.perf_counter() - start < seconds:
        if state.current_player == TERMINAL:
            seed += 1
            state = g.create(g.config(2, seed, OPTIONS[game]))
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--envs", type=int, default=16)
    parser.add_argument("--games", default="dominion,kingdomino")
    args = parser.parse_args()
    for game in args.games.split(","):
        vec = vector_loop(game, args.envs, args.seconds)
        aec = aec_loop(game, args.envs, args.seconds)
        eng = engine_loop(game, args.seconds)
        print(
            f"{game:10} vector({args.envs}) {vec:9,.0f} steps/s   aec {aec:9,.0f}   "
            f"engine {eng:9,.0f}   vector/aec cost {aec / vec:.2f}x   "
            f"vector/engine {eng / vec:.2f}x"
        )


if __name__ == "__main__":
    main()
