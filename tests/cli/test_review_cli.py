"""``kingdoms review FILE``: the mistakes, the JSON, the charts and clear errors."""

from __future__ import annotations

import json
import random
from pathlib import Path

from click.testing import CliRunner

from kingdoms.cli import main
from kingdoms.core import save_game
from kingdoms.review.checks import middle_kingdom


def _game(tmp_path: Path) -> Path:
    """The Middle Kingdom game where seat 2 breaks its 5×5 window (step 40), played on."""
    state = middle_kingdom()
    state.apply_checked(state.parse_action("place 43 at -2,-1 left"))
    rng = random.Random(1)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_checked(legal[rng.randrange(len(legal))])
    return save_game(state, tmp_path / "g.json", seats=["ann", "bob"])


def test_review_prints_the_mistakes_and_writes_the_charts(tmp_path: Path) -> None:
    path = _game(tmp_path)
    html, png = tmp_path / "r.html", tmp_path / "r.png"
    budget = "iterations=16,width=2"
    res = CliRunner().invoke(
        main,
        ["review", str(path), "--seat", "2", "--budget", budget, "--workers", "1",
         "--html", str(html), "--png", str(png), "--quiet"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "2. bob" in res.output and "1. ann" not in res.output
    assert "step 40: place 43 at -2,-1 left — better place 43 at" in res.output
    assert html.read_text(encoding="utf-8").count(
        "plotly"
    ) > 2 and "Biggest mistakes" in html.read_text(encoding="utf-8")
    assert png.read_bytes()[:4] == b"\x89PNG"
    out = CliRunner().invoke(
        main,
        [
            "review",
            str(path),
            "--seat",
            "2",
            "--budget",
            budget,
            "--json",
            "--lang",
            "pl",
            "--quiet",
        ],
    )
    data = json.loads(out.output)
    assert data["format"] == "kingdoms-review" and data["seats"] == [1]
    flagged = [d for d in data["decisions"] if d["flagged"]]
    assert 40 in [d["step"] for d in flagged]
    assert all(d["iterations"] == 16 for d in data["decisions"])


def test_review_rejects_bad_input(tmp_path: Path) -> None:
    path = _game(tmp_path)
    for args, message in (
        (["--seat", "3"], "--seat"),
        (["--budget", "lots"], "bad budget"),
        (["--workers", "0"], "--workers"),
    ):
        res = CliRunner().invoke(main, ["review", str(path), *args])
        assert res.exit_code == 2 and message in res.output, res.output
    bad = tmp_path / "bad.json"
    bad.write_text("{broken", encoding="utf-8")
    res = CliRunner().invoke(main, ["review", str(bad)])
    assert res.exit_code == 2 and "not valid JSON" in res.output
