"""Shared helpers for the environment tests."""

from __future__ import annotations

import random
from typing import Any

import numpy as np


def play_random(env: Any, seed: int, max_steps: int = 100_000) -> list[int]:
    """Play one game with random legal actions (drawn from the mask); the actions."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    taken: list[int] = []
    for _agent in env.agent_iter(max_steps):
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = int(legal[rng.randrange(len(legal))])
        taken.append(action)
        env.step(action)
    return taken
