"""DominionState: the whole game, decisions as a stack of small frames.

The stack holds :class:`~kingdoms.dominion.frames.Frame` objects (code, who, card,
a, b).  Codes in :data:`DECISIONS` are pending decisions (``who`` decides; their kind
and purpose: :mod:`kingdoms.dominion.decisions`); every other code is a pending task
that :meth:`DominionState._run` executes.  Card effects are in
:mod:`kingdoms.dominion.cards`, zone primitives (draw, gain, trash, Attack/Moat
plumbing) in :mod:`kingdoms.dominion.effects`, scoring / end of game / tie-break in
:mod:`kingdoms.dominion.rules`; the turn (phases, buying, clean-up) is in this module.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from kingdoms.core.errors import InvariantViolation
from kingdoms.core.state import TERMINAL, GameConfig, JSONDict, Outcome, State, copy_rng
from kingdoms.dominion import actions as A
from kingdoms.dominion.cards import COINS, HELD, TASKS, answer, decision_actions
from kingdoms.dominion.cards.alchemy import start_cleanup
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
from kingdoms.dominion.decisions import SPECS
from kingdoms.dominion.effects import Effects
from kingdoms.dominion.frames import Frame
from kingdoms.dominion.rules import end_reason, score, vp_by_card, winners
from kingdoms.dominion.shuffle import shuffle

ACTION_PHASE, BUY_PHASE, OVER, CLEANUP = 0, 1, 2, 3
PHASE_NAMES = ("action", "buy", "over", "cleanup")

__all__ = ["DECISIONS", "DominionState", "Frame"]

MOAT = BY_ID["moat"]
TREASURE_COINS = COINS
"""Card index -> coins playing it makes (read from the card declarations)."""
SILVER = BY_ID["silver"]
PHILOSOPHERS_STONE = BY_ID["philosophers_stone"]

DECISIONS = SPECS
"""Frame code -> its decision (filled where each decision is declared)."""


class DominionState(State, Effects):
    __slots__ = (
        "actions",
        "alchemy_errata",
        "aside",
        "bought",
        "buys",
        "coins",
        "controller",
        "created",
        "decks",
        "deferred",
        "discards",
        "edition",
        "ended_by",
        "extra_queue",
        "extra_turn",
        "first",
        "hands",
        "herbalists",
        "immune",
        "in_play",
        "last_extra",
        "looking",
        "merchants",
        "moved",
        "next_play_id",
        "normal_player",
        "phase",
        "piles",
        "possessed_trash",
        "potions",
        "silver_played",
        "stack",
        "stolen",
        "supply",
        "totals",
        "trash",
        "turn",
        "turns",
    )

    game_name = "dominion"

    stolen: list[int]
    moved: list[int]
    immune: list[bool]
    turns: list[int]
    totals: list[int]
    actions: int
    buys: int
    coins: int
    potions: int
    bought: bool
    phase: int
    edition: int
    next_play_id: int
    ended_by: str

    # -- construction ---------------------------------------------------------------
    def __init__(self, config: GameConfig, rng: random.Random | None = None) -> None:
        """A new game of ``config``; given ``rng`` (a copy's), an empty shell that
        :meth:`clone` fills (copies go through the constructor: compiled classes
        have no bare ``__new__``)."""
        self._init_core(config, rng)
        if rng is not None:
            return
        n = config.players
        opts = config.options
        kingdom = [BY_ID[c] for c in opts["kingdom"]]
        self.edition = int(opts.get("base_edition", 1))
        self.alchemy_errata = bool(opts.get("alchemy_errata", False))
        self.piles = sorted(set(_basic_piles(kingdom)) | set(kingdom))
        # one count per card of the card list, and up to the last added card in play
        # (a game without added cards keeps the card list's size: records replay)
        self.supply = [0] * max(NUM_CARDS, self.piles[-1] + 1)
        for c in self.piles:
            self.supply[c] = CARDS[c].pile_size(n)
        self.hands = [[] for _ in range(n)]
        self.decks = [[] for _ in range(n)]
        self.discards = [[] for _ in range(n)]
        self.in_play = [[] for _ in range(n)]
        self.aside = [[] for _ in range(n)]
        self.looking: list[list[int]] = [[] for _ in range(n)]
        self.trash = []
        self.merchants = self.herbalists = 0
        self.silver_played = False
        # Possession: who controls the current (extra) turn, and pending extra turns
        self.controller = -1
        self.extra_turn = False
        self.normal_player = 0
        self.last_extra = -1
        self.created: list[tuple[int, int]] = []
        self.extra_queue: list[tuple[int, int]] = []
        self.deferred: list[tuple[int, int, int]] = []
        self.possessed_trash: list[int] = []
        self.stack = []
        self.stolen = []
        self.moved = []
        self.immune = [False] * n
        self.turns = [0] * n
        self.next_play_id = 0
        self.ended_by = ""
        for p in range(n):
            deck = [COPPER] * 7 + [ESTATE] * 3
            shuffle(deck, self.rng)  # = self.rng.shuffle(deck), compiled
            self.decks[p] = deck
        self.totals = self._counts()
        if self.logging:
            self._log(
                "setup",
                None,
                kingdom=list(opts["kingdom"]),
                base_edition=self.edition,
                alchemy_errata=self.alchemy_errata,
            )
        for p in range(n):
            self.draw(p, 5, log=False)
        first = opts.get("first_player")
        self.turn = int(first) if first is not None else self.rng.randrange(n)
        self.first = self.turn
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
        alchemy_errata: bool = False,
        in_play: Mapping[int, Sequence[str]] | None = None,
    ) -> DominionState:
        """A test position: zones given by card ids (decks listed top card first).

        Players not mentioned keep their dealt cards; ``supply`` overrides pile counts.
        Card totals are re-based so that invariants hold for the given position.
        """
        from kingdoms.dominion.game import GAME

        opts = {
            "kingdom": list(kingdom) if kingdom else "First Game",
            "base_edition": base_edition,
            "alchemy_errata": alchemy_errata,
        }
        config = GAME.config(players, seed, opts)
        st = cls(config)
        st.logging = True
        st.log.clear()
        for zone, given in ((st.hands, hands), (st.discards, discards), (st.in_play, in_play)):
            for p, cards in (given or {}).items():
                zone[p] = [BY_ID[c] for c in cards]
        for p, cards in (decks or {}).items():
            st.decks[p] = [BY_ID[c] for c in reversed(cards)]
        for cid, count in (supply or {}).items():
            st.supply[BY_ID[cid]] = count
        st.totals = st._counts()
        st.turn = st.first = turn
        st.stack.clear()
        st._start_turn(turn)
        return st

    def clone(self) -> DominionState:
        new = DominionState(self.config, copy_rng(self.rng))
        new.history = self.history.copy()
        new.log = self.log.copy()
        new.logging = self.logging
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
        new.alchemy_errata = self.alchemy_errata
        new.first = self.first
        new.looking = [z.copy() for z in self.looking]
        new.merchants = self.merchants
        new.herbalists = self.herbalists
        new.silver_played = self.silver_played
        new.controller = self.controller
        new.extra_turn = self.extra_turn
        new.normal_player = self.normal_player
        new.last_extra = self.last_extra
        new.created = self.created.copy()
        new.extra_queue = self.extra_queue.copy()
        new.deferred = self.deferred.copy()
        new.possessed_trash = self.possessed_trash.copy()

    # -- zones and primitive effects ------------------------------------------------
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

    def held_by_frames(self, p: int) -> list[int]:
        """Cards of ``p`` set aside by a pending effect that holds them in its frame."""
        if not self.stack:
            return []
        out: list[int] = []
        for fr in self.stack:
            fields = HELD.get(fr.code)
            if fields is not None and fr.who == p:
                out.extend(fr.field(i) for i in fields)
        return out

    def set_aside_of(self, p: int) -> list[int]:
        """Every card ``p`` has set aside: the shared zone and the frames' cards."""
        if not self.stack:
            return self.aside[p]
        return self.aside[p] + self.held_by_frames(p)

    # -- turn rules -----------------------------------------------------------------
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
        decisions = DECISIONS
        stack = self.stack
        while stack:
            top = stack[-1]
            if top.code in decisions:
                return
            stack.pop()
            TASKS[top.code](self, top)

    def new_play_id(self) -> int:
        self.next_play_id += 1
        return self.next_play_id

    def treasure_value(self, p: int, c: int) -> None:
        """Add what playing Treasure ``c`` produces (Potion: a potion; Philosopher's
        Stone: $1 per 5 cards in deck + discard; Silver: Merchant bonus the first time)."""
        if c == POTION:
            self.potions += 1
        elif c == PHILOSOPHERS_STONE:
            self.coins += (len(self.decks[p]) + len(self.discards[p])) // 5
        else:
            self.coins += TREASURE_COINS[c]
            if c == SILVER and not self.silver_played:
                self.silver_played = True
                self.coins += self.merchants

    def play_treasure(self, p: int, c: int) -> None:
        self.hands[p].remove(c)
        self.in_play[p].append(c)
        self.treasure_value(p, c)
        if self.logging:
            self._log("play", p, card=CARDS[c].id)

    def _end_turn(self) -> None:
        """Clean-up.  Alchemist/Herbalist abilities may ask first (see
        :func:`kingdoms.dominion.cards.alchemy.start_cleanup`); then
        :meth:`finish_turn` discards, draws and passes the turn."""
        p = self.turn
        self.phase = CLEANUP
        stack = self.stack
        depth = len(stack)
        start_cleanup(self, p)
        if len(stack) == depth:
            self.finish_turn(p)  # nothing to ask
            return
        stack.insert(depth, Frame("cleanup_finish", p))
        self._run()

    def finish_turn(self, p: int) -> None:
        disc = self.discards[p]
        disc.extend(self.in_play[p])
        disc.extend(self.hands[p])
        self.in_play[p] = []
        self.hands[p] = []
        self.moved.clear()
        self.draw(p, 5)
        if self.possessed_trash:
            # trashed during a Possession turn: back to their owner after Clean-up
            # (into the discard pile as it is now: the draw may have shuffled it away)
            self.discards[p].extend(self.possessed_trash)
            self.possessed_trash = []
        if not self.extra_turn:
            self.turns[p] += 1
        self.actions = self.buys = self.coins = self.potions = 0
        ended = self.game_end_reason()
        if ended:
            self.ended_by = ended
            self.phase = OVER
            self.controller = -1
            if self.logging:
                self._log("end", None, by=ended, vp=self.vp())
            return
        self._next_turn()

    def _next_turn(self) -> None:
        """Pending Possession turns first (in the order played), then the next player.

        Possessions played in a normal turn give their extra turns right after it;
        ones played in an extra turn wait for the end of that player's next normal
        turn.  With ``alchemy_errata`` no player takes two extra turns in a row."""
        p = self.turn
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

    def empty_piles(self) -> int:
        supply = self.supply
        return sum(1 for c in self.piles if supply[c] == 0)

    def game_end_reason(self) -> str:
        return end_reason(self.supply, self.piles, self.num_players)

    def owned(self, p: int) -> list[int]:
        return (
            self.hands[p]
            + self.decks[p]
            + self.discards[p]
            + self.in_play[p]
            + self.aside[p]
            + self.looking[p]
            + (self.held_by_frames(p) if self.stack else [])
        )

    def vp_of(self, p: int) -> int:
        return score(self.owned(p))

    def vp(self) -> list[int]:
        return [self.vp_of(p) for p in range(self.num_players)]

    # -- the State contract ---------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.stack:
            who = self.stack[-1].who
            if who == self.turn and self.controller >= 0:
                return self.controller  # a possessed player's decisions
            return who
        if self.phase == OVER:
            return TERMINAL
        return self.controller if self.controller >= 0 else self.turn

    def legal_actions(self) -> list[int]:
        if self.stack:
            return decision_actions(self, self.stack[-1])
        if self.phase == OVER:
            return []
        hand = self.hands[self.turn]
        out: list[int] = []
        if self.phase == ACTION_PHASE:
            # PLAY is kind 0: a card of the card list is its own play action
            out = [
                c if c < NUM_CARDS else A.encode(A.PLAY, c)
                for c in sorted({c for c in hand if IS_ACTION[c]})
            ]
            out.append(A.A_END_PHASE)
            return out
        if not self.bought:
            treasures = {c for c in hand if IS_TREASURE[c]}
            if treasures:
                out = [c if c < NUM_CARDS else A.encode(A.PLAY, c) for c in sorted(treasures)]
                out.append(A.A_ALL_TREASURES)
        if self.buys > 0:
            base = A.BUY * NUM_CARDS
            coins, potions, supply = self.coins, self.potions, self.supply
            out += [
                base + c if c < NUM_CARDS else A.encode(A.BUY, c)
                for c in self.piles
                if supply[c] and COIN_COST[c] <= coins and POTION_COST[c] <= potions
            ]
        out.append(A.A_END_PHASE)
        return out

    def _apply(self, action: int) -> None:
        kind, c = A.decode(action)
        if self.stack:
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
                    self.treasure_value(p, card)
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
            details={
                "turns": list(self.turns),
                "vp": vp,
                "ended_by": self.ended_by,
                "first_player": self.first,
                "vp_by_card": [
                    {CARDS[c].id: v for c, v in sorted(vp_by_card(self.owned(p)).items())}
                    for p in range(self.num_players)
                ],
            },
        )

    def action_info(self, action: int) -> JSONDict:
        """An action as data for boards: ``{"kind": "buy", "card": "gold"}``."""
        from kingdoms.dominion.info import action_info

        return action_info(self, action)

    def action_to_str(self, action: int, lang: str = "en") -> str:
        from kingdoms.dominion.view import action_text

        return action_text(self, action, lang)

    def event_to_str(self, event: Mapping[str, Any], lang: str = "en") -> str:
        from kingdoms.dominion.view import event_text

        return event_text(event, lang)

    def view(self, player: int) -> JSONDict:
        from kingdoms.dominion.view import make_view

        return make_view(self, player)

    def public_view(self) -> JSONDict:
        """What a spectator may see (no seat's hidden cards)."""
        from kingdoms.dominion.view import make_public_view

        return make_public_view(self)

    def determinize(self, player: int, rng: random.Random) -> DominionState:
        new = self.clone()
        rng2 = random.Random(rng.random())
        new.rng = rng2
        for q in range(self.num_players):
            if q == player or (q == self.turn and self.controller == player):
                # own hand (or the possessed player's, seen by the possessor): known
                rng.shuffle(new.decks[q])
                continue
            # cards a pending decision of q shows q has in hand stay there
            hand = new.hands[q]
            keep: list[int] = []
            for fr in self.stack:
                if fr.who != q:
                    continue
                if fr.code == "library":
                    wanted = [fr.a]
                elif fr.code == "moat":
                    wanted = [MOAT]
                elif fr.code == "bureaucrat":
                    wanted = [c for c in hand if IS_VICTORY[c]]
                else:
                    continue
                for c in wanted:
                    if c in hand:
                        hand.remove(c)
                        keep.append(c)
            looking = new.looking[q]
            pool = hand + new.decks[q] + looking
            rng.shuffle(pool)
            k, m = len(hand), len(looking)
            new.hands[q] = pool[:k] + keep
            new.looking[q] = pool[k : k + m]
            new.decks[q] = pool[k + m :]
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
            "stack": [f.to_json() for f in self.stack],
            "stolen": self.stolen,
            "moved": self.moved,
            "immune": self.immune,
            "turns": self.turns,
            "next_play_id": self.next_play_id,
            "ended_by": self.ended_by,
            "edition": self.edition,
            "alchemy_errata": self.alchemy_errata,
            "first": self.first,
            "looking": self.looking,
            "merchants": self.merchants,
            "herbalists": self.herbalists,
            "silver_played": self.silver_played,
            "controller": self.controller,
            "extra_turn": self.extra_turn,
            "normal_player": self.normal_player,
            "last_extra": self.last_extra,
            "created": [list(x) for x in self.created],
            "extra_queue": [list(x) for x in self.extra_queue],
            "deferred": [list(x) for x in self.deferred],
            "possessed_trash": self.possessed_trash,
        }

    def check_invariants(self) -> None:
        counts = self._counts()
        if counts != self.totals:
            diff = {
                CARDS[c].id: counts[c] - self.totals[c]
                for c in range(len(counts))
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
