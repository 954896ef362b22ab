"""Self-play and a league: an opponent pool rated with openskill, checkpoints of the
learner, and a self-play wrapper.

:class:`OpponentPool` holds named opponents — bot specs, bots, and *policies*
(callables ``policy(observation, action_mask) -> action``, see
:class:`kingdoms.rl.versus.Policy`), among them frozen checkpoints of the learner —
each with a Weng–Lin rating (openskill's Plackett–Luce model, as the web app rates
players), and the learner's own rating.  It samples the opponents of each game *by
rating*: an opponent is drawn with weight ``p (1 - p) + floor``, ``p`` being the
learner's predicted chance to beat it, so games go mostly to opponents of about the
learner's strength, while every opponent keeps a share (``floor``).

:class:`SelfPlay` is :class:`kingdoms.rl.versus.VersusBots` with the opponents drawn
from a pool at each reset and every finished game reported to it (ratings updated).

>>> from kingdoms.rl import kingdomino_raw_env
>>> pool = OpponentPool()
>>> _ = pool.add("random", "random")
>>> _ = pool.add("greedy", "greedy")
>>> env = SelfPlay(kingdomino_raw_env(), pool)
>>> obs, info = env.reset(seed=1)
>>> info["opponents"][0] in ("random", "greedy")
True
"""

from __future__ import annotations

import copy
import math
import pickle
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from openskill.models import PlackettLuce

from kingdoms.core.errors import InvalidConfig
from kingdoms.rl.env import KingdomsAECEnv
from kingdoms.rl.versus import Opponent, VersusBots

LEARNER = "learner"
"""The learner's name in the pool's ratings."""


@dataclass
class Entry:
    """One opponent of the pool and its record against the learner."""

    name: str
    opponent: Opponent
    mu: float
    sigma: float
    games: int = 0
    learner_wins: int = 0
    checkpoint: bool = False
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def ordinal(self) -> float:
        """The conservative rating ``mu - 3 sigma`` (what leaderboards sort by)."""
        return self.mu - 3 * self.sigma


class OpponentPool:
    """Named opponents with ratings; sample them for games, report the results.

    ``floor`` is the weight every opponent keeps whatever its rating (0: only
    opponents the learner may beat or lose to are drawn); ``max_checkpoints`` the
    number of learner checkpoints kept (the oldest beyond it are dropped, bots
    never)."""

    def __init__(self, floor: float = 0.05, max_checkpoints: int = 20) -> None:
        if floor < 0:
            raise InvalidConfig(f"floor must be >= 0, not {floor!r}")
        if max_checkpoints < 1:
            raise InvalidConfig(f"max_checkpoints must be >= 1, not {max_checkpoints!r}")
        self.model = PlackettLuce()
        self.floor = floor
        self.max_checkpoints = max_checkpoints
        self.entries: dict[str, Entry] = {}
        start = self.model.rating()
        self.learner_mu, self.learner_sigma = float(start.mu), float(start.sigma)
        self.last: list[str] = []
        """The names :meth:`sample` gave last."""

    # -- the pool ----------------------------------------------------------------------
    def add(self, name: str, opponent: Opponent, *, checkpoint: bool = False) -> Entry:
        """Add ``opponent`` (a bot spec, a bot or a policy) as ``name``, with a new
        player's rating."""
        if not name or name == LEARNER:
            raise InvalidConfig(f"an opponent needs a name other than {LEARNER!r}")
        if name in self.entries:
            raise InvalidConfig(f"the pool already has an opponent named {name!r}")
        start = self.model.rating()
        entry = Entry(name, opponent, float(start.mu), float(start.sigma), checkpoint=checkpoint)
        self.entries[name] = entry
        return entry

    def checkpoint(self, name: str, policy: Any) -> Entry:
        """Add a frozen copy of the learner's ``policy`` (deep-copied: later training
        does not change it), rated as the learner is now.  The oldest checkpoints
        beyond ``max_checkpoints`` leave the pool."""
        entry = self.add(name, copy.deepcopy(policy), checkpoint=True)
        entry.mu, entry.sigma = self.learner_mu, self.learner_sigma
        kept = [e.name for e in self.entries.values() if e.checkpoint]
        for old in kept[: max(0, len(kept) - self.max_checkpoints)]:
            del self.entries[old]
        return entry

    def remove(self, name: str) -> None:
        if name not in self.entries:
            raise InvalidConfig(f"no opponent named {name!r} in the pool")
        del self.entries[name]

    # -- sampling ----------------------------------------------------------------------
    def win_chance(self, name: str) -> float:
        """The learner's predicted chance to beat opponent ``name`` (openskill)."""
        e = self.entries[name]
        me = self.model.rating(mu=self.learner_mu, sigma=self.learner_sigma)
        them = self.model.rating(mu=e.mu, sigma=e.sigma)
        return float(self.model.predict_win([[me], [them]])[0])

    def weights(self) -> dict[str, float]:
        """Each opponent's sampling weight, ``p (1 - p) + floor`` (normalised)."""
        if not self.entries:
            raise InvalidConfig("the opponent pool is empty: add() opponents first")
        raw = {}
        for name in self.entries:
            p = self.win_chance(name)
            raw[name] = p * (1 - p) + self.floor
        total = sum(raw.values())
        return {name: w / total for name, w in raw.items()}

    def sample(self, rng: random.Random, k: int = 1) -> list[Opponent]:
        """``k`` opponents drawn by rating (with replacement); their names in
        :attr:`last`."""
        weights = self.weights()
        names = rng.choices(list(weights), weights=list(weights.values()), k=k)
        self.last = names
        return [self.entries[n].opponent for n in names]

    def __call__(self, rng: random.Random, k: int) -> list[Opponent]:
        """An :data:`kingdoms.rl.versus.OpponentSource`: :meth:`sample`."""
        return self.sample(rng, k)

    # -- results -----------------------------------------------------------------------
    def report(self, opponents: Sequence[str], scores: Sequence[float]) -> None:
        """A finished game: ``scores[0]`` is the learner's result, ``scores[i + 1]``
        that of ``opponents[i]`` (higher is better; equal is a tie).  Updates the
        ratings (Plackett–Luce) and the opponents' records."""
        if len(scores) != len(opponents) + 1:
            raise InvalidConfig("report() needs one score for the learner and one per opponent")
        players = [(LEARNER, self.learner_mu, self.learner_sigma)]
        for name in opponents:
            if name not in self.entries:
                raise InvalidConfig(f"no opponent named {name!r} in the pool")
            e = self.entries[name]
            players.append((name, e.mu, e.sigma))
        teams = [[self.model.rating(mu=mu, sigma=sigma, name=n)] for n, mu, sigma in players]
        ranks = [-float(s) for s in scores]
        new = self.model.rate(teams, ranks=ranks)
        # the same opponent twice in a game: the last of its updates counts
        for (name, _mu, _sigma), team in zip(players, new, strict=True):
            mu, sigma = float(team[0].mu), float(team[0].sigma)
            if name == LEARNER:
                self.learner_mu, self.learner_sigma = mu, sigma
            else:
                self.entries[name].mu, self.entries[name].sigma = mu, sigma
        for name, score in zip(opponents, scores[1:], strict=True):
            e = self.entries[name]
            e.games += 1
            e.learner_wins += scores[0] > score

    def table(self) -> list[dict[str, Any]]:
        """The pool as rows, best rated first (the learner among them)."""
        rows = [
            {
                "name": LEARNER,
                "mu": self.learner_mu,
                "sigma": self.learner_sigma,
                "ordinal": self.learner_mu - 3 * self.learner_sigma,
                "games": sum(e.games for e in self.entries.values()),
                "learner_win_rate": math.nan,
            }
        ]
        for e in self.entries.values():
            rate = e.learner_wins / e.games if e.games else math.nan
            rows.append(
                {
                    "name": e.name,
                    "mu": e.mu,
                    "sigma": e.sigma,
                    "ordinal": e.ordinal,
                    "games": e.games,
                    "learner_win_rate": rate,
                }
            )
        return sorted(rows, key=lambda r: -float(r["ordinal"]))

    # -- files -------------------------------------------------------------------------
    def save(self, path: str | Path) -> None:
        """Write the pool (opponents, checkpoints and ratings) with pickle."""
        Path(path).write_bytes(pickle.dumps(self))

    @staticmethod
    def load(path: str | Path) -> OpponentPool:
        """A pool :meth:`save` wrote (pickle: load only files you trust)."""
        pool = pickle.loads(Path(path).read_bytes())
        if not isinstance(pool, OpponentPool):
            raise InvalidConfig(f"{path} does not hold an opponent pool")
        return pool

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("model")
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.model = PlackettLuce()


class SelfPlay(VersusBots):
    """:class:`~kingdoms.rl.versus.VersusBots` against opponents drawn from ``pool``
    at each reset (by rating); each finished game is reported to the pool, so the
    ratings follow the learner.  The opponents' names are in ``info["opponents"]``.
    Add checkpoints of the learner with :meth:`OpponentPool.checkpoint` as it
    trains (self-play against its past selves, the league's bots alongside)."""

    def __init__(self, env: KingdomsAECEnv, pool: OpponentPool, **settings: Any) -> None:
        self.pool = pool
        self.opponent_names: list[str] = []
        super().__init__(env, pool, **settings)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        obs, info = super().reset(seed=seed, options=options)
        self.opponent_names = list(self.pool.last)
        info["opponents"] = self.opponent_names
        return obs, info

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = super().step(action)
        info["opponents"] = self.opponent_names
        outcome = self.env.game_state.outcome() if terminated else None
        if outcome is not None and not info.get("illegal"):
            returns = outcome.returns()
            others = [q for q in range(len(returns)) if q != self.seat]
            scores = [returns[self.seat]] + [returns[q] for q in others]
            self.pool.report(self.opponent_names, scores)
        return obs, reward, terminated, truncated, info
