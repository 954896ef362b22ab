"""The game registry: ``new_game("dominion", ...)`` and ``new_game("kingdomino", ...)``.

Games plug in through the ``kingdoms.games`` entry-point group (see
``pyproject.toml``); the built-in games are also listed here so that the
package works from a source tree without being installed.
"""

from __future__ import annotations

import abc
import importlib
import os
import random
from collections.abc import Mapping
from functools import cache
from importlib import metadata
from types import MappingProxyType
from typing import Any

from kingdoms.core.errors import InvalidConfig
from kingdoms.core.state import GameConfig, State

_BUILTIN: Mapping[str, str] = MappingProxyType(
    {
        "dominion": "kingdoms.dominion.game:GAME",
        "kingdomino": "kingdoms.kingdomino.game:GAME",
    }
)


class Game(abc.ABC):
    """A registered game: how to validate settings and start a state."""

    name: str
    title: str
    min_players: int
    max_players: int
    score_name: str = "score"
    """What the sim report calls a seat's final number (``vp``, ``score``)."""
    supports_first_player: bool = False
    """True if the option ``first_player`` (a seat) fixes who starts."""

    @abc.abstractmethod
    def normalize_options(
        self, options: Mapping[str, Any], players: int, seed: int
    ) -> dict[str, Any]:
        """Validate ``options`` and fill in defaults; raise :class:`InvalidConfig`.

        The result is stored in the game record, so anything chosen at random
        (e.g. a random Dominion kingdom, drawn from ``seed``) is resolved here and
        normalizing a normalized dict again returns it unchanged."""

    @abc.abstractmethod
    def create(self, config: GameConfig) -> State:
        """A new game for a validated configuration."""

    @abc.abstractmethod
    def num_distinct_actions(self, config: GameConfig) -> int:
        """Size of the integer action space (every action is below this)."""

    def state_from_view(self, view: Mapping[str, Any], rng: random.Random) -> State:
        """A full state consistent with ``view`` (hidden parts sampled with ``rng``).

        This is how search bots (MCTS) that only ever see their view get states
        to simulate.  Games that support it override this."""
        raise InvalidConfig(f"{self.title} does not support building states from views")

    def bot_names(self) -> Mapping[str, str]:
        """Game-specific bots: name -> ``module:factory``."""
        return {}

    def summarize(self, state: State) -> dict[str, Any]:
        """Extra per-game facts for the simulator (e.g. turns, how the game ended)."""
        return {}

    def check_players(self, players: int) -> None:
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise InvalidConfig(
                f"{self.title} takes {self.min_players}–{self.max_players} players, not {players!r}"
            )

    def config(
        self, players: int, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> GameConfig:
        self.check_players(players)
        if seed is None:
            seed = int.from_bytes(os.urandom(6), "big")
        if not isinstance(seed, int) or seed < 0:
            raise InvalidConfig(f"seed must be a non-negative integer, not {seed!r}")
        if options is not None and not isinstance(options, Mapping):
            raise InvalidConfig(f"{self.title} options must be a mapping, not {options!r}")
        opts = self.normalize_options(dict(options or {}), players, seed)
        return GameConfig(game=self.name, players=players, seed=seed, options=opts)


def _load(target: str) -> Game:
    module, _, attr = target.partition(":")
    obj = getattr(importlib.import_module(module), attr)
    if not isinstance(obj, Game):
        raise InvalidConfig(f"{target} is not a kingdoms Game")
    return obj


@cache
def _entry_points() -> Mapping[str, str]:
    found = {ep.name: ep.value for ep in metadata.entry_points(group="kingdoms.games")}
    return MappingProxyType({**_BUILTIN, **found})


def available_games() -> list[str]:
    """Names accepted by :func:`new_game`."""
    return sorted(_entry_points())


def get_game(name: str) -> Game:
    """The :class:`Game` called ``name`` (``"dominion"``, ``"kingdomino"``)."""
    targets = _entry_points()
    if name not in targets:
        raise InvalidConfig(f"unknown game {name!r}; available: {', '.join(sorted(targets))}")
    return _load(targets[name])


def new_game(
    name: str,
    players: int = 2,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> State:
    """Start a game.

    >>> state = new_game("kingdomino", players=4, seed=1)
    >>> state.current_player in range(4)
    True
    """
    game = get_game(name)
    return game.create(game.config(players, seed, options))


def state_from_config(config: GameConfig) -> State:
    """A fresh state for a stored configuration (options re-validated)."""
    game = get_game(config.game)
    return game.create(game.config(config.players, config.seed, config.options))
