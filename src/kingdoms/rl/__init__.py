"""Reinforcement learning: PettingZoo AEC environments for both games.

>>> from kingdoms.rl import kingdomino_env
>>> env = kingdomino_env(players=2)
>>> env.reset(seed=3)
>>> sorted(env.possible_agents)
['player_0', 'player_1']

Needs the ``rl`` extra (numpy, gymnasium, pettingzoo).  See ``docs/rl.md``.

The names below are imported when first used: the observation encoders
(:mod:`kingdoms.rl.dominion_obs`, which the ``learned`` bot reads) need numpy only,
so a server without the ``rl`` extra still plays that bot.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kingdoms.rl.dominion import dominion_env, dominion_raw_env
    from kingdoms.rl.env import Encoder, KingdomsAECEnv
    from kingdoms.rl.kingdomino import kingdomino_env, kingdomino_raw_env
    from kingdoms.rl.league import OpponentPool, SelfPlay
    from kingdoms.rl.vector import Batch, VectorGames
    from kingdoms.rl.versus import Policy, VersusBots

_EXPORTS = {
    "Batch": "kingdoms.rl.vector",
    "Encoder": "kingdoms.rl.env",
    "KingdomsAECEnv": "kingdoms.rl.env",
    "OpponentPool": "kingdoms.rl.league",
    "Policy": "kingdoms.rl.versus",
    "SelfPlay": "kingdoms.rl.league",
    "VectorGames": "kingdoms.rl.vector",
    "VersusBots": "kingdoms.rl.versus",
    "dominion_env": "kingdoms.rl.dominion",
    "dominion_raw_env": "kingdoms.rl.dominion",
    "kingdomino_env": "kingdoms.rl.kingdomino",
    "kingdomino_raw_env": "kingdoms.rl.kingdomino",
}

__all__ = [
    "Batch",
    "Encoder",
    "KingdomsAECEnv",
    "OpponentPool",
    "Policy",
    "SelfPlay",
    "VectorGames",
    "VersusBots",
    "dominion_env",
    "dominion_raw_env",
    "kingdomino_env",
    "kingdomino_raw_env",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'kingdoms.rl' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
