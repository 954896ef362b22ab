"""The Dominion buy agent (examples/train_dominion_buys.py), in a short run: the
action design (buy decisions only), imitation then PPO, and the measurement."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

pytest.importorskip("torch")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_dominion_buys.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_dominion_buys", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_dominion_buys"] = module
    spec.loader.exec_module(module)
    return module


def test_the_agent_decides_buys_only() -> None:
    ex = _example()
    t = ex.Trainer(seed=1)
    match = t.new_match("big-money-ultimate", seed=5)
    seen = 0
    while (mask := match.advance()) is not None:
        st = match.state
        legal = st.legal_actions()
        assert st.current_player == match.seat and not st.stack
        # every legal action is a buy or ending the phase, and the mask says which
        assert sorted(ex.to_action(int(o)) for o in np.flatnonzero(mask)) == sorted(legal)
        assert mask.sum() >= 2
        st.apply(ex.to_action(int(np.flatnonzero(mask)[-1])))
        seen += 1
    assert seen > 5 and match.state.is_terminal()
    assert ex.buy_mask([ex.encode(0, 1)]) is None  # a play action: not a buy decision


def test_short_training_run() -> None:
    ex = _example()
    t = ex.train(minutes=0.0, seed=0, imitation_games=150, eval_every=0)  # imitation
    for _ in range(2):  # two PPO updates
        with t.timed():
            t.update(t.collect(16, 8, margin_weight=0.5), margin_weight=0.5)
    assert t.games == 32 and t.cpu > 0
    # the pool rated the league from the games played
    assert sum(e.games for e in t.pool.entries.values()) == t.games
    wins, _ = t.evaluate("random", 20, seed=123)
    assert wins >= 19
    wins, _ = t.evaluate("big-money-ultimate", 20, seed=123)
    assert wins >= 3  # an imitation of the opponent's buys: far from hopeless


def test_the_documented_commands_in_short(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """docs/rl.md's training command (save, curve picture) and its evaluation-only
    command (``--load … --minutes 0``), with small numbers."""
    ex = _example()
    weights, picture = tmp_path / "buys.pt", tmp_path / "curve.png"
    ex.main(
        ["--minutes", "0.02", "--eval-every", "0.01", "--curve-games", "4",
         "--eval-games", "4", "--save", str(weights), "--curve", str(picture)]
    )  # fmt: skip
    assert weights.exists() and picture.stat().st_size > 0
    assert (tmp_path / "buys.pt.curve.json").exists()
    first = capsys.readouterr().out
    assert "vs big-money-ultimate: " in first and "/4 = " in first
    ex.main(["--load", str(weights), "--minutes", "0", "--eval-games", "4"])
    out = capsys.readouterr().out
    assert "vs big-money-ultimate: " in out and "vs random: " in out
