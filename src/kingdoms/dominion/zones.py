"""Zones and supply: every place a card can be, and the count of each card.

A part of :class:`kingdoms.dominion.state.DominionState` (see
:mod:`kingdoms.dominion.stack` for the chain).  Per player (lists indexed by seat):
``hands``, ``decks`` (top card last), ``discards``, ``in_play``, ``aside`` (set
aside), ``looking`` (cards a player looks at during an effect).  Shared: ``supply``
(card index -> cards left in its pile), ``piles`` (the card indices of this game's
supply piles, sorted), ``trash``, ``possessed_trash`` (cards trashed in a
Possession turn, back to their owner after Clean-up), ``discarding`` (per seat, how
many cards on top of its discard pile belong to a discard of several cards still
being made, not yet shown to the other seats: see :mod:`kingdoms.dominion.effects`)
and ``totals`` (how many of each card the game holds: the conservation check; a
tuple, replaced whole).
``owned_counts`` (per seat, card index -> copies the seat owns, as
:meth:`Zones.owned` lists them) is kept up to date where cards change hands (gain,
trash, the cards trashed in a Possession turn coming back), so that reading it costs
nothing; :meth:`Zones.count_owned` counts it again
from the zones (restore, test positions, the invariant check).  ``owned_kinds`` (the
cards a seat can own in this game, sorted: the supply piles and every card found in
a zone when counted — a seat comes to own only cards gained from a pile or taken
from another seat) lets a reader of the counts skip the other cards.  ``buy_cache`` (coins
and potions -> the buy actions they afford; and, at key -2, that the supply ends no
game) is emptied whenever a supply pile empties.  Moving cards between zones
(draw, gain, trash, discard, reveal) is in :mod:`kingdoms.dominion.effects`.
"""

from __future__ import annotations

from typing import Final

from kingdoms.dominion.data import CARDS
from kingdoms.dominion.fields import (
    CACHE,
    CARD_LIST,
    COUNTS,
    DERIVED,
    LIST,
    SHARED,
    TOTALS,
    ZONES,
    Field,
    names,
)
from kingdoms.dominion.stack import Stack

ZONE_FIELDS: Final = (
    Field("supply", LIST),
    Field("piles", SHARED),
    Field("trash", CARD_LIST),
    Field("hands", ZONES),
    Field("decks", ZONES),
    Field("discards", ZONES),
    Field("in_play", ZONES),
    Field("aside", ZONES),
    Field("looking", ZONES),
    Field("possessed_trash", CARD_LIST, engine=True),
    Field("discarding", LIST, engine=True),
    Field("deck_unknown", LIST),
    Field("totals", TOTALS),
    Field("owned_counts", COUNTS),
    Field("owned_kinds", DERIVED),
    Field("buy_cache", CACHE),
)
"""The zones' fields (``totals`` and ``owned_counts`` are counted from the others,
``buy_cache`` remembers the Buy phase's buy actions per coins and potions, and
whether the supply ends the game).  ``deck_unknown`` is, per seat, how many cards at
the bottom of its deck it does not know the order of: the cards above them are the
ones it put there itself since its last shuffle (:meth:`Zones.known_top`), known to
that seat alone; :data:`ALL_UNKNOWN` (or any count not below the deck's size): none."""

ALL_UNKNOWN: Final = 1 << 30
"""``deck_unknown`` of a deck whose order its seat does not know at all."""


class Zones(Stack):
    """Where every card is."""

    __slots__ = names(ZONE_FIELDS)

    supply: list[int]
    piles: list[int]
    trash: list[int]
    possessed_trash: list[int]
    discarding: list[int]
    deck_unknown: list[int]
    hands: list[list[int]]
    decks: list[list[int]]
    discards: list[list[int]]
    in_play: list[list[int]]
    aside: list[list[int]]
    looking: list[list[int]]
    totals: tuple[int, ...]
    owned_counts: list[list[int]]
    owned_kinds: list[int]
    buy_cache: dict[int, list[int]]

    def _counts(self) -> list[int]:
        counts = self.supply.copy()
        for c in self.possessed_trash:
            counts[c] += 1
        for zones in (
            self.hands,
            self.decks,
            self.discards,
            self.in_play,
            self.aside,
            self.looking,
        ):
            for z in zones:
                for c in z:
                    counts[c] += 1
        for c in self.trash:
            counts[c] += 1
        for p in range(self.num_players):
            for c in self.held_by_frames(p):
                counts[c] += 1
        return counts

    def will_put_on_deck(self, p: int) -> None:
        """Seat ``p`` is about to put cards it knows on top of its deck: the cards
        below them (the deck as it is now, after the draws since the count was last
        kept) stay as known or unknown as they were."""
        deck_size = len(self.decks[p])
        if self.deck_unknown[p] > deck_size:
            self.deck_unknown[p] = deck_size

    def known_top(self, p: int) -> list[int]:
        """The cards on top of ``p``'s deck that ``p`` put there itself since its last
        shuffle and still are there, top card first (what only ``p`` knows of its
        deck's order)."""
        deck = self.decks[p]
        unknown = self.deck_unknown[p]
        if unknown >= len(deck):
            return []
        return deck[unknown:][::-1]

    def set_aside_of(self, p: int) -> list[int]:
        """Every card ``p`` has set aside: the shared zone and the frames' cards."""
        if not self.stack:
            return self.aside[p]
        return self.aside[p] + self.held_by_frames(p)

    def owned(self, p: int) -> list[int]:
        out = self.hands[p] + self.decks[p]  # one new list, extended in place
        out.extend(self.discards[p])
        out.extend(self.in_play[p])
        out.extend(self.aside[p])
        out.extend(self.looking[p])
        if self.stack:
            out.extend(self.held_by_frames(p))
        return out

    def recount(self) -> None:
        """Count again what the state keeps counted (card totals, owned counts) and
        forget the remembered buy lists: after zones or the supply were set directly."""
        self.totals = tuple(self._counts())
        self.owned_counts = self.count_owned()
        kinds = set(self.piles)
        kinds.update(c for c, n in enumerate(self.totals) if n)
        self.owned_kinds = sorted(kinds)
        self.buy_cache = {}

    def count_owned(self) -> list[list[int]]:
        """Per seat, card index -> copies owned, counted from the zones (what
        ``owned_counts`` keeps as cards move)."""
        size = max(len(CARDS), len(self.supply))
        out = []
        for p in range(self.num_players):
            counts = [0] * size
            for c in self.owned(p):
                counts[c] += 1
            out.append(counts)
        return out
