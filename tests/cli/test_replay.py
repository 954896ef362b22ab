"""``kingdoms replay FILE`` prints a saved game's log in any language."""

from __future__ import annotations

import random
from pathlib import Path

from click.testing import CliRunner

from kingdoms.cli import main
from kingdoms.core import new_game, save_game


def test_replay_prints_the_log(game_name: str, tmp_path: Path) -> None:
    state = new_game(game_name, players=2, seed=6)
    rng = random.Random(1)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    path = save_game(state, tmp_path / "g.json", seats=["ann", "bob"])
    for lang in ("en", "pl", "cs"):
        res = CliRunner().invoke(main, ["replay", str(path), "--lang", lang])
        assert res.exit_code == 0, res.output
        assert "ann, bob" in res.output and "winner" in res.output
        assert len(res.output.splitlines()) > 10


def test_replay_rejects_a_corrupt_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{broken", encoding="utf-8")
    res = CliRunner().invoke(main, ["replay", str(bad)])
    assert res.exit_code != 0 and "not valid JSON" in res.output
