"""``kingdoms rank`` and ``kingdoms optimize`` end to end, and their building blocks."""

from __future__ import annotations

import json
import random
from pathlib import Path

from click.testing import CliRunner

from kingdoms.bots.dominion.lang import check_text, parse_strategy
from kingdoms.cli import main
from kingdoms.sim.optimize import Extra, Genome, mutate
from kingdoms.sim.rank import bmu_plus, clear_of_half, kingdom_cards
from kingdoms.sim.runner import GameResult


def _result(i: int, winners: tuple[int, ...]) -> GameResult:
    return GameResult(i, winners, (0.0, 0.0), 0, {})


def test_bmu_plus_places_the_card_by_cost() -> None:
    cheap = parse_strategy(bmu_plus("smithy", 2))
    cards = [c for c, _ in cheap.rules]
    assert cards.index("smithy") == cards.index("silver") - 1 and cheap.play_cards == ("smithy",)
    dear = parse_strategy(bmu_plus("adventurer", 1))
    cards = [c for c, _ in dear.rules]
    assert cards.index("adventurer") == cards.index("gold") - 1
    early = parse_strategy(bmu_plus("witch", 2, early=True))  # the attacker before Gold
    cards = [c for c, _ in early.rules]
    assert cards.index("witch") == cards.index("gold") - 1 and cards.count("witch") == 1
    assert bmu_plus("adventurer", 1, early=True) == bmu_plus("adventurer", 1)
    fam = parse_strategy(bmu_plus("familiar", 1))
    assert "potion" in [c for c, _ in fam.rules]
    assert not [f for f in check_text(bmu_plus("familiar", 1)) if f.level == "error"]


def test_sequential_stop_waits_for_a_clear_interval() -> None:
    stop = clear_of_half(10)
    assert not stop([_result(i, (0,)) for i in range(9)])  # too few games
    assert stop([_result(i, (0,)) for i in range(10)])  # 10/10: clear
    even = [_result(i, (i % 2,)) for i in range(200)]
    assert not stop(even)
    shared = [_result(i, (0, 1)) for i in range(200)]
    assert not stop(shared)  # shared wins count half


def test_mutations_stay_valid_strategies() -> None:
    cards = kingdom_cards("First Game", 0)
    rng = random.Random(1)
    g = Genome(extras=(Extra("smithy", 1, False),))
    seen = set()
    for _ in range(200):
        g = mutate(g, cards, rng)
        text = g.to_toml("x")
        assert not [f for f in check_text(text) if f.level == "error"], text
        seen.add(len(g.extras))
    assert len(seen) > 2  # cards are added and removed


def test_cli_rank(tmp_path: Path) -> None:
    args = ["rank", "dominion", "--kingdom", "smithy,witch,village,cellar,moat"]
    args += ["--max-games", "20", "--min-games", "10", "--screen-games", "4", "--combo-games", "10"]
    args += ["--json"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    ranking = data["ranking"]
    assert len(ranking) == 10 and data["opponent"] == "big-money-ultimate"
    rates = [r["score"] for r in ranking]
    assert rates == sorted(rates, reverse=True)
    for r in ranking:
        assert 10 <= r["games"] <= 20 and 1 <= r["copies"] <= 4
        assert r["ci95"][0] <= r["win_rate"] <= r["ci95"][1]
    table = CliRunner().invoke(main, [*args[:-3], "--combo-games", "0"])
    assert "Big Money Ultimate + X" in table.output and "witch" in table.output
    early = [r["card"] for r in ranking if r["games"] < 20]
    assert data["stopped_early"] == early and data["max_games"] == 20
    if early:  # each early stop named with its games, the scores as at the stop
        assert (
            "stopped early" in table.output and "ranks not separated on the games" in table.output
        )
        assert all(
            f"{r['card']} after {r['games']} games" in table.output
            for r in ranking
            if r["card"] in early
        )
    else:
        assert (
            "ranks not separated after 20 games" in table.output
            and "stopped early" not in table.output
        )
    assert all("separated_from_next" in r and "copies_separated" in r for r in ranking)
    for r in ranking:  # every card's best two-card combination, with the card in it
        combo = r["combo"]
        assert combo["games"] == 10 and combo["ci95"][0] <= combo["score"] <= combo["ci95"][1]
        assert combo["partner"] != r["card"]
        assert parse_strategy(combo["strategy"]).wanted() >= {r["card"]}
    assert "best combination" not in table.output  # --combo-games 0: no search


def test_the_table_names_the_best_partner() -> None:
    from kingdoms.cli.rank import _combo
    from kingdoms.sim.rank import Combo, Ranked

    combo = Combo("workshop", "Gardens rush", 0.93, (0.886, 0.958), 200, "")
    r = Ranked("gardens", 1, 1000, 0.26, (0.23, 0.29), {1: 0.26}, combo=combo)
    assert _combo(r) == "+ Workshop (Gardens rush) 93.0% [88.6%–95.8%]"
    assert r.to_json()["combo"]["partner"] == "workshop"


def test_cli_optimize_writes_a_usable_file(tmp_path: Path) -> None:
    out = tmp_path / "best.toml"
    args = ["optimize", "dominion", "--kingdom", "First Game", "--vs", "big-money-ultimate"]
    args += ["--population", "3", "--generations", "2", "--games", "4", "--final-games", "10"]
    res = CliRunner().invoke(main, [*args, "-o", str(out), "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["pool"][0] == "big-money-ultimate" and len(data["pool"]) > 1  # bundled bots
    assert data["games"] == 10 * len(data["pool"]) and data["generations"] == 2
    assert set(data["per_opponent"]) == set(data["pool"])
    assert data["ci95"][0] <= data["win_rate"] <= data["ci95"][1]
    assert out.read_text() == data["strategy"]
    assert (
        f"over {data['games']} fresh games" in data["strategy"]
        and "  vs big-money-ultimate: " in data["strategy"]
    )
    res = CliRunner().invoke(main, ["strategy", "check", str(out)])
    assert res.exit_code == 0 and "OK" in res.output
    res = CliRunner().invoke(main, ["sim", "dominion", "--bots", f"{out},big-money", "-n", "2"])
    assert res.exit_code == 0, res.output


def test_cli_optimize_formats_its_table(tmp_path: Path) -> None:
    args = ["optimize", "dominion", "--kingdom", "First Game", "--vs", "big-money-ultimate"]
    args += ["--population", "2", "--generations", "1", "--games", "2", "--final-games", "4"]
    args += ["--no-pool", "-o", str(tmp_path / "o.toml")]
    res = CliRunner().invoke(main, [*args, "--format", "csv"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0] == "opponent,score,95% CI,games"
    assert lines[1].startswith("big-money-ultimate,") and lines[1].endswith(",4")
    assert len(lines) == 2  # the table alone, nothing else on stdout
    res = CliRunner().invoke(main, [*args, "--format", "markdown"])
    assert res.exit_code == 0, res.output
    assert "| opponent | score | 95% CI | games |" in res.output
    assert res.output.startswith("written to ")
    res = CliRunner().invoke(main, [*args, "--format", "json"])
    assert json.loads(res.output)["per_opponent"]


def test_cli_optimize_pool_dir_names_what_it_leaves_out_and_refuses_broken_files(
    tmp_path: Path,
) -> None:
    pool = tmp_path / "pool"
    pool.mkdir()
    args = ["optimize", "dominion", "--kingdom", "First Game", "--vs", "big-money-ultimate"]
    args += ["--population", "2", "--generations", "1", "--games", "2", "--final-games", "2"]
    args += ["--workers", "1", "-o", str(tmp_path / "o.toml"), "--pool-dir", str(pool)]
    res = CliRunner().invoke(main, args)  # an empty directory: said so
    assert res.exit_code == 2 and "holds no strategy files (*.toml)" in res.output
    (pool / "s.toml").write_text('name = "My Smithy"\nbuy = ["Province", "Smithy", "Silver"]\n')
    (pool / "w.toml").write_text('name = "My Witch"\nbuy = ["Province", "Witch", "Silver"]\n')
    res = CliRunner().invoke(main, [*args, "--format", "json"])
    assert res.exit_code == 0, res.output
    assert "My Smithy" in json.loads(res.stdout)["pool_names"]
    assert "left out of the pool (cards not in the kingdom): My Witch" in res.stderr
    (pool / "broken.toml").write_text('name = "B"\nbuy = ["Gold if coins => 6"]\n')
    res = CliRunner().invoke(main, args)  # a broken file is an error, not left out quietly
    assert (
        res.exit_code != 0 and "broken.toml:2" in res.output and "did you mean '>='" in res.output
    )


def test_extending_a_run_plays_the_games_of_one_longer_run() -> None:
    from kingdoms.sim.runner import simulate

    opts = {"kingdom": "First Game"}
    whole = simulate("dominion", ["smithy", "big-money-ultimate"], 8, seed=5, options=opts)
    head = simulate("dominion", ["smithy", "big-money-ultimate"], 5, seed=5, options=opts)
    tail = simulate("dominion", ["smithy", "big-money-ultimate"], 3, seed=5, options=opts, first=5)
    assert [repr(r) for r in head.results + tail.results] == [repr(r) for r in whole.results]


def test_paired_separation() -> None:
    from kingdoms.sim.rank import paired_gap, separated

    same = [1.0, 0.0, 0.5, 1.0] * 30
    assert not separated(same, same) and paired_gap(same, same)[0] == 0
    better = [1.0] * 100
    mixed = [1.0, 0.0] * 50
    assert separated(better, mixed) and separated(mixed, better)
    assert not separated([1.0, 0.0, 1.0], [0.0, 1.0, 0.0])  # too few games to tell


def test_rank_stops_when_neighbours_separate_or_the_budget_ends() -> None:
    from kingdoms.sim.rank import rank_kingdom

    ranked = rank_kingdom(
        "smithy,witch,village,cellar,moat,chapel,gardens,militia,market,festival",
        seed=3,
        screen_games=6,
        min_games=30,
        max_games=90,
        combo_games=0,
    )
    scores = [r.score for r in ranked]
    assert scores == sorted(scores, reverse=True)
    assert ranked[-1].separated_from_next is None
    for r in ranked:
        assert 30 <= r.games <= 90 and r.copies in r.screen
        if r.separated_from_next is False:  # only unseparated after the budget
            nxt = ranked[ranked.index(r) + 1]
            assert r.games == 90 or nxt.games == 90
    assert ranked[0].card == "witch"


def test_optimize_runs_on_a_time_budget_with_restarts_and_a_pool() -> None:
    from kingdoms.sim.optimize import optimize

    seen: list[tuple[int, float, float, float]] = []
    result = optimize(
        "First Game",
        ["big-money"],
        population=2,
        games=2,
        final_games=4,
        minutes=0.05,
        progress=lambda *a: seen.append(a),
    )
    assert seen and all(budget == 3.0 for *_, budget in seen)  # 0.05 minutes
    assert seen[-1][2] > 3.0 or result.generations > 1
    assert result.pool[0] == "big-money" and len(result.per_opponent) == len(result.pool)
    assert result.games == 4 * len(result.pool)
    if result.generations > 3:
        assert result.restarts >= 1  # two candidates on two games stall quickly
    alone = optimize(
        "First Game", ["big-money"], population=2, games=2, final_games=2, generations=1,
        pool=False,
    )  # fmt: skip
    assert alone.pool == ["big-money"] and alone.generations == 1


def test_gardens_combination_outranks_its_big_money_helper_score() -> None:
    """Gardens is a poor Big Money helper but, with Workshop in a rush, far stronger."""
    from kingdoms.sim.rank import best_combo
    from kingdoms.sim.runner import simulate

    kingdom = "Workshop,Gardens,Cellar,Chapel,Moat,Village,Smithy,Market,Festival,Laboratory"
    cards = kingdom_cards(kingdom, 0)
    opts = {"kingdom": cards}
    combo = best_combo("gardens", cards, opts, games=60, screen=8)
    assert combo.partner == "workshop" and combo.template == "Gardens rush"
    helper = simulate("dominion", ["bmu+gardens", "big-money-ultimate"], 60, 1, opts)
    helped = sum(1.0 if r.winners == (0,) else 0.5 if 0 in r.winners else 0 for r in helper.results)
    assert combo.score > helped / 60 + 0.3
    assert combo.ci[0] > 0.5
    assert not [f for f in check_text(combo.strategy, "c", cards) if f.level == "error"]


def test_the_pool_holds_every_fitting_bot_strongest_first(tmp_path: Path) -> None:
    from kingdoms.sim.optimize import bundled_pool, pool_label

    kingdom = ["witch", "smithy", "village", "market", "militia", "cellar", "chapel",
               "laboratory", "festival", "moat"]  # fmt: skip
    mine = tmp_path / "imported.toml"
    mine.write_text('name = "Imported Witch"\nbuy = ["Province", "Gold", "Witch", "Silver"]\n')
    away = tmp_path / "away.toml"
    away.write_text('name = "Needs Mine"\nbuy = ["Province", "Mine", "Silver"]\n')
    pool = bundled_pool(kingdom, files=[str(mine), str(away)])
    assert "witch" in pool and "smithy" in pool and str(mine) in pool  # every fitting bot
    assert str(away) not in pool and "big-money" not in pool
    # Big Money Ultimate fits every kingdom: in the pool whatever the first --vs bot
    assert pool[-1] == "big-money-ultimate"
    assert "big-money-ultimate" in bundled_pool(kingdom, against="witch", race_games=4)
    raced = bundled_pool(kingdom, files=[str(mine)], against="big-money-ultimate", race_games=30)
    assert set(raced) == set(pool) - {"big-money-ultimate"}
    # strongest first: a Witch bot ahead of the plain Moat bot against Big Money
    assert raced.index("witch") < raced.index("moat")
    assert pool_label(str(mine)) == "Imported Witch"


def test_a_combination_is_shown_better_only_when_separated_from_the_card_alone() -> None:
    from kingdoms.cli.rank import _combo
    from kingdoms.sim.rank import Combo, Ranked, best_combo, kingdom_cards
    from kingdoms.sim.runner import score_points, simulate

    worse = Combo("market", "Big Money + X", 0.585, (0.52, 0.65), 200, "", -0.13, 0.05)
    r = Ranked("smithy", 1, 1000, 0.716, (0.69, 0.74), {1: 0.716}, combo=worse)
    assert not worse.better and _combo(r).startswith("none better than the card alone")
    better = Combo("village", "draw engine", 0.8, (0.74, 0.85), 200, "", 0.08, 0.05)
    r.combo = better
    assert better.better and "+8.0% ± 5.0% over the card alone" in _combo(r)
    # measured paired: the combination plays the card alone's games (same seeds)
    cards = kingdom_cards("First Game", 0)
    alone = simulate("dominion", ["bmu+smithy:1", "big-money-ultimate"], 30, 5,
                     {"kingdom": cards})  # fmt: skip
    points = [score_points([g], 0) for g in alone.results]
    c = best_combo("smithy", cards, {"kingdom": cards}, games=30, screen=2, final_seed=5,
                   alone=points)  # fmt: skip
    assert c.gain is not None and c.gain_half is not None
    assert abs(c.gain - (c.score - sum(points) / 30)) < 1e-9


def test_cli_rank_names_its_early_stops() -> None:
    args = ["rank", "dominion", "--kingdom", "smithy,witch,village,cellar,moat", "--max-games"]
    args += ["200", "--min-games", "20", "--screen-games", "4", "--combo-games", "0"]
    data = json.loads(CliRunner().invoke(main, [*args, "--json"]).output)
    witch = next(r for r in data["ranking"] if r["card"] == "witch")
    assert witch["games"] < 200 and data["stopped_early"] == ["witch"]
    table = CliRunner().invoke(main, args).output
    assert "stopped before --max-games, once separated from its neighbours" in table
    assert f"witch after {witch['games']} games" in table
    assert "ranks not separated after 200 games" not in table


def test_cli_optimize_plays_big_money_ultimate_when_no_vs_is_given(tmp_path: Path) -> None:
    args = ["optimize", "dominion", "--kingdom", "First Game", "--population", "2"]
    args += ["--generations", "1", "--games", "2", "--final-games", "2", "--no-pool"]
    res = CliRunner().invoke(main, [*args, "-o", str(tmp_path / "o.toml"), "--format", "json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["pool"] == ["big-money-ultimate"]
