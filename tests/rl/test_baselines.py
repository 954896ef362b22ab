"""``bench/rl_baselines.py`` in short: several seeds with intervals, the kingdoms
played and the budgets, and ``--quick`` leaves the flags given beside it alone."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "rl_baselines.py"


def _bench():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("rl_baselines", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_quick_table_in_short(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspiel")
    bench = _bench()
    bench.main(
        ["--quick", "--games", "2", "--dominion-players", "random,big-money,best",
         "--mcts-iterations", "4", "--ismcts", "4", "--best-iterations", "6"]
    )  # fmt: skip
    out = capsys.readouterr().out
    # Dominion: the players asked for (and mcts), on First Game and one random kingdom
    assert '**Dominion, "First Game"**' in out and "**Dominion, 1 random kingdoms**" in out
    dominion = out.split("**Kingdomino")[0]
    players = set(re.findall(r"^\| ([^|]+?) \| \d", dominion, re.M))
    assert players == {"random", "big-money", "mcts 4 sims", "best 6 sims"}
    # "best N sims" spends exactly N rollouts a decision, banking nothing
    best = bench.best_player(6, 0)
    assert best.bank is False and best.search.iterations == 6
    kingdomino = out.split("**Kingdomino (2 players)**")[1]
    assert "OpenSpiel IS-MCTS 4 |" in kingdomino and "planning-greedy" in kingdomino
    # every row: the pooled score, its interval, each of the 2 seeds, the t interval
    rows = re.findall(r"^\| (?!player|---)([^|]+?) \|(.*)$", out, re.M)
    assert len(rows) == 4 + 4 + 6
    for _, rest in rows:
        cells = [c.strip() for c in rest.split("|")[:-1]]
        assert re.fullmatch(r"\d+\.\d%–\d+\.\d%", cells[1])
        assert len(cells[2].split(" / ")) == 2
        assert re.fullmatch(r"\d+\.\d% \(-?\d+\.\d%–\d+\.\d%\)", cells[3])
    # the budgets: the --games given (not --quick's 4), the seeds, the searchers, decisions
    assert "_Budget: 2 games per pair, kingdom and seed (1 with a searcher)" in out
    assert "seeds 0, 100000" in out and "4 simulations a move" in out
    assert "best 6 rollouts a decision" in out  # not seconds: the same on any machine
    assert re.search(r"; [\d,]+ decisions played in this run", out)
    # the kingdoms played, by their cards
    assert re.search(r"_Dominion kingdoms: First Game \(cellar, .*\); random: seed 1: \w+", out)


def test_the_budget_names_only_the_searchers_that_played(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Without ``best`` among the players, the budget line says nothing of its
    rollouts; it gives the run's CPU seconds beside its wall-clock seconds."""
    bench = _bench()
    bench.main(
        ["--games-only", "dominion", "--games", "1", "--slow-games", "1", "--kingdoms", "0",
         "--seeds", "1", "--dominion-players", "random,big-money", "--mcts-iterations", "2"]
    )  # fmt: skip
    out = capsys.readouterr().out
    players = set(re.findall(r"^\| ([^|]+?) \| \d", out, re.M))
    assert players == {"random", "big-money", "mcts 2 sims"}
    budget = out[out.index("_Budget:") :].splitlines()[0]
    assert "2 simulations a move" in budget and "best" not in budget
    assert re.search(r"; \d+ s, \d+ CPU s\._$", budget)
