"""Buy rules over a small engine-independent situation.

A strategy is an ordered list of rules ``(card, condition)``.  For every buy the
list is walked top-down: the first rule whose card is in the supply, affordable
and whose condition holds is bought; no rule: buy nothing.  A rule whose buy
would end the game while the bot would still be behind in VP (or tied, having
taken more turns) is skipped: the walk falls through to the next rule.

>>> big_money = Strategy("big-money", (("province", always), ("gold", always), ("silver", always)))
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
}
"""The fixed +$ printed on Action cards (counted in "total money")."""

VP_VALUE: Mapping[str, int] = {c.id: VP[c.index] for c in CARDS if VP[c.index]}
"""Fixed victory points per card (from the card declarations)."""

BASIC_COST: Final[Mapping[str, int]] = {c.id: c.cost[0] for c in CARDS}
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
    * ``taken``: turns the deciding seat will have taken when this turn ends.
    """

    __slots__ = (
        "_owned",
        "_piles",
        "_supply",
        "buys",
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


@dataclass(frozen=True, slots=True)
class Strategy:
    """An ordered list of ``(card id, condition)`` buy rules."""

    name: str
    rules: tuple[tuple[str, Condition], ...]
    play: tuple[str, ...] = ()
    """Action cards the strategy plays first, in this order (any other Action:
    the default policy)."""
    decisions: Mapping[str, bool | tuple[str, ...] | Callable[[Situation], Any]] = field(
        default_factory=dict
    )
    """Decision purpose -> override (see :mod:`kingdoms.bots.dominion.lang`): cards or
    types in order of preference, or a yes/no answer or condition."""
    guard: bool = True
    """Skip buys that would end the game while behind."""

    def choose(self, s: Situation) -> str | None:
        """The card to buy now, or ``None`` to stop buying."""
        for card, cond in self.rules:
            if s.affordable(card) and (cond is always or cond(s)):
                if self.guard and s.loses_by_ending(card):
                    continue
                return card
        return None

    def wanted(self) -> frozenset[str]:
        return frozenset(card for card, _ in self.rules)


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
