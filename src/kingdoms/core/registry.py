"""The game registry: ``new_game("dominion", ...)`` and ``new_game("kingdomino", ...)``.

A game declares itself once, as one :class:`Game` object: its name, title and
player range, its options, how it starts a state, its bots and their hooks, its
web board and style sheets, its terminal command, its simulator metrics and the
optional views of a state that front ends show (action info, public view,
current scores).  Everything that lives in a layer above ``core`` (bots,
terminal, simulator trackers) is named by a ``"module:attr"`` string and
imported only when used, so ``core`` imports nothing from those layers.

Games plug in through the ``kingdoms.games`` entry-point group (see
``pyproject.toml``); the built-in games are also listed here so that the
package works from a source tree without being installed.  The lobby, the
command line, the simulator and the server read :func:`available_games`: adding a
game is one package plus one entry point.
"""

from __future__ import annotations

import abc
import importlib
import os
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
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


def load_target(target: str) -> Any:
    """The object named by ``"package.module:attr"`` (the module imported now)."""
    module, sep, attr = target.partition(":")
    if not sep or not module or not attr:
        raise InvalidConfig(f"{target!r} is not a 'module:attr' name")
    obj: Any = importlib.import_module(module)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


@dataclass(frozen=True)
class BotHooks:
    """Where a game's bots live, each a ``"module:attr"`` imported only when used
    (``None``: the game has none).

    * ``table`` — a mapping bot name -> ``"module:factory"`` (the game's own bots);
    * ``defaults`` — a mapping generic bot name -> its default parameters here;
    * ``playout_policy`` — ``(name) -> policy or None``: MCTS playout policies;
    * ``rank_actions`` — ``(state, legal) -> legal, best first``: MCTS's ``width``;
    * ``obvious_action`` — ``(state, legal) -> action or None``: moves MCTS need not search;
    * ``from_file`` — ``(path, **params) -> bot``: strategy files (``.toml``);
    * ``named`` — ``(spec) -> (() -> bot) or None``: bots made from their name
      (Dominion's ``bmu+X:N``), for names not in ``table``;
    * ``seat_options`` — ``(options, seat_bots) -> options``: the game options with
      what each seat's bot declares about its own setup (Dominion: a strategy's start
      state), ``seat_bots`` one entry per seat, None for a human.
    """

    table: str | None = None
    defaults: str | None = None
    playout_policy: str | None = None
    rank_actions: str | None = None
    obvious_action: str | None = None
    from_file: str | None = None
    named: str | None = None
    seat_options: str | None = None


@dataclass(frozen=True)
class WebAssets:
    """What the browser loads for a game: the board module (``js/boards/<board>.js``,
    which renders the game's views; ``generic`` shows any view as data) and extra
    style sheets (paths under ``/static/``)."""

    board: str = "generic"
    css: tuple[str, ...] = ()


@dataclass(frozen=True)
class SimMetrics:
    """The simulator's per-turn curves: ``tracker`` is a ``"module:class"`` built
    as ``tracker(state)`` (see :mod:`kingdoms.sim.trackers`), ``metrics`` maps each
    series it records to what it means, ``unit`` names one step of the curves."""

    tracker: str | None = None
    metrics: Mapping[str, str] = field(default_factory=dict)
    unit: str = "turn"


class Game(abc.ABC):
    """A registered game: how to validate settings and start a state, and what
    every front end needs to know about it."""

    name: str
    title: str
    min_players: int
    max_players: int
    score_name: str = "score"
    """What the sim report calls a seat's final number (``vp``, ``score``)."""
    supports_first_player: bool = False
    """True if the option ``first_player`` (a seat) fixes who starts."""
    bots: BotHooks = BotHooks()
    """The game's bot table and the hooks generic bots use."""
    web: WebAssets = WebAssets()
    """The browser board and style sheets."""
    terminal: str | None = None
    """``"module:attr"`` of the click command ``kingdoms <name>`` (play in a terminal)."""
    cli_options: str | None = None
    """``"module:attr"`` of a :class:`kingdoms.cli.game_options.CliOptions` giving the
    command-line flags of this game's options (``kingdoms sim <name>``); by default
    they are generated from :meth:`lobby_options`."""
    sim: SimMetrics = SimMetrics()
    """What the simulator tracks per turn."""

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
        """Game-specific bots: name -> ``module:factory`` (the table :attr:`bots` names)."""
        table = self.bot_hook("table")
        return dict(table) if table is not None else {}

    def summarize(self, state: State) -> dict[str, Any]:
        """Extra per-game facts for the simulator (e.g. turns, how the game ended)."""
        return {}

    def lobby_options(self) -> dict[str, Any]:
        """The options a lobby (and the command line) offers: option name ->
        ``{"label", "choices": [[value, label], ...]}``, with ``"type": "flags"``
        for any combination of the choices or ``"type": "text"`` for free text."""
        return {}

    def client_data(self, lang: str) -> dict[str, Any]:
        """The game's static data and texts for boards in ``lang`` (card names and
        texts, tiles): its text catalog for the browser."""
        return {}

    def action_info(self, state: State, action: int) -> dict[str, Any] | None:
        """``action`` described as data for boards (which card, which square), or
        None when the game describes its actions by text only."""
        return None

    def public_view(self, state: State) -> dict[str, Any] | None:
        """What anyone may see of ``state``, or None to let the server derive it
        from the seats' views (see :mod:`kingdoms.server.spectate`)."""
        return None

    def current_scores(self, state: State) -> list[float] | None:
        """Each seat's score before the game ends, or None when it has none."""
        return None

    def bot_hook(self, hook: str) -> Any:
        """The object :attr:`bots` names for ``hook`` (a field of :class:`BotHooks`),
        or None when the game has none or its bots are not installed."""
        targets = {f.name: getattr(self.bots, f.name) for f in fields(BotHooks)}
        if hook not in targets:
            raise InvalidConfig(f"no bot hook {hook!r}; hooks: {', '.join(targets)}")
        target = targets[hook]
        if target is None:
            return None
        try:
            return load_target(target)
        except ImportError:
            return None

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

    def configs(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> Callable[[int], GameConfig]:
        """``seed -> self.config(players, seed, options)`` for the many games of one
        simulation: the players and options are checked now (bad ones raise here),
        and a game may override this to check them only once (its options'
        normal form must then not depend on the seed: :meth:`configs_normalised_once`).
        Every config made equals :meth:`config`'s.  The result pickles."""
        self.config(players, 0, options)
        return SeedConfigs(self, players, options, None)

    def configs_normalised_once(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> Callable[[int], GameConfig]:
        """:meth:`configs` for options whose normal form does not depend on the seed
        (for a game's :meth:`configs` override): the options are checked and
        normalised once, and each config gets its own copy of them (lists too)."""
        return SeedConfigs(self, players, options, self.config(players, 0, options).options)


class SeedConfigs:
    """``seed -> GameConfig`` of one game, players and options (see
    :meth:`Game.configs`): ``normalised`` is the options' normal form when it does not
    depend on the seed (copied into each config), else ``None`` (each config
    normalises them)."""

    __slots__ = ("game", "normalised", "options", "players")

    def __init__(
        self,
        game: Game,
        players: int,
        options: Mapping[str, Any] | None,
        normalised: Mapping[str, Any] | None,
    ) -> None:
        self.game = game
        self.players = players
        self.options = dict(options or {})
        self.normalised = normalised

    def __call__(self, seed: int) -> GameConfig:
        opts = self.normalised
        if opts is None or type(seed) is not int or seed < 0:  # config's checks and errors
            return self.game.config(self.players, seed, self.options)
        # a copy per game (lists too): a game's options are its own
        own = {k: list(v) if isinstance(v, list) else v for k, v in opts.items()}
        return GameConfig(game=self.game.name, players=self.players, seed=seed, options=own)


def _load(target: str) -> Game:
    obj = load_target(target)
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
