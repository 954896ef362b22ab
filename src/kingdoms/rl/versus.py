"""One learning seat against fixed opponents, as a single-agent Gymnasium environment.

Single-agent learners (Stable-Baselines3, sb3-contrib's masked PPO, …) want a
``gymnasium.Env``; :class:`VersusBots` gives them one seat of an AEC environment
from this package, the other seats being played by opponents: kingdoms bots (which,
like every bot, see only their own seat's view) or *policies* — any callable
``policy(observation, action_mask) -> action`` on that seat's own observation (the
float32 vector and the boolean mask a learner gets), such as a trained network or
a checkpoint of the learner itself (:mod:`kingdoms.rl.league`).  The learner's seat
is drawn at random at each reset, so it learns to play first and second.

``action_masks()`` returns the legal actions of the learner's decision, the method
sb3-contrib's ``MaskablePPO`` looks for.  An unmasked learner (or a checker drawing
``action_space.sample()``) may send an illegal action: ``illegal`` says what then
happens (see :class:`VersusBots`).

>>> from kingdoms.rl import kingdomino_raw_env
>>> env = VersusBots(kingdomino_raw_env(players=2), ["random"])
>>> obs, info = env.reset(seed=0)
>>> obs.shape == env.observation_space.shape, int(env.action_masks().sum()) > 0
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

import gymnasium
import numpy as np
from gymnasium import spaces

from kingdoms.bots.base import Bot, make_bot
from kingdoms.core.errors import IllegalAction, InvalidConfig
from kingdoms.rl.encoding import OBS_HIGH, OBS_LOW
from kingdoms.rl.env import KingdomsAECEnv

ILLEGAL_MODES = ("raise", "terminate", "penalize")


@runtime_checkable
class Policy(Protocol):
    """An opponent that acts from its seat's observation: the float32 observation
    vector and the boolean action mask (as :class:`VersusBots` hands them to a
    learner); it returns a legal action (an index where the mask is True)."""

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int: ...


Opponent = str | Bot | Policy
"""A bot spec (``"random"``, ``"big-money"``…), a bot object, or a :class:`Policy`."""

OpponentSource = Callable[[random.Random, int], Sequence[Opponent]]
"""Called at each reset with the environment's generator and the number of other
seats: the opponents of the next game (an :class:`kingdoms.rl.league.OpponentPool`
is one)."""


class VersusBots(gymnasium.Env[np.ndarray, int]):
    """The learner plays one seat of ``env`` (an unwrapped environment) against
    ``bots``: one :data:`Opponent` per other seat, or an :data:`OpponentSource` that
    names them anew for every game.

    Observations are the learner's observation vectors as float32 (the environment's
    int16 values, so the space's bounds are int16's).  The reward comes at the end
    of the game: with ``reward="outcome"`` the learner's return (+1 win, 0 shared
    win, -1 loss; 0 when truncated); with ``reward="margin"`` that return plus its
    score margin over the best other seat divided by ``margin_scale`` (a denser
    signal while the learner still loses every game).

    ``illegal`` — what an illegal action of the learner does:

    * ``"raise"`` (default): :class:`kingdoms.core.errors.IllegalAction`, nothing changed;
    * ``"terminate"``: the game ends for the learner with ``illegal_reward``
      (``info["illegal"]`` is True);
    * ``"penalize"``: nothing happens but the reward ``illegal_reward``; the same
      decision is asked again (``info["illegal"]`` is True).  With
      ``max_illegal`` such actions in one game, the episode is truncated.
    """

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 - Gymnasium's own attribute

    def __init__(
        self,
        env: KingdomsAECEnv,
        bots: Sequence[Opponent] | OpponentSource,
        seat: int | None = None,
        reward: str = "outcome",
        margin_scale: float = 20.0,
        illegal: str = "raise",
        illegal_reward: float = -1.0,
        max_illegal: int = 100,
    ) -> None:
        players = len(env.possible_agents)
        if reward not in ("outcome", "margin"):
            raise InvalidConfig(f"reward must be 'outcome' or 'margin', not {reward!r}")
        if illegal not in ILLEGAL_MODES:
            raise InvalidConfig(f"illegal must be one of {ILLEGAL_MODES}, not {illegal!r}")
        if seat is not None and seat not in range(players):
            raise InvalidConfig(f"seat must be 0–{players - 1} or None, not {seat!r}")
        self.reward = reward
        self.margin_scale = margin_scale
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.max_illegal = max_illegal
        self.env = env
        self._source: OpponentSource | None = None
        self.opponents: list[Bot | Policy] = []
        if callable(bots) and not isinstance(bots, (str, Sequence)):
            self._source = bots
        else:
            if len(bots) != players - 1:
                raise InvalidConfig(f"{players} players need {players - 1} bots, not {len(bots)}")
            self.opponents = [self._opponent(b) for b in bots]
        self.fixed_seat = seat
        self.seat = 0
        size = env.encoder.size
        self.observation_space = spaces.Box(OBS_LOW, OBS_HIGH, shape=(size,), dtype=np.float32)
        # one integer action, as in the AEC environment
        self.action_space = spaces.Discrete(env.num_actions)  # type: ignore[assignment]
        self._rng = random.Random(0)
        self._mask = np.zeros(env.num_actions, dtype=bool)
        self._obs = np.zeros(size, dtype=np.float32)
        self._illegal_count = 0
        self._over = True

    @property
    def bots(self) -> list[Bot | Policy]:
        """The opponents of the game being played (one per other seat, in seat order)."""
        return self.opponents

    def _opponent(self, spec: Opponent) -> Bot | Policy:
        if isinstance(spec, str):
            return make_bot(self.env.game_name, spec)
        if hasattr(spec, "act") or callable(spec):
            return spec
        raise InvalidConfig(f"an opponent is a bot spec, a bot or a policy, not {spec!r}")

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        self.env.reset(seed=self._rng.getrandbits(48))
        players = len(self.env.possible_agents)
        self.seat = self.fixed_seat if self.fixed_seat is not None else self._rng.randrange(players)
        if self._source is not None:
            chosen = list(self._source(self._rng, players - 1))
            if len(chosen) != players - 1:
                raise InvalidConfig(f"the opponent source gave {len(chosen)} opponents")
            self.opponents = [self._opponent(b) for b in chosen]
        self._illegal_count = 0
        self._over = False
        self._play_bots()
        return self._observe(), {"seat": self.seat}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        env = self.env
        me = env.possible_agents[self.seat]
        info: dict[str, Any] = {"seat": self.seat}
        if self._over:
            raise InvalidConfig("the game is over: call reset()")
        try:
            a = int(action)
            legal = a == action and 0 <= a < env.num_actions and bool(self._mask[a])
        except (TypeError, ValueError):
            legal = False
        if not legal:
            if self.illegal == "raise":
                env.step(action)  # raises IllegalAction naming the legal actions
                raise IllegalAction(f"action {action!r} is not legal now")  # (not reached)
            info["illegal"] = True
            self._illegal_count += 1
            if self.illegal == "terminate":
                self._over = True
                self._mask = np.zeros(env.num_actions, dtype=bool)
                return self._obs.copy(), self.illegal_reward, True, False, info
            truncated = self._illegal_count >= self.max_illegal
            self._over = truncated
            return self._obs.copy(), self.illegal_reward, False, truncated, info
        env.step(a)
        self._play_bots()
        done = env.terminations[me] or env.truncations[me]
        reward = float(env._cumulative_rewards[me]) if done else 0.0
        if done:
            self._over = True
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
        others = [q for q in range(len(env.possible_agents)) if q != self.seat]
        while True:
            player = state.current_player
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent] or player == self.seat:
                return
            opponent = self.opponents[others.index(player)]
            if hasattr(opponent, "act"):  # a bot: its seat's view
                legal = state.legal_actions()
                env.step(opponent.act(state.view(player), legal, self._rng))
            else:  # a policy: its seat's observation
                obs = env.observe(agent)
                action = opponent(
                    obs["observation"].astype(np.float32), obs["action_mask"].astype(bool)
                )
                env.step(int(action))

    def _observe(self) -> np.ndarray:
        obs = self.env.observe(self.env.possible_agents[self.seat])
        self._mask = obs["action_mask"].astype(bool)
        # the environment's int16 vector as the float32 the networks take
        vector: np.ndarray = obs["observation"].astype(np.float32)
        self._obs = vector
        return vector.copy()
