"""The turn: phases (Action, Buy, Clean-up), buying, Possession turns.

A part of :class:`kingdoms.dominion.state.DominionState` (see
:mod:`kingdoms.dominion.stack` for the chain).  A turn starts in
:meth:`Turn._start_turn`; :meth:`Turn.legal_actions` and :meth:`Turn._apply` are
the Action phase (play an Action card) and the Buy phase (play Treasures, buy a
card); :meth:`Turn._end_turn` and :meth:`Turn.finish_turn` are Clean-up;
:meth:`Turn._next_turn` picks who plays next, extra Possession turns first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, cast

from kingdoms.dominion import actions as A
from kingdoms.dominion.cards import COINS, answer, decision_actions
from kingdoms.dominion.cards.alchemy import ALCHEMIST, HERBALIST, start_cleanup
from kingdoms.dominion.data import (
    BY_ID,
    CARDS,
    COIN_COST,
    IS_ACTION,
    IS_TREASURE,
    NUM_CARDS,
    POTION,
    POTION_COST,
    SILVER,
)
from kingdoms.dominion.effects import Effects
from kingdoms.dominion.fields import LIST, TUPLES, VALUE, Field, names
from kingdoms.dominion.frames import Frame
from kingdoms.dominion.scoring import Scoring
from kingdoms.dominion.zones import ALL_UNKNOWN

if TYPE_CHECKING:
    from kingdoms.dominion.state import DominionState

ACTION_PHASE, BUY_PHASE, OVER, CLEANUP = 0, 1, 2, 3
PHASE_NAMES = ("action", "buy", "over", "cleanup")

TREASURE_COINS = COINS
"""Card index -> coins playing it makes (read from the card declarations)."""
PHILOSOPHERS_STONE = BY_ID["philosophers_stone"]

# The card tables and action codes the hot paths read, as final names: compiled, a
# final name is a static (an ordinary module global is a dict look-up at every use).
# The tables are the same list objects (cards added at run time append to them).
_COINS: Final = COINS
_IS_ACTION: Final = IS_ACTION
_IS_TREASURE: Final = IS_TREASURE
_COIN_COST: Final = COIN_COST
_POTION_COST: Final = POTION_COST
_N: Final = NUM_CARDS
_BASE_ACTIONS: Final = A.BASE_ACTIONS
_PLAY: Final = A.PLAY
_BUY: Final = A.BUY
_ALL_TREASURES: Final = A.PLAY_ALL_TREASURES
_END_PHASE: Final = A.END_PHASE
_A_ALL_TREASURES: Final = A.A_ALL_TREASURES
_A_END_PHASE: Final = A.A_END_PHASE
_POTION: Final = POTION
_SILVER: Final = SILVER
_STONE: Final = PHILOSOPHERS_STONE
_ALCHEMIST: Final = ALCHEMIST
_HERBALIST: Final = HERBALIST
NO_END: Final = -2
"""The ``buy_cache`` key remembering that the supply ends no game (checked at the
end of every turn, :meth:`Turn.finish_turn`, and worked out again only once a pile
has emptied, which empties the cache); the buy lists' keys are never negative."""


TURN_FIELDS: Final = (
    Field("turn", VALUE),
    Field("phase", VALUE),
    Field("actions", VALUE),
    Field("buys", VALUE),
    Field("coins", VALUE),
    Field("potions", VALUE),
    Field("bought", VALUE, bool, engine=True),
    Field("merchants", VALUE, engine=True),
    Field("herbalists", VALUE, engine=True),
    Field("silver_played", VALUE, bool, engine=True),
    Field("first", VALUE, engine=True),
    Field("turns", LIST),
    Field("ended_by", VALUE, str, engine=True),
    Field("edition", VALUE),
    Field("alchemy_errata", VALUE, bool),
    Field("controller", VALUE, engine=True),
    Field("extra_turn", VALUE, bool, engine=True),
    Field("normal_player", VALUE, engine=True),
    Field("last_extra", VALUE, engine=True),
    Field("created", TUPLES, engine=True),
    Field("extra_queue", TUPLES, engine=True),
    Field("deferred", TUPLES, engine=True),
    Field("seen_hands", TUPLES),
)
"""The turn's fields; the last eight are the Possession bookkeeping (``seen_hands``:
``(possessor, seat, *cards)``, the hand a possessor saw the seat draw in the Clean-up
of the turn it possessed, kept until that seat's next Clean-up; only the possessor's
view shows it)."""


class Turn(Scoring, Effects):
    """Whose turn it is, its phase and resources, and the turns to come."""

    __slots__ = names(TURN_FIELDS)

    turn: int
    phase: int
    actions: int
    buys: int
    coins: int
    potions: int
    bought: bool
    merchants: int
    herbalists: int
    silver_played: bool
    first: int
    turns: list[int]
    ended_by: str
    edition: int
    alchemy_errata: bool
    # Possession: who controls the current (extra) turn, and pending extra turns
    controller: int
    extra_turn: bool
    normal_player: int
    last_extra: int
    created: list[tuple[int, int]]
    extra_queue: list[tuple[int, int]]
    deferred: list[tuple[int, int, int]]
    seen_hands: list[tuple[int, ...]]

    def _start_turn(self, p: int, controller: int = -1) -> None:
        """Start ``p``'s turn; ``controller`` >= 0 makes it an extra turn (Possession)
        in which that player makes every decision of ``p``."""
        self.turn = p
        self.controller = controller
        self.extra_turn = controller >= 0
        if not self.extra_turn:
            self.normal_player = p
        self.phase = ACTION_PHASE
        self.actions = 1
        self.buys = 1
        self.coins = 0
        self.potions = 0
        self.bought = False
        self.merchants = self.herbalists = 0
        self.silver_played = False
        if self.logging:
            if controller >= 0:
                self._log("turn", p, number=self.turns[p] + 1, possessed_by=controller)
            else:
                self._log("turn", p, number=self.turns[p] + 1)
        self._settle()

    def _settle(self) -> None:
        """Run pending tasks; skip phases in which nothing can be done."""
        if self.stack:
            self._run()
        if self.stack or self.phase == OVER:
            return
        if self.phase == ACTION_PHASE:
            if self.actions > 0:
                hand = self.hands[self.turn]
                for c in hand:
                    if _IS_ACTION[c]:
                        return
            self.phase = BUY_PHASE
        if self.phase == BUY_PHASE and self.buys <= 0:
            self._end_turn()

    def treasure_value(self, p: int, c: int) -> None:
        """Add what playing Treasure ``c`` produces (Potion: a potion; Philosopher's
        Stone: $1 per 5 cards in deck + discard; Silver: Merchant bonus the first time)."""
        if c == _POTION:
            self.potions += 1
        elif c == _STONE:
            self.coins += (len(self.decks[p]) + len(self.discards[p])) // 5
        else:
            self.coins += _COINS[c]
            if c == _SILVER and not self.silver_played:
                self.silver_played = True
                self.coins += self.merchants

    def play_treasure(self, p: int, c: int) -> None:
        self.hands[p].remove(c)
        self.in_play[p].append(c)
        self.treasure_value(p, c)
        if self.logging:
            self._log("play", p, card=CARDS[c].id)

    def play_all_treasures(self, p: int) -> None:
        """Play every Treasure in ``p``'s hand, in hand order: what playing them one by
        one with :meth:`treasure_value` gives (a Silver's Merchant bonus once; Potion
        and Philosopher's Stone by :meth:`treasure_value`), summed at once."""
        hand = self.hands[p]
        is_treasure = _IS_TREASURE
        played = [c for c in hand if is_treasure[c]]
        if len(played) == len(hand):
            hand.clear()
        else:
            self.hands[p] = [c for c in hand if not is_treasure[c]]
        self.in_play[p].extend(played)
        if _POTION in played or _STONE in played:
            for c in played:
                self.treasure_value(p, c)
        else:
            coins = 0
            coin_table = _COINS
            for c in played:
                coins += coin_table[c]
            self.coins += coins
            if not self.silver_played and _SILVER in played:
                self.silver_played = True
                self.coins += self.merchants
        if self.logging:
            for c in played:
                self._log("play", p, card=CARDS[c].id)

    def _end_turn(self) -> None:
        """Clean-up.  Alchemist/Herbalist abilities may ask first (see
        :func:`kingdoms.dominion.cards.alchemy.start_cleanup`); then
        :meth:`finish_turn` discards, draws and passes the turn."""
        p = self.turn
        self.phase = CLEANUP
        play = self.in_play[p]
        if not self.alchemy_errata and _ALCHEMIST not in play and _HERBALIST not in play:
            self.finish_turn(p)  # start_cleanup would ask nothing: nearly every turn
            return
        stack = self.stack
        depth = len(stack)
        start_cleanup(cast("DominionState", self), p)
        if len(stack) == depth:
            self.finish_turn(p)  # nothing to ask
            return
        stack.insert(depth, Frame("cleanup_finish", p))
        self._run()

    def finish_turn(self, p: int) -> None:
        disc = self.discards[p]
        play = self.in_play[p]
        hand = self.hands[p]
        disc.extend(play)
        disc.extend(hand)
        play.clear()
        hand.clear()
        if self.moved:
            self.moved.clear()
        if self.seen_hands:
            # the hand a possessor saw p draw is discarded now
            self.seen_hands = [t for t in self.seen_hands if t[1] != p]
        deck = self.decks[p]
        k = len(deck) - 5
        if k >= 0 and not self.logging:
            # draw(p, 5) when the deck holds them: its top five, top card first
            hand.extend(deck[k:])
            hand.reverse()
            del deck[k:]
        else:
            self.draw(p, 5)
        if self.extra_turn and self.controller >= 0 and self.controller != p:
            # the possessor sees the possessed player's next hand drawn (the draw's
            # log event names it to both: Effects.seers)
            self.seen_hands.append((self.controller, p, *hand))
        if self.possessed_trash:
            # trashed during a Possession turn: back to their owner after Clean-up
            # (into the discard pile as it is now: the draw may have shuffled it away)
            back = self.possessed_trash
            self.discards[p].extend(back)
            owned = self.owned_counts[p]
            for c in back:
                owned[c] += 1
            self.possessed_trash = []
        if not self.extra_turn:
            self.turns[p] += 1
        self.actions = self.buys = self.coins = self.potions = 0
        # the supply ends the game only once a pile has emptied since the last check
        # (an emptied pile empties the buy cache, and with it this memo)
        cache = self.buy_cache
        ended = "" if NO_END in cache else self.game_end_reason()
        if ended:
            self.ended_by = ended
            self.phase = OVER
            self.controller = -1
            self.deck_unknown = [ALL_UNKNOWN] * self.num_players  # nothing left to know
            if self.logging:
                self._log("end", None, by=ended, vp=self.vp())
            return
        cache[NO_END] = []  # its own list: no state shares a part of another
        self._next_turn()

    def _next_turn(self) -> None:
        """Pending Possession turns first (in the order played), then the next player.

        Possessions played in a normal turn give their extra turns right after it;
        ones played in an extra turn wait for the end of that player's next normal
        turn.  With ``alchemy_errata`` no player takes two extra turns in a row."""
        p = self.turn
        if not (self.extra_turn or self.created or self.deferred or self.extra_queue):
            # no Possession pending (nearly every turn): the next player
            self.last_extra = -1
            self._start_turn((self.normal_player + 1) % self.num_players)
            return
        if self.extra_turn:
            self.deferred.extend((p, t, c) for t, c in self.created)
            self.last_extra = p
        else:
            self.extra_queue.extend(self.created)
            keep = []
            for who, t, c in self.deferred:
                if who == p:
                    self.extra_queue.append((t, c))
                else:
                    keep.append((who, t, c))
            self.deferred = keep
            self.last_extra = -1
        self.created = []
        while self.extra_queue:
            t, c = self.extra_queue.pop(0)
            if self.alchemy_errata and t == self.last_extra:
                if self.logging:
                    self._log("extra_turn_skipped", t)
                continue
            self._start_turn(t, controller=c)
            return
        self._start_turn((self.normal_player + 1) % self.num_players)

    def legal_actions(self) -> list[int]:
        if self.stack:
            return decision_actions(cast("DominionState", self), self.stack[-1])
        phase = self.phase
        if phase == OVER:
            return []
        hand = self.hands[self.turn]
        out: list[int] = []
        n_cards = _N
        if phase == ACTION_PHASE:
            # PLAY is kind 0: a card of the card list is its own play action
            is_action = _IS_ACTION
            for c in hand:
                if is_action[c] and c not in out:
                    out.append(c)
            out.sort()
            if out and out[-1] >= n_cards:  # cards added at run time
                out = [c if c < n_cards else A.encode(_PLAY, c) for c in out]
            out.append(_A_END_PHASE)
            return out
        if not self.bought:
            is_treasure = _IS_TREASURE
            for c in hand:
                if is_treasure[c] and c not in out:
                    out.append(c)
            if out:
                out.sort()
                if out[-1] >= n_cards:  # cards added at run time
                    out = [c if c < n_cards else A.encode(_PLAY, c) for c in out]
                out.append(_A_ALL_TREASURES)
        if self.buys > 0:
            # buy_list(), its remembered list read here
            potions = self.potions
            found = self.buy_cache.get(self.coins * 4096 + potions) if potions < 4096 else None
            out.extend(self.buy_list() if found is None else found)
        out.append(_A_END_PHASE)
        return out

    def buy_list(self) -> list[int]:
        """The buy actions the current coins and potions afford, in pile order (do not
        change the list: it is remembered per coins and potions until a pile empties,
        the only change of the supply that can change it; no card changes costs)."""
        coins, potions = self.coins, self.potions
        key = coins * 4096 + potions if potions < 4096 else -1
        cache = self.buy_cache
        found = cache.get(key)
        if found is not None:
            return found
        n_cards = _N
        base = _BUY * n_cards
        supply, coin_cost, potion_cost = self.supply, _COIN_COST, _POTION_COST
        out = [
            base + c if c < n_cards else A.encode(_BUY, c)
            for c in self.piles
            if supply[c] and coin_cost[c] <= coins and potion_cost[c] <= potions
        ]
        if key >= 0:
            cache[key] = out
        return out

    def apply(self, action: int) -> None:
        """Carry out ``action``, trusting that it is legal, and record it: the State
        contract's ``apply`` (``_apply``, then the history) in one call."""
        if action < _BASE_ACTIONS:  # a card of the card list (A.decode, inlined)
            kind = action // _N
            c = action - kind * _N
        else:
            kind, c = A.decode(action)
        if self.stack:
            answer(cast("DominionState", self), self.stack.pop(), kind, c)
            self._settle()
        elif kind == _PLAY:
            p = self.turn
            if self.phase == ACTION_PHASE:
                self.actions -= 1
                self.hands[p].remove(c)
                self.in_play[p].append(c)
                self.play_card(p, c, self.new_play_id())
                self._settle()
            else:
                self.play_treasure(p, c)
        elif kind == _ALL_TREASURES:
            self.play_all_treasures(self.turn)
        elif kind == _BUY:
            p = self.turn
            if self.logging:
                self._log("buy", p, card=CARDS[c].id, coins=self.coins, potions=self.potions)
            self.buys -= 1
            self.coins -= _COIN_COST[c]
            self.potions -= _POTION_COST[c]
            self.bought = True
            self.gain(p, c)
            if self.buys <= 0:
                self._end_turn()
        elif kind == _END_PHASE:
            if self.phase == ACTION_PHASE:
                self.phase = BUY_PHASE
                self._settle()
            else:
                self._end_turn()
        self.history.append(action)

    def _apply(self, action: int) -> None:
        """``action`` without its record (the State contract's step: :meth:`apply`
        does both)."""
        self.apply(action)
        self.history.pop()
