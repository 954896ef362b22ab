"""Card registry: effect handlers keyed by card index (registered by card id).

Every card of the card list is one :func:`~kingdoms.dominion.cards.declare.declare`,
in its set's module:

* ``basic.py`` — the basic Treasure and Victory cards (their coins and points);
* ``base.py`` — the 25 first-edition kingdom cards;
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
from kingdoms.dominion.cards.base import HELD
from kingdoms.dominion.cards.declare import COINS, DECLARED, VP
from kingdoms.dominion.cards.registry import (
    ATTACK_READS,
    EFFECTS,
    HAND_HINTS,
    REACTION_ASKS,
    TASKS,
    HandHint,
    answer,
    decision_actions,
)
from kingdoms.dominion.data import CARDS, IS_ACTION

IMPLEMENTED: frozenset[int] = frozenset(EFFECTS) | frozenset(
    c.index for c in CARDS if not c.is_action
)
"""Cards of the card list the engine plays: every Action with a handler, every Treasure
and Victory card."""


def implemented(card: int) -> bool:
    """Whether the engine plays ``card`` (cards added at run time included)."""
    return card in EFFECTS or not IS_ACTION[card]


__all__ = [
    "ATTACK_READS",
    "COINS",
    "DECLARED",
    "EFFECTS",
    "HAND_HINTS",
    "HELD",
    "IMPLEMENTED",
    "REACTION_ASKS",
    "TASKS",
    "VP",
    "HandHint",
    "answer",
    "decision_actions",
    "implemented",
]
