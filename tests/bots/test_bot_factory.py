"""Bot factories: a spec looked up once, a fresh bot per call, the same checks as
``make_bot``."""

from __future__ import annotations

import pytest

from kingdoms.bots.base import bot_factory, make_bot
from kingdoms.core.errors import InvalidConfig


def test_a_factory_makes_fresh_bots_like_make_bot() -> None:
    make = bot_factory("dominion", "big-money")
    one, two = make(), make()
    assert one is not two
    assert type(one) is type(make_bot("dominion", "big-money"))
    assert one.name == two.name == "big-money"


def test_a_factory_refuses_what_make_bot_refuses() -> None:
    with pytest.raises(InvalidConfig, match="unknown dominion bot 'nobody'"):
        bot_factory("dominion", "nobody")
    bad = bot_factory("dominion", "big-money:speed=3")
    with pytest.raises(InvalidConfig, match="takes no parameters"):
        bad()
    with pytest.raises(InvalidConfig, match="bad parameters for bot 'mcts'"):
        bot_factory("kingdomino", "mcts:x=1")()


def test_an_unknown_bot_name_comes_with_the_closest_ones() -> None:
    with pytest.raises(InvalidConfig, match=r"'smithyy' \(did you mean 'smithy'\?\); available"):
        bot_factory("dominion", "smithyy")
    with pytest.raises(InvalidConfig, match=r"'greedyy' \(did you mean 'greedy'"):
        bot_factory("kingdomino", "greedyy")
    with pytest.raises(InvalidConfig, match=r"workshop-gardens; or a strategy file \(\.toml\)$"):
        bot_factory("dominion", "nobody", files=True)
