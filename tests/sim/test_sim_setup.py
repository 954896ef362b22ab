"""Simulation reports state their kingdom and seed, warn about bots naming absent
cards; --require-cards; bots labelled by their file's name; bmu+X names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kingdoms.bots.base import make_bot
from kingdoms.cli import main
from kingdoms.core.errors import InvalidConfig
from kingdoms.sim.runner import simulate


def test_a_fixed_kingdom_is_stated_and_absent_cards_warned() -> None:
    report = simulate("dominion", ["witch", "big-money-ultimate"], 4, 5, {"kingdom": "First Game"})
    assert report.setup["kingdom"][:2] == ["cellar", "market"]
    assert report.setup["text"].startswith("kingdom: Cellar, Market")
    assert report.notes == ["witch names Witch, not in this kingdom"]
    data = report.to_json()
    assert data["seed"] == 5 and data["setup"]["text"] == report.setup["text"]
    assert data["notes"] == report.notes


def test_random_kingdoms_give_the_share_of_games_with_each_card() -> None:
    report = simulate("dominion", ["witch", "big-money-ultimate"], 40, 1)
    assert report.setup["text"] == "random per game, from sets base, base-1e"
    present = sum(1 for r in report.results if "witch" in r.summary["kingdom"])
    assert 0 < present < 40
    assert report.notes == [
        f"witch names cards absent from some kingdoms: Witch in {present} of 40 games "
        f"({present / 40:.0%})"
    ]


def test_require_cards_puts_the_bots_cards_in_every_kingdom() -> None:
    res = CliRunner().invoke(
        main,
        ["sim", "dominion", "--bots", "witch,smithy", "-n", "6", "--require-cards", "--json"],
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["setup"]["required"] == ["witch", "smithy"]
    assert "notes" not in data
    bad = CliRunner().invoke(
        main,
        [
            "sim",
            "dominion",
            "--bots",
            "witch,smithy",
            "-n",
            "2",
            "--require-cards",
            "--kingdom",
            "First Game",
        ],
    )
    assert bad.exit_code != 0 and "lacks Witch" in bad.output


def test_reports_name_a_strategy_file_by_its_name(tmp_path: Path) -> None:
    path = tmp_path / "some-file.toml"
    path.write_text('name = "My Smithy"\nbuy = ["Province", "Gold", "Smithy", "Silver"]\n')
    report = simulate("dominion", [str(path), "big-money"], 4, 0, {"kingdom": "First Game"})
    assert report.bots == ["My Smithy", "big-money"]
    assert report.specs == [str(path), "big-money"]


def test_text_chart_and_html_reports_state_the_kingdom_and_seed(tmp_path: Path) -> None:
    pytest.importorskip("plotly")
    from kingdoms.sim.chart import _setup_line

    res = CliRunner().invoke(
        main,
        [
            "sim",
            "dominion",
            "--bots",
            "witch,smithy",
            "-n",
            "4",
            "--seed",
            "9",
            "--kingdom",
            "First Game",
            "--html",
            str(tmp_path / "r.html"),
        ],
    )
    assert res.exit_code == 0, res.output
    assert "kingdom: Cellar, Market" in res.output and "seed 9" in res.output
    assert "warning: witch names Witch, not in this kingdom" in res.output
    html = (tmp_path / "r.html").read_text()
    assert "kingdom: Cellar, Market" in html and "seed 9" in html
    report = simulate("dominion", ["witch", "smithy"], 2, 9, {"kingdom": "First Game"})
    line = _setup_line(report)  # the PNG's title
    assert line.startswith("kingdom: Cellar, Market") and "seed 9" in line
    assert "warning: witch names Witch" in line


def test_bmu_plus_names_are_bots() -> None:
    bot = make_bot("dominion", "bmu+smithy:2")
    assert bot.name == "bmu+smithy:2"  # type: ignore[attr-defined]
    assert [c for c, _ in bot.strategy.rules][-2:] == ["smithy", "silver"]  # type: ignore[attr-defined]
    assert make_bot("dominion", "bmu+Council Room").name == "bmu+council_room"  # type: ignore[attr-defined]
    early = make_bot("dominion", "bmu+Witch:2:early")
    assert early.name == "bmu+witch:2:early"  # type: ignore[attr-defined]
    assert [c for c, _ in early.strategy.rules][3:5] == ["witch", "gold"]  # type: ignore[attr-defined]
    with pytest.raises(InvalidConfig, match="unknown card 'Dutchy'"):
        make_bot("dominion", "bmu+Dutchy")
    with pytest.raises(InvalidConfig, match="bad bot parameter '2:late' in 'bmu\\+witch:2:late'"):
        make_bot("dominion", "bmu+witch:2:late")


def test_round_robins_state_the_kingdom_and_seed_too() -> None:
    res = CliRunner().invoke(
        main,
        [
            "sim",
            "dominion",
            "--round-robin",
            "big-money,witch,smithy",
            "-n",
            "2",
            "--seed",
            "4",
            "--kingdom",
            "First Game",
            "--json",
        ],
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["seed"] == 4 and data["setup"]["text"].startswith("kingdom: Cellar")
    assert "witch names Witch, not in this kingdom" in data["notes"]
