"""The learning example trains, in a short run, an agent that clearly beats ``random``.

A short masked-PPO run (12,000 decisions against ``random``) is measured on 30
fresh games against ``random``: it must win at least 24 of them (80 %; a player
picking random legal actions wins about half), and play far better than the
untrained baseline that picks random legal actions in the same games.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("sb3_contrib")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_dominion.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_dominion", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_dominion"] = module
    spec.loader.exec_module(module)
    return module


def test_short_training_beats_random() -> None:
    ex = _example()
    model, norm = ex.train("random", steps=12_000, seed=0)
    norm.training = False
    trained = ex.evaluate(model, norm, "random", games=30, seed=500)
    baseline = ex.evaluate(None, None, "random", games=30, seed=500)
    assert trained.wins >= 24, trained
    assert trained.wins >= baseline.wins + 8, (trained, baseline)


def test_wilson_interval() -> None:
    ex = _example()
    low, high = ex.wilson(40, 40)
    assert 0.9 < low < 0.92 and high == 1.0
    low, high = ex.wilson(20, 40)
    assert low < 0.5 < high
