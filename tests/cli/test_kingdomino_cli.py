"""``kingdoms kingdomino play`` and ``kingdoms sim kingdomino`` driven as a user would."""

from __future__ import annotations

import json

from click.testing import CliRunner

from kingdoms.cli import main
from kingdoms.cli.kingdomino import kingdomino


def _play(args: list[str], answers: str) -> str:
    result = CliRunner().invoke(kingdomino, ["play", *args], input=answers)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.exit_code == 0, result.output
    return result.output


def test_whole_mighty_duel_against_mcts() -> None:
    """A 2-player Mighty Duel against mcts, played to the end by answering 1."""
    out = _play(
        ["--variants", "mighty-duel", "--bots", "mcts:iterations=3", "--seed", "2"],
        "1\n" * 200,
    )
    assert "Game over" in out
    assert "Winner" in out
    assert out.count("Your choice") >= 24  # 24 placements (or discards) of our own


def test_coordinates_and_direction_choose_a_placement() -> None:
    out = _play(["--seed", "3", "--bots", "greedy"], "1\n1\n-1 -1 right\nq\n")
    assert "Player 1 places domino 3 at -1,-1 right" in out


def test_bad_input_is_explained_and_asked_again() -> None:
    out = _play(["--seed", "3"], "banana\n77\n9 9 up\nq\n")
    assert "Not understood: 'banana'" in out
    assert "No such option: 77" in out
    assert "Not understood" in out.split("9 9 up", 1)[1]
    assert "Goodbye." in out


def test_polish_screen() -> None:
    out = _play(["--seed", "3", "--lang", "pl", "--players", "4", "--bots", "greedy"], "1\nq\n")
    assert "Bieżący rząd" in out and "weź" in out and "Gracz 1" in out


def test_unknown_variant_is_a_clear_error() -> None:
    result = CliRunner().invoke(kingdomino, ["play", "--variants", "moon"], input="q\n")
    assert result.exit_code != 0
    assert "unknown Kingdomino variants ['moon']" in result.output


def test_sim_kingdomino_json_report() -> None:
    result = CliRunner().invoke(
        main,
        [
            "sim",
            "kingdomino",
            "--bots",
            "full-greedy,greedy,random,random",
            "-n",
            "8",
            "--seed",
            "1",
            "--variants",
            "middle-kingdom,harmony",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output.strip().splitlines()[-1])
    assert report["games"] == 8 and len(report["wins"]) == 4
    for key in ("ties", "first_seat_wins", "mean_score", "mean_margin", "games_per_second"):
        assert key in report
    assert report["mean_score"][0] > report["mean_score"][3]
