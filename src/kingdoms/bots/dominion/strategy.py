"""Rules over a small engine-independent situation.

A strategy's lists (buy, play, every decision) hold :class:`Rule` entries, walked
top-down: the first entry that applies decides.  For a buy, the first entry whose
card is in the supply, affordable and whose condition holds is bought; no entry:
buy nothing.  A rule whose buy
would end the game while the bot would still be behind in VP (or tied, having
taken more turns) is skipped: the walk falls through to the next rule.

>>> rules = (Rule(CARD, "province"), Rule(CARD, "gold"), Rule(CARD, "silver"))
>>> big_money = Strategy("big-money", rules)
>>> s = Situation(coins=8, owned={"copper": 7, "estate": 3}, supply={"province": 8, "gold": 30})
>>> big_money.choose(s)
'province'
>>> big_money.choose(Situation(coins=2, supply={"silver": 40}))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from kingdoms.bots.dominion.observation import Observation
from kingdoms.bots.dominion.roles import with_roles
from kingdoms.dominion.cards import COINS, VP
from kingdoms.dominion.data import BY_ID, CARDS

# Card ids as the engine and the shared card data name them.
COPPER, SILVER, GOLD = "copper", "silver", "gold"
ESTATE, DUCHY, PROVINCE = "estate", "duchy", "province"
CURSE, SMITHY, WITCH = "curse", "smithy", "witch"
GARDENS, VINEYARD = "gardens", "vineyard"

COIN_VALUE: Mapping[str, int] = {
    c.id: COINS[c.index] for c in CARDS if c.is_treasure and COINS[c.index]
}
"""Coins a Treasure makes when played (fallback when the view gives no values)."""

ACTION_COINS: Mapping[str, int] = {
    "chancellor": 2,
    "festival": 2,
    "market": 1,
    "militia": 2,
    "woodcutter": 2,
    "poacher": 1,
    "vassal": 2,
    "herbalist": 1,
}
"""The fixed +$ printed on Action cards (counted in "total money")."""

VP_VALUE: Mapping[str, int] = {c.id: VP[c.index] for c in CARDS if VP[c.index]}
"""Fixed victory points per card (from the card declarations)."""

BASIC_COST: Final[Mapping[str, int]] = {c.id: c.cost[0] for c in CARDS}
_POTION_COST: Final[dict[str, int]] = {c.id: c.cost[1] for c in CARDS if c.cost[1]}
"""Printed coin cost of every card (fallback when the situation gives no costs)."""


def victory_points(owned: Mapping[str, int], types: Mapping[str, frozenset[str]]) -> int:
    """VP of a set of owned cards (Gardens: 1 per 10 cards; Vineyard: 1 per 3 Actions).

    >>> victory_points({"estate": 3, "copper": 7, "gardens": 1}, {})
    4
    """
    total = sum(VP_VALUE.get(c, 0) * n for c, n in owned.items())
    gardens = owned.get(GARDENS, 0)
    if gardens:
        total += gardens * (sum(owned.values()) // 10)
    vineyards = owned.get(VINEYARD, 0)
    if vineyards:
        actions = sum(n for c, n in owned.items() if "action" in types.get(c, ()))
        total += vineyards * (actions // 3)
    return total


_NONE: Final[Mapping[str, Any]] = {}
_TYPES: Final[dict[str, frozenset[str]]] = with_roles(
    {c.id: frozenset(t.lower() for t in c.types) for c in CARDS}
)
"""Card id -> lower-case types and roles (``terminal``, ``village``…)."""
HAND, IN_PLAY, DRAW_PILE, DISCARD = 0, 1, 2, 3
"""The seat's own zones a condition may count (:meth:`Situation.zone`)."""
_BY_ID: Final[dict[str, int]] = BY_ID  # compiled: a constant, not a global look-up
"""The shared empty mapping of the defaults (never written)."""


class Situation:
    """What a buy rule needs to know, all of it visible to the deciding seat.

    A plain class (built for every buy, so no dataclass machinery); its fields:

    * ``owned``: card id -> copies the seat owns (deck, hand, discard, play, set aside);
      None: read from ``observation`` when a rule first asks (most buys never do);
    * ``supply``: card id -> cards left in that supply pile (only piles in this game);
      None: read from ``observation`` (one pile at a time by :meth:`left`, whole when
      a rule asks for every pile);
    * ``costs``: card id -> coin cost now (missing: :data:`BASIC_COST`);
    * ``treasure_values``: card id -> coins per play, for Treasures (missing:
      :data:`COIN_VALUE`); ``treasure_ids``: ids of Treasure cards (None: the keys of
      the treasure values);
    * ``types``: card id -> lower-case type names;
    * ``turn``: the deciding seat's turn number (1 on its first turn);
    * ``others``: ``(VP, turns taken)`` of every other seat (public: gains are
      public); ``None``: worked out from ``observation`` (or ``seats``, the view's
      player entries) when first needed;
    * ``taken``: turns the deciding seat will have taken when this turn ends;
    * ``actions``: Actions left this turn;
    * ``zones``: the seat's own hand, cards in play, draw pile and discard pile
      (card id -> copies, in this order); None: read from ``observation``.
    """

    __slots__ = (
        "_owned",
        "_piles",
        "_supply",
        "_zones",
        "about_me",
        "actions",
        "buys",
        "card",
        "coins",
        "costs",
        "observation",
        "others",
        "players",
        "potion_costs",
        "potions",
        "seat",
        "seats",
        "taken",
        "treasure_ids",
        "treasure_values",
        "turn",
        "types",
    )

    def __init__(
        self,
        coins: int,
        owned: Mapping[str, int] | None = _NONE,
        supply: Mapping[str, int] | None = _NONE,
        costs: Mapping[str, int] = _NONE,
        potion_costs: Mapping[str, int] = _NONE,
        potions: int = 0,
        treasure_values: Mapping[str, int] = _NONE,
        treasure_ids: frozenset[str] | None = None,
        types: Mapping[str, frozenset[str]] = _NONE,
        buys: int = 1,
        turn: int = 1,
        players: int = 2,
        others: tuple[tuple[int, int], ...] | None = (),
        seats: Sequence[Mapping[str, Any]] = (),
        seat: int = 0,
        taken: int = 0,
        observation: Observation | None = None,
        actions: int = 1,
        zones: Sequence[Mapping[str, float]] | None = None,
    ) -> None:
        self.coins = coins
        self._owned = owned
        self._supply = supply
        self._piles: list[int] | None = None
        self.costs = costs
        self.potion_costs = potion_costs
        self.potions = potions
        self.treasure_values = treasure_values
        self.treasure_ids = treasure_ids
        self.types = types
        self.buys = buys
        self.turn = turn
        self.players = players
        self.others = others
        self.seats = seats
        self.seat = seat
        self.taken = taken
        self.observation = observation
        self.actions = actions
        self._zones = zones
        self.card: str = ""
        """The card a rule is being tried on (decisions about one card, type entries)."""
        self.about_me = True
        """Whether the pending decision is about the deciding seat's own card or deck."""

    def __repr__(self) -> str:
        return f"Situation(coins={self.coins}, buys={self.buys}, turn={self.turn})"

    @property
    def owned(self) -> Mapping[str, int]:
        out = self._owned
        if out is None:
            obs = self.observation
            out = _NONE if obs is None else obs.owned_by(self.seat)
            self._owned = out
        return out

    @property
    def supply(self) -> Mapping[str, int]:
        out = self._supply
        if out is None:
            obs = self.observation
            out = _NONE if obs is None else obs.supply
            self._supply = out
        return out

    def cost(self, card: str) -> int:
        c = self.costs.get(card)
        return BASIC_COST.get(card, 99) if c is None else c

    def affordable(self, card: str) -> bool:
        # the cost first: most rules fail on it, without reading the pile
        return (
            self.cost(card) <= self.coins
            and self.left(card) > 0
            and self.potion_costs.get(card, 0) <= self.potions
        )

    def left(self, card: str) -> int:
        """Cards left in ``card``'s supply pile (0: no such pile in this game)."""
        sup = self._supply
        if sup is not None:
            return sup.get(card, 0)
        piles = self._piles
        if piles is None:
            obs = self.observation
            if obs is None:
                return 0
            # the state's pile counts, read as the observation's ``left`` reads them
            piles = obs.pile_counts()
            if piles is None:
                return obs.left(card)
            self._piles = piles
        c = _BY_ID.get(card)
        return piles[c] if c is not None and c < len(piles) else 0

    def count(self, card: str) -> int:
        owned = self._owned
        if owned is None:
            obs = self.observation
            if obs is not None:
                return obs.count_of(self.seat, card)  # the engine's kept count
            owned = self.owned
        return owned.get(card, 0)

    def count_type(self, kind: str) -> int:
        """Owned cards of a type (``"treasure"``, ``"action"``…)."""
        if kind == "treasure" and not self.types:
            return self.treasures()
        obs = self.observation
        if self._owned is None and obs is not None:
            return obs.count_type_of(self.seat, kind, self.types)
        return sum(n for c, n in self.owned.items() if kind in self.types.get(c, ()))

    def deck_size(self) -> int:
        return sum(self.owned.values())

    def total_money(self) -> int:
        """Coin value of all Treasures the seat owns plus the fixed +$ of its Actions."""
        values = self.treasure_values or COIN_VALUE
        obs = self.observation
        if self._owned is None and obs is not None:
            return obs.money_of(self.seat, values, ACTION_COINS)  # no dict built
        total = 0
        for c, n in self.owned.items():
            v = values.get(c) or ACTION_COINS.get(c)
            if v:
                total += v * n
        return total

    def treasures(self) -> int:
        """Number of Treasure cards the seat owns."""
        ids = self.treasure_ids
        if ids is None:
            ids = frozenset(self.treasure_values or COIN_VALUE)
        return sum(n for c, n in self.owned.items() if c in ids)

    def empty_piles(self) -> int:
        return sum(1 for n in self.supply.values() if n == 0)

    def vp(self) -> int:
        return victory_points(self.owned, self.types)

    def opponents(self) -> tuple[tuple[int, int], ...]:
        """``(VP, turns taken)`` of every other seat."""
        if self.others is None:
            obs = self.observation
            if obs is not None:
                self.others = tuple(
                    (victory_points(obs.owned_by(q), self.types), t)
                    for q, t in enumerate(obs.turns)
                    if q != self.seat
                )
            else:
                self.others = tuple(
                    (victory_points(p["owned"], self.types), int(p["turns"]))
                    for q, p in enumerate(self.seats)
                    if q != self.seat
                )
        return self.others

    def zone(self, zone: int, key: str, is_type: bool) -> float:
        """Copies of card ``key`` (or cards of type ``key``) in one of the seat's own
        zones: :data:`HAND`, :data:`IN_PLAY`, :data:`DRAW_PILE`, :data:`DISCARD`."""
        counts = self._zone(zone)
        if not is_type:
            return counts.get(key, 0.0)
        total = 0.0
        types = _TYPES
        for c, n in counts.items():
            if key in types.get(c, ()):
                total += n
        return total

    def _zone(self, zone: int) -> Mapping[str, float]:
        zones = self._zones
        if zones is not None:
            return zones[zone] if zone < len(zones) else _NONE
        obs = self.observation
        return _NONE if obs is None else obs.zone(zone)

    def zone_size(self, zone: int) -> float:
        total = 0.0
        for n in self._zone(zone).values():
            total += n
        return total

    def owned_of(self, seat: int) -> Mapping[str, int]:
        """Cards ``seat`` owns (public: every gain is seen)."""
        if seat == self.seat:
            return self.owned
        obs = self.observation
        if obs is not None:
            return obs.owned_by(seat)
        if 0 <= seat < len(self.seats):
            got = self.seats[seat].get("owned")
            if isinstance(got, Mapping):
                return got
        return _NONE

    def other_seats(self) -> list[int]:
        n = self.players
        obs = self.observation
        if obs is not None:
            n = len(obs.turns)
        elif self.seats:
            n = len(self.seats)
        return [q for q in range(n) if q != self.seat]

    def as_seat(self, seat: int) -> Situation:
        """What is public of ``seat``: its owned cards (for ``opponents_max``)."""
        return Situation(
            0,
            self.owned_of(seat),
            self._supply,
            self.costs,
            self.potion_costs,
            0,
            self.treasure_values,
            self.treasure_ids,
            self.types,
            0,
            self.turn,
            self.players,
            (),
            self.seats,
            seat,
            self.taken,
            None,
        )

    def opp_count(self, key: str, is_type: bool) -> int:
        """The most copies of ``key`` (a card, or cards of a type) another seat owns."""
        best = 0
        types = _TYPES
        for q in self.other_seats():
            own = self.owned_of(q)
            if is_type:
                n = sum(k for c, k in own.items() if key in types.get(c, ()))
            else:
                n = own.get(key, 0)
            best = max(best, n)
        return best

    def opp_vp(self) -> int:
        """The best VP among the other seats."""
        return max((v for v, _ in self.opponents()), default=0)

    def gains_to_end(self) -> int:
        """Gains that would end the game now: the Provinces left, or the cards left
        in the smallest piles that, emptied, make enough empty piles."""
        piles = sorted(self.supply.values())
        need = (3 if self.players <= 4 else 4) - sum(1 for n in piles if n == 0)
        rest = [n for n in piles if n > 0]
        by_piles = sum(rest[: max(need, 0)]) if need > 0 else 0
        province = self.left(PROVINCE)
        if province <= 0:
            return 0 if PROVINCE in self.supply else by_piles
        return min(province, by_piles) if need <= len(rest) else province

    def action_phase(self) -> int:
        """1 in the Action phase (a gain from an Action), 0 in the Buy phase."""
        obs = self.observation
        return 0 if obs is None or obs.phase == "buy" else 1

    def cost_of(self, card: str) -> int:
        """Coin cost of ``card``, plus 1 per Potion it costs."""
        potions = self.potion_costs.get(card)
        return self.cost(card) + (_POTION_COST.get(card, 0) if potions is None else potions)

    def known_top(self, key: str, is_type: bool) -> int:
        """1 when the seat knows the top card of its draw pile (it put it there
        itself: :attr:`Observation.known_top`) and that card is ``key`` (or of type
        ``key``), else 0."""
        obs = self.observation
        if obs is None:
            return 0
        top = obs.known_top
        return 1 if top and self.is_(top[0], key, is_type) else 0

    def is_(self, card: str, key: str, is_type: bool) -> bool:
        """Whether ``card`` is card ``key`` (or of type ``key``)."""
        if is_type:
            return key in _TYPES.get(card, ())
        return card == key

    def vp_lead(self) -> int:
        """Own VP minus the best other seat's VP (negative: behind)."""
        best = max((v for v, _ in self.opponents()), default=0)
        return self.vp() - best

    def ends_game(self, card: str) -> bool:
        """Would buying ``card`` now end the game (last Province, or last card of a
        pile with enough piles already empty)?"""
        if self.left(card) != 1:
            return False
        if card == PROVINCE:
            return True
        return self.empty_piles() + 1 >= (3 if self.players <= 4 else 4)

    def loses_by_ending(self, card: str) -> bool:
        """Buying ``card`` ends the game and leaves the seat behind (or tied with more
        turns taken) — with ``card`` counted."""
        if not self.ends_game(card) or not self.opponents():
            return False
        after = dict(self.owned)
        after[card] = after.get(card, 0) + 1
        mine = victory_points(after, self.types)
        return any(
            vp > mine or (vp == mine and self.taken > turns) for vp, turns in self.opponents()
        )


Condition = Callable[[Situation], bool]


def always(_s: Situation) -> bool:
    return True


# What an entry names (Rule.target) and how it picks among several matching cards.
CARD, TYPE, ANY, YES, NO, DONE = 0, 1, 2, 3, 4, 5
FIRST, CHEAPEST, COSTLIEST = 0, 1, 2
TARGET_WORDS: Final[Mapping[int, str]] = {ANY: "any", YES: "yes", NO: "no", DONE: "done"}
PICK_WORDS: Final[Mapping[int, str]] = {CHEAPEST: "cheapest", COSTLIEST: "costliest"}


class Rule:
    """One entry of a rule list: what it names (a card, a type, any card, yes, no
    or done), how it picks among several offered cards that match, and its
    condition (None: always)."""

    __slots__ = ("col", "cond", "key", "line", "pick", "target", "text")

    def __init__(
        self,
        target: int,
        key: str = "",
        cond: Condition | None = None,
        pick: int = FIRST,
        text: str = "",
        line: int = 0,
        col: int = 0,
    ) -> None:
        self.target = target
        self.key = key
        self.cond = cond
        self.pick = pick
        self.text = text or key
        self.line = line
        self.col = col

    def __repr__(self) -> str:
        return f"Rule({self.text!r})"

    def matches(self, card: str) -> bool:
        t = self.target
        if t == CARD:
            return card == self.key
        if t == TYPE:
            return self.key in _TYPES.get(card, ())
        return t == ANY


_DEAR: Final = {c.id: c.cost[0] * 16 + c.cost[1] for c in CARDS}
"""A sort key of costs: coins first, then Potions."""


def pick_card(
    rules: Sequence[Rule], s: Situation | None, offered: Sequence[str], optional: bool
) -> int:
    """The index in ``offered`` of the card the first applicable rule picks; -2: a
    ``done`` entry applies (optional choices only); -1: no rule applies.  ``s`` is
    the situation the conditions read (its ``card`` set to each candidate)."""
    dear = _DEAR
    for r in rules:
        t = r.target
        if t >= YES:
            if t == DONE and optional and (r.cond is None or (s is not None and r.cond(s))):
                return -2
            continue
        cond = r.cond
        best = -1
        for i in range(len(offered)):
            c = offered[i]
            if not r.matches(c):
                continue
            if cond is not None:
                if s is None:
                    continue
                s.card = c
                if not cond(s):
                    continue
            if r.pick == FIRST:
                return i
            if best < 0:
                best = i
            else:
                d, b = dear.get(c, 0), dear.get(offered[best], 0)
                if (d < b) if r.pick == CHEAPEST else (d > b):
                    best = i
        if best >= 0:
            return best
    return -1


def yes_no(rules: Sequence[Rule], s: Situation | None) -> int:
    """1 (yes) or 0 (no) as the first applicable ``yes``/``no`` entry says; -1: none
    applies."""
    for r in rules:
        t = r.target
        if t in (YES, NO):
            cond = r.cond
            if cond is None or (s is not None and cond(s)):
                return 1 if t == YES else 0
    return -1


@dataclass(frozen=True, slots=True)
class Strategy:
    """A strategy file's rules: buys, plays and decisions, each a list of
    :class:`Rule` walked top-down (the first applicable entry decides)."""

    name: str
    buy: tuple[Rule, ...]
    play: tuple[Rule, ...] = ()
    """Action cards to play, first applicable entry first."""
    decisions: Mapping[str, tuple[Rule, ...]] = field(default_factory=dict)
    """Decision purpose (``"militia.discard"``, or ``"*.discard"`` for every
    discard) -> its rules (see :mod:`kingdoms.bots.dominion.lang`)."""
    guard: bool = True
    """Skip buys that would end the game while behind."""
    play_others: bool = True
    """Actions no ``play`` entry names are played by the default order after them."""
    description: str = ""
    kingdom: tuple[str, ...] = ()
    """The kingdom the strategy is written for (card ids), if the file says."""
    start: Mapping[str, Any] | None = None
    """The seat's start state when this strategy plays (an entry of the Dominion
    ``start`` option, :mod:`kingdoms.dominion.start`), or None for the usual start."""
    styles: Mapping[str, str] = field(default_factory=dict)
    """Card id -> the named play style it is played by (``{"remodel": "upgrade"}``;
    :mod:`kingdoms.bots.dominion.styles`)."""

    @property
    def rules(self) -> tuple[tuple[str, Condition], ...]:
        """The buy entries naming one card, as ``(card id, condition)``."""
        return tuple((r.key, r.cond or always) for r in self.buy if r.target == CARD)

    @property
    def play_cards(self) -> tuple[str, ...]:
        """The cards the play entries name."""
        return tuple(r.key for r in self.play if r.target == CARD)

    def choose(self, s: Situation) -> str | None:
        """The card to buy now, or ``None`` to stop buying."""
        for r in self.buy:
            t = r.target
            if t == CARD:
                card = r.key
                if not s.affordable(card):
                    continue
                if r.cond is not None:
                    s.card = card
                    if not r.cond(s):
                        continue
                if self.guard and s.loses_by_ending(card):
                    continue
                return card
            if t > ANY:
                continue
            offered = [c for c in s.supply if r.matches(c) and s.affordable(c)]
            if r.pick == FIRST:  # a type or ``any`` buys the costliest it can
                offered.sort(key=lambda c: -_DEAR.get(c, 0))
            if self.guard:
                offered = [c for c in offered if not s.loses_by_ending(c)]
            i = pick_card((r,), s, offered, False)
            if i >= 0:
                return offered[i]
        return None

    def wanted(self) -> frozenset[str]:
        return frozenset(r.key for r in self.buy if r.target == CARD)


def decision_purpose(view: Mapping[str, Any]) -> str | None:
    """The purpose (``"militia.discard"``…) of the view's pending decision, if any:
    the engine states it in the view's decision.

    >>> decision_purpose({"decision": {"kind": "choose_pile", "purpose": "workshop.gain"}})
    'workshop.gain'
    """
    frame = view.get("decision")
    if not isinstance(frame, Mapping):
        return None
    purpose = frame.get("purpose")
    return purpose if isinstance(purpose, str) else None
