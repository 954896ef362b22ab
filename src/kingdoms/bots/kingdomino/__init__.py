"""Kingdomino bots: ``greedy``, ``full-greedy``, ``planning-greedy`` (and the generic ``random`` and
``mcts``, whose ``playout`` option uses :func:`playout_policy` and ``width`` option
:func:`rank_actions`; :data:`BOT_DEFAULTS` makes ``mcts`` strong out of the box)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from types import MappingProxyType

from kingdoms.bots.base import named_hook
from kingdoms.core.state import State

BOTS: Mapping[str, str] = MappingProxyType(
    {
        "greedy": "kingdoms.bots.kingdomino.bots:GreedyBot",
        "full-greedy": "kingdoms.bots.kingdomino.bots:FullGreedyBot",
        "planning-greedy": "kingdoms.bots.kingdomino.bots:PlanningGreedyBot",
    }
)

BOT_DEFAULTS: Mapping[str, Mapping[str, object]] = MappingProxyType(
    {"mcts": MappingProxyType({"playout": "drafting", "width": 6})}
)
"""Parameters of the generic bots in Kingdomino unless the spec says otherwise:
``mcts`` = ``mcts:playout=drafting,width=6`` (``width=0`` searches every move)."""


PLAYOUTS: Mapping[str, str] = MappingProxyType(
    {
        name: f"kingdoms.bots.kingdomino.bots:{name}_playout"
        for name in ("greedy", "careful", "drafting")
    }
)


def playout_policy(name: str) -> Callable[[State, random.Random], int] | None:
    """Playout policies for MCTS: ``greedy`` (most points now), ``careful`` (also
    avoids breaking the Middle Kingdom and leaving holes) and ``drafting`` (careful,
    and drafts by value to the own kingdom); None (random) otherwise."""
    policy: Callable[[State, random.Random], int] | None = named_hook(PLAYOUTS, name)
    return policy


def rank_actions(state: State, legal: list[int]) -> list[int]:
    """Legal actions best first (planning-greedy judgement): MCTS's ``width`` option."""
    from kingdoms.bots.kingdomino.bots import rank_actions as rank

    return rank(state, legal)


__all__ = ["BOTS", "BOT_DEFAULTS", "playout_policy", "rank_actions"]
