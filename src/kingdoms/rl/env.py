"""A PettingZoo AEC environment over any kingdoms game, given an observation encoder.

The environment drives one :class:`kingdoms.core.state.State`.  Agents are
``"player_0" … "player_{n-1}"`` (agent ``player_k`` is seat ``k``); the agent to
act is the state's ``current_player``.  Actions are the game's own integer
actions (a fixed :class:`gymnasium.spaces.Discrete` space); the observation of an
agent is ``{"observation": int16 vector, "action_mask": int8 vector}``, built
by the game's :class:`Encoder` from what that seat may see.  The info that
``last()`` hands over holds ``"legal_actions"``: the acting agent's legal actions
(the positions of its mask's 1s, in increasing order) as a tuple, empty for an
agent not to act — for learners that want them as numbers rather than search the
mask.

Rewards come only at the end: :meth:`kingdoms.core.state.Outcome.returns`
(+1 outright win, 0 shared win, -1 loss).  ``max_steps`` truncates a game that
runs too long (every agent is then truncated, with reward 0).

An illegal action raises :class:`kingdoms.core.errors.IllegalAction` naming the
action and the legal ones, and changes nothing.  ``illegal="terminate"`` wraps
the environment in PettingZoo's ``TerminateIllegalWrapper`` instead: the game
ends, the offending agent gets ``illegal_reward`` and a warning is issued.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypedDict

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from kingdoms.core.errors import IllegalAction, InvalidConfig
from kingdoms.core.registry import get_game
from kingdoms.core.state import State
from kingdoms.rl.core import ENDED, ILLEGAL, NOT_INT, TRUNCATED, StepCore
from kingdoms.rl.encoding import OBS_DTYPE, OBS_HIGH, OBS_LOW

Observation = dict[str, np.ndarray]


class Encoder(Protocol):
    """Turns a state into one seat's observation vector (its view only).

    ``size`` is the length of the vector, ``layout`` maps each field name to its
    slice of it (documented in the game's encoder module and in ``docs/rl.md``).
    """

    size: int
    layout: dict[str, slice]

    def encode(self, state: State, seat: int) -> np.ndarray:
        """A new :data:`OBS_DTYPE` vector of ``size`` holding what ``seat`` may see."""


class EnvSettings(TypedDict, total=False):
    """Settings common to both games' environments (each game adds its own)."""

    players: int
    options: Mapping[str, Any] | None
    render_mode: str | None
    max_steps: int | None


class KingdomsAECEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]
    """The unwrapped environment; build it with :func:`kingdoms.rl.dominion_env` or
    :func:`kingdoms.rl.kingdomino_env`."""

    metadata: dict[str, Any]

    def __init__(
        self,
        game: str,
        players: int,
        options: Mapping[str, Any],
        encoder: Encoder,
        render_mode: str | None = None,
        max_steps: int | None = None,
        renderer: Callable[[State], str] | None = None,
        mask_by_legal_list: bool = False,
    ) -> None:
        super().__init__()
        self.metadata = {
            "render_modes": ["ansi"],
            "name": f"kingdoms_{game}_v0",
            "is_parallelizable": False,
        }
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidConfig(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if max_steps is not None and (not isinstance(max_steps, int) or max_steps < 1):
            raise InvalidConfig(f"max_steps must be a positive integer or None, not {max_steps!r}")
        self._game = get_game(game)
        self.game_name = game
        # validate now, so that bad settings fail at construction, not at reset
        config = self._game.config(players, 0, options)
        self._options = dict(options)
        # seed -> config, the options checked and normalised once where the game can
        self._configs = self._game.configs(players, options)
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.encoder = encoder
        self._renderer = renderer
        self.num_actions = self._game.num_distinct_actions(config)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=OBS_LOW, high=OBS_HIGH, shape=(encoder.size,), dtype=OBS_DTYPE
                ),
                "action_mask": spaces.Box(0, 1, shape=(self.num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.num_actions) for a in self.possible_agents}
        self._seeder = random.Random(int.from_bytes(os.urandom(8), "big"))
        self.state_: State | None = None
        # the per-step work (mask, observation, legality, move) is the core's: one
        # compiled object in the compiled build (see kingdoms.rl.core)
        self._core = StepCore(encoder, self.num_actions, self.possible_agents, mask_by_legal_list)
        # the order-enforcing wrapper right around this environment, once it handed
        # its ``step`` to this one's (see :class:`OrderEnforcing`)
        self._order: OrderEnforcing | None = None

    # -- spaces -------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the game -----------------------------------------------------------------------
    @property
    def game_state(self) -> State:
        """The state being played (full information: for tests, bots and tools,
        never for the learning agent, which should use :meth:`observe`)."""
        if self.state_ is None:
            raise InvalidConfig("call reset() before using the environment")
        return self.state_

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game.  With ``seed``, the game (and every later game started
        by ``reset()`` without a seed) is reproducible."""
        if seed is not None:
            self._seeder = random.Random(seed)
        game_seed = self._seeder.getrandbits(48)
        state = self._game.create(self._configs(game_seed))
        state.logging = False
        self.state_ = state
        self._core.start(state, -1 if self.max_steps is None else self.max_steps)
        self.agents = self.possible_agents.copy()
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[state.current_player]
        self._rewards_zero = True  # every entry of rewards is 0 (the usual case)

    def legal_actions(self) -> list[int]:
        """The legal actions of the agent to act (the positions of its mask's 1s), as
        the engine lists them; not to be changed.  For tools and benchmarks: a
        learner reads its mask."""
        return self._core.legal_actions(self.game_state)

    def observe(self, agent: str) -> Observation:
        """Encoded on demand: a step encodes nothing."""
        state = self.state_
        if state is None:
            raise InvalidConfig("call reset() before using the environment")
        # a fresh vector and a fresh mask: the learner may keep or change them
        return self._core.observe(state, agent)

    def last(
        self, observe: bool = True
    ) -> tuple[Observation | None, float, bool, bool, dict[str, Any]]:
        agent = self.agent_selection
        state = self.state_
        info = self.infos[agent]
        if observe:
            if state is None:
                raise InvalidConfig("call reset() before using the environment")
            obs = self._core.observe_info(state, agent, info)
        else:
            obs = None
            if state is not None:
                self._core.note_legal(state, self._core.seats[agent], info)
        return (
            obs,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            info,
        )

    def step(self, action: int | None) -> None:
        order = self._order
        if order is not None:  # the wrapper's checks, as its own ``step`` makes them
            order._has_updated = True
            if not self.agents:
                EnvLogger.warn_step_after_terminated_truncated()
                return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state_
        if state is None:
            raise InvalidConfig("call reset() before using the environment")
        player = self._core.apply(state, action)
        if player >= 0 and self._rewards_zero:  # the usual case
            self.agent_selection = self.possible_agents[player]
            return
        if player == NOT_INT:
            if action is None or isinstance(action, bool):
                raise IllegalAction(f"{agent}: action must be an integer, not {action!r}")
            try:
                a = int(action)
            except (TypeError, ValueError):
                raise IllegalAction(f"{agent}: action must be an integer, not {action!r}") from None
            player = self._core.apply(state, a) if a == action else ILLEGAL
        if player == ILLEGAL:
            raise IllegalAction(
                f"{agent}: action {action!r} is not legal now; legal: "
                + ", ".join(
                    f"{x} ({state.action_to_str(x)})" for x in self._core.legal_actions(state)
                )
            )
        if player == ENDED:
            self._cumulative_rewards[agent] = 0.0
            returns = state.returns()
            for i, name in enumerate(self.possible_agents):
                self.rewards[name] = float(returns[i])
                self.terminations[name] = True
            self._rewards_zero = False
            self._accumulate_rewards()
            return
        if not self._rewards_zero:
            self._cumulative_rewards[agent] = 0.0
            self._clear_rewards()
            self._rewards_zero = True
        # (with every reward 0, clearing the acting agent's cumulative reward and
        # adding the rewards would change nothing: rewards only come at the end)
        if player == TRUNCATED:
            for name in self.agents:
                self.truncations[name] = True
        else:
            self.agent_selection = self.possible_agents[player]

    # -- display ------------------------------------------------------------------------
    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_text(self.game_state, self._renderer)

    def close(self) -> None:
        self.state_ = None


def render_text(state: State, renderer: Callable[[State], str] | None = None) -> str:
    """A plain-text picture of the game for people (the acting seat's view)."""
    seat = state.current_player
    out = state.outcome()
    lines = [repr(state)]
    if out is not None:
        lines.append(f"game over: scores {list(out.scores)}, winners {list(out.winners)}")
        return "\n".join(lines)
    if renderer is not None:
        lines.append(renderer(state))
    lines.append(f"player_{seat} to act; legal: " + "; ".join(state.describe_legal()))
    return "\n".join(lines)


def wrap(env: KingdomsAECEnv, illegal: str = "raise", illegal_reward: float = -1.0) -> AECEnv:
    """PettingZoo's standard wrappers: ``OrderEnforcingWrapper`` (no step or observe
    before reset, no step after the end), and with ``illegal="terminate"``
    ``TerminateIllegalWrapper``.

    ``AssertOutOfBoundsWrapper`` is left out on purpose: the environment itself
    rejects every action outside the space with :class:`IllegalAction`, which names
    the legal actions, where that wrapper raises a bare ``AssertionError`` (and none
    at all under ``python -O``)."""
    out: AECEnv = env
    if illegal == "terminate":
        out = wrappers.TerminateIllegalWrapper(out, illegal_reward=illegal_reward)
    elif illegal != "raise":
        raise InvalidConfig(f"illegal must be 'raise' or 'terminate', not {illegal!r}")
    return OrderEnforcing(out)


class OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's ``OrderEnforcingWrapper`` with the same checks, whose ``last`` and
    ``step`` read the wrapped environment's attributes directly once reset (the
    inherited ones fetch each attribute through ``__getattr__``, twice).  Once reset,
    ``last`` has nothing left to check: it is then the wrapped environment's own
    (bound on the instance, so a learner's ``last()`` runs no frame of this class).
    Around a :class:`KingdomsAECEnv` itself, ``step`` is the environment's own too,
    which then makes this wrapper's checks (marks the wrapper updated, warns of a
    step once every agent is done)."""

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        super().reset(seed=seed, options=options)
        object.__setattr__(self, "last", self.env.last)
        if isinstance(self.env, KingdomsAECEnv):
            self.env._order = self
            object.__setattr__(self, "step", self.env.step)

    def last(
        self, observe: bool = True
    ) -> tuple[Observation | None, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            return super().last(observe)  # type: ignore[no-any-return]
        return self.env.last(observe)  # type: ignore[no-any-return]

    def step(self, action: int | None) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)
