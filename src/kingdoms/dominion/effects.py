"""Primitive effects on a player's zones: draw (shuffling only when needed), gain,
trash, discard, reveal, and the play of a card with its Attack/Moat plumbing.

Who may see what: a seat's drawn cards are named to that seat only — and, during a
Possession turn, to the possessor too (:meth:`Effects.seers`), who sees everything
the possessed player sees.  Cards discarded together from a hidden zone (a hand,
the cards looked at: Cellar, Militia, Poacher, Sentry) are not shown card by card:
each pick goes onto the discard pile at once but the other seats see only that the
pile grew (the top card they see is the one under the picks, ``discarding`` counts
the picks) until the whole discard is over (:meth:`Effects.discarded_together`),
then how many cards were discarded and the new top card; the seers see them all.
Cards a rule reveals (Spy, Thief, Adventurer...) stay revealed, one event each.

A trait of :class:`kingdoms.dominion.state.DominionState` (it owns no fields; a
mypyc trait, so that the compiled state can mix it in).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from mypy_extensions import trait

from kingdoms.core.events import Event
from kingdoms.core.state import GameConfig
from kingdoms.dominion.cards import EFFECTS
from kingdoms.dominion.data import CARDS, IS_ATTACK
from kingdoms.dominion.shuffle import shuffle

if TYPE_CHECKING:
    from kingdoms.dominion.state import DominionState

from kingdoms.dominion.frames import Frame


@trait
class Effects:
    __slots__ = ()

    config: GameConfig
    rng: random.Random
    logging: bool
    log: list[Event]
    hands: list[list[int]]
    decks: list[list[int]]
    discards: list[list[int]]
    in_play: list[list[int]]
    aside: list[list[int]]
    trash: list[int]
    supply: list[int]
    piles: list[int]
    stack: list[Frame]
    turn: int
    controller: int
    possessed_trash: list[int]
    discarding: list[int]
    deck_unknown: list[int]
    owned_counts: list[list[int]]
    buy_cache: dict[int, list[int]]

    def _log(self, type_: str, player: int | None, **data: Any) -> None:
        self.log.append(Event(type_, player, data))

    def shuffle(self, p: int) -> bool:
        """Shuffle the discard pile into the (empty) deck; False if nothing to shuffle."""
        disc = self.discards[p]
        if not disc:
            return False
        shuffle(disc, self.rng)  # = self.rng.shuffle(disc), compiled
        deck = self.decks[p]
        self.decks[p] = disc + deck if deck else disc  # the pile becomes the deck
        # the shuffled cards go under what the seat knows of the deck
        self.deck_unknown[p] = len(disc) + min(self.deck_unknown[p], len(deck))
        self.discards[p] = []
        if self.logging:
            self._log("shuffle", p, count=len(disc))
        return True

    def take_top(self, p: int) -> int:
        """Remove and return the top card of p's deck (shuffling if needed), or -1."""
        deck = self.decks[p]
        if not deck:
            if not self.shuffle(p):
                return -1
            deck = self.decks[p]
        return deck.pop()

    def take_top_n(self, p: int, n: int) -> list[int]:
        """Remove up to ``n`` cards from the top of p's deck, top card first (shuffling
        the discard pile in when the deck runs out, as taking them one by one would)."""
        deck = self.decks[p]
        k = len(deck)
        if k >= n:
            out = deck[k - n :]
            del deck[k - n :]
            out.reverse()
            return out
        out = deck[::-1]  # the whole deck, then the rest from the shuffled discard pile
        deck.clear()
        if self.shuffle(p):
            deck = self.decks[p]
            j = max(0, len(deck) - (n - k))
            rest = deck[j:]
            del deck[j:]
            rest.reverse()
            out.extend(rest)
        return out

    def seers(self, p: int) -> tuple[int, ...]:
        """The seats that see ``p``'s hidden cards: ``p``, and during a Possession turn
        of ``p`` its possessor (who sees all that ``p`` sees, the Clean-up draw of
        ``p``'s next hand included)."""
        if p == self.turn and self.controller >= 0 and self.controller != p:
            return (p, self.controller)
        return (p,)

    def draw(self, p: int, n: int, log: bool = True) -> int:
        drawn = self.take_top_n(p, n)
        self.hands[p].extend(drawn)
        if log and self.logging and drawn:
            self.log.append(
                Event(
                    "draw",
                    p,
                    {"count": len(drawn)},
                    {"cards": [CARDS[c].id for c in drawn]},
                    self.seers(p),
                )
            )
        return len(drawn)

    def gainer(self, p: int) -> int:
        """Who gains what ``p`` would gain: the possessor during a Possession turn."""
        if p == self.turn and self.controller >= 0:
            return self.controller
        return p

    def gain(self, p: int, c: int, dest: str = "discard") -> bool:
        if self.supply[c] <= 0 or c not in self.piles:
            return False
        if p == self.turn and self.controller >= 0:
            # Possession: the possessor gains it, always into their discard pile
            p, dest = self.controller, "discard"
        supply = self.supply
        supply[c] -= 1
        if supply[c] == 0:
            self.buy_cache.clear()  # what coins afford has changed
        self.owned_counts[p][c] += 1
        if dest == "hand":
            self.hands[p].append(c)
        elif dest == "deck":  # a card its seat knows, on top (Zones.will_put_on_deck)
            deck = self.decks[p]
            if self.deck_unknown[p] > len(deck):
                self.deck_unknown[p] = len(deck)
            deck.append(c)
        else:
            self.discards[p].append(c)
        if self.logging:
            self._log("gain", p, card=CARDS[c].id, to=dest)
        return True

    def trash_from(self, p: int, zone: list[int], c: int) -> None:
        zone.remove(c)
        self.trash_card(p, c)

    def trash_card(self, p: int, c: int) -> None:
        """Trash ``c`` (already taken from its zone), which belongs to ``p``.

        During a Possession turn the possessed player's own cards are set aside
        instead and go back to their discard pile after Clean-up (not owned until then)."""
        self.owned_counts[p][c] -= 1
        if p == self.turn and self.controller >= 0:
            self.possessed_trash.append(c)
        else:
            self.trash.append(c)
        if self.logging:
            self._log("trash", p, card=CARDS[c].id)

    def discard_from(self, p: int, zone: list[int], c: int) -> None:
        zone.remove(c)
        self.discards[p].append(c)
        if self.logging:
            self._log("discard", p, card=CARDS[c].id)

    def discard_hidden(self, p: int, zone: list[int], c: int) -> None:
        """Discard ``c`` from ``p``'s hidden ``zone`` (hand, cards looked at) as one of
        several cards discarded together: not shown to the other seats until
        :meth:`discarded_together` ends the discard."""
        zone.remove(c)
        self.discards[p].append(c)
        self.discarding[p] += 1

    def discarded_together(self, p: int) -> None:
        """End a discard of several cards (:meth:`discard_hidden`): the other seats now
        see the new top card of ``p``'s discard pile; the log tells everyone how many
        cards and the top one, and names every card to the seers only."""
        k = self.discarding[p]
        if not k:
            return
        self.discarding[p] = 0
        if self.logging:
            disc = self.discards[p]
            self.log.append(
                Event(
                    "discard",
                    p,
                    {"count": k, "top": CARDS[disc[-1]].id},
                    {"cards": [CARDS[c].id for c in disc[len(disc) - k :]]},
                    self.seers(p),
                )
            )

    def shown_discard_top(self, p: int, viewer: int) -> int:
        """The top card of ``p``'s discard pile as ``viewer`` sees it (-1: none; a
        spectator: -1 as ``viewer``): under the cards of a discard still being made,
        unless ``viewer`` sees ``p``'s hidden cards."""
        disc = self.discards[p]
        k = self.discarding[p]
        if k and viewer not in self.seers(p):
            return disc[-1 - k] if len(disc) > k else -1
        return disc[-1] if disc else -1

    def reveal_top(self, p: int, n: int, into: list[int]) -> list[int]:
        """Reveal up to ``n`` cards from the top of p's deck (shuffling if needed) and
        put them into ``into`` (a set-aside zone); returns them."""
        out = self.take_top_n(p, n)
        into.extend(out)
        self.reveal(p, out)
        return out

    def discard_all(self, p: int, zone: list[int]) -> None:
        """Discard every card of ``zone`` (p's), one by one."""
        for c in list(zone):
            self.discard_from(p, zone, c)

    def reveal(self, p: int, cards: Sequence[int]) -> None:
        if self.logging and cards:
            self._log("reveal", p, cards=[CARDS[c].id for c in cards])

    def others(self, p: int) -> list[int]:
        """The other players in turn order, starting to p's left."""
        n = self.config.players
        return [(p + i) % n for i in range(1, n)]

    def push(self, code: str, who: int, src: int = 0, a: int = 0, b: int = 0) -> None:
        self.stack.append(Frame(code, who, src, a, b))

    def then(self, *frames: Frame) -> None:
        """Schedule ``frames`` to run in the order given, before anything pending."""
        self.stack.extend(reversed(frames))

    def play_card(self, p: int, c: int, play_id: int, by: int = 0) -> None:
        """Resolve one play of c (already in play): Attack reactions first.  ``by``: the
        card whose effect plays it (Throne Room, Golem, Vassal; 0 for none), logged."""
        if self.logging:
            if by > 0:
                self._log("play", p, card=CARDS[c].id, by=CARDS[by].id)
            else:
                self._log("play", p, card=CARDS[c].id)
        if IS_ATTACK[c]:  # cards added at run time included
            self.then(
                Frame("reset_immune", p),
                *(Frame("moat_ask", q, c) for q in self.others(p)),
                Frame("effect", p, c, play_id),
            )
        else:
            EFFECTS[c](cast("DominionState", self), p, play_id)
