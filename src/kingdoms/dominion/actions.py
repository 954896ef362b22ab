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

The action space has ``NUM_KINDS * NUM_CARDS`` actions.
"""

from __future__ import annotations

from kingdoms.dominion.data import NUM_CARDS

PLAY, BUY, CHOOSE, GAIN, DONE, YES, NO, PLAY_ALL_TREASURES, END_PHASE = range(9)
NUM_KINDS = 9
NUM_ACTIONS = NUM_KINDS * NUM_CARDS

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
    return kind * NUM_CARDS + card


def decode(action: int) -> tuple[int, int]:
    return divmod(action, NUM_CARDS)


A_DONE = encode(DONE)
A_YES = encode(YES)
A_NO = encode(NO)
A_ALL_TREASURES = encode(PLAY_ALL_TREASURES)
A_END_PHASE = encode(END_PHASE)
