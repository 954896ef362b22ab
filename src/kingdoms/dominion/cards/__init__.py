"""Card registry: effect handlers keyed by card index (registered by card id).

* ``basic.py`` — the basic Treasure and Victory cards (their coins and points);
* ``base.py`` — basic cards and the 25 first-edition kingdom cards;
* ``second.py`` — the 7 second-edition kingdom cards;
* ``alchemy.py`` — the 12 Alchemy kingdom cards and the Clean-up abilities.

``EFFECTS[card](state, player, play_id)`` resolves one play of an Action card;
``TASKS[code](state, frame)`` runs a pending task frame;
``decision_actions(state, frame)`` / ``answer(state, frame, kind, card)`` handle
pending decision frames.
"""

from __future__ import annotations

from kingdoms.dominion.cards import alchemy as alchemy
from kingdoms.dominion.cards import basic as basic
from kingdoms.dominion.cards import second as second
from kingdoms.dominion.cards.base import ATTACKS, HELD, answer, decision_actions
from kingdoms.dominion.cards.declare import DECLARED
from kingdoms.dominion.cards.registry import EFFECTS, TASKS
from kingdoms.dominion.data import CARDS

IMPLEMENTED: frozenset[int] = frozenset(EFFECTS) | frozenset(
    c.index for c in CARDS if not c.is_action
)
"""Cards the engine plays: every Action with a handler, every Treasure and Victory card."""

COINS: tuple[int, ...] = tuple(DECLARED[c.id].coins if c.id in DECLARED else 0 for c in CARDS)
"""Card index -> coins one play makes, from the declarations (0: none or variable)."""
VP: tuple[int, ...] = tuple(DECLARED[c.id].vp if c.id in DECLARED else 0 for c in CARDS)
"""Card index -> victory points per copy, from the declarations (0: none or variable)."""

__all__ = [
    "ATTACKS",
    "COINS",
    "DECLARED",
    "EFFECTS",
    "HELD",
    "IMPLEMENTED",
    "TASKS",
    "VP",
    "answer",
    "decision_actions",
]
