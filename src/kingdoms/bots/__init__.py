"""Bots: the protocol, the registry and the generic bots (random, MCTS)."""

from kingdoms.bots.base import (
    Bot,
    RandomBot,
    bot_names,
    format_bot_spec,
    make_bot,
    parse_bot_spec,
)

__all__ = ["Bot", "RandomBot", "bot_names", "format_bot_spec", "make_bot", "parse_bot_spec"]
