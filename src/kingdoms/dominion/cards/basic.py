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

declare("copper", 0, TREASURE, "basic", coins=1)
declare("silver", 3, TREASURE, "basic", coins=2)
declare("gold", 6, TREASURE, "basic", coins=3)
declare("potion", 4, TREASURE, "alchemy-basic")
declare("estate", 2, VICTORY, "basic", vp=1)
declare("duchy", 5, VICTORY, "basic", vp=3)
declare("province", 8, VICTORY, "basic", vp=6)
declare("curse", 0, ("Curse",), "basic", vp=-1)
