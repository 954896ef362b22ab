"""Environments deep-copy and pickle mid-game: the copy continues the same game."""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from kingdoms.rl import dominion_env, dominion_raw_env, kingdomino_env, kingdomino_raw_env

MAKERS: dict[str, Callable[[], Any]] = {
    "dominion_raw": lambda: dominion_raw_env(kingdom="First Game"),
    "dominion": lambda: dominion_env(players=3),
    "kingdomino_raw": lambda: kingdomino_raw_env(players=2),
    "kingdomino": lambda: kingdomino_env(players=3, variants=["harmony"]),
}


def advance(env: Any, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        obs, _r, term, trunc, _i = env.last()
        if term or trunc:
            return
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
@pytest.mark.parametrize("name", sorted(MAKERS))
def test_copy_continues_the_same_game(name: str, how: str) -> None:
    env = MAKERS[name]()
    env.reset(seed=4)
    advance(env, random.Random(1), 37)
    again = copy.deepcopy(env) if how == "deepcopy" else pickle.loads(pickle.dumps(env))
    assert again.unwrapped.game_state is not env.unwrapped.game_state
    assert again.agent_selection == env.agent_selection
    assert again.unwrapped.game_state.fingerprint() == env.unwrapped.game_state.fingerprint()
    for _ in range(30):
        oa, ob = env.last(), again.last()
        assert np.array_equal(oa[0]["observation"], ob[0]["observation"])
        assert np.array_equal(oa[0]["action_mask"], ob[0]["action_mask"])
        assert oa[1:4] == ob[1:4]
        if oa[2] or oa[3]:
            break
        legal = np.flatnonzero(oa[0]["action_mask"])
        action = int(legal[len(legal) // 2])
        env.step(action)
        again.step(action)
    # the copy is independent
    before = env.unwrapped.game_state.fingerprint()
    advance(again, random.Random(2), 5)
    assert env.unwrapped.game_state.fingerprint() == before
