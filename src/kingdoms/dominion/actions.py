"""Integer action encoding for Dominion.

``action = kind * NUM_CARDS + card`` where ``card`` is the card's index in
:data:`kingdoms.dominion.data.CARDS` (0 for kinds that name no card):

=====  ===================  ==========================================================
kind   name                 meaning
=====  ===================  ==========================================================
0      PLAY                 play this card from hand (Action in the Action phase,
                            Treasure in the Buy phase)
1      BUY                  buy this card from the supply
2      CHOOSE               pick this card in the pending decision (trash / discard /
                            choose it from hand, from revealed cards or from the trash)
3      GAIN                 gain this card from the supply (Workshop, Feast, Remodel, Mine)
4      DONE                 stop choosing (only where stopping is allowed)
5      YES                  answer yes (reveal Moat, set aside, discard, gain, ...)
6      NO                   answer no
7      PLAY_ALL_TREASURES   play every Treasure in hand (one action)
8      END_PHASE            end the Action phase / end the Buy phase (ends the turn)
=====  ===================  ==========================================================

The action space has ``NUM_KINDS * NUM_CARDS`` actions for the cards of the card list
(:data:`BASE_ACTIONS`).  Cards added at run time (:mod:`kingdoms.dominion.extend`, index
``NUM_CARDS + i``) get a range appended after it, ``NUM_KINDS`` actions each:
``BASE_ACTIONS + i * NUM_KINDS + kind``.  Every action id of the card list stays what
it was, so saved records replay; :data:`NUM_ACTIONS` grows only when cards are added.
"""

from __future__ import annotations

from kingdoms.dominion.data import NUM_CARDS

PLAY, BUY, CHOOSE, GAIN, DONE, YES, NO, PLAY_ALL_TREASURES, END_PHASE = range(9)
NUM_KINDS = 9
BASE_ACTIONS = NUM_KINDS * NUM_CARDS
NUM_ACTIONS = BASE_ACTIONS
"""Size of the action space (grows by ``NUM_KINDS`` per card added at run time)."""

KIND_NAMES = (
    "play",
    "buy",
    "choose",
    "gain",
    "done",
    "yes",
    "no",
    "play all treasures",
    "end phase",
)


def encode(kind: int, card: int = 0) -> int:
    if card < NUM_CARDS:
        return kind * NUM_CARDS + card
    return BASE_ACTIONS + (card - NUM_CARDS) * NUM_KINDS + kind


def decode(action: int) -> tuple[int, int]:
    """``(kind, card)`` of an action."""
    if action < BASE_ACTIONS:
        return divmod(action, NUM_CARDS)
    extra, kind = divmod(action - BASE_ACTIONS, NUM_KINDS)
    return kind, NUM_CARDS + extra


A_DONE = encode(DONE)
A_YES = encode(YES)
A_NO = encode(NO)
A_ALL_TREASURES = encode(PLAY_ALL_TREASURES)
A_END_PHASE = encode(END_PHASE)
