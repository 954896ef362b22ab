"""The ``kingdoms`` command.

Sub-commands live in their own modules and are imported only when used:

* ``kingdoms GAME play``       — play a game in the terminal, one command per registered
  game with a terminal front end (``Game.terminal``: ``cli/dominion.py``, ``cli/kingdomino.py``)
* ``kingdoms play GAME``       — the same, game named second
* ``kingdoms sim GAME``        — bot-vs-bot simulation, any registered game (``cli/sim.py``)
* ``kingdoms replay FILE``     — print a saved game's log (``cli/replay.py``)
* ``kingdoms review FILE``     — winning chances and mistakes of a finished game (``cli/review.py``)
* ``kingdoms strategy check F``— lint a Dominion strategy file (``cli/strategy.py``)
* ``kingdoms rank dominion``   — rank a kingdom's cards (``cli/rank.py``)
* ``kingdoms optimize dominion`` — search for a strong strategy file (``cli/optimize.py``)
* ``kingdoms dataset export``  — games as offline-RL datasets (``cli/dataset.py``)
* ``kingdoms serve``           — the web app (``cli/serve.py``)
* ``kingdoms health``          — ask a running server's ``/healthz`` (``cli/serve.py``)
"""

from __future__ import annotations

from typing import Any

import click

from kingdoms.core.errors import KingdomsError
from kingdoms.core.registry import Game, available_games, get_game, load_target

_COMMANDS = {
    "play": ("kingdoms.cli", "play", "Play a game in the terminal: kingdoms play GAME."),
    "sim": ("kingdoms.cli.sim", "sim", "Pit bots against each other and report win rates."),
    "replay": ("kingdoms.cli.replay", "replay", "Print the log of a saved game."),
    "review": ("kingdoms.cli.review", "review", "Review a finished game: chances, mistakes."),
    "serve": ("kingdoms.cli.serve", "serve", "Run the web app."),
    "health": ("kingdoms.cli.serve", "health", "Check a running server (its /healthz)."),
    "strategy": ("kingdoms.cli.strategy", "strategy", "Check Dominion strategy files."),
    "rank": ("kingdoms.cli.rank", "rank", "Rank a Dominion kingdom's cards (Big Money + X)."),
    "optimize": ("kingdoms.cli.optimize", "optimize", "Search for a strong Dominion strategy."),
    "dataset": ("kingdoms.cli.dataset", "dataset", "Export games as offline-RL datasets."),
}


def _terminal_games() -> dict[str, Game]:
    """The registered games with a terminal front end, by name."""
    out: dict[str, Game] = {}
    for name in available_games():
        try:
            game = get_game(name)
        except (ImportError, KingdomsError):  # a game not built into this install
            continue
        if game.terminal is not None:
            out[name] = game
    return out


def _load_command(target: str, name: str) -> click.Command:
    try:
        cmd = load_target(target)
    except ModuleNotFoundError as err:  # a front end not built into this install
        raise click.ClickException(f"'{name}' is not available: {err}") from err
    if not isinstance(cmd, click.Command):
        raise click.ClickException(f"{target} is not a command")
    return cmd


class LazyGroup(click.Group):
    def _rows(self) -> dict[str, str]:
        rows = {name: help_ for name, (_, _, help_) in _COMMANDS.items()}
        for name, game in _terminal_games().items():
            rows.setdefault(name, f"Play {game.title} in the terminal.")
        return rows

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(self._rows())

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in _COMMANDS:
            module, attr, _ = _COMMANDS[cmd_name]
            return _load_command(f"{module}:{attr}", cmd_name)
        game = _terminal_games().get(cmd_name)
        if game is None or game.terminal is None:
            return None
        return _load_command(game.terminal, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl(sorted(self._rows().items()))

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KingdomsError as err:
            raise click.ClickException(str(err)) from err


def _version_message() -> str:
    from kingdoms._build import describe_build
    from kingdoms._version import __version__

    return f"kingdoms {__version__}, {describe_build()}"


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(_version_message())
        ctx.exit()


@click.group(cls=LazyGroup)
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Print the version and the engine build in use (compiled or pure Python).",
)
def main() -> None:
    """kingdoms — play, simulate and study Dominion and Kingdomino."""


class _PlayGroup(click.Group):
    """``kingdoms play GAME``: the ``play`` command of each game's terminal front end."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_terminal_games())

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        game = _terminal_games().get(cmd_name)
        if game is None or game.terminal is None:
            return None
        cmd = _load_command(game.terminal, cmd_name)
        if isinstance(cmd, click.Group):
            return cmd.get_command(ctx, "play")
        return cmd


@click.group(cls=_PlayGroup)
def play() -> None:
    """Play a game in the terminal against bots (you are player 1)."""
