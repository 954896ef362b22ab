"""Command-line options shared by the commands that run many games (rank, optimize)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from kingdoms.sim.backends import BACKENDS
from kingdoms.sim.runner import default_workers

F = TypeVar("F", bound=Callable[..., Any])


def run_options(command: F) -> F:
    """Add ``--workers``, ``--backend``, ``--address`` and ``--json`` to ``command``."""
    options = [
        click.option(
            "--workers",
            type=click.IntRange(min=1),
            default=1,
            show_default=True,
            help=f"Worker processes ({default_workers()} cores here).",
        ),
        click.option("--backend", type=click.Choice(BACKENDS), default="local", show_default=True),
        click.option("--address", default=None, help="Ray cluster address."),
        click.option("--json", "as_json", is_flag=True, help="Print one JSON object."),
    ]
    for option in reversed(options):
        command = option(command)
    return command
