"""Every registered game's declaration names things that exist: its bot hooks,
board module and style sheets, terminal command, option flags and tracker."""

from __future__ import annotations

from dataclasses import fields

import click
import pytest

from kingdoms.bots.base import game_bot_hook, generic_defaults
from kingdoms.cli.game_options import CliOptions, cli_options, options_from_schema
from kingdoms.core import InvalidConfig, get_game
from kingdoms.core.registry import BotHooks, load_target
from kingdoms.server.app import static_dir
from kingdoms.sim.trackers import METRICS, UNIT, tracker_for


def test_every_named_hook_loads(game_name: str) -> None:
    game = get_game(game_name)
    for f in fields(BotHooks):
        target = getattr(game.bots, f.name)
        if target is not None:
            assert game.bot_hook(f.name) is load_target(target)
    assert game.bot_names()  # both games ship bots of their own


def test_web_assets_exist(game_name: str) -> None:
    web = get_game(game_name).web
    assert (static_dir() / "js" / "boards" / f"{web.board}.js").is_file()
    for css in web.css:
        assert (static_dir() / css).is_file()


def test_terminal_and_flags_load(game_name: str) -> None:
    game = get_game(game_name)
    assert game.terminal is not None
    assert isinstance(load_target(game.terminal), click.Command)
    flags = cli_options(game)
    assert isinstance(flags, CliOptions) and "options_json" in flags.names


def test_the_simulator_reads_metrics_from_the_registration(game_name: str) -> None:
    game = get_game(game_name)
    assert METRICS[game_name] == game.sim.metrics and UNIT[game_name] == game.sim.unit
    state = game.create(game.config(2, seed=1))
    tracker = tracker_for(game_name, state)
    assert tracker is not None and type(tracker) is load_target(str(game.sim.tracker))
    assert set(tracker.series()) == set(game.sim.metrics)
    assert "chess" not in METRICS


def test_generic_bots_find_the_games_hooks() -> None:
    assert generic_defaults("kingdomino", "mcts") == {"playout": "drafting", "width": 6}
    assert game_bot_hook("kingdomino", "obvious_action") is None  # not declared
    assert callable(game_bot_hook("dominion", "obvious_action"))
    with pytest.raises(InvalidConfig, match="no bot hook 'nonsense'"):
        game_bot_hook("dominion", "nonsense")
    with pytest.raises(InvalidConfig, match="no bot hook"):
        get_game("dominion").bot_hook("nonsense")


def test_bad_targets_are_refused() -> None:
    with pytest.raises(InvalidConfig, match="module:attr"):
        load_target("kingdoms.core.registry")


def test_flags_generated_from_lobby_options() -> None:
    """Kingdomino names no flags of its own: they come from its lobby options."""
    game = get_game("kingdomino")
    assert game.cli_options is None
    flags = options_from_schema(game.lobby_options())
    assert flags.names == ("variants", "middle_kingdom_rule")
    options = flags.collect(variants="harmony, dynasty", middle_kingdom_rule="bbox")
    assert options == {"variants": ["harmony", "dynasty"], "middle_kingdom_rule": "bbox"}
    assert flags.collect(variants="", middle_kingdom_rule=None) == {}
