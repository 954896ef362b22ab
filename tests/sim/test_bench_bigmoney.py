"""bench/dominion_bigmoney.py: the game kinds' rows measure pyminion both with its
logging off and as shipped in the same interleaved slices, each slice under its own
root-logger level."""

from __future__ import annotations

import importlib.util
import logging
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "dominion_bigmoney.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("dominion_bigmoney", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def root_level() -> Iterator[None]:
    root = logging.getLogger()
    before = root.level
    yield
    root.setLevel(before)


@pytest.mark.usefixtures("root_level")
def test_interleaved_slices_each_run_under_their_own_logging_level() -> None:
    bench = load()
    seen: dict[str, list[tuple[int, int]]] = {"off": [], "shipped": []}

    def recorder(key: str) -> Callable[[int], None]:
        def one(i: int) -> None:
            seen[key].append((i, logging.getLogger().level))

        return one

    runners = [
        bench.with_logging(recorder("off"), True),
        bench.with_logging(recorder("shipped"), False),
    ]
    (n_off, _), (n_shipped, _) = bench.measure_interleaved(runners, 0.02, slice_s=0.005)
    assert n_off > 0 and n_shipped > 0
    assert {level for _, level in seen["off"]} == {logging.WARNING}
    assert {level for _, level in seen["shipped"]} == {logging.INFO}
    # the game index passes through: the warm-up game 0, then 1, 2, ...
    assert [i for i, _ in seen["off"]] == list(range(n_off + 1))
