"""Bot specs and the bot registry."""

from __future__ import annotations

import random

import pytest

from kingdoms.bots import RandomBot, bot_names, make_bot, parse_bot_spec
from kingdoms.core import InvalidConfig


def test_spec_parsing() -> None:
    assert parse_bot_spec("random") == ("random", {})
    assert parse_bot_spec("mcts:time=0.5") == ("mcts", {"time": 0.5})
    assert parse_bot_spec("mcts:iterations=2000,playout=greedy") == (
        "mcts",
        {"iterations": 2000, "playout": "greedy"},
    )
    assert parse_bot_spec("x:flag=on,max-depth=3") == ("x", {"flag": True, "max_depth": 3})


def test_bad_spec_parameters_are_named() -> None:
    with pytest.raises(InvalidConfig, match="bad bot parameter 'time'"):
        parse_bot_spec("mcts:time")


def test_unknown_bot_lists_the_valid_ones(game_name: str) -> None:
    with pytest.raises(InvalidConfig, match=r"unknown .* bot 'nobody'; available: .*random"):
        make_bot(game_name, "nobody")
    assert "random" in bot_names(game_name)


def test_random_bot_rejects_parameters_and_picks_legal() -> None:
    with pytest.raises(InvalidConfig, match="takes no parameters"):
        RandomBot(speed=3)
    rng = random.Random(1)
    picks = {RandomBot().act({}, [3, 5, 9], rng) for _ in range(100)}
    assert picks == {3, 5, 9}


def test_search_bots_only_where_states_can_be_rebuilt_from_views(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """mcts needs Game.state_from_view: offered for both games, and not for a game
    that cannot rebuild states from views."""
    from kingdoms.bots.base import bot_names, make_bot
    from kingdoms.core import InvalidConfig
    from kingdoms.core.registry import Game
    from kingdoms.dominion.game import DominionGame

    assert "mcts" in bot_names("kingdomino")
    assert "mcts" in bot_names("dominion")
    monkeypatch.setattr(DominionGame, "state_from_view", Game.state_from_view)
    assert "mcts" not in bot_names("dominion")
    with pytest.raises(InvalidConfig, match="unknown dominion bot 'mcts'"):
        make_bot("dominion", "mcts:time=1")
