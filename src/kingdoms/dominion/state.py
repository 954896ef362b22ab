"""DominionState: the whole game of Dominion, composed of its parts.

The state is a chain of compiled classes, one module per part (each adds its
fields and the methods that use them):

* :mod:`kingdoms.dominion.stack` — the decision stack: pending frames, the task
  loop, cards held by frames;
* :mod:`kingdoms.dominion.zones` — zones and supply: hands, decks, discard piles,
  play, set-aside cards, trash, the supply piles, card totals;
* :mod:`kingdoms.dominion.scoring` — victory points and the end of the game;
* :mod:`kingdoms.dominion.turn` — the turn: phases (Action, Buy, Clean-up), buying,
  Possession turns;
* this module — construction, clone, snapshot, determinization, views and the rest
  of the :class:`~kingdoms.core.state.State` contract.

Card effects are in :mod:`kingdoms.dominion.cards`, zone primitives (draw, gain,
trash, Attack/Moat plumbing, ``push``/``then``) in :mod:`kingdoms.dominion.effects`,
the rules as pure functions (scoring, end of game, tie-break) in
:mod:`kingdoms.dominion.rules`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Final

from kingdoms.core.errors import InvalidArgument, InvariantViolation, malformed_as
from kingdoms.core.events import Event
from kingdoms.core.state import TERMINAL, GameConfig, JSONDict, Outcome, State, copy_rng
from kingdoms.dominion.actions import PLAY, decode
from kingdoms.dominion.cards import ATTACK_READS, HAND_HINTS, REACTION_ASKS
from kingdoms.dominion.data import (
    BASIC_SUPPLY,
    BY_ID,
    CARDS,
    COPPER,
    ESTATE,
    IS_ACTION,
    IS_ATTACK,
    NUM_CARDS,
    POTION,
    POTION_COST,
)
from kingdoms.dominion.fields import UNSAVED, Field, copy_groups, from_json, to_json
from kingdoms.dominion.frames import Frame
from kingdoms.dominion.rules import winners
from kingdoms.dominion.shuffle import shuffle
from kingdoms.dominion.stack import DECISIONS, STACK_FIELDS
from kingdoms.dominion.turn import (
    ACTION_PHASE,
    BUY_PHASE,
    CLEANUP,
    NO_END,
    OVER,
    PHASE_NAMES,
    TREASURE_COINS,
    TURN_FIELDS,
    Turn,
)
from kingdoms.dominion.zones import ALL_UNKNOWN, ZONE_FIELDS

__all__ = [
    "ACTION_PHASE",
    "BUY_PHASE",
    "CLEANUP",
    "DECISIONS",
    "ENGINE_FIELDS",
    "FIELDS",
    "NO_END",
    "OVER",
    "PHASE_NAMES",
    "TREASURE_COINS",
    "DominionState",
    "Frame",
]

FIELDS: Final[tuple[Field, ...]] = STACK_FIELDS + ZONE_FIELDS + TURN_FIELDS
"""Every field of a state beyond the core ones (config, rng, history, log, logging),
each declared once by its part: what clone, snapshot, restore and rebuild read."""
ENGINE_FIELDS: Final = tuple(f for f in FIELDS if f.engine)
"""The fields a view's public bookkeeping (``view["engine"]``) carries, besides the
pending frames (see :mod:`kingdoms.dominion.rebuild`)."""
_SAME, _COPIED, _NESTED, _FRESH = copy_groups(FIELDS)


def _attack_reads(c: int) -> int:
    """What the Attack ``c`` reads of other seats' hidden cards, as declared with the
    card (``ATTACK_READS``): 0 only by moving them or asking a decision, 1 also a hand
    as it stays, -1 undeclared (left to sampling)."""
    reads = ATTACK_READS.get(CARDS[c].id)
    if reads is None:
        return -1
    return 1 if reads else 0


def _is_reaction(c: int) -> bool:
    return "Reaction" in CARDS[c].types


def _reactions(cards: list[int]) -> list[int]:
    """The Reaction cards among ``cards``, sorted."""
    return sorted(c for c in cards if _is_reaction(c))


def _kinds_certain(hidden: list[int], hand: int) -> bool:
    """Whether a hand of ``hand`` cards dealt from ``hidden`` holds the same kinds of
    cards however it is dealt: each kind has more copies than the cards left out (so
    one is always in the hand).  A hand of 5 of 3 Coppers and 3 Curses always holds
    both."""
    left_out = len(hidden) - hand
    return all(hidden.count(c) > left_out for c in set(hidden))


def _arrange(pool: list[int], k: int, kind: int, held: bool) -> None:
    """Reorder ``pool`` so that its first ``k`` cards hold a ``kind`` (``held``) or
    none of it (as far as the other cards go), the others in their order."""
    if held:
        if k and kind in pool[k:] and kind not in pool[:k]:
            i = pool.index(kind, k)
            pool[0], pool[i] = pool[i], pool[0]
    else:
        pool.sort(key=lambda c: c == kind)  # stable: the other cards keep their order


def _common_start(a: list[int], b: list[int]) -> int:
    """How many cards ``a`` and ``b`` share from their start (a deck's bottom)."""
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def _uniform(cards: list[int]) -> bool:
    """Whether every card of ``cards`` is the same card (then any order of them, and
    any choice among them, looks the same)."""
    return all(c == cards[0] for c in cards)


class DominionState(Turn):
    """A game of Dominion (the parts: :mod:`~kingdoms.dominion.stack`,
    :mod:`~kingdoms.dominion.zones`, :mod:`~kingdoms.dominion.scoring`,
    :mod:`~kingdoms.dominion.turn`)."""

    __slots__ = ()

    game_name = "dominion"

    # -- construction ---------------------------------------------------------------
    def __init__(self, config: GameConfig, rng: random.Random | None = None) -> None:
        """A new game of ``config`` (given ``rng``: a shell, see ``_init_core``)."""
        if self._init_core(config, rng):
            return
        n = config.players
        opts = config.options
        self.edition = int(opts.get("base_edition", 1))
        self.alchemy_errata = bool(opts.get("alchemy_errata", False))
        piles, supply = _setup(opts["kingdom"], n)
        self.piles = piles.copy()
        self.supply = supply.copy()
        self.hands = [[] for _ in range(n)]
        self.decks = [[] for _ in range(n)]
        self.discards = [[] for _ in range(n)]
        self.in_play = [[] for _ in range(n)]
        self.aside = [[] for _ in range(n)]
        self.looking = [[] for _ in range(n)]
        self.trash = []
        self.merchants = self.herbalists = 0
        self.silver_played = False
        # Possession: who controls the current (extra) turn, and pending extra turns
        self.controller = -1
        self.extra_turn = False
        self.normal_player = 0
        self.last_extra = -1
        self.created = []
        self.extra_queue = []
        self.deferred = []
        self.possessed_trash = []
        self.discarding = [0] * n
        self.deck_unknown = [ALL_UNKNOWN] * n
        self.seen_hands = []
        self.stack = []
        self.stolen = []
        self.moved = []
        self.immune = [False] * n
        self.turns = [0] * n
        self.next_play_id = 0
        self.ended_by = ""
        start = opts.get("start")
        for p in range(n):
            if start is not None and start[p] is not None:
                self._deal_start(p, start[p])
                continue
            deck = [COPPER] * 7 + [ESTATE] * 3
            shuffle(deck, self.rng)  # = self.rng.shuffle(deck), compiled
            self.decks[p] = deck
        # what recount() gives here, known without counting: every card is in the
        # supply or a starting deck (7 Coppers and 3 Estates, both supply piles)
        totals = self.supply.copy()
        totals[COPPER] += 7 * n
        totals[ESTATE] += 3 * n
        self.totals = tuple(totals)
        size = max(len(CARDS), len(self.supply))
        self.owned_counts = []
        for _ in range(n):
            owned = [0] * size
            owned[COPPER] = 7
            owned[ESTATE] = 3
            self.owned_counts.append(owned)
        self.owned_kinds = self.piles
        self.buy_cache = {}
        if self.logging:
            self._log(
                "setup",
                None,
                kingdom=list(opts["kingdom"]),
                base_edition=self.edition,
                alchemy_errata=self.alchemy_errata,
            )
        for p in range(n):
            if start is not None and start[p] is not None and "hand" in start[p]:
                self.hands[p] = [BY_ID[c] for c in start[p]["hand"]]
            else:
                self.draw(p, 5, log=False)
        if start is not None:
            self.recount()
        first = opts.get("first_player")
        self.turn = int(first) if first is not None else self.rng.randrange(n)
        self.first = self.turn
        self.phase = ACTION_PHASE
        self.actions = self.buys = self.coins = self.potions = 0
        self.bought = False
        self._start_turn(self.turn)

    def _deal_start(self, p: int, entry: Mapping[str, Any]) -> None:
        """Seat ``p``'s start state (the ``start`` option, checked by
        :func:`kingdoms.dominion.start.check_start`): its deck (shuffled, until it
        deals the split asked for), its discard pile; the cards beyond the usual start
        leave the supply.  Its hand is dealt with the others'."""
        from kingdoms.dominion.start import USUAL, split_holds

        deck = [BY_ID[c] for c in reversed(entry["deck"])]  # listed top card first
        if entry["shuffle"]:
            shuffle(deck, self.rng)
            split = entry.get("split")
            if split is not None:
                while not split_holds(deck, split):
                    shuffle(deck, self.rng)
        self.decks[p] = deck
        self.discards[p] = [BY_ID[c] for c in entry["discard"]]
        owned: dict[int, int] = {}
        for c in (*deck, *self.discards[p], *(BY_ID[x] for x in entry.get("hand", ()))):
            owned[c] = owned.get(c, 0) + 1
        for c, k in owned.items():
            extra = k - USUAL.get(c, 0)
            if extra > 0:
                self.supply[c] -= extra

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
        st.recount()
        st.turn = st.first = turn
        st.stack.clear()
        st._start_turn(turn)
        return st

    def clone(self) -> DominionState:
        return self._clone_with(copy_rng(self.rng))

    def _clone_with(self, rng: random.Random) -> DominionState:
        """:meth:`clone` with the generator ``rng`` (a determinization draws a new
        one: copying the old one first would be thrown away)."""
        new = DominionState(self.config, rng)
        new.history = self.history.copy()
        new.log = self.log.copy()
        new.logging = self.logging
        self._copy_into(new)
        return new

    def _copy_into(self, new: DominionState) -> None:
        """Copy every declared field into ``new`` (lists copied, values shared)."""
        for name in _SAME:
            setattr(new, name, getattr(self, name))
        for name in _COPIED:
            flat: list[Any] = getattr(self, name)
            setattr(new, name, flat.copy())
        for name in _NESTED:
            zones: list[list[int]] = getattr(self, name)
            setattr(new, name, [z.copy() for z in zones])
        for name in _FRESH:
            setattr(new, name, {})

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
                "vp_by_card": self.vp_by_card_ids(),
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

    def revealed_nothing(self, action: int, after: State) -> bool:
        """What :meth:`determinize` resamples (every deck's order, the other seats'
        hands and the cards they look at) is read only by a step that takes cards from
        a deck or from another seat's hand (unless every card it could have been is the
        same card: a deck of Coppers alone), plays an Attack (its Moat check reads the
        hands it targets: certain when none of them can hold a Reaction; and Bureaucrat
        shows a hand without a Victory card as it is, see :meth:`_attacks_read_nothing`),
        starts or ends another seat's pending decisions, or brings up another seat's
        decision (what the decision offers is read from that seat's hand; every seat
        sees how many cards it asks for).  A step that did none of these (buying,
        playing a Treasure, ending the Action phase, choosing from one's own hand,
        gaining from the supply, putting a known card on one's deck, discarding down to
        three under a Militia, a Witch or a Spy no Moat can answer...) read nothing
        hidden from the acting seat and showed nothing.  A step under Possession or one
        that ends the game is left to sampling."""
        if not isinstance(after, DominionState) or after.phase == OVER:
            return False
        if self.controller >= 0 or after.controller >= 0:
            return False
        actor = self.current_player
        n = self.num_players
        # seats whose hidden cards are all alike: every determinization deals them the
        # very same cards, so whatever a step reads of them is certain
        alike = [q != actor and _uniform(self._hidden(q)) for q in range(n)]
        for q in range(n):
            before_deck, after_deck = self.decks[q], after.decks[q]
            untouched = after_deck[: len(before_deck)] == before_deck  # at most put on top
            if q == actor:
                if not untouched and not _uniform(before_deck):
                    return False
            elif (
                not untouched
                or self.hands[q] != after.hands[q]
                or self.looking[q] != after.looking[q]
            ) and not alike[q]:
                return False
        deciding = after.current_player
        if deciding != actor and not self._decision_reads_nothing(after, deciding):
            return False  # what another seat may do now (and whether) reads its hand
        kind, card = decode(action)
        played = self.in_play[self.turn]
        now = after.in_play[self.turn]
        attacks = [c for c in set(now) if IS_ATTACK[c] and now.count(c) > played.count(c)]
        if kind == PLAY and 0 <= card < len(IS_ATTACK) and IS_ATTACK[card]:
            attacks.append(card)
        others = [fr for fr in self.stack if fr.who != actor]
        others_after = [fr for fr in after.stack if fr.who != actor]
        if (
            others != others_after
            and not all(alike[q] for q in range(n) if q != actor)
            and not self._frames_read_nothing(others, others_after, attacks, actor, alike)
        ):
            return False
        # an Attack played now whose effect waits (for a Moat answer) ran only its checks
        waits = (
            kind == PLAY
            and not self.stack
            and any(fr.code == "effect" and fr.card == card for fr in after.stack)
        )
        return not attacks or self._attacks_read_nothing(
            attacks, actor, alike, card if waits else -1
        )

    def _hidden(self, q: int) -> list[int]:
        """The cards :meth:`determinize` deals seat ``q`` anew when another seat acts:
        its hand, deck, the cards it looks at and the picks of a discard it is making."""
        pool = self.hands[q] + self.decks[q] + self.looking[q]
        picks = self.discarding[q]
        if picks:
            disc = self.discards[q]
            pool += disc[len(disc) - picks :]
        return pool

    def _moat_certain(self, q: int, alike: list[bool]) -> bool:
        """Whether the Moat check of seat ``q`` (does its hand hold a Reaction?) has the
        same answer in every determinization: its hidden cards are all alike, or they
        are its hand alone (the same cards in another order), or none is a Reaction."""
        hidden = self._hidden(q)
        if alike[q] or len(hidden) == len(self.hands[q]):
            return True
        return not any(_is_reaction(c) for c in set(hidden))

    def _frames_read_nothing(
        self,
        before: list[Frame],
        after: list[Frame],
        attacks: list[int],
        actor: int,
        alike: list[bool],
    ) -> bool:
        """Whether the frames of the other seats that this step ran or added (``before``
        and ``after``: theirs, before and after it) read nothing hidden beyond what
        :meth:`revealed_nothing` sees: the Attack plumbing of an Attack (its Moat checks,
        certain by :meth:`_moat_certain`; the Moat decision of a seat certain to hold a
        Moat (``REACTION_ASKS``); its effect, of an Attack that reads hidden cards only
        by moving them or asking a decision, or of one that also reads victims' hands
        against victims whose hidden cards are all alike (both ``ATTACK_READS``),
        and what that effect adds: decisions read from hands the check of the next
        decision reads, cards moved that the zone checks see).  Any other frame is left
        to sampling."""
        gone = list(before)
        added: list[Frame] = []
        for fr in after:
            if fr in gone:
                gone.remove(fr)
            else:
                added.append(fr)
        ran = list(attacks)
        for fr in gone:
            if fr.code == "moat_ask":
                if not self._moat_certain(fr.who, alike):
                    return False
            elif fr.code == "effect" and IS_ATTACK[fr.card] and _attack_reads(fr.card) == 0:
                ran.append(fr.card)
            elif fr.code == "effect" and _attack_reads(fr.card) == 1:
                if not all(alike[q] or q == actor or q == fr.who for q in range(len(alike))):
                    return False
                ran.append(fr.card)
            elif fr.code != "reset_immune":
                return False
        for fr in added:
            if fr.code in REACTION_ASKS:
                if not self._moat_certain(fr.who, alike):
                    return False
            elif fr.card not in ran or fr.code == "effect":
                return False
        return True

    def _attacks_read_nothing(
        self, attacks: list[int], actor: int, alike: list[bool], waiting: int
    ) -> bool:
        """Whether the Attacks ``attacks``, played in this step, read nothing hidden
        beyond what :meth:`revealed_nothing` sees move: the Moat check of each other
        seat (whether its hand holds a Reaction) is certain (:meth:`_moat_certain`),
        and each Attack is one whose effect reads another seat's hidden cards only by
        moving them (out of a deck or a hand) or by handing that seat a decision
        (declared with the card: ``ATTACK_READS``), or one that also reads a hand whose effect
        has not run (``waiting``: it waits for a Moat answer), or every other seat's
        hidden cards are all alike."""
        others = [q for q in range(self.num_players) if q != actor]
        for c in attacks:
            reads = _attack_reads(c)
            if reads == 0 or (c == waiting and reads == 1):
                continue
            if not all(alike[q] for q in others):
                return False
        return all(self._moat_certain(q, alike) for q in others)

    def reads_alike(self, action: int, after: State, sample: State) -> bool:
        """Whether ``sample`` holds the cards this step took from the top of each deck
        (in the same order); for each other seat whose hand or looked-at cards the step
        changed or whose pending work it ran, the same hand and looked-at cards; for
        the seat that decides next, the same kinds of cards in hand (what a decision
        offers); and, when an Attack was played, the same Reactions in the hands its
        Moat check read."""
        if not isinstance(after, DominionState) or not isinstance(sample, DominionState):
            return True
        actor = self.current_player
        deciding = after.current_player
        played = self.in_play[self.turn]
        now = after.in_play[self.turn]
        attacked = any(IS_ATTACK[c] and now.count(c) > played.count(c) for c in set(now))
        for q in range(self.num_players):
            deck = self.decks[q]
            kept = _common_start(deck, after.decks[q])  # cards below the ones taken
            if sample.decks[q][kept:] != deck[kept:]:
                return False
            if q == actor:
                continue
            hand, looking = self.hands[q], self.looking[q]
            if (
                hand != after.hands[q]
                or looking != after.looking[q]
                or any(fr.who == q and fr not in after.stack for fr in self.stack)
            ):
                if sorted(sample.hands[q]) != sorted(hand):
                    return False
                if sorted(sample.looking[q]) != sorted(looking):
                    return False
            elif (q == deciding and set(sample.hands[q]) != set(hand)) or (
                attacked and _reactions(sample.hands[q]) != _reactions(hand)
            ):
                return False
        return True

    def _decision_reads_nothing(self, after: DominionState, seat: int) -> bool:
        """Whether handing the decision to ``seat`` (not the acting one) after this step
        read nothing hidden of it: all its hidden cards are alike; or its hand is all of
        them (no deck, no cards looked at or being discarded: every determinization
        deals it the same cards, in another order, and a hand is shown and offered in
        card order); or no decision of a card is pending and the step stays in the turn
        with no Action left to play (the turn goes on without looking at the hand); or
        a new turn starts for a seat with no Action among its hidden cards (whether it
        may play one is then certain); or which kinds of cards its hand holds is the same
        in every determinization (:func:`_kinds_certain`): a decision offers the kinds
        in hand, one pick a step, and every seat sees the hand's size."""
        pool = self.hands[seat] + self.decks[seat] + self.looking[seat]
        if _uniform(pool):
            return True
        if len(pool) == len(self.hands[seat]) and not self.discarding[seat]:
            return True
        if _kinds_certain(self._hidden(seat), len(self.hands[seat])):
            return True
        if after.stack or seat != after.turn:
            return False
        if after.turn == self.turn:
            return after.actions <= 0
        return not any(IS_ACTION[c] for c in pool)

    def telling_samples(self, action: int, after: State, rng: random.Random) -> Iterator[State]:
        """For a step that hands the decision to another seat whose hand's kinds of
        cards are not certain (:meth:`_decision_reads_nothing`: what the decision offers
        is read from them), determinizations for the acting seat that deal that seat,
        for each kind among its hidden cards, a hand without that kind and one with it
        (where its hidden cards allow): a world whose offer differs from the real one
        holds or lacks some kind the real hand lacks or holds, and these worlds are
        then among the samples however rare they are."""
        if not isinstance(after, DominionState) or after.phase == OVER:
            return
        actor, seat = self.current_player, after.current_player
        if seat == actor or (seat == self.turn and self.controller == actor):
            return
        hidden = self._hidden(seat)
        if _uniform(hidden) or _kinds_certain(hidden, len(self.hands[seat])):
            return
        for kind in sorted(set(hidden)):  # made one at a time: the first that differs ends it
            for held in (False, True):
                yield self._determinize(actor, random.Random(rng.random()), (seat, kind, held))

    def determinize(self, player: int, rng: random.Random) -> DominionState:
        return self._determinize(player, rng)

    def _determinize(
        self, player: int, rng: random.Random, deal: tuple[int, int, bool] | None = None
    ) -> DominionState:
        """:meth:`determinize`; ``deal``: ``(seat, kind, held)`` deals ``seat`` a hand
        that holds a card of ``kind`` (``held``) or none (as far as its hidden cards
        allow), the rest as dealt (:meth:`telling_samples`)."""
        new = self._clone_with(random.Random(rng.random()))
        for q in range(self.num_players):
            if q == player or (q == self.turn and self.controller == player):
                # own hand (or the possessed player's, seen by the possessor): known;
                # so are the cards the seat put on its own deck itself (on top), which
                # a possessor does not see
                deck = new.decks[q]
                unknown = new.deck_unknown[q] if q == player else ALL_UNKNOWN
                new.deck_unknown[q] = unknown
                if unknown >= len(deck):
                    shuffle(deck, rng)
                else:
                    below = deck[:unknown]
                    shuffle(below, rng)
                    deck[:unknown] = below
                continue
            # cards a pending decision of q shows q has in hand stay there (what each
            # decision shows is declared with its card: HAND_HINTS)
            hand = new.hands[q]
            keep: list[int] = []
            for fr in self.stack:
                if fr.who != q:
                    continue
                hint = HAND_HINTS.get(fr.code)
                if hint is None:
                    continue
                for c in hint.kept(fr, hand):
                    hand.remove(c)
                    keep.append(c)
            looking = new.looking[q]
            # the picks of a discard q is still making are hidden too (on top of its pile)
            disc = new.discards[q]
            picks = self.discarding[q]
            pool = hand + new.decks[q] + looking
            if picks:
                pool += disc[len(disc) - picks :]
                del disc[len(disc) - picks :]
            shuffle(pool, rng)
            k, m = len(hand), len(looking)
            if deal is not None and deal[0] == q:
                _arrange(pool, k, deal[1], deal[2])
            new.hands[q] = pool[:k] + keep
            new.looking[q] = pool[k : k + m]
            if picks:
                disc.extend(pool[k + m : k + m + picks])
            new.decks[q] = pool[k + m + picks :]
            new.deck_unknown[q] = ALL_UNKNOWN
        return new

    def snapshot(self) -> JSONDict:
        out = self._snapshot_core()
        for f in FIELDS:
            if f.kind not in UNSAVED:
                out[f.name] = to_json(f, getattr(self, f.name))
        return out

    @classmethod
    def restore(cls, snapshot: Mapping[str, Any]) -> DominionState:
        """The state whose :meth:`snapshot` is ``snapshot`` (without history or log).
        Data that is not a Dominion snapshot raises :class:`InvalidArgument`."""
        return malformed_as("a Dominion snapshot", lambda: _restore(snapshot))

    # -- serialization (see kingdoms.core.serial) --------------------------------------
    def data(self) -> JSONDict:
        """:meth:`snapshot` with the actions applied so far and the logging flag:
        everything but the log that :meth:`from_data` needs for the same game."""
        out = self.snapshot()
        out["history"] = list(self.history)
        out["logging"] = self.logging
        return out

    @classmethod
    def from_data(cls, data: Mapping[str, Any], log: Sequence[Event] = ()) -> DominionState:
        """The state :meth:`data` (and ``log``) describe; malformed data raises
        :class:`InvalidArgument`."""
        st = cls.restore(data)
        history = data.get("history", [])
        if not isinstance(history, list) or any(type(a) is not int for a in history):
            raise InvalidArgument("not a Dominion state: history must be a list of ints")
        st.history = list(history)
        st.logging = bool(data.get("logging", True))
        st.log = list(log)
        return st

    def serialize(self) -> str:
        """The whole state as text (:func:`kingdoms.core.serial.new_state_from` reads
        it back): snapshot, history and log."""
        from kingdoms.core.serial import dumps

        return dumps(self.data(), self.log)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickling over :meth:`data` (a compiled class has no bare ``__new__``)."""
        return (_unpickle, (self.data(), list(self.log)))

    def __copy__(self) -> DominionState:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> DominionState:
        return self.clone()

    def check_invariants(self) -> None:
        counts = self._counts()
        if tuple(counts) != self.totals:
            diff = {
                CARDS[c].id: counts[c] - self.totals[c]
                for c in range(len(counts))
                if counts[c] != self.totals[c]
            }
            raise InvariantViolation(f"cards not conserved: {diff}")
        owned = self.count_owned()
        if owned != self.owned_counts:
            diff = {
                f"{p}:{CARDS[c].id}": self.owned_counts[p][c] - owned[p][c]
                for p in range(len(owned))
                for c in range(len(owned[p]))
                if owned[p][c] != self.owned_counts[p][c]
            }
            raise InvariantViolation(f"owned counts kept wrong (kept - counted): {diff}")
        kinds = set(self.owned_kinds)
        strays = {CARDS[c].id for q in owned for c, n in enumerate(q) if n and c not in kinds}
        if strays:
            raise InvariantViolation(f"owned cards not in owned_kinds: {sorted(strays)}")
        if NO_END in self.buy_cache and self.game_end_reason():
            raise InvariantViolation("the game's end is remembered as not reached")
        for p, k in enumerate(self.discarding):
            if not 0 <= k <= len(self.discards[p]):
                raise InvariantViolation(f"seat {p} discarding {k} cards of a smaller pile")
        if min(self.supply) < 0:
            raise InvariantViolation("negative supply count")
        if self.actions < 0 or self.buys < 0 or self.coins < 0 or self.potions < 0:
            raise InvariantViolation("negative actions/buys/coins/potions")


def _unpickle(data: Mapping[str, Any], log: list[Event]) -> DominionState:
    """The state :meth:`DominionState.__reduce__` pickled."""
    return DominionState.from_data(data, log)


def _restore(snapshot: Mapping[str, Any]) -> DominionState:
    conf = snapshot["config"]
    if conf["game"] != DominionState.game_name:
        raise InvalidArgument(f"not a Dominion snapshot: a game of {conf['game']!r}")
    config = GameConfig(
        DominionState.game_name, int(conf["players"]), int(conf["seed"]), dict(conf["options"])
    )
    version, internal, gauss = snapshot["rng"]
    rng = random.Random()
    rng.setstate((version, tuple(internal), gauss))
    st = DominionState(config, rng)
    for f in FIELDS:
        if f.kind not in UNSAVED:
            if f.name in _ADDED and f.name not in snapshot:
                data: Any = _ADDED[f.name](config.players)
            else:
                data = snapshot[f.name]
            setattr(st, f.name, from_json(f, data))
    st.recount()
    return st


_ADDED: Final[dict[str, Callable[[int], list[int]]]] = {
    "discarding": lambda n: [0] * n,
    "seen_hands": lambda n: [],
    "deck_unknown": lambda n: [ALL_UNKNOWN] * n,
}
"""Fields newer than some saved snapshots -> what a snapshot without them restores
with, given the number of seats (no discard being made, no hand seen, no deck's
order known)."""


_SETUPS: Final[dict[tuple[int, tuple[str, ...]], tuple[list[int], list[int]]]] = {}
"""(players, kingdom) -> the piles and the supply a game starts with (worked out once
per process for the last few hundred kingdoms; never changed: games copy them)."""


def _setup(kingdom_ids: Sequence[str], players: int) -> tuple[list[int], list[int]]:
    """The sorted supply piles of a game of ``kingdom_ids`` and the cards in each (one
    count per card of the card list, and up to the last added card in play: a game
    without added cards keeps the card list's size, so that records replay)."""
    key = (players, tuple(kingdom_ids))
    found = _SETUPS.get(key)
    if found is not None:
        return found
    kingdom = [BY_ID[c] for c in kingdom_ids]
    piles = sorted(set(_basic_piles(kingdom)) | set(kingdom))
    supply = [0] * max(NUM_CARDS, piles[-1] + 1)
    for c in piles:
        supply[c] = _pile_size(c, players)
    if len(_SETUPS) >= 512:
        _SETUPS.clear()
    _SETUPS[key] = (piles, supply)
    return piles, supply


_PILE_SIZES: Final[dict[int, int]] = {}
"""``card * 64 + players`` -> the card's pile size (worked out once per process)."""


def _pile_size(c: int, players: int) -> int:
    key = c * 64 + players
    size = _PILE_SIZES.get(key)
    if size is None:
        size = _PILE_SIZES[key] = CARDS[c].pile_size(players)
    return size


def _basic_piles(kingdom: Sequence[int]) -> list[int]:
    piles = list(BASIC_SUPPLY)
    if any(POTION_COST[c] for c in kingdom):
        piles.append(POTION)
    return piles
