"""The per-game commands are made from the registered games."""

from __future__ import annotations

from click.testing import CliRunner

from kingdoms.cli import main


def test_top_level_lists_a_command_per_terminal_game() -> None:
    out = CliRunner().invoke(main, ["--help"]).output
    assert "Play Dominion in the terminal." in out
    assert "Play Kingdomino in the terminal." in out


def test_play_game_is_the_games_own_play_command() -> None:
    listed = CliRunner().invoke(main, ["play", "--help"]).output
    assert "dominion" in listed and "kingdomino" in listed
    result = CliRunner().invoke(
        main, ["play", "kingdomino", "--seed", "3", "--bots", "greedy"], input="1\nq\n"
    )
    assert result.exit_code == 0, result.output
    assert "Goodbye." in result.output
    assert CliRunner().invoke(main, ["play", "chess"]).exit_code != 0


def test_sim_lists_every_game_with_its_flags() -> None:
    listed = CliRunner().invoke(main, ["sim", "--help"]).output
    assert "dominion" in listed and "kingdomino" in listed
    dominion = CliRunner().invoke(main, ["sim", "dominion", "--help"]).output
    assert "--kingdom" in dominion and "--alchemy-errata" in dominion and "--options" in dominion
    kingdomino = CliRunner().invoke(main, ["sim", "kingdomino", "--help"]).output
    assert "--variants" in kingdomino and "[window|bbox]" in kingdomino


def test_sim_options_json_and_flags_combine() -> None:
    def sim(*args: str) -> tuple[int, str]:
        result = CliRunner().invoke(
            main, ["sim", "kingdomino", "--bots", "random,random", "-n", "2", "--json", *args]
        )
        return result.exit_code, result.output

    code, out = sim("--options", '{"variants": ["moon"]}')
    assert code != 0 and "unknown Kingdomino variants ['moon']" in out  # reached the game
    # a flag wins over the same option in the JSON
    assert (
        sim("--options", '{"middle_kingdom_rule": "nope"}', "--middle-kingdom-rule", "bbox")[0] == 0
    )
    code, out = sim("--options", '{"middle_kingdom_rule": "nope"}')
    assert code != 0 and "middle_kingdom_rule must be one of" in out
    bad = CliRunner().invoke(
        main, ["sim", "kingdomino", "--bots", "random,random", "--options", "[1]"]
    )
    assert bad.exit_code != 0 and "must be a JSON object" in bad.output
