"""Dominion bots: the Big Money family, Smithy and Witch.

Every bot sees only its seat's view and the legal actions.  Buy decisions
follow the bot's priority list (:mod:`kingdoms.bots.dominion.strategy`); every
other decision goes to the shared default policy
(:mod:`kingdoms.bots.dominion.policy`), so any bot can play any kingdom.

>>> sorted(BOTS)
['big-money', 'big-money-ultimate', 'smithy', 'witch']
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

BOTS: Mapping[str, str] = MappingProxyType(
    {
        "big-money": "kingdoms.bots.dominion.bots:BigMoney",
        "big-money-ultimate": "kingdoms.bots.dominion.bots:BigMoneyUltimate",
        "smithy": "kingdoms.bots.dominion.bots:SmithyBot",
        "witch": "kingdoms.bots.dominion.bots:WitchBot",
    }
)
"""Bot name -> ``module:Class`` (what the Dominion game's ``bot_names()`` returns)."""

__all__ = ["BOTS"]
