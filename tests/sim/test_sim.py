"""The simulator: rotation, determinism, report fields, the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kingdoms.bots import make_bot
from kingdoms.cli import main
from kingdoms.core import InvalidConfig, new_game
from kingdoms.core.runner import play_out, seat_rngs
from kingdoms.sim import simulate, wilson_interval
from kingdoms.sim.runner import game_seed, play_one, play_state, seating


def test_wilson_interval() -> None:
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and 0.2 < hi < 0.35
    lo, hi = wilson_interval(10, 10)
    assert hi == 1.0 and 0.65 < lo < 0.8


def test_seats_rotate_so_each_bot_sits_everywhere() -> None:
    seen = {tuple(seating(i, 3)) for i in range(3)}
    assert len(seen) == 3
    for seat in range(3):
        assert {seating(i, 3)[seat] for i in range(3)} == {0, 1, 2}


def test_results_do_not_depend_on_worker_count(game_name: str) -> None:
    one = simulate(game_name, ["random", "random"], games=6, seed=3)
    two = simulate(game_name, ["random", "random"], games=6, seed=3, workers=2)
    assert [r.scores for r in one.results] == [r.scores for r in two.results]
    assert one.wins == two.wins


def test_report_fields(game_name: str) -> None:
    report = simulate(game_name, ["random", "random", "random"], games=5, seed=1)
    data = report.to_json()
    for key in (
        "games",
        "bots",
        "wins",
        "ties",
        "first_seat_wins",
        "mean_margin",
        "games_per_second",
    ):
        assert key in data
    assert len(data["wins"]) == 3  # one per bot, even when names repeat
    assert sum(data["wins"]) + data["ties"] == 5


def test_bad_requests_are_rejected(game_name: str) -> None:
    with pytest.raises(InvalidConfig, match="unknown"):
        simulate(game_name, ["random", "nobody"], games=2)
    with pytest.raises(InvalidConfig, match="at least 1"):
        simulate(game_name, ["random", "random"], games=0)


def test_cli_json_and_table(game_name: str, tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["sim", game_name, "--bots", "random,random", "-n", "3", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["games"] == 3 and data["bots"] == ["random", "random"]
    chart = tmp_path / "wins.png"
    res = runner.invoke(
        main, ["sim", game_name, "--bots", "random,random", "-n", "3", "--chart", str(chart)]
    )
    assert res.exit_code == 0, res.output
    assert "score [95% CI]" in res.output and chart.stat().st_size > 1000


def test_cli_unknown_bot_is_a_clear_error(game_name: str) -> None:
    res = CliRunner().invoke(main, ["sim", game_name, "--bots", "random,zzz", "-n", "1"])
    assert res.exit_code != 0 and "unknown" in res.output and "zzz" in res.output


@pytest.mark.parametrize(
    ("game", "specs", "options"),
    [
        ("dominion", ["big-money-ultimate", "random"], {"kingdom": "First Game"}),
        ("dominion", ["smithy", "random", "witch"], {"kingdom": "random"}),
        ("kingdomino", ["random", "greedy"], {}),
    ],
)
def test_a_simulated_game_is_the_game_of_its_seed_played_out(
    game: str, specs: list[str], options: dict[str, object]
) -> None:
    """Game ``i`` of a run is ``new_game`` of its seed, the bots in their rotated
    seats, played with the seats' generators (the options checked once per run
    change nothing), and its result is that game's outcome seen from the bots."""
    for index in range(4):
        state, seat_bot = play_state(game, specs, index, 11, options)
        opts = dict(options)
        if game == "dominion":
            opts["first_player"] = 0
        seed = game_seed(11, index)
        alone = new_game(game, players=len(specs), seed=seed, options=opts)
        bots = [make_bot(game, specs[b]) for b in seat_bot]
        play_out(alone, bots, seat_rngs(seed, len(specs)))
        assert state.config == alone.config
        assert state.history == alone.history
        result = play_one(game, specs, index, 11, options)
        outcome = alone.outcome()
        assert outcome is not None
        assert result.winners == tuple(sorted(seat_bot[s] for s in outcome.winners))
        assert [result.scores[seat_bot[s]] for s in range(len(specs))] == list(outcome.scores)


def test_a_run_is_prepared_again_when_its_options_change() -> None:
    specs = ["big-money", "big-money"]
    kingdom = ["witch", "moat", "village", "smithy", "market", "militia", "cellar", "chapel",
               "laboratory", "festival"]  # fmt: skip
    options: dict[str, object] = {"kingdom": kingdom}
    state, _ = play_state("dominion", specs, 0, 1, options)
    assert "witch" in state.config.options["kingdom"]
    kingdom[0] = "workshop"  # the same dict, its list changed: a new kingdom
    state, _ = play_state("dominion", specs, 0, 1, options)
    assert "workshop" in state.config.options["kingdom"]
    assert "witch" not in state.config.options["kingdom"]
    play_state("dominion", specs, 0, 1, {"kingdom": "First Game", "base_edition": 1})
    with pytest.raises(InvalidConfig, match="base_edition"):  # equal to 1, but not a number
        play_state("dominion", specs, 0, 1, {"kingdom": "First Game", "base_edition": True})
