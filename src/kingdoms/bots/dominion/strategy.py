"""Buy rules of the Big Money family, over a small engine-independent situation.

A strategy is an ordered list of rules; the first rule whose condition holds
and whose card is affordable (and in the supply) is bought; no rule: buy nothing.

>>> s = Situation(coins=8, owned={"copper": 7, "estate": 3}, supply={"province": 8, "gold": 30})
>>> BIG_MONEY.choose(s)
'province'
>>> BIG_MONEY.choose(Situation(coins=2, supply={"silver": 40}))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

# Card ids as the engine and the shared card data name them.
COPPER, SILVER, GOLD = "copper", "silver", "gold"
ESTATE, DUCHY, PROVINCE = "estate", "duchy", "province"
CURSE, SMITHY, WITCH = "curse", "smithy", "witch"

COIN_VALUE: Mapping[str, int] = {COPPER: 1, SILVER: 2, GOLD: 3}
"""Coins a Treasure makes when played (fallback when the view gives no values)."""

BASIC_COST: Mapping[str, int] = {
    COPPER: 0,
    SILVER: 3,
    GOLD: 6,
    ESTATE: 2,
    DUCHY: 5,
    PROVINCE: 8,
    CURSE: 0,
    SMITHY: 4,
    WITCH: 5,
}


@dataclass(slots=True)
class Situation:
    """What a buy rule needs to know, all of it visible to the deciding seat."""

    coins: int
    owned: Mapping[str, int] = field(default_factory=dict)
    """Card id -> copies the seat owns (deck, hand, discard, play, set aside)."""
    supply: Mapping[str, int] = field(default_factory=dict)
    """Card id -> cards left in that supply pile (only piles in this game)."""
    costs: Mapping[str, int] = field(default_factory=dict)
    """Card id -> coin cost now (missing: :data:`BASIC_COST`)."""
    potion_costs: Mapping[str, int] = field(default_factory=dict)
    potions: int = 0
    treasure_values: Mapping[str, int] = field(default_factory=dict)
    """Card id -> coins per play, for Treasures (missing: :data:`COIN_VALUE`)."""
    treasure_ids: frozenset[str] | None = None
    """Ids of Treasure cards (None: the keys of the treasure values)."""

    def cost(self, card: str) -> int:
        c = self.costs.get(card)
        return BASIC_COST.get(card, 99) if c is None else c

    def affordable(self, card: str) -> bool:
        return (
            self.supply.get(card, 0) > 0
            and self.cost(card) <= self.coins
            and self.potion_costs.get(card, 0) <= self.potions
        )

    def left(self, card: str) -> int:
        return self.supply.get(card, 0)

    def count(self, card: str) -> int:
        return self.owned.get(card, 0)

    def total_money(self) -> int:
        """Coin value of all Treasures the seat owns."""
        values = self.treasure_values or COIN_VALUE
        total = 0
        for c, n in self.owned.items():
            v = values.get(c)
            if v:
                total += v * n
        return total

    def treasures(self) -> int:
        """Number of Treasure cards the seat owns."""
        ids = self.treasure_ids
        if ids is None:
            ids = frozenset(self.treasure_values or COIN_VALUE)
        return sum(n for c, n in self.owned.items() if c in ids)


Condition = Callable[[Situation], bool]


def always(_s: Situation) -> bool:
    return True


def provinces_left_at_most(n: int) -> Condition:
    return lambda s: s.left(PROVINCE) <= n


def money_over(n: int) -> Condition:
    return lambda s: s.total_money() > n


def owns_fewer(card: str, n: int) -> Condition:
    return lambda s: s.count(card) < n


def smithies_below_treasures_over_11(s: Situation) -> bool:
    return s.count(SMITHY) < s.treasures() / 11


@dataclass(frozen=True, slots=True)
class Strategy:
    """An ordered list of ``(card id, condition)`` buy rules."""

    name: str
    rules: tuple[tuple[str, Condition], ...]
    play: tuple[str, ...] = ()
    """Action cards the strategy plays (any other Action: the default policy)."""

    def choose(self, s: Situation) -> str | None:
        """The card to buy now, or ``None`` to stop buying."""
        for card, cond in self.rules:
            if s.affordable(card) and cond(s):
                return card
        return None

    def wanted(self) -> frozenset[str]:
        return frozenset(card for card, _ in self.rules)


BIG_MONEY = Strategy(
    "big-money",
    ((PROVINCE, always), (GOLD, always), (SILVER, always)),
)

BIG_MONEY_ULTIMATE = Strategy(
    "big-money-ultimate",
    (
        (PROVINCE, money_over(18)),
        (DUCHY, provinces_left_at_most(4)),
        (ESTATE, provinces_left_at_most(2)),
        (GOLD, always),
        (DUCHY, provinces_left_at_most(6)),
        (SILVER, always),
    ),
)

SMITHY_BM = Strategy(
    "smithy",
    (
        (PROVINCE, money_over(15)),
        (DUCHY, provinces_left_at_most(4)),
        (ESTATE, provinces_left_at_most(2)),
        (GOLD, always),
        (DUCHY, provinces_left_at_most(6)),
        (SMITHY, smithies_below_treasures_over_11),
        (SILVER, always),
    ),
    play=(SMITHY,),
)

WITCH_BM = Strategy(
    "witch",
    (
        (PROVINCE, lambda s: s.count(GOLD) > 0),
        (DUCHY, provinces_left_at_most(5)),
        (ESTATE, provinces_left_at_most(2)),
        (WITCH, owns_fewer(WITCH, 1)),
        (GOLD, always),
        (WITCH, owns_fewer(WITCH, 2)),
        (SILVER, always),
    ),
    play=(WITCH,),
)

STRATEGIES: Mapping[str, Strategy] = {
    s.name: s for s in (BIG_MONEY, BIG_MONEY_ULTIMATE, SMITHY_BM, WITCH_BM)
}
