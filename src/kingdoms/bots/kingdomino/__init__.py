"""Kingdomino bots: ``greedy``, ``full-greedy`` (and the generic ``random`` and
``mcts``, whose ``playout=greedy`` option uses :func:`playout_policy`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from types import MappingProxyType

from kingdoms.core.state import State

BOTS: Mapping[str, str] = MappingProxyType(
    {
        "greedy": "kingdoms.bots.kingdomino.bots:GreedyBot",
        "full-greedy": "kingdoms.bots.kingdomino.bots:FullGreedyBot",
    }
)


def playout_policy(name: str) -> Callable[[State, random.Random], int] | None:
    """Playout policies for MCTS: ``greedy`` (most points now) and ``careful`` (also
    avoids breaking the Middle Kingdom and leaving holes); None (random) otherwise."""
    if name == "greedy":
        from kingdoms.bots.kingdomino.bots import greedy_playout

        return greedy_playout
    if name == "careful":
        from kingdoms.bots.kingdomino.bots import careful_playout

        return careful_playout
    return None


def rank_actions(state: State, legal: list[int]) -> list[int]:
    """Legal actions best first (full-greedy judgement): MCTS's ``width`` option."""
    from kingdoms.bots.kingdomino.bots import rank_actions as rank

    return rank(state, legal)


__all__ = ["BOTS", "playout_policy", "rank_actions"]
