"""Card facts (a Treasure's coins, a card's victory points) come from the card
declarations, and every user of them reads those tables."""

from __future__ import annotations

from kingdoms.bots.dominion import adapter, strategy
from kingdoms.dominion import rules
from kingdoms.dominion.cards import COINS, DECLARED, VP
from kingdoms.dominion.data import BY_ID, CARDS
from kingdoms.dominion.state import TREASURE_COINS
from tests.dominion.helpers import do, make


def test_basic_cards_declare_their_coins_and_points() -> None:
    coins = {c.id: COINS[c.index] for c in CARDS if COINS[c.index]}
    points = {c.id: VP[c.index] for c in CARDS if VP[c.index]}
    assert coins == {"copper": 1, "silver": 2, "gold": 3}
    assert points == {"estate": 1, "duchy": 3, "province": 6, "curse": -1}
    assert DECLARED["gold"].coins == 3 and DECLARED["province"].vp == 6


def test_engine_and_bots_read_the_declared_tables() -> None:
    assert list(COINS) == TREASURE_COINS
    assert list(VP) == rules.VP
    assert strategy.COIN_VALUE == {"copper": 1, "silver": 2, "gold": 3}
    assert strategy.VP_VALUE == {"estate": 1, "duchy": 3, "province": 6, "curse": -1}
    assert all(strategy.BASIC_COST[c.id] == c.cost[0] for c in CARDS)
    assert adapter.TREASURE_VALUES["gold"] == 3 and adapter.TREASURE_VALUES["potion"] == 0


def test_playing_treasures_and_scoring_use_the_declared_values() -> None:
    s = make(hands={0: ["copper", "silver", "gold", "estate", "estate"]})
    do(s, "play all treasures")
    assert s.coins == 6
    owned = [BY_ID[c] for c in ("estate", "duchy", "province", "curse", "gold")]
    assert rules.score(owned) == 1 + 3 + 6 - 1
