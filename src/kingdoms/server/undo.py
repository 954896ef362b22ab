"""Taking back an action: when it is allowed, and the state before it.

The rule: a seat may take back the last action if it was that seat's own,
the game is not over, and the action revealed nothing new — it consumed no
randomness (the RNG state is unchanged: nothing was shuffled or drawn at
random) and logged no secret and no draw/reveal/shuffle event.  Since the
last action is the seat's own, nobody else has acted since; other seats may
have *seen* it (e.g. a card played from hand), which is public information
and changes nothing for them.  Examples in Dominion: buying a card or ending
the action phase can be undone; playing Smithy (draws) or ending the turn
(clean-up draws a new hand) cannot.
"""

from __future__ import annotations

from kingdoms.core.record import GameRecord
from kingdoms.core.state import State
from kingdoms.server.table import Table

REVEALING_EVENTS = frozenset({"draw", "reveal", "shuffle", "look", "deal", "reshuffle"})
"""Event types after which an action can no longer be taken back."""


def undo_refusal(table: Table, seat: int) -> str | None:
    """Why ``seat`` may not take back the last action now (``None``: it may).

    The rule: the last action was this seat's, the game is not over, and the
    action revealed nothing new — it consumed no randomness (the RNG state is
    unchanged) and logged no secret and no draw/reveal/shuffle event.  Since
    the last action is the seat's own, nobody else has acted since."""
    state = table.state
    if table.finished:
        return "the game is over"
    if state.step == 0:
        return "nothing to undo"
    prev = previous_state(table)
    if prev.current_player != seat:
        return "the last action was not yours"
    if prev.rng.getstate() != state.rng.getstate():
        return "that action used chance (cards were shuffled or drawn)"
    for event in state.log[len(prev.log) :]:
        if event.secret is not None or event.type in REVEALING_EVENTS:
            return "that action revealed new information"
    return None


def previous_state(table: Table) -> State:
    cached = table.prev
    if cached is not None and cached[0] == table.state.step:
        return cached[1]
    prev = GameRecord(config=table.state.config, actions=tuple(table.state.history[:-1]))
    state = prev.replay()
    table.prev = (table.state.step, state)
    return state
