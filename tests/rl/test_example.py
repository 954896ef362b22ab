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


def test_the_long_run_command_with_warmup_in_short(tmp_path: Path) -> None:
    """The documented long run (warm-up against ``random``, then ``big-money`` with
    the margin reward, progress lines, saved model), with small numbers: the
    opponent is swapped after the warm-up and the run ends with its report."""
    ex = _example()
    report = ex.main(
        [
            "--opponent", "big-money", "--reward", "margin", "--warmup", "1024",
            "--steps", "1024", "--eval-games", "2", "--progress", "1024",
            "--save", str(tmp_path / "ppo"),
        ]
    )  # fmt: skip
    assert report["warmup"] == 1024 and report["vs big-money"]["games"] == 2
    assert (tmp_path / "ppo" / "model.zip").exists()
    assert (tmp_path / "ppo" / "vecnormalize.pkl").exists()


def test_warmup_swaps_the_opponent() -> None:
    ex = _example()
    model, _ = ex.train("big-money", steps=64, seed=0, warmup=64)
    env = model.get_env().venv.envs[0]
    assert [b.name for b in env.bots] == ["big-money"]
