"""Dominion bots: strategy files (the Big Money family, Smithy, Witch and the
classic single-card bots) played by one strategy bot.

Every bot sees only its seat's view and the legal actions.  Buy decisions
follow the bot's strategy file (:mod:`kingdoms.bots.dominion.lang`); every
other decision goes to the shared default policy
(:mod:`kingdoms.bots.dominion.policy`), so any bot can play any kingdom.
A path to a ``.toml`` file is a bot too (:func:`bot_from_file`).

>>> sorted(BOTS)[:4]
['adventurer', 'big-money', 'big-money-ultimate', 'bureaucrat']
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from kingdoms.bots.dominion.bundled import attr_name, bundled_names

BOTS: Mapping[str, str] = MappingProxyType(
    {name: f"kingdoms.bots.dominion.bundled:{attr_name(name)}" for name in bundled_names()}
)
"""Bot name -> ``module:factory`` (what the Dominion game's ``bot_names()`` returns)."""


def bot_from_file(path: str, **params: Any) -> Any:
    """The bot registry's hook for bot specs that are strategy file paths."""
    from kingdoms.bots.dominion.bots import file_bot

    return file_bot(path, **params)


__all__ = ["BOTS", "bot_from_file"]
