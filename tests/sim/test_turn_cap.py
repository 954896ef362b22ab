"""The simulator's turn cap: a Dominion game stops once its first player has taken
more than ``max_turns`` turns and is scored as it stands (Geronimoo's rule)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kingdoms.cli import main
from kingdoms.core.errors import InvalidConfig
from kingdoms.sim.runner import DEFAULT_MAX_TURNS, play_state, simulate

NEVER = 'name = "Never Buys"\nbuy = ["Province if count(Gold) > 99"]\n'
KINGDOM = {"kingdom": "First Game"}


@pytest.fixture
def never(tmp_path: Path) -> str:
    path = tmp_path / "never.toml"
    path.write_text(NEVER, encoding="utf-8")
    return str(path)


def test_two_never_buying_bots_stop_at_the_cap_with_a_normal_score(never: str) -> None:
    report = simulate("dominion", [never, never], games=6, seed=3, options=KINGDOM)
    assert report.max_turns == DEFAULT_MAX_TURNS == 60
    assert report.capped == 6
    for r in report.results:
        assert r.summary["capped"] is True
        assert r.summary["ending"] == "turn limit"
        assert r.scores == (3.0, 3.0)  # three Estates each
        # tied on VP: the seat that took fewer turns (not the first) wins outright
        assert len(r.winners) == 1 and r.winners[0] != r.first
    assert report.wins == [3, 3]  # seats rotate
    state, _ = play_state("dominion", [never, never], 0, 3, KINGDOM)
    assert state.turns[state.first] == 61
    assert state.turns[1 - state.first] == 60
    assert state.outcome() is None  # stopped, not ended by the rules


def test_a_smaller_cap_and_no_cap(never: str) -> None:
    report = simulate("dominion", [never, never], games=2, seed=3, options=KINGDOM, max_turns=5)
    assert report.capped == 2
    assert all(r.summary["turns"] == 6 for r in report.results)
    # games that end by the rules are not touched by the cap
    plain = simulate("dominion", ["big-money", "smithy"], games=6, seed=2, options=KINGDOM)
    none = simulate(
        "dominion", ["big-money", "smithy"], games=6, seed=2, options=KINGDOM, max_turns=0
    )
    assert plain.capped == 0 and none.max_turns == 0
    assert [r.winners for r in plain.results] == [r.winners for r in none.results]
    assert [r.scores for r in plain.results] == [r.scores for r in none.results]


@pytest.mark.parametrize("bad", [-1, 1.5, True, "60"])
def test_bad_caps_are_refused(never: str, bad: object) -> None:
    with pytest.raises(InvalidConfig, match="max_turns"):
        simulate("dominion", [never, never], games=1, options=KINGDOM, max_turns=bad)  # type: ignore[arg-type]


def test_cli_flag_and_every_output_format_report_capped_games(never: str) -> None:
    args = ["sim", "dominion", "--bots", f"{never},big-money", "-n", "4"]
    args += ["--kingdom", "First Game", "--max-turns", "12"]
    res = CliRunner().invoke(main, [*args, "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["max_turns"] == 12 and data["capped_games"] == 4
    assert data["length_distribution"] == {"13": 4}
    res = CliRunner().invoke(main, [*args, "--format", "csv"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0].endswith(",capped") and all(line.endswith(",4") for line in lines[1:3])
    for fmt in ("plain", "markdown"):
        res = CliRunner().invoke(main, [*args, "--format", fmt])
        assert res.exit_code == 0, res.output
        assert "stopped at the 12-turn cap: 4 (100.0%; scored as they stood)" in res.output
    # the default cap, and no capped games: no column, the count 0 in JSON
    res = CliRunner().invoke(main, ["sim", "dominion", "--bots", "big-money,smithy", "-n", "2"])
    assert res.exit_code == 0 and "capped" not in res.output
    res = CliRunner().invoke(
        main, ["sim", "dominion", "--bots", "big-money,smithy", "-n", "2", "--json"]
    )
    assert json.loads(res.output)["max_turns"] == 60
    assert json.loads(res.output)["capped_games"] == 0


def test_round_robin_reports_capped_games(never: str) -> None:
    args = ["sim", "dominion", "--round-robin", f"{never},big-money,smithy", "-n", "2"]
    args += ["--kingdom", "First Game", "--max-turns", "8"]
    res = CliRunner().invoke(main, [*args, "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["max_turns"] == 8 and set(data["capped_games"].values()) == {2}
    res = CliRunner().invoke(main, [*args, "--format", "csv"])
    assert res.output.splitlines()[0].endswith(",capped")


@pytest.mark.parametrize("command", ["sim", "rank", "optimize"])
def test_cli_refuses_a_negative_cap(command: str) -> None:
    args = {
        "sim": ["sim", "dominion", "--bots", "big-money,smithy"],
        "rank": ["rank", "dominion", "--kingdom", "First Game"],
        "optimize": ["optimize", "dominion", "--kingdom", "First Game", "--vs", "big-money"],
    }[command]
    res = CliRunner().invoke(main, [*args, "--max-turns", "-1"])
    assert res.exit_code == 2
    assert "--max-turns" in res.output and "-1" in res.output


def test_rank_and_optimize_count_capped_games(tmp_path: Path) -> None:
    args = ["rank", "dominion", "--kingdom", "smithy,witch,village,cellar,moat"]
    args += ["--max-games", "10", "--min-games", "10", "--screen-games", "2"]
    args += ["--combo-games", "0", "--max-turns", "4"]
    res = CliRunner().invoke(main, [*args, "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["max_turns"] == 4
    assert all(r["capped_games"] == r["games"] for r in data["ranking"])  # none ends by 4
    assert data["capped_games"] == sum(r["games"] for r in data["ranking"])
    res = CliRunner().invoke(main, [*args, "--format", "csv"])
    assert res.output.splitlines()[0].endswith(",capped")
    args = ["optimize", "dominion", "--kingdom", "First Game", "--vs", "big-money-ultimate"]
    args += ["--population", "2", "--generations", "1", "--games", "2", "--final-games", "4"]
    args += ["--no-pool", "-o", str(tmp_path / "o.toml"), "--max-turns", "4"]
    res = CliRunner().invoke(main, [*args, "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["max_turns"] == 4 and data["capped_games"] >= 4
    assert data["capped_per_opponent"] == {"big-money-ultimate": 4}
    res = CliRunner().invoke(main, [*args, "--format", "csv"])
    assert res.output.splitlines() == [
        "opponent,score,95% CI,games,capped",
        res.output.splitlines()[1],
    ]
    assert res.output.splitlines()[1].endswith(",4,4")


def test_the_sample_log_is_the_runs_game_stopped_at_its_cap(never: str) -> None:
    args = ["sim", "dominion", "--bots", f"{never},{never}", "-n", "1", "--max-turns", "3"]
    res = CliRunner().invoke(main, [*args, "--kingdom", "First Game", "--sample-log", "--json"])
    assert res.exit_code == 0, res.output
    log = json.loads(res.output)["sample_log"]
    assert (
        log[-1]
        == "stopped at the 3-turn cap, scored as it stands — Never Buys #1: 3, Never Buys #2: 3"
    )


@pytest.mark.parametrize("value", ["5", str(DEFAULT_MAX_TURNS), "0"])
def test_kingdomino_refuses_the_turn_cap_naming_the_flag(tmp_path: Path, value: str) -> None:
    chart = tmp_path / "c.png"
    args = ["sim", "kingdomino", "--bots", "random,random", "-n", "2", "--chart", str(chart)]
    res = CliRunner().invoke(main, [*args, "--max-turns", value, "--json"])
    assert res.exit_code == 2, res.output
    assert "--max-turns applies to Dominion only" in res.output
    assert "Kingdomino game ends after its fixed number of rounds" in res.output
    assert not chart.exists()  # nothing was played nor written
    # without the flag the same run plays
    ok = CliRunner().invoke(main, [*args, "--json"])
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.output.splitlines()[-1])["games"] == 2
