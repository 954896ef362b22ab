"""One learning seat against fixed bots, as a single-agent Gymnasium environment.

Single-agent learners (Stable-Baselines3, sb3-contrib's masked PPO, …) want a
``gymnasium.Env``; :class:`VersusBots` gives them one seat of an AEC environment
from this package, the other seats being played by kingdoms bots (which, like
every bot, see only their own seat's view).  The learner's seat is drawn at random
at each reset, so it learns to play first and second.

``action_masks()`` returns the legal actions of the learner's decision, the method
sb3-contrib's ``MaskablePPO`` looks for.

>>> from kingdoms.rl import kingdomino_raw_env
>>> env = VersusBots(kingdomino_raw_env(players=2), ["random"])
>>> obs, info = env.reset(seed=0)
>>> obs.shape == env.observation_space.shape, int(env.action_masks().sum()) > 0
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from kingdoms.bots.base import Bot, make_bot
from kingdoms.core.errors import InvalidConfig
from kingdoms.rl.env import KingdomsAECEnv


class VersusBots(gymnasium.Env[np.ndarray, int]):
    """The learner plays one seat of ``env`` (an unwrapped environment) against
    ``bots`` (bot specs such as ``"random"`` or ``"big-money"``, one per other seat).

    Observations are the learner's observation vectors.  The reward comes at the end
    of the game: with ``reward="outcome"`` the learner's return (+1 win, 0 shared
    win, -1 loss; 0 when truncated); with ``reward="margin"`` that return plus its
    score margin over the best other seat divided by ``margin_scale`` (a denser
    signal while the learner still loses every game)."""

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 - Gymnasium's own attribute

    def __init__(
        self,
        env: KingdomsAECEnv,
        bots: Sequence[str],
        seat: int | None = None,
        reward: str = "outcome",
        margin_scale: float = 20.0,
    ) -> None:
        players = len(env.possible_agents)
        if reward not in ("outcome", "margin"):
            raise InvalidConfig(f"reward must be 'outcome' or 'margin', not {reward!r}")
        self.reward = reward
        self.margin_scale = margin_scale
        if len(bots) != players - 1:
            raise InvalidConfig(f"{players} players need {players - 1} bots, not {len(bots)}")
        if seat is not None and seat not in range(players):
            raise InvalidConfig(f"seat must be 0–{players - 1} or None, not {seat!r}")
        self.env = env
        game = env.game_name
        self.bots: list[Bot] = [make_bot(game, spec) for spec in bots]
        self.fixed_seat = seat
        self.seat = 0
        size = env.encoder.size
        self.observation_space = spaces.Box(-np.inf, np.inf, shape=(size,), dtype=np.float32)
        # one integer action, as in the AEC environment
        self.action_space = spaces.Discrete(env.num_actions)  # type: ignore[assignment]
        self._rng = random.Random(0)
        self._mask = np.zeros(env.num_actions, dtype=bool)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        self.env.reset(seed=self._rng.getrandbits(48))
        players = len(self.env.possible_agents)
        self.seat = self.fixed_seat if self.fixed_seat is not None else self._rng.randrange(players)
        self._play_bots()
        return self._observe(), {"seat": self.seat}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        self.env.step(int(action))
        self._play_bots()
        env = self.env
        me = env.possible_agents[self.seat]
        done = env.terminations[me] or env.truncations[me]
        reward = float(env._cumulative_rewards[me]) if done else 0.0
        info: dict[str, Any] = {"seat": self.seat}
        if done:
            outcome = env.game_state.outcome()
            info["won"] = outcome is not None and outcome.winners == (self.seat,)
            if outcome is not None and self.reward == "margin":
                scores = outcome.scores
                best = max(s for q, s in enumerate(scores) if q != self.seat)
                reward += (scores[self.seat] - best) / self.margin_scale
        return self._observe(), reward, env.terminations[me], env.truncations[me], info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as booleans (all False once the game is over)."""
        return self._mask

    def _play_bots(self) -> None:
        env = self.env
        state = env.game_state
        while True:
            player = state.current_player
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent] or player == self.seat:
                return
            others = [q for q in range(len(env.possible_agents)) if q != self.seat]
            bot = self.bots[others.index(player)]
            legal = state.legal_actions()
            env.step(bot.act(state.view(player), legal, self._rng))

    def _observe(self) -> np.ndarray:
        obs = self.env.observe(self.env.possible_agents[self.seat])
        self._mask = obs["action_mask"].astype(bool)
        # the environment's int16 vector as the float32 the networks take
        vector: np.ndarray = obs["observation"].astype(np.float32)
        return vector
