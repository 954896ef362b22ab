"""Reinforcement learning: PettingZoo AEC environments for both games.

>>> from kingdoms.rl import kingdomino_env
>>> env = kingdomino_env(players=2)
>>> env.reset(seed=3)
>>> sorted(env.possible_agents)
['player_0', 'player_1']

Needs the ``rl`` extra (numpy, gymnasium, pettingzoo).  See ``docs/rl.md``.
"""

from __future__ import annotations

from kingdoms.rl.dominion import dominion_env, dominion_raw_env
from kingdoms.rl.env import Encoder, KingdomsAECEnv
from kingdoms.rl.kingdomino import kingdomino_env, kingdomino_raw_env
from kingdoms.rl.league import OpponentPool, SelfPlay
from kingdoms.rl.vector import Batch, VectorGames
from kingdoms.rl.versus import Policy, VersusBots

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
