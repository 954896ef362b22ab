"""DominionState: the whole game, decisions as a stack of small frames.

The stack holds tuples ``(code, who, src, a, b)``.  Codes in
:data:`DECISIONS` are pending decisions (``who`` decides); every other code is
a pending task that :meth:`DominionState._run` executes.  Card effects are in
:mod:`kingdoms.dominion.cards`, zone primitives (draw, gain, trash, Attack/Moat
plumbing) in :mod:`kingdoms.dominion.effects`, scoring / end of game / tie-break in
:mod:`kingdoms.dominion.rules`; the turn (phases, buying, clean-up) is in this module.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from kingdoms.core.errors import InvariantViolation
from kingdoms.core.state import TERMINAL, GameConfig, JSONDict, Outcome, State
from kingdoms.dominion import actions as A
from kingdoms.dominion.data import (
    BY_ID,
    CARDS,
    COIN_COST,
    COPPER,
    CURSE,
    ESTATE,
    IS_ACTION,
    IS_TREASURE,
    IS_VICTORY,
    NUM_CARDS,
    POTION,
    POTION_COST,
)
from kingdoms.dominion.effects import Effects
from kingdoms.dominion.rules import end_reason, score, winners

ACTION_PHASE, BUY_PHASE, OVER = 0, 1, 2
PHASE_NAMES = ("action", "buy", "over")

Frame = tuple[str, int, int, int, int]

MOAT = BY_ID["moat"]
TREASURE_COINS = [0] * NUM_CARDS
TREASURE_COINS[COPPER] = 1
TREASURE_COINS[BY_ID["silver"]] = 2
TREASURE_COINS[BY_ID["gold"]] = 3

# decision code -> options description (see cards.base for the answers)
DECISIONS = frozenset(
    {
        "moat",
        "cellar",
        "chancellor",
        "chapel",
        "gain",
        "library",
        "militia",
        "mine",
        "remodel",
        "spy",
        "thief_trash",
        "thief_gain",
        "throne",
        "moneylender",
        "bureaucrat",
    }
)


class DominionState(Effects, State):
    __slots__ = (
        "actions",
        "aside",
        "bought",
        "buys",
        "coins",
        "decks",
        "discards",
        "edition",
        "ended_by",
        "hands",
        "immune",
        "in_play",
        "moved",
        "next_play_id",
        "phase",
        "piles",
        "potions",
        "stack",
        "stolen",
        "supply",
        "totals",
        "trash",
        "turn",
        "turns",
    )

    game_name = "dominion"

    hands: list[list[int]]
    decks: list[list[int]]
    discards: list[list[int]]
    in_play: list[list[int]]
    aside: list[list[int]]
    trash: list[int]
    stack: list[Frame]
    stolen: list[int]
    moved: list[int]
    immune: list[bool]
    turns: list[int]
    supply: list[int]
    piles: list[int]
    totals: list[int]
    actions: int
    buys: int
    coins: int
    potions: int
    bought: bool
    phase: int
    turn: int
    edition: int
    next_play_id: int
    ended_by: str

    # -- construction ---------------------------------------------------------------
    def __init__(self, config: GameConfig) -> None:
        self._init_core(config)
        n = config.players
        opts = config.options
        kingdom = [BY_ID[c] for c in opts["kingdom"]]
        self.edition = int(opts.get("base_edition", 1))
        self.piles = sorted(set(_basic_piles(kingdom)) | set(kingdom))
        self.supply = [0] * NUM_CARDS
        for c in self.piles:
            self.supply[c] = CARDS[c].pile_size(n)
        self.hands = [[] for _ in range(n)]
        self.decks = [[] for _ in range(n)]
        self.discards = [[] for _ in range(n)]
        self.in_play = [[] for _ in range(n)]
        self.aside = [[] for _ in range(n)]
        self.trash = []
        self.stack = []
        self.stolen = []
        self.moved = []
        self.immune = [False] * n
        self.turns = [0] * n
        self.next_play_id = 0
        self.ended_by = ""
        for p in range(n):
            deck = [COPPER] * 7 + [ESTATE] * 3
            self.rng.shuffle(deck)
            self.decks[p] = deck
        self.totals = self._counts()
        for p in range(n):
            self.draw(p, 5, log=False)
        self.turn = self.rng.randrange(n)
        self.phase = ACTION_PHASE
        self.actions = self.buys = self.coins = self.potions = 0
        self.bought = False
        self._start_turn(self.turn)

    @classmethod
    def scenario(
        cls,
        players: int = 2,
        kingdom: Sequence[str] | None = None,
        *,
        hands: Mapping[int, Sequence[str]] | None = None,
        decks: Mapping[int, Sequence[str]] | None = None,
        discards: Mapping[int, Sequence[str]] | None = None,
        supply: Mapping[str, int] | None = None,
        turn: int = 0,
        seed: int = 0,
        base_edition: int = 1,
    ) -> DominionState:
        """A test position: zones given by card ids (decks listed top card first).

        Players not mentioned keep their dealt cards; ``supply`` overrides pile counts.
        Card totals are re-based so that invariants hold for the given position.
        """
        from kingdoms.dominion.game import GAME

        opts = {"kingdom": list(kingdom) if kingdom else "First Game", "base_edition": base_edition}
        config = GAME.config(players, seed, opts)
        st = cls(config)
        st.logging = True
        st.log.clear()
        for zone, given in ((st.hands, hands), (st.discards, discards)):
            for p, cards in (given or {}).items():
                zone[p] = [BY_ID[c] for c in cards]
        for p, cards in (decks or {}).items():
            st.decks[p] = [BY_ID[c] for c in reversed(cards)]
        for cid, count in (supply or {}).items():
            st.supply[BY_ID[cid]] = count
        st.totals = st._counts()
        st.turn = turn
        st.stack.clear()
        st._start_turn(turn)
        return st

    def clone(self) -> DominionState:
        new = DominionState.__new__(DominionState)
        new._copy_core(self)
        self._copy_into(new)
        return new

    def _copy_into(self, new: DominionState) -> None:
        new.actions = self.actions
        new.aside = [z.copy() for z in self.aside]
        new.bought = self.bought
        new.buys = self.buys
        new.coins = self.coins
        new.decks = [z.copy() for z in self.decks]
        new.discards = [z.copy() for z in self.discards]
        new.edition = self.edition
        new.hands = [z.copy() for z in self.hands]
        new.immune = self.immune.copy()
        new.in_play = [z.copy() for z in self.in_play]
        new.moved = self.moved.copy()
        new.next_play_id = self.next_play_id
        new.phase = self.phase
        new.piles = self.piles
        new.potions = self.potions
        new.stack = self.stack.copy()
        new.stolen = self.stolen.copy()
        new.supply = self.supply.copy()
        new.totals = self.totals
        new.trash = self.trash.copy()
        new.turn = self.turn
        new.turns = self.turns.copy()
        new.ended_by = self.ended_by

    # -- zones and primitive effects ------------------------------------------------
    def _counts(self) -> list[int]:
        counts = self.supply.copy()
        for zones in (self.hands, self.decks, self.discards, self.in_play, self.aside):
            for z in zones:
                for c in z:
                    counts[c] += 1
        for c in self.trash:
            counts[c] += 1
        return counts

    # -- turn rules -----------------------------------------------------------------
    def _start_turn(self, p: int) -> None:
        self.turn = p
        self.phase = ACTION_PHASE
        self.actions = 1
        self.buys = 1
        self.coins = 0
        self.potions = 0
        self.bought = False
        if self.logging:
            self._log("turn", p, number=self.turns[p] + 1)
        self._settle()

    def _settle(self) -> None:
        """Run pending tasks; skip phases in which nothing can be done."""
        self._run()
        if self.stack or self.phase == OVER:
            return
        if self.phase == ACTION_PHASE:
            if self.actions > 0:
                hand = self.hands[self.turn]
                for c in hand:
                    if IS_ACTION[c]:
                        return
            self.phase = BUY_PHASE
        if self.phase == BUY_PHASE and self.buys <= 0:
            self._end_turn()

    def _run(self) -> None:
        from kingdoms.dominion.cards import TASKS

        stack = self.stack
        while stack:
            top = stack[-1]
            if top[0] in DECISIONS:
                return
            stack.pop()
            TASKS[top[0]](self, top)

    def new_play_id(self) -> int:
        self.next_play_id += 1
        return self.next_play_id

    def play_treasure(self, p: int, c: int) -> None:
        self.hands[p].remove(c)
        self.in_play[p].append(c)
        if c == POTION:
            self.potions += 1
        else:
            self.coins += TREASURE_COINS[c]
        if self.logging:
            self._log("play", p, card=CARDS[c].id)

    def _end_turn(self) -> None:
        p = self.turn
        disc = self.discards[p]
        disc.extend(self.in_play[p])
        disc.extend(self.hands[p])
        self.in_play[p] = []
        self.hands[p] = []
        self.moved.clear()
        self.draw(p, 5)
        self.turns[p] += 1
        self.actions = self.buys = self.coins = self.potions = 0
        ended = self.game_end_reason()
        if ended:
            self.ended_by = ended
            self.phase = OVER
            if self.logging:
                self._log("end", None, by=ended, vp=self.vp())
            return
        self._start_turn((p + 1) % self.num_players)

    def empty_piles(self) -> int:
        supply = self.supply
        return sum(1 for c in self.piles if supply[c] == 0)

    def game_end_reason(self) -> str:
        return end_reason(self.supply, self.piles, self.num_players)

    def owned(self, p: int) -> list[int]:
        return self.hands[p] + self.decks[p] + self.discards[p] + self.in_play[p] + self.aside[p]

    def vp_of(self, p: int) -> int:
        return score(self.owned(p))

    def vp(self) -> list[int]:
        return [self.vp_of(p) for p in range(self.num_players)]

    # -- the State contract ---------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.stack:
            return self.stack[-1][1]
        if self.phase == OVER:
            return TERMINAL
        return self.turn

    def legal_actions(self) -> list[int]:
        if self.stack:
            from kingdoms.dominion.cards import decision_actions

            return decision_actions(self, self.stack[-1])
        if self.phase == OVER:
            return []
        hand = self.hands[self.turn]
        out: list[int] = []
        if self.phase == ACTION_PHASE:
            out = sorted({c for c in hand if IS_ACTION[c]})  # PLAY kind is 0
            out.append(A.A_END_PHASE)
            return out
        if not self.bought:
            treasures = {c for c in hand if IS_TREASURE[c]}
            if treasures:
                out = sorted(treasures)
                out.append(A.A_ALL_TREASURES)
        if self.buys > 0:
            base = A.BUY * NUM_CARDS
            coins, potions, supply = self.coins, self.potions, self.supply
            out += [
                base + c
                for c in self.piles
                if supply[c] and COIN_COST[c] <= coins and POTION_COST[c] <= potions
            ]
        out.append(A.A_END_PHASE)
        return out

    def _apply(self, action: int) -> None:
        kind, c = divmod(action, NUM_CARDS)
        if self.stack:
            from kingdoms.dominion.cards import answer

            answer(self, self.stack.pop(), kind, c)
            self._settle()
            return
        p = self.turn
        if kind == A.PLAY:
            if self.phase == ACTION_PHASE:
                self.actions -= 1
                self.hands[p].remove(c)
                self.in_play[p].append(c)
                self.play_card(p, c, self.new_play_id())
                self._settle()
            else:
                self.play_treasure(p, c)
        elif kind == A.PLAY_ALL_TREASURES:
            hand = self.hands[p]
            keep = []
            for card in hand:
                if IS_TREASURE[card]:
                    self.in_play[p].append(card)
                    if card == POTION:
                        self.potions += 1
                    else:
                        self.coins += TREASURE_COINS[card]
                    if self.logging:
                        self._log("play", p, card=CARDS[card].id)
                else:
                    keep.append(card)
            self.hands[p] = keep
        elif kind == A.BUY:
            self.buys -= 1
            self.coins -= COIN_COST[c]
            self.potions -= POTION_COST[c]
            self.bought = True
            if self.logging:
                self._log("buy", p, card=CARDS[c].id)
            self.gain(p, c)
            if self.buys <= 0:
                self._end_turn()
        elif kind == A.END_PHASE:
            if self.phase == ACTION_PHASE:
                self.phase = BUY_PHASE
                self._settle()
            else:
                self._end_turn()

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        vp = self.vp()
        return Outcome(
            scores=tuple(float(v) for v in vp),
            winners=winners(vp, self.turns),
            details={"turns": list(self.turns), "vp": vp, "ended_by": self.ended_by},
        )

    def action_to_str(self, action: int, lang: str = "en") -> str:
        from kingdoms.dominion.view import action_text

        return action_text(self, action, lang)

    def event_to_str(self, event: Mapping[str, Any], lang: str = "en") -> str:
        from kingdoms.dominion.view import event_text

        return event_text(event, lang)

    def view(self, player: int) -> JSONDict:
        from kingdoms.dominion.view import make_view

        return make_view(self, player)

    def determinize(self, player: int, rng: random.Random) -> DominionState:
        new = self.clone()
        rng2 = random.Random(rng.random())
        new.rng = rng2
        for q in range(self.num_players):
            if q == player:
                rng.shuffle(new.decks[q])
                continue
            # cards a pending decision of q shows q has in hand stay there
            hand = new.hands[q]
            keep: list[int] = []
            for fr in self.stack:
                if fr[1] != q:
                    continue
                if fr[0] == "library":
                    wanted = [fr[3]]
                elif fr[0] == "moat":
                    wanted = [MOAT]
                elif fr[0] == "bureaucrat":
                    wanted = [c for c in hand if IS_VICTORY[c]]
                else:
                    continue
                for c in wanted:
                    if c in hand:
                        hand.remove(c)
                        keep.append(c)
            pool = hand + new.decks[q]
            rng.shuffle(pool)
            k = len(hand)
            new.hands[q] = pool[:k] + keep
            new.decks[q] = pool[k:]
        return new

    def snapshot(self) -> JSONDict:
        st = self.rng.getstate()
        return {
            "config": self.config.to_json(),
            "rng": [st[0], list(st[1]), st[2]],
            "phase": self.phase,
            "turn": self.turn,
            "actions": self.actions,
            "buys": self.buys,
            "coins": self.coins,
            "potions": self.potions,
            "bought": self.bought,
            "supply": self.supply,
            "piles": self.piles,
            "trash": self.trash,
            "hands": self.hands,
            "decks": self.decks,
            "discards": self.discards,
            "in_play": self.in_play,
            "aside": self.aside,
            "stack": [list(f) for f in self.stack],
            "stolen": self.stolen,
            "moved": self.moved,
            "immune": self.immune,
            "turns": self.turns,
            "next_play_id": self.next_play_id,
            "ended_by": self.ended_by,
            "edition": self.edition,
        }

    def check_invariants(self) -> None:
        counts = self._counts()
        if counts != self.totals:
            diff = {
                CARDS[c].id: counts[c] - self.totals[c]
                for c in range(NUM_CARDS)
                if counts[c] != self.totals[c]
            }
            raise InvariantViolation(f"cards not conserved: {diff}")
        if min(self.supply) < 0:
            raise InvariantViolation("negative supply count")
        if self.actions < 0 or self.buys < 0 or self.coins < 0 or self.potions < 0:
            raise InvariantViolation("negative actions/buys/coins/potions")


def _basic_piles(kingdom: Sequence[int]) -> list[int]:
    piles = [BY_ID[c] for c in ("copper", "silver", "gold", "estate", "duchy", "province")]
    piles.append(CURSE)
    if any(POTION_COST[c] for c in kingdom):
        piles.append(POTION)
    return piles
