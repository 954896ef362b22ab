"""The basic cards: Treasures (with their value) and Victory cards (with their points).

Playing a Treasure and scoring read these facts through
:data:`kingdoms.dominion.cards.COINS` and :data:`kingdoms.dominion.cards.VP`.
Potion (it makes a potion, not coins), Philosopher's Stone, Gardens and Vineyard have
variable values computed by the engine.
"""

from __future__ import annotations

from kingdoms.dominion.cards.declare import declare

TREASURE = ("Treasure",)
VICTORY = ("Victory",)

declare("copper", cost=0, types=TREASURE, card_set="basic", steps=[], coins=1)
declare("silver", cost=3, types=TREASURE, card_set="basic", steps=[], coins=2)
declare("gold", cost=6, types=TREASURE, card_set="basic", steps=[], coins=3)
declare("potion", cost=4, types=TREASURE, card_set="alchemy-basic", steps=[])
declare("estate", cost=2, types=VICTORY, card_set="basic", steps=[], vp=1)
declare("duchy", cost=5, types=VICTORY, card_set="basic", steps=[], vp=3)
declare("province", cost=8, types=VICTORY, card_set="basic", steps=[], vp=6)
declare("curse", cost=0, types=("Curse",), card_set="basic", steps=[], vp=-1)
