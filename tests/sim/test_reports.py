"""Per-turn curves, game lengths, charts, sample logs, round robins, backends and
early stopping of the simulator."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from kingdoms.cli import main
from kingdoms.core import new_game
from kingdoms.core.runner import play_out
from kingdoms.sim import simulate
from kingdoms.sim.runner import GameResult, game_seed, play_one, seating

KINGDOM = {"kingdom": "smithy,witch,village,market,cellar,moat,militia,chapel,festival,mine"}


def test_dominion_per_turn_series_match_the_game() -> None:
    bots = ["smithy", "big-money-ultimate"]
    result = play_one("dominion", bots, 3, 7, KINGDOM, curves=True)
    # the same game played again by the plain runner: same final VP for each bot
    from kingdoms.bots.base import make_bot

    seat_bot = seating(3, 2)
    state = new_game("dominion", 2, game_seed(7, 3), {**KINGDOM, "first_player": 0})
    state.logging = False
    play_out(state, [make_bot("dominion", bots[b]) for b in seat_bot])
    for seat, b in enumerate(seat_bot):
        vp = result.series["vp"][b]
        assert vp[0] == 3.0  # three Estates after the first turn
        assert vp[-1] == state.vp_of(seat)  # type: ignore[attr-defined]
        assert len(vp) == state.turns[seat]  # type: ignore[attr-defined]
        money = result.series["money"][b]
        assert money[0] >= 7 and all(m >= 0 for m in money)
        coins = result.series["coins"][b]
        assert 2 <= coins[0] <= 5  # five of the seven Coppers at most
        assert len(coins) == len(money) == len(vp)


def test_games_without_curves_are_the_same_games_without_series() -> None:
    bots = ["witch", "big-money-ultimate"]
    with_curves = [play_one("dominion", bots, i, 7, KINGDOM, curves=True) for i in range(4)]
    plain = [play_one("dominion", bots, i, 7, KINGDOM) for i in range(4)]
    for full, lean in zip(with_curves, plain, strict=True):
        assert set(full.series) == {"vp", "money", "coins"}
        assert all(len(rows) == 2 and all(rows) for rows in full.series.values())
        assert lean.series == {}
        assert (lean.winners, lean.scores, lean.first, lean.summary) == (
            full.winners,
            full.scores,
            full.first,
            full.summary,
        )
    lean_report = simulate("dominion", bots, 6, seed=2, options=KINGDOM)
    full_report = simulate("dominion", bots, 6, seed=2, options=KINGDOM, curves=True)
    assert "per_turn" not in lean_report.to_json()
    assert full_report.to_json()["per_turn"]["vp"][0][0] == 3.0
    assert lean_report.wins == full_report.wins
    assert lean_report.length_distribution() == full_report.length_distribution()


def test_curves_lengths_and_pile_share_in_the_report() -> None:
    report = simulate(
        "dominion", ["witch", "big-money-ultimate"], 12, seed=2, options=KINGDOM, curves=True
    )
    data = report.to_json()
    assert sum(data["length_distribution"].values()) == 12
    assert 0 <= data["pile_ending_share"] <= 1
    curves = data["per_turn"]
    assert set(curves) == {"vp", "money", "coins"}
    assert all(len(rows) == 2 for rows in curves.values())
    assert curves["vp"][0][0] == 3.0 and curves["money"][1][0] >= 7
    # a turn's mean is over the games that reached it
    last = max(int(k) for k in data["length_distribution"])
    assert max(len(row) for row in curves["vp"]) == last


def test_kingdomino_points_per_round_and_margins() -> None:
    report = simulate("kingdomino", ["random", "random"], 3, seed=4, curves=True)
    data = report.to_json()
    rows = data["per_turn"]["points"]
    assert len(rows) == 2 and all(len(r) >= 5 for r in rows)
    assert data["length_unit"] == "round"
    assert [round(x, 3) for x in (rows[0][-1], rows[1][-1])] == data["mean_score"]
    assert data["mean_margin"][0] == -data["mean_margin"][1]


def test_worker_processes_give_the_same_results() -> None:
    one = simulate("dominion", ["smithy", "witch"], 10, seed=5, options=KINGDOM)
    two = simulate("dominion", ["smithy", "witch"], 10, seed=5, options=KINGDOM, workers=2)
    assert one.results == two.results


def _stop_after_three_wins(results: list[GameResult]) -> bool:
    return sum(1 for r in results if r.winners == (0,)) >= 3


def test_early_stopping_is_the_same_whatever_the_workers() -> None:
    kw = {"options": KINGDOM, "batch": 2, "stop": _stop_after_three_wins}
    one = simulate("dominion", ["witch", "big-money"], 40, seed=1, **kw)  # type: ignore[arg-type]
    two = simulate("dominion", ["witch", "big-money"], 40, seed=1, workers=2, **kw)  # type: ignore[arg-type]
    assert one.games < 40 and one.games % 2 == 0
    assert one.results == two.results
    assert one.to_json()["requested"] == 40


RAY_RUN = """
import json, sys
from kingdoms.sim import simulate
bots, kingdom = json.loads(sys.argv[1])
report = simulate("dominion", bots, 6, seed=9, options=kingdom, batch=2, backend="ray", workers=2)
print(json.dumps([repr(r) for r in report.results]))
"""


def test_ray_backend_gives_the_same_results(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    bot = tmp_path / "mine.toml"
    bot.write_text('buy = ["Province", "Gold", "Smithy if count(Smithy) < 1", "Silver"]\n')
    bots = [str(bot), "big-money-ultimate"]
    local = simulate("dominion", bots, 6, seed=9, options=KINGDOM, batch=2)
    # Ray's local cluster runs in a process of its own, so that a cluster that fails
    # to start on a loaded machine fails this test instead of taking the test worker down.
    run = subprocess.run(
        [sys.executable, "-c", RAY_RUN, json.dumps([bots, KINGDOM])],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert json.loads(run.stdout.strip().splitlines()[-1]) == [repr(r) for r in local.results]


def test_cli_charts_json_and_sample_log(tmp_path: Path) -> None:
    runner = CliRunner()
    png, html = tmp_path / "r.png", tmp_path / "r.html"
    args = ["sim", "dominion", "--bots", "smithy,big-money-ultimate", "-n", "6", "--kingdom"]
    res = runner.invoke(
        main, [*args, "smithy", "--chart", str(png), "--html", str(html), "--sample-log"]
    )
    assert res.exit_code == 0, res.output
    assert "mean per turn" in res.output and "game length (turns)" in res.output
    assert "sample game 1: seat 1 = smithy, seat 2 = big-money-ultimate" in res.output
    assert "smithy: turn 1" in res.output and "player 1" not in res.output
    assert "final scores" in res.output
    assert png.read_bytes()[:4] == b"\x89PNG" and png.stat().st_size > 20_000
    page = html.read_text()
    assert '<script src="http' not in page and "Plotly.newPlot" in page  # self-contained
    assert "coins generated" in page and len(page.encode()) < 1_000_000
    res = runner.invoke(main, [*args, "smithy", "--json", "--sample-log", "--curves"])
    data = json.loads(res.output)
    assert data["per_turn"]["coins"] and data["sample_log"][0].startswith("sample game 1")
    res = runner.invoke(main, [*args, "smithy"])  # no curves asked for: none printed
    assert res.exit_code == 0, res.output
    assert "mean per turn" not in res.output and "game length (turns)" in res.output


def test_cli_round_robin_matrix() -> None:
    res = CliRunner().invoke(
        main,
        ["sim", "dominion", "--round-robin", "big-money,smithy,witch", "-n", "4", "--json"],
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    m = data["matrix"]
    assert data["bots"] == ["big-money", "smithy", "witch"] and m[0][0] is None
    for i in range(3):
        for j in range(3):
            if i != j:
                assert m[i][j]["score"] + m[j][i]["score"] == pytest.approx(1.0)
                lo, hi = m[i][j]["ci95"]
                assert lo <= m[i][j]["score"] <= hi
    res = CliRunner().invoke(main, ["sim", "dominion", "--round-robin", "smithy,witch", "-n", "2"])
    assert "round robin" in res.output
    res = CliRunner().invoke(main, ["sim", "dominion", "-n", "2"])
    assert res.exit_code != 0 and "--bots or --round-robin" in res.output


def test_cli_round_robin_names_a_strategy_file_by_its_name(tmp_path: Path) -> None:
    file = tmp_path / "sub" / "my_file.toml"
    file.parent.mkdir()
    file.write_text('name = "Gold Digger"\nbuy = ["Province", "Gold", "Silver"]\n')
    res = CliRunner().invoke(
        main, ["sim", "dominion", "--round-robin", f"{file},big-money", "-n", "2", "--json"]
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["bots"] == ["Gold Digger", "big-money"]
    assert all(str(file) not in k for k in data["games"])
    from kingdoms.sim.report import sample_log

    log = sample_log("dominion", [str(file), "big-money"], 1, {"kingdom": "First Game"})
    assert "Gold Digger" in log[0] and "my_file" not in log[0]


def test_cli_until_clear_stops_early() -> None:
    args = ["sim", "dominion", "--bots", "witch,big-money", "--kingdom", "witch", "-n", "1000"]
    res = CliRunner().invoke(main, [*args, "--until-clear", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["requested"] == 1000 and 100 <= data["games"] < 1000
    res = CliRunner().invoke(main, [*args, "--until-clear"])
    assert "stopped early after" in res.output
    assert "99 % score interval at the stop" in res.output


def test_cli_kingdomino_report_per_round(tmp_path: Path) -> None:
    html = tmp_path / "k.html"
    args = ["sim", "kingdomino", "--bots", "random,greedy", "-n", "3", "--html", str(html)]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    assert "mean per round" in res.output and "game length (rounds)" in res.output
    assert "points at the end of the round" in html.read_text()


@pytest.mark.parametrize(
    ("variants", "rounds"), [((), 6), (("mighty-duel",), 12), (("dynasty",), 18)]
)
def test_kingdomino_game_length_counts_the_rounds_played(
    variants: tuple[str, ...], rounds: int
) -> None:
    """Two players draw 24 dominoes, 4 a round (the Mighty Duel all 48); a dynasty
    is three games. The report's game length is those rounds, never 0."""
    from kingdoms.sim.runner import simulate

    options = {"variants": list(variants)}
    report = simulate("kingdomino", ["random", "greedy"], 2, seed=5, options=options)
    assert report.length_distribution() == {rounds: 2}


def test_one_score_in_table_json_stop_rule_and_round_robin() -> None:
    """Score = (wins + ½ shared) / games everywhere, shown with its interval; a run
    stopped by --until-clear shows a 95 % interval clear of 50 %."""
    from kingdoms.sim.rank import clear_of_half
    from kingdoms.sim.report import RoundRobin
    from kingdoms.sim.runner import score_points

    report = simulate("dominion", ["big-money-ultimate", "big-money"], 60, seed=3, options=KINGDOM)
    for b in range(2):
        wins, shared = report.wins[b], report.shared[b]
        assert report.points()[b] == score_points(report.results, b) == wins + shared / 2
        lo, hi = report.score_intervals()[b]
        assert lo <= report.score_rates()[b] <= hi
    data = report.to_json()
    assert data["score"] == [round(x, 4) for x in report.score_rates()]
    assert data["shared_wins"] == report.shared
    rr = RoundRobin(["big-money-ultimate", "big-money"], {(0, 1): report})
    assert rr.rate(0, 1)[0] == report.score_rates()[0]
    stopped = simulate(
        "dominion", ["smithy", "big-money"], 2000, seed=1, options=KINGDOM, stop=clear_of_half(100)
    )
    assert stopped.games < 2000
    lo, hi = stopped.score_intervals()[0]
    assert lo > 0.5 or hi < 0.5
    res = CliRunner().invoke(
        main, ["sim", "dominion", "--bots", "smithy,big-money", "-n", "400", "--until-clear"]
    )
    assert "score [95% CI]" in res.output and "wins + ½ shared" in res.output


def test_cli_sim_plays_on_a_file_s_kingdom_when_none_is_given(tmp_path: Path) -> None:
    file = tmp_path / "fg.toml"
    file.write_text('name = "FG"\nkingdom = "First Game"\nbuy = ["Province", "Gold", "Silver"]\n')
    args = ["sim", "dominion", "--bots", f"{file},big-money", "-n", "2", "--json"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["setup"]["kingdom"][:3] == ["cellar", "market", "militia"]
    assert data["setup"]["text"].endswith("(First Game)")  # the set's name kept
    assert "kingdom from FG's strategy file" in res.stderr
    res = CliRunner().invoke(main, [*args, "--kingdom", "Witch"])
    assert "witch" in json.loads(res.stdout)["setup"]["text"].lower()
    assert "the kingdom named in FG's strategy file not used" in res.stderr
    res = CliRunner().invoke(main, [*args, "--kingdom", "first game"])
    assert "not used" not in res.stderr  # the same kingdom: nothing to say
    # a round robin plays on it too; a second file's other kingdom is named as not used
    other = tmp_path / "w.toml"
    other.write_text('name = "W"\nkingdom = ["Witch"]\nbuy = ["Province", "Witch", "Silver"]\n')
    rr = ["sim", "dominion", "--round-robin", f"{file},{other},big-money", "-n", "2", "--json"]
    res = CliRunner().invoke(main, rr)
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["setup"]["kingdom"][:3] == ["cellar", "market", "militia"]
    assert "kingdom from FG's strategy file" in res.stderr
    assert "W's strategy file names another kingdom, not used" in res.stderr


def test_every_table_in_plain_markdown_csv_or_json_never_wrapped_when_piped() -> None:
    import csv
    import io

    base = ["sim", "dominion", "--bots", "witch,big-money", "-n", "4", "--kingdom", "Witch"]
    res = CliRunner().invoke(main, [*base, "--format", "csv"])
    assert res.exit_code == 0, res.output
    table = list(csv.reader(io.StringIO(res.stdout)))
    assert table[0][:3] == ["#", "bot", "wins"] and [r[1] for r in table[1:3]] == [
        "witch",
        "big-money",
    ]
    md = CliRunner().invoke(main, [*base, "--format", "markdown"]).stdout
    assert "| # | bot | wins |" in md and "|---|" in md
    assert "games" in json.loads(CliRunner().invoke(main, [*base, "--format", "json"]).stdout)
    rr = ["sim", "dominion", "--round-robin", "witch,smithy,big-money", "-n", "2"]
    out = CliRunner().invoke(main, [*rr, "--format", "csv"]).stdout
    head = out.splitlines()[0]
    assert head.startswith("#,bot,") and head.endswith(",overall")
    assert len(out.splitlines()) == 4
    md = CliRunner().invoke(main, [*rr, "--format", "markdown"]).stdout
    assert "| # | bot |" in md  # every column headed (no empty Markdown header)
    # a blank line after each Markdown table: the notes under it are no table rows
    for text in (md, CliRunner().invoke(main, [*base, "--format", "markdown"]).stdout):
        lines = text.splitlines()
        last = max(i for i, line in enumerate(lines) if line.startswith("|"))
        assert lines[last + 1] == "" and len(lines) > last + 2
    # piped (not a terminal): every row of the plain table on one line
    plain = CliRunner().invoke(main, [*rr, "--format", "plain"]).stdout
    rows = [line for line in plain.splitlines() if "big-money" in line and "%" in line]
    assert rows and all(line.count("%") >= 3 for line in rows)


def test_bots_named_alike_are_told_apart_and_a_name_with_a_slash_is_kept(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    rules = 'buy = ["Province", "Gold", "Smithy if count(Smithy) < 1", "Silver"]\n'
    (a / "s.toml").write_text('name = "Smithy"\n' + rules)
    (b / "m.toml").write_text('name = "Smithy"\n' + rules)
    (b / "s.toml").write_text('name = "Spy/Thief"\n' + rules)
    specs = [str(a / "s.toml"), str(b / "m.toml"), "smithy"]
    args = ["sim", "dominion", "--round-robin", ",".join(specs), "-n", "2", "--json"]
    res = CliRunner().invoke(main, [*args, "--kingdom", "First Game"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["bots"] == ["Smithy (s.toml)", "Smithy (m.toml)", "smithy"]
    from kingdoms.sim.report import sample_log

    log = sample_log("dominion", [str(b / "s.toml"), "big-money"], 0, {"kingdom": "First Game"})
    assert log[0] == "sample game 1: seat 1 = Spy/Thief, seat 2 = big-money"
    assert any(line.startswith("Spy/Thief: turn 1") for line in log)
