"""Many games in one process, stepped together with batched NumPy arrays.

:class:`VectorGames` runs ``num_envs`` games of an AEC environment of this package
side by side (no subprocesses: the engine is fast, and a batch of observations is
what a network wants).  At every step each game asks one seat to act — whichever
seat its rules say — so one batched forward pass plays every seat of every game
(self-play), or a caller picks the rows of its learner's seats.

* :meth:`VectorGames.reset` and :meth:`VectorGames.step` return a
  :class:`Batch`: ``observations`` (``num_envs × size``, int16), ``masks``
  (``num_envs × actions``, bool), ``seats`` (the seat to act in each game),
  ``rewards`` (``num_envs × players``: the returns of the games that just ended,
  else 0), ``dones`` (the games that just ended; they were started again, and their
  rows already show the new game, as in Stable-Baselines3's vector environments)
  and ``outcomes`` (the finished games' :class:`~kingdoms.core.state.Outcome`).

>>> from kingdoms.rl import kingdomino_raw_env
>>> games = VectorGames(lambda: kingdomino_raw_env(players=2), 4)
>>> batch = games.reset(seed=0)
>>> batch.observations.shape[0], batch.masks.dtype.name
(4, 'bool')
>>> batch = games.step(games.random_actions())
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from kingdoms.core.errors import InvalidConfig
from kingdoms.core.state import TERMINAL, Outcome
from kingdoms.rl.encoding import OBS_DTYPE
from kingdoms.rl.env import KingdomsAECEnv


@dataclass
class Batch:
    """One step of every game (see the module docstring)."""

    observations: np.ndarray
    masks: np.ndarray
    seats: np.ndarray
    rewards: np.ndarray
    dones: np.ndarray
    outcomes: list[Outcome | None]


class VectorGames:
    """``num_envs`` games of the environments ``make_env()`` builds (unwrapped),
    stepped together; finished games start again at once."""

    def __init__(self, make_env: Callable[[], KingdomsAECEnv], num_envs: int) -> None:
        if num_envs < 1:
            raise InvalidConfig(f"num_envs must be >= 1, not {num_envs!r}")
        self.envs = [make_env().unwrapped for _ in range(num_envs)]
        first = self.envs[0]
        self.num_envs = num_envs
        self.players = len(first.possible_agents)
        self.size = first.encoder.size
        self.num_actions = first.num_actions
        self._obs = np.zeros((num_envs, self.size), OBS_DTYPE)
        self._masks = np.zeros((num_envs, self.num_actions), bool)
        self._seats = np.zeros(num_envs, np.int64)
        self._rng = random.Random()

    def reset(self, seed: int | None = None) -> Batch:
        """Start every game (game ``i`` from ``seed + i`` when seeded)."""
        self._rng = random.Random(seed)
        for i, env in enumerate(self.envs):
            env.reset(seed=None if seed is None else seed + i)
            self._read(i)
        zeros = np.zeros((self.num_envs, self.players), np.float32)
        dones = np.zeros(self.num_envs, bool)
        return self._batch(zeros, dones, [None] * self.num_envs)

    def step(self, actions: Sequence[int] | np.ndarray) -> Batch:
        """Apply one action per game (for the seat each asked); illegal actions raise
        :class:`kingdoms.core.errors.IllegalAction` (the games before it in the batch
        have moved)."""
        if len(actions) != self.num_envs:
            raise InvalidConfig(f"step() needs {self.num_envs} actions, not {len(actions)}")
        rewards = np.zeros((self.num_envs, self.players), np.float32)
        dones = np.zeros(self.num_envs, bool)
        outcomes: list[Outcome | None] = [None] * self.num_envs
        for i, env in enumerate(self.envs):
            env.step(int(actions[i]))
            state = env.game_state
            over = state.current_player == TERMINAL
            if over or env.truncations[env.agent_selection]:
                dones[i] = True
                if over:
                    outcomes[i] = state.outcome()
                    rewards[i] = state.returns()
                env.reset(seed=self._rng.getrandbits(48))
            self._read(i)
        return self._batch(rewards, dones, outcomes)

    def random_actions(self) -> np.ndarray:
        """A uniformly drawn legal action per game (for baselines and benchmarks)."""
        out = np.zeros(self.num_envs, np.int64)
        for i in range(self.num_envs):
            legal = np.flatnonzero(self._masks[i])
            out[i] = legal[self._rng.randrange(len(legal))]
        return out

    def _read(self, i: int) -> None:
        env = self.envs[i]
        agent = env.agent_selection
        obs = env.observe(agent)
        self._obs[i] = obs["observation"]
        self._masks[i] = obs["action_mask"]
        self._seats[i] = env.agent_name_mapping[agent]

    def _batch(
        self, rewards: np.ndarray, dones: np.ndarray, outcomes: list[Outcome | None]
    ) -> Batch:
        return Batch(
            self._obs.copy(), self._masks.copy(), self._seats.copy(), rewards, dones, outcomes
        )
