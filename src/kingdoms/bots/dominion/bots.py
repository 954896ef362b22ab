"""The Dominion bots: a buy strategy plus the default decision policy.

>>> from kingdoms.bots.dominion.bots import BigMoney
>>> BigMoney().name
'big-money'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from kingdoms.bots.base import View
from kingdoms.bots.dominion import adapter
from kingdoms.bots.dominion.policy import choose
from kingdoms.bots.dominion.strategy import (
    BIG_MONEY,
    BIG_MONEY_ULTIMATE,
    SMITHY_BM,
    WITCH_BM,
    Strategy,
)
from kingdoms.core.errors import InvalidConfig
from kingdoms.dominion.actions import A_ALL_TREASURES as _ALL_TREASURES
from kingdoms.dominion.actions import A_END_PHASE as _END_PHASE
from kingdoms.dominion.actions import BUY as _BUY_KIND
from kingdoms.dominion.data import BY_ID, IS_ACTION, NUM_CARDS

_BUY0 = _BUY_KIND * NUM_CARDS


class StrategyBot:
    """Plays all Treasures, plays Actions whenever it can, buys by its strategy."""

    strategy: Strategy = BIG_MONEY
    name = "big-money"

    def __init__(self, **params: Any) -> None:
        if params:
            raise InvalidConfig(f"bot {self.name!r} takes no parameters, got {sorted(params)}")

    def act(self, view: View, legal_actions: Sequence[int], rng: random.Random) -> int:
        if len(legal_actions) == 1:
            return legal_actions[0]
        if view.get("decision") is None:
            # Turn decisions (no card asking): the fast path.
            if _ALL_TREASURES in legal_actions and not any(
                a < NUM_CARDS and IS_ACTION[a] for a in legal_actions
            ):
                return _ALL_TREASURES
            if view.get("phase") == "buy":
                want = self.strategy.choose(adapter.situation(view))
                if want is not None:
                    action = _BUY0 + BY_ID[want]
                    if action in legal_actions:
                        return action
                if _END_PHASE in legal_actions:
                    return _END_PHASE
        options = adapter.decode(view, legal_actions)
        decision = adapter.decision(view, self.strategy.play, options)
        return choose(decision, options)


class BigMoney(StrategyBot):
    """Province; else Gold; else Silver."""

    strategy = BIG_MONEY
    name = "big-money"


class BigMoneyUltimate(StrategyBot):
    """Big Money with Duchy/Estate dancing near the end."""

    strategy = BIG_MONEY_ULTIMATE
    name = "big-money-ultimate"


class SmithyBot(StrategyBot):
    """Big Money with about one Smithy per 11 Treasures."""

    strategy = SMITHY_BM
    name = "smithy"


class WitchBot(StrategyBot):
    """Big Money with two Witches."""

    strategy = WITCH_BM
    name = "witch"
