"""Command-line options shared by the commands that run many games (sim, rank, optimize)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from kingdoms.sim.backends import BACKENDS
from kingdoms.sim.runner import DEFAULT_MAX_TURNS, default_workers

F = TypeVar("F", bound=Callable[..., Any])


def count_option(flag: str, default: int, help: str, minimum: int = 1) -> Callable[[F], F]:
    """An integer flag (a number of games, generations…) of at least ``minimum``."""
    return click.option(
        flag, type=click.IntRange(min=minimum), default=default, show_default=True, help=help
    )


WORKERS = click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help=f"Worker processes or Ray CPUs (this machine has {default_workers()} cores).",
)
BACKEND = click.option(
    "--backend",
    type=click.Choice(BACKENDS),
    default="local",
    show_default=True,
    help="Where batches run: local processes, or Ray (pip install 'kingdoms[ray]').",
)
ADDRESS = click.option(
    "--address",
    default=None,
    help="Ray cluster address (ray://head:10001 or auto); default: a local Ray.",
)
JSON = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
FORMAT = click.option(
    "--format",
    "fmt",
    type=click.Choice(["plain", "markdown", "csv", "json"]),
    default="plain",
    show_default=True,
    help="Tables as drawn for a terminal (never wrapped when piped), Markdown, CSV, or "
    "the JSON document (as --json).",
)


MAX_TURNS = click.option(
    "--max-turns",
    "max_turns",
    type=click.IntRange(min=0),
    default=DEFAULT_MAX_TURNS,
    show_default=True,
    help="Dominion: a game stops once its first player has taken more turns than this, "
    "and is scored as it stands (most VP, then fewer turns); 0: no cap. Such games are "
    "counted in the report. Refused for Kingdomino, whose games end after a fixed "
    "number of rounds.",
)


def run_options(command: F) -> F:
    """Add ``--workers``, ``--backend``, ``--address`` and ``--json`` to ``command``."""
    for option in (JSON, ADDRESS, BACKEND, WORKERS):
        command = option(command)
    return command
