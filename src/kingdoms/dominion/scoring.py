"""Scoring: victory points, the end of the game, the outcome's breakdown.

A part of :class:`kingdoms.dominion.state.DominionState` (see
:mod:`kingdoms.dominion.stack` for the chain).  The rules themselves (what each
card is worth, Gardens and Vineyard, when the game ends, the tie-break) are pure
functions in :mod:`kingdoms.dominion.rules`; this part applies them to the zones.
"""

from __future__ import annotations

from kingdoms.dominion.data import CARDS
from kingdoms.dominion.rules import end_reason, score_counts, vp_by_card_counts
from kingdoms.dominion.zones import Zones


class Scoring(Zones):
    """Points and the end of the game, read from the zones."""

    __slots__ = ()

    def empty_piles(self) -> int:
        supply = self.supply
        return sum(1 for c in self.piles if supply[c] == 0)

    def game_end_reason(self) -> str:
        return end_reason(self.supply, self.piles, self.num_players)

    def vp_of(self, p: int) -> int:
        return score_counts(self.owned_counts[p], self.owned_kinds)  # = score(self.owned(p))

    def vp(self) -> list[int]:
        return [self.vp_of(p) for p in range(self.num_players)]

    def vp_by_card_ids(self) -> list[dict[str, int]]:
        """Per seat: card id -> the points its copies give (the outcome's breakdown)."""
        kinds = self.owned_kinds
        return [
            {CARDS[c].id: v for c, v in vp_by_card_counts(self.owned_counts[p], kinds).items()}
            for p in range(self.num_players)
        ]
