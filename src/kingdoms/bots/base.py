"""The bot protocol and the bot registry.

A bot gets only what its seat may see — ``state.view(seat)`` — plus the list
of legal actions and a random generator of its own, and answers one action::

    action = bot.act(view, legal_actions, rng)

Bots are named by a *spec*: a name and optional parameters, e.g.
``"big-money"``, ``"mcts:time=0.5"`` or ``"mcts:iterations=2000,playout=greedy"``.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, Protocol, runtime_checkable

from kingdoms.core.errors import InvalidConfig

View = Mapping[str, Any]


@runtime_checkable
class Bot(Protocol):
    """Anything with a ``name`` and an ``act`` method is a bot."""

    name: str

    def act(self, view: View, legal_actions: Sequence[int], rng: random.Random) -> int: ...


class ParameterlessBot:
    """Base of the bots that take no parameters: any given is a clear error."""

    name: str

    def __init__(self, **params: Any) -> None:
        if params:
            raise InvalidConfig(f"bot {self.name!r} takes no parameters, got {sorted(params)}")


class RandomBot(ParameterlessBot):
    """Uniformly random over the legal actions (for testing and as a baseline)."""

    name = "random"

    def act(self, view: View, legal_actions: Sequence[int], rng: random.Random) -> int:
        return legal_actions[rng.randrange(len(legal_actions))]


GENERIC_BOTS: Mapping[str, str] = MappingProxyType(
    {
        "random": "kingdoms.bots.base:RandomBot",
        "mcts": "kingdoms.bots.mcts:MCTSBot",
    }
)


def _coerce(value: str) -> Any:
    low = value.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def parse_bot_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"mcts:time=0.5,playout=greedy"`` -> ``("mcts", {"time": 0.5, "playout": "greedy"})``."""
    name, _, rest = spec.strip().partition(":")
    params: dict[str, Any] = {}
    if rest:
        for part in rest.split(","):
            key, eq, value = part.partition("=")
            if not eq or not key.strip():
                raise InvalidConfig(f"bad bot parameter {part!r} in {spec!r}; use key=value")
            params[key.strip().replace("-", "_")] = _coerce(value.strip())
    return name.strip(), params


SEARCH_BOTS = frozenset({"mcts"})
"""Generic bots that search: they need ``Game.state_from_view``."""


def _targets(game: str) -> dict[str, str]:
    from kingdoms.core.registry import Game, get_game

    g = get_game(game)
    searchable = type(g).state_from_view is not Game.state_from_view
    generic = {k: v for k, v in GENERIC_BOTS.items() if searchable or k not in SEARCH_BOTS}
    return {**generic, **g.bot_names()}


def bot_names(game: str) -> list[str]:
    """Bot names available for ``game`` (search bots only where the game can rebuild
    states from a seat's view)."""
    return sorted(_targets(game))


def game_bot_hook(game: str, attr: str) -> Any:
    """``attr`` of the game's bot package (``kingdoms.bots.<game>``), or None when
    the package or the attribute does not exist: the games' hooks for generic bots
    (``BOT_DEFAULTS``, ``playout_policy``, ``rank_actions``)."""
    try:
        module = importlib.import_module(f"kingdoms.bots.{game}")
    except ImportError:
        return None
    return getattr(module, attr, None)


def generic_defaults(game: str, name: str) -> dict[str, Any]:
    """The game's own default parameters for the generic bot ``name`` (its bot
    package's ``BOT_DEFAULTS``), e.g. the best playout policy for ``mcts``."""
    defaults = game_bot_hook(game, "BOT_DEFAULTS") or {}
    return dict(defaults.get(name, {}))


STRATEGY_SUFFIXES = (".toml",)
"""Bot specs ending so are strategy files, read by the game's ``bot_from_file`` hook."""


def make_bot(game: str, spec: str, *, files: bool = False) -> Bot:
    """Build the bot named by ``spec`` for ``game``; unknown names list the valid ones.

    ``files=True`` (the simulator, the command line) also accepts a path to a
    strategy file; never for specs from the network (they would read server files)."""
    name, params = parse_bot_spec(spec)
    targets = _targets(game)
    from_file = game_bot_hook(game, "bot_from_file") if files else None
    if name not in targets and from_file is not None and name.endswith(STRATEGY_SUFFIXES):
        # a strategy file: the game's bot package reads it
        bot = from_file(name, **params)
        if not isinstance(bot, Bot):
            raise InvalidConfig(f"{name} does not make a bot")
        return bot
    if name not in targets:
        raise InvalidConfig(f"unknown {game} bot {name!r}; available: {', '.join(sorted(targets))}")
    if name in GENERIC_BOTS:
        params = {**generic_defaults(game, name), **params}
    module, _, attr = targets[name].partition(":")
    factory = getattr(importlib.import_module(module), attr)
    try:
        bot = factory(**params)
    except TypeError as err:
        raise InvalidConfig(f"bad parameters for bot {name!r}: {err}") from err
    if not isinstance(bot, Bot):
        raise InvalidConfig(f"{targets[name]} does not make a bot")
    return bot
