"""The server load benchmark runs (a small load, on the toy game)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "server_load.py"


def test_load_benchmark_runs() -> None:
    spec = importlib.util.spec_from_file_location("server_load", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    report = module.run_bench("toy", games=4, players=3, max_actions=20)
    assert report["games"] == 4 and report["actions"] == 4 * 12  # toy games last 12 actions
    assert report["actions_per_second"] > 0 and report["latency_ms_p95"] >= report["latency_ms_p50"]
