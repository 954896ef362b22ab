"""The ``kingdoms`` command.

Sub-commands live in their own modules and are imported only when used:

* ``kingdoms dominion play``   — play Dominion in the terminal (``cli/dominion.py``)
* ``kingdoms kingdomino play`` — play Kingdomino in the terminal (``cli/kingdomino.py``)
* ``kingdoms sim GAME``        — bot-vs-bot simulation (``cli/sim.py``)
* ``kingdoms replay FILE``     — print a saved game's log (``cli/replay.py``)
* ``kingdoms strategy check F``— lint a Dominion strategy file (``cli/strategy.py``)
* ``kingdoms rank dominion``   — rank a kingdom's cards (``cli/rank.py``)
* ``kingdoms optimize dominion`` — search for a strong strategy file (``cli/optimize.py``)
* ``kingdoms serve``           — the web app (``cli/serve.py``)
"""

from __future__ import annotations

import importlib
from typing import Any

import click

from kingdoms.core.errors import KingdomsError

_COMMANDS = {
    "dominion": ("kingdoms.cli.dominion", "dominion", "Play Dominion in the terminal."),
    "kingdomino": ("kingdoms.cli.kingdomino", "kingdomino", "Play Kingdomino in the terminal."),
    "sim": ("kingdoms.cli.sim", "sim", "Pit bots against each other and report win rates."),
    "replay": ("kingdoms.cli.replay", "replay", "Print the log of a saved game."),
    "serve": ("kingdoms.cli.serve", "serve", "Run the web app."),
    "strategy": ("kingdoms.cli.strategy", "strategy", "Check Dominion strategy files."),
    "rank": ("kingdoms.cli.rank", "rank", "Rank a Dominion kingdom's cards (Big Money + X)."),
    "optimize": ("kingdoms.cli.optimize", "optimize", "Search for a strong Dominion strategy."),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in _COMMANDS:
            return None
        module, attr, _ = _COMMANDS[cmd_name]
        try:
            cmd = getattr(importlib.import_module(module), attr)
        except ModuleNotFoundError as err:  # a front end not built into this install
            raise click.ClickException(f"'{cmd_name}' is not available: {err}") from err
        if not isinstance(cmd, click.Command):
            raise click.ClickException(f"{module}.{attr} is not a command")
        return cmd

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, help_) for name, (_, _, help_) in sorted(_COMMANDS.items())]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KingdomsError as err:
            raise click.ClickException(str(err)) from err


@click.group(cls=LazyGroup)
@click.version_option(package_name="kingdoms")
def main() -> None:
    """kingdoms — play, simulate and study Dominion and Kingdomino."""
