"""Taking back an action: when it is allowed, and the state before it.

The rule: a seat may take back the last action if it was that seat's own, the
game is not over, and the action revealed nothing — the rule of
:func:`kingdoms.core.reveal.step_reveal`, derived from the views and the same for
every game: no randomness was used, and what the step showed every seat would have
been the same whatever the acting seat could not see.  Since the last action is
the seat's own, nobody else has acted since.  Examples in Dominion: buying a card
or ending the action phase can be undone; playing Smithy (draws), Vassal (turns
the top card of the deck face up) or ending the turn (clean-up draws a new hand)
cannot.  In Kingdomino a placement or a pick can be undone unless it brought out a
new line or drew the next king of the first picks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kingdoms.core.record import GameRecord
from kingdoms.core.reveal import step_reveal
from kingdoms.core.state import State
from kingdoms.server.table import Table


def undo_refusal(
    table: Table, seat: int, view_of: Callable[[int], Any] | None = None
) -> str | None:
    """Why ``seat`` may not take back the last action now (``None``: it may).
    ``view_of``: each seat's view of the current state, if already built (the check
    then builds none of them again)."""
    state = table.state
    if table.finished:
        return "the game is over"
    if state.step == 0:
        return "nothing to undo"
    prev = previous_state(table)
    if prev.current_player != seat:
        return "the last action was not yours"
    cached = table.prev_reveal
    if cached is not None and cached[0] is prev:
        return cached[1]
    verdict = step_reveal(prev, state.history[-1], state, after_view=view_of)
    table.prev_reveal = (prev, verdict)
    return verdict


def previous_state(table: Table) -> State:
    cached = table.prev
    if cached is not None and cached[0] == table.state.step:
        return cached[1]
    prev = GameRecord(config=table.state.config, actions=tuple(table.state.history[:-1]))
    state = prev.replay()
    table.prev = (table.state.step, state)
    return state
