"""The game registry and configuration validation."""

from __future__ import annotations

import pickle

import pytest

from kingdoms.core import InvalidConfig, available_games, get_game, new_game
from kingdoms.core.registry import SeedConfigs


def test_both_games_are_registered() -> None:
    """new_game works the same way for Dominion and Kingdomino."""
    assert {"dominion", "kingdomino"} <= set(available_games())


def test_unknown_game_lists_the_valid_names() -> None:
    with pytest.raises(InvalidConfig, match=r"unknown game 'chess'.*dominion.*kingdomino"):
        new_game("chess")


def test_player_count_outside_range_is_rejected(game_name: str) -> None:
    game = get_game(game_name)
    for bad in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(InvalidConfig, match="players"):
            new_game(game_name, players=bad, seed=1)


def test_negative_seed_is_rejected(game_name: str) -> None:
    with pytest.raises(InvalidConfig, match="seed"):
        new_game(game_name, players=2, seed=-5)


def test_same_seed_same_game(game_name: str) -> None:
    """Determinism: a configuration and seed fix the game."""
    a = new_game(game_name, players=2, seed=99)
    b = new_game(game_name, players=2, seed=99)
    assert a.fingerprint() == b.fingerprint()
    for _ in range(30):
        if a.is_terminal():
            break
        action = a.legal_actions()[-1]
        a.apply(action)
        b.apply(action)
    assert a.fingerprint() == b.fingerprint()


def test_normalized_options_are_stable(game_name: str) -> None:
    """Normalizing stored options again changes nothing (records replay the same game)."""
    game = get_game(game_name)
    config = game.config(players=3, seed=5)
    again = game.normalize_options(dict(config.options), 3, 5)
    assert again == dict(config.options)


def test_random_seed_is_chosen_and_recorded(game_name: str) -> None:
    state = new_game(game_name, players=2)
    assert isinstance(state.config.seed, int) and state.config.seed >= 0


DOMINION_OPTIONS: list[dict[str, object]] = [
    {"kingdom": "First Game"},  # a set: options checked once
    {"kingdom": "Big Money", "base_edition": 1, "first_player": 1},
    {"kingdom": ["witch", "moat", "village", "smithy", "market", "militia", "cellar",
                 "chapel", "laboratory", "festival"]},  # 10 cards: fixed too
    {"kingdom": "witch, moat, village"},  # filled at random: per seed
    {"kingdom": "random", "sets": ["base", "alchemy"], "alchemy_cards": "3-5"},
    {},
]  # fmt: skip


@pytest.mark.parametrize("options", DOMINION_OPTIONS)
def test_configs_for_many_seeds_equal_config_seed_by_seed(options: dict[str, object]) -> None:
    game = get_game("dominion")
    make = game.configs(3, options)
    for seed in (0, 1, 7, 12345, 2**40):
        assert make(seed) == game.config(3, seed, options)
    first, second = make(5), make(5)
    assert first.options == second.options and first.options is not second.options


KINGDOMINO_OPTIONS: list[dict[str, object]] = [
    {},
    {"variants": ["harmony", "middle-kingdom"]},
    {"variants": "dynasty, mighty-duel", "middle_kingdom_rule": "bbox"},
]


@pytest.mark.parametrize("options", KINGDOMINO_OPTIONS)
def test_kingdomino_configs_normalise_once_and_equal_config(options: dict[str, object]) -> None:
    """Kingdomino's options do not depend on the seed: ``configs`` normalises them once
    (``SeedConfigs.normalised``), every config equals ``config``'s, each has its own
    copy of the options, and the maker pickles (environments keep one)."""
    game = get_game("kingdomino")
    make = game.configs(2, options)
    assert isinstance(make, SeedConfigs) and make.normalised is not None
    for seed in (0, 1, 7, 12345, 2**40):
        assert make(seed) == game.config(2, seed, options)
    first, second = make(5), make(5)
    assert first.options == second.options and first.options is not second.options
    assert first.options["variants"] is not second.options["variants"]
    assert pickle.loads(pickle.dumps(make))(9) == game.config(2, 9, options)


def test_configs_check_once_and_keep_config_s_errors(game_name: str) -> None:
    game = get_game(game_name)
    with pytest.raises(InvalidConfig, match="unknown"):
        game.configs(2, {"no_such_option": 1})
    with pytest.raises(InvalidConfig, match="players"):
        game.configs(game.max_players + 1)
    make = game.configs(2, {"kingdom": "First Game"} if game_name == "dominion" else {})
    assert make(3) == game.config(
        2, 3, {"kingdom": "First Game"} if game_name == "dominion" else {}
    )
    with pytest.raises(InvalidConfig, match="seed"):
        make(-1)
