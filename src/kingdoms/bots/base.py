"""The bot protocol and the bot registry.

A bot gets only what its seat may see — ``state.view(seat)`` — plus the list
of legal actions and a random generator of its own, and answers one action::

    action = bot.act(view, legal_actions, rng)

Bots are named by a *spec*: a name and optional parameters, e.g.
``"big-money"``, ``"mcts:time=0.5"`` or ``"mcts:iterations=2000,playout=greedy"``.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from kingdoms.core.errors import InvalidConfig
from kingdoms.core.registry import Game, get_game, load_target
from kingdoms.core.runner import Bot as Bot  # the bot protocol, defined next to the runner
from kingdoms.core.runner import ObservingBot as ObservingBot

View = Mapping[str, Any]


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


LEVELS = ("default", "strong")
"""Levels a spec may name without ``level=`` (``best:strong``)."""


def parse_bot_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"mcts:time=0.5,playout=greedy"`` -> ``("mcts", {"time": 0.5, "playout": "greedy"})``;
    a first parameter that is one of :data:`LEVELS` names the bot's level
    (``"best:strong"`` -> ``("best", {"level": "strong"})``).

    >>> parse_bot_spec("best:strong,seed=2")
    ('best', {'level': 'strong', 'seed': 2})
    """
    name, _, rest = spec.strip().partition(":")
    params: dict[str, Any] = {}
    if rest:
        for i, part in enumerate(rest.split(",")):
            key, eq, value = part.partition("=")
            if not eq and i == 0 and key.strip() in LEVELS:
                params["level"] = key.strip()
                continue
            if not eq or not key.strip():
                raise InvalidConfig(
                    f"bad bot parameter {part!r} in {spec!r}; use key=value"
                    f" (or first a level: {', '.join(LEVELS)})"
                )
            params[key.strip().replace("-", "_")] = _coerce(value.strip())
    return name.strip(), params


def format_bot_spec(name: str, params: Mapping[str, Any]) -> str:
    """The spec :func:`parse_bot_spec` reads back as ``(name, params)``: the level first
    and without ``level=``, on/off for booleans.

    >>> format_bot_spec("best", {"level": "strong", "many": True, "time": 0.5})
    'best:strong,many=on,time=0.5'
    >>> parse_bot_spec(format_bot_spec("best", {"level": "strong", "many": True}))
    ('best', {'level': 'strong', 'many': True})
    """
    parts = []
    level = params.get("level")
    if level in LEVELS:
        parts.append(str(level))
    for key, value in params.items():
        if key == "level" and level in LEVELS:
            continue
        text = ("on" if value else "off") if isinstance(value, bool) else str(value)
        parts.append(f"{key}={text}")
    return f"{name}:" + ",".join(parts) if parts else name


SEARCH_BOTS = frozenset({"mcts", "best"})
"""Bots that search (the generic ``mcts`` and Dominion's ``best``): they need
``Game.state_from_view``, and cost CPU at every move."""


def _targets(game: str) -> dict[str, str]:
    g = get_game(game)
    searchable = type(g).state_from_view is not Game.state_from_view
    generic = {k: v for k, v in GENERIC_BOTS.items() if searchable or k not in SEARCH_BOTS}
    return {**generic, **g.bot_names()}


def bot_names(game: str) -> list[str]:
    """Bot names available for ``game`` (search bots only where the game can rebuild
    states from a seat's view)."""
    return sorted(_targets(game))


_HOOKS = {
    "BOT_DEFAULTS": "defaults",
    "playout_policy": "playout_policy",
    "rank_actions": "rank_actions",
    "obvious_action": "obvious_action",
    "bot_from_file": "from_file",
    "bot_named": "named",
    "seat_options": "seat_options",
}
"""The hook names generic bots ask for -> fields of the game's ``BotHooks``."""


def seat_options(
    game: str, options: Mapping[str, Any] | None, seat_bots: Sequence[Any]
) -> dict[str, Any]:
    """The game ``options`` with what each seat's bot declares about its own setup
    (Dominion: a strategy's start state, given to the seat it plays), as the
    simulator, ``kingdoms play`` and the server deal games; ``seat_bots`` has one
    entry per seat (None for a human seat).  Raises :class:`InvalidConfig` when a
    bot's setup clashes with the options."""
    hook = game_bot_hook(game, "seat_options")
    return dict(options or {}) if hook is None else dict(hook(options or {}, seat_bots))


def game_bot_hook(game: str, attr: str) -> Any:
    """The game's bot hook ``attr`` (``BOT_DEFAULTS``, ``playout_policy``,
    ``rank_actions``, ``obvious_action``, ``bot_from_file``) as its registration
    (``Game.bots``) names it, or None when the game has none."""
    if attr not in _HOOKS:
        raise InvalidConfig(f"no bot hook {attr!r}; hooks: {', '.join(_HOOKS)}")
    return get_game(game).bot_hook(_HOOKS[attr])


def named_hook(targets: Mapping[str, str], name: str) -> Any:
    """``targets[name]`` (``"module:attr"``) imported when asked for, or None for a
    name not listed: how the games' bot packages name their playout policies
    without importing them up front."""
    target = targets.get(name)
    if target is None:
        return None
    return load_target(target)


def generic_defaults(game: str, name: str) -> dict[str, Any]:
    """The game's own default parameters for the generic bot ``name`` (its
    ``bots.defaults`` hook), e.g. the best playout policy for ``mcts``."""
    defaults = game_bot_hook(game, "BOT_DEFAULTS") or {}
    return dict(defaults.get(name, {}))


STRATEGY_SUFFIXES = (".toml",)
"""Bot specs ending so are strategy files, read by the game's ``bots.from_file`` hook."""


def make_bot(game: str, spec: str, *, files: bool = False) -> Bot:
    """Build the bot named by ``spec`` for ``game``; unknown names list the valid ones.

    ``files=True`` (the simulator, the command line) also accepts a path to a
    strategy file; never for specs from the network (they would read server files)."""
    return bot_factory(game, spec, files=files)()


def bot_factory(game: str, spec: str, *, files: bool = False) -> Callable[[], Bot]:
    """:func:`make_bot` with the spec looked up once: a function that builds a fresh
    bot on every call (the first call checks that it is a bot)."""
    named = game_bot_hook(game, "bot_named")
    made = named(spec.strip()) if named is not None else None
    if made is not None:  # a name the game builds bots from (Dominion: bmu+X:N)
        return _Maker(made, spec.strip(), spec.strip())
    name, params = parse_bot_spec(spec)
    targets = _targets(game)
    from_file = game_bot_hook(game, "bot_from_file") if files else None
    if name not in targets and from_file is not None and name.endswith(STRATEGY_SUFFIXES):
        # a strategy file: the game's bot package reads it
        return _Maker(functools.partial(from_file, name, **params), name, f"{name}")
    if name not in targets:
        import difflib

        close = difflib.get_close_matches(name.lower(), sorted(targets), n=2, cutoff=0.6)
        hint = f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""
        files_too = "; or a strategy file (.toml)" if from_file is not None else ""
        raise InvalidConfig(
            f"unknown {game} bot {name!r}{hint}; available: {', '.join(sorted(targets))}{files_too}"
        )
    if name in GENERIC_BOTS:
        params = {**generic_defaults(game, name), **params}
    factory = load_target(targets[name])
    return _Maker(
        functools.partial(factory, **params), name, targets[name], bad_params=True, game=game
    )


class _Maker:
    """Builds one spec's bots; the first build is checked (parameters, bot protocol,
    and every option the bot only uses later, such as a search bot's playout policy:
    a bot with a ``check_game(game)`` method checks them there)."""

    def __init__(
        self,
        make: Callable[[], Any],
        name: str,
        what: str,
        *,
        bad_params: bool = False,
        game: str | None = None,
    ) -> None:
        self._make = make
        self._name = name
        self._what = what
        self._bad_params = bad_params
        self._game = game
        self._checked = False

    def __call__(self) -> Bot:
        if self._checked:
            bot: Bot = self._make()
            return bot
        try:
            made = self._make()
        except TypeError as err:
            if not self._bad_params:
                raise
            given = getattr(self._make, "keywords", None) or {}
            shown = ", ".join(f"{k}={v!r}" for k, v in sorted(given.items()))
            raise InvalidConfig(f"bad parameters for bot {self._name!r} ({shown}): {err}") from err
        if not isinstance(made, Bot):
            raise InvalidConfig(f"{self._what} does not make a bot")
        check = getattr(made, "check_game", None)
        if check is not None and self._game is not None:
            check(self._game)
        self._checked = True
        return made
