"""The Dominion game options as command-line flags, shared by ``play`` and ``sim``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from kingdoms.dominion.kingdom import SETS, check_sets


def dominion_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """Add ``--kingdom``, ``--sets``, ``--alchemy-cards``, ``--edition`` and
    ``--alchemy-errata`` to a click command."""
    for opt in reversed(
        [
            click.option(
                "--kingdom",
                default=None,
                help="A recommended set's name (e.g. 'First Game', 'Forbidden Arts') or "
                "comma-separated cards; cards left out are drawn at random.",
            ),
            click.option(
                "--sets",
                default=None,
                help=f"Sets a random kingdom is drawn from, comma-separated: {', '.join(SETS)} "
                "(default: the base game of --edition).",
            ),
            click.option(
                "--alchemy-cards",
                default=None,
                help="How many Alchemy cards a random kingdom gets, e.g. 3-5 "
                "(adds the alchemy set).",
            ),
            click.option(
                "--edition",
                type=click.Choice(["1", "2"]),
                default="1",
                show_default=True,
                help="Base-card wording: 1 = first edition, 2 = second edition "
                "(Throne Room, Mine and Moneylender optional; random kingdoms from 2nd-edition "
                "cards).",
            ),
            click.option(
                "--alchemy-errata",
                is_flag=True,
                help="Use the 2022 Herbalist/Alchemist and 2023 Possession errata.",
            ),
        ]
    ):
        f = opt(f)
    return f


def game_options(
    kingdom: str | None,
    sets: str | None,
    edition: str,
    alchemy_errata: bool,
    alchemy_cards: str | None,
) -> dict[str, Any]:
    """The ``new_game`` options of the flags of :func:`dominion_options`."""
    options: dict[str, Any] = {"base_edition": int(edition)}
    if kingdom:
        options["kingdom"] = kingdom
    chosen = [s.strip() for s in sets.split(",") if s.strip()] if sets else None
    if alchemy_cards:
        options["alchemy_cards"] = alchemy_cards
        if chosen is None:
            chosen = check_sets(None, int(edition))  # the edition's default sets
        if "alchemy" not in chosen:
            chosen.append("alchemy")
    if chosen is not None:
        options["sets"] = chosen
    if alchemy_errata:
        options["alchemy_errata"] = True
    return options


def _cli_options() -> Any:
    from kingdoms.cli.game_options import CliOptions

    names = ("kingdom", "sets", "edition", "alchemy_errata", "alchemy_cards")
    return CliOptions(dominion_options, names, game_options)


CLI_OPTIONS = _cli_options()
"""The flags above as the Dominion registration's ``cli_options``."""
