"""The Kingdomino playout bench counts CPU time and its peer plays whole games."""

from __future__ import annotations

import importlib.util
import random
import time
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[2] / "bench" / "kingdomino_playouts.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("kingdomino_playouts", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_bench_times_cpu_not_the_wall_clock() -> None:
    bench = _bench()
    assert bench.CLOCK is time.process_time
    for run in (bench.engine_playouts, bench.engine_random_playouts, bench.naive_playouts):
        done, spent = run(0.05, random.Random(1))
        assert done >= 1
        assert spent >= 0.05


def test_the_naive_peer_plays_a_whole_game() -> None:
    scores = _bench().naive_playout(random.Random(3))
    assert len(scores) == 4
    assert all(0 <= s < 200 for s in scores)
    assert any(s > 0 for s in scores)
