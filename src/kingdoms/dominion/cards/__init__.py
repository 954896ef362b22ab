"""Card registry: effect handlers keyed by card index (registered by card id).

* ``EFFECTS[card](state, player, play_id)`` resolves one play of an Action card;
* ``TASKS[code](state, frame)`` runs a pending task frame;
* ``decision_actions(state, frame)`` / ``answer(state, frame, kind, card)`` handle
  pending decision frames.
"""

from __future__ import annotations

from kingdoms.dominion.cards.base import (
    ATTACKS,
    EFFECTS,
    IMPLEMENTED,
    TASKS,
    answer,
    decision_actions,
)

__all__ = ["ATTACKS", "EFFECTS", "IMPLEMENTED", "TASKS", "answer", "decision_actions"]
