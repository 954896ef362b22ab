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
from kingdoms.bots.dominion.policy import BUY, DONE, PLAY, PLAY_TREASURES, choose
from kingdoms.bots.dominion.strategy import (
    BIG_MONEY,
    BIG_MONEY_ULTIMATE,
    SMITHY_BM,
    WITCH_BM,
    Strategy,
)
from kingdoms.core.errors import InvalidConfig
from kingdoms.dominion.actions import A_ALL_TREASURES as _ALL_TREASURES
from kingdoms.dominion.data import IS_ACTION, NUM_CARDS


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
        if _ALL_TREASURES in legal_actions and not any(
            a < NUM_CARDS and IS_ACTION[a] for a in legal_actions
        ):
            return _ALL_TREASURES
        options = adapter.decode(view, legal_actions)
        verbs = {o.verb for o in options}
        if BUY in verbs and not (PLAY in verbs or PLAY_TREASURES in verbs):
            situation = adapter.situation(view)
            want = self.strategy.choose(situation)
            for o in options:
                if o.verb == BUY and o.card == want:
                    return o.action
            for o in options:
                if o.verb == DONE:
                    return o.action
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
