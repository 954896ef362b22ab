"""The server load benchmark runs (a small load, on the toy game)."""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import json
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "server_load.py"


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location("server_load", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_load_benchmark_runs() -> None:
    module = _bench()
    report = module.run_bench("toy", games=4, players=3, max_actions=20)
    assert report["games"] == 4 and report["actions"] == 4 * 12  # toy games last 12 actions
    assert report["actions_per_second"] > 0 and report["latency_ms_p95"] >= report["latency_ms_p50"]


def test_the_benchmark_compares_two_source_trees(capsys: pytest.CaptureFixture[str]) -> None:
    """``--baseline``: the server from another source tree and from this one, each in
    its own process; every report says its build and source tree and the server's CPU
    per move, and the last line their ratio (a real game: the servers run apart from
    this process, without the tests' toy game)."""
    module = _bench()
    src = str(BENCH.parents[1] / "src")
    args = argparse.Namespace(
        baseline=src,
        game="kingdomino",
        games="1",
        players=2,
        actions=30,  # enough server CPU to count in clock ticks (10 ms)
        think=0.0,
        rounds=1,
        server_log=None,
    )
    module.compare_sources(args)
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    runs, ratio = lines[:-1], lines[-1]
    assert [r["source"] for r in runs] == [src, src]
    assert all(r["build"] in ("compiled", "pure") and r["errors"] == 0 for r in runs)
    assert all(r["server_cpu_ms_per_move"] > 0 and r["actions"] == 30 for r in runs)
    assert ratio["cpu_ratio"] > 0 and len(ratio["server_cpu_ms_per_move"]) == 2


def test_ratios_have_one_rule_and_none_without_a_base() -> None:
    """Both comparisons (two source trees, several processes) divide through one helper:
    a figure with nothing to divide by (a run too short for one CPU clock tick) gives
    ``None``, never a crash or a made-up number."""
    module = _bench()
    assert module.ratio(0.9, 1.2) == 0.75 and module.ratio(2.0, 0.0) is None
    assert module.ratio(None, 1.0) is None
    report = {
        "games": 2,
        "actions_per_second": 0.0,
        "latency_ms_p50": 1.0,
        "latency_ms_p99": 2.0,
        "errors": 0,
        "server_cpu_ms_per_move": 0.0,
    }
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        module._print_ratios([1, 2], [report, {**report, "latency_ms_p50": 1.5}])
    line = json.loads(out.getvalue())
    assert line["moves_per_second"] is None and line["p50"] == 1.5 and line["p99"] == 1.0
