"""Visual regression of the simulator's charts: every chart type rendered, each
titled with what was played (game, kingdom, seed, bots, games), every panel titled
and its axes labelled, no two texts overprinted (matplotlib's text extents), the
HTML small, titled, with a table of the numbers and intervals in its hovers."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kingdoms.cli import main
from kingdoms.sim.chart import figure, html_report, round_robin_figure, round_robin_html
from kingdoms.sim.report import RoundRobin
from kingdoms.sim.runner import SimReport, simulate

FIRST_GAME = {"kingdom": "First Game"}


@pytest.fixture(scope="module")
def dominion() -> SimReport:
    return simulate(
        "dominion", ["big-money-ultimate", "smithy", "witch"], 60, seed=4, options=FIRST_GAME,
        curves=True,
    )  # fmt: skip


@pytest.fixture(scope="module")
def kingdomino() -> SimReport:
    return simulate("kingdomino", ["greedy", "random"], 12, seed=2, options={}, curves=True)


def _texts(fig: Any) -> list[Any]:
    out = [fig._suptitle] if fig._suptitle is not None else []
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        out += [ax.title, ax.xaxis.label, ax.yaxis.label, *ax.texts]
        # tick labels matplotlib draws: those within the axes' view
        lo, hi = sorted(ax.get_xlim())
        out += [t for t in ax.get_xticklabels() if lo <= t.get_position()[0] <= hi]
        lo, hi = sorted(ax.get_ylim())
        out += [t for t in ax.get_yticklabels() if lo <= t.get_position()[1] <= hi]
        legend = ax.get_legend()
        if legend is not None:
            out += list(legend.get_texts())
    return [t for t in out if t.get_visible() and t.get_text().strip()]


def assert_no_overprint(fig: Any) -> None:
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in _texts(fig)]
    for (a, box_a), (b, box_b) in itertools.combinations(boxes, 2):
        w = min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0)
        h = min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0)
        assert w <= 1 or h <= 1, f"{a!r} overprints {b!r}"
    width, height = fig.canvas.get_width_height()
    for text, box in boxes:
        assert box.x0 >= -1 and box.x1 <= width + 1, f"{text!r} runs off the figure"
        assert box.y0 >= -1 and box.y1 <= height + 1, f"{text!r} runs off the figure"


def assert_titled(fig: Any, *needles: str) -> None:
    title = fig._suptitle.get_text()
    for needle in needles:
        assert needle in title, (needle, title)
    for ax in fig.axes:
        if ax.get_visible() and ax.get_label() != "<colorbar>":
            assert ax.get_title(), "a panel without a title"
            assert ax.get_xlabel() or ax.get_ylabel(), f"{ax.get_title()}: no axis label"


def test_dominion_png(dominion: SimReport) -> None:
    fig = figure(dominion)
    assert_titled(fig, "Cellar", "First Game", "seed 4", "60 games", "smithy", "witch")
    assert_no_overprint(fig)
    titles = [ax.get_title() for ax in fig.axes if ax.get_visible()]
    assert "how the games ended" in titles
    assert "games still running (curves cut below 5%)" in titles
    curves = [ax for ax in fig.axes if "band" in ax.get_title()]
    assert len(curves) == 3 and all(ax.get_xlabel() == "turn" and ax.get_ylabel() for ax in curves)
    assert all(ax.collections for ax in curves)  # the interval bands


def test_curves_stop_below_five_percent_of_games(dominion: SimReport) -> None:
    for row in dominion.curve_bands("vp"):
        assert all(n >= 0.05 * dominion.games for _, _, _, n in row)
        assert all(lo <= m <= hi for m, lo, hi, _ in row)
    full = max(len(r) for r in dominion.curve_bands("vp", 0.0))
    assert max(len(r) for r in dominion.curve_bands("vp")) < full


def test_kingdomino_png_drops_the_constant_game_length(kingdomino: SimReport) -> None:
    assert len(kingdomino.length_distribution()) == 1
    fig = figure(kingdomino)
    assert_titled(fig, "kingdomino", "greedy vs random", "12 games", "seed 2")
    assert_no_overprint(fig)
    titles = [ax.get_title() for ax in fig.axes if ax.get_visible()]
    assert not any("game length" in t or "still running" in t for t in titles)
    assert any(t.startswith("mean points by category; crowns: ") for t in titles)
    cats = kingdomino.categories()
    assert {"wheat", "mine", "crowns"} <= set(cats)
    total = [sum(v[b] for n, v in cats.items() if n != "crowns") for b in range(2)]
    assert total == pytest.approx(kingdomino.mean_scores())


def test_html_is_small_titled_with_a_table_and_intervals(
    dominion: SimReport, tmp_path: Path
) -> None:
    path = html_report(dominion, tmp_path / "r.html")
    page = path.read_text()
    assert len(page.encode()) < 1_000_000
    title = re.search(r"<title>(.*?)</title>", page)
    assert title and "60 games" in title.group(1) and "witch" in title.group(1)
    assert "First Game" in page and "seed 4" in page
    assert page.count("<script src=") == 1 and (tmp_path / "plotly.min.js").exists()
    assert "<table>" in page and "score" in page and "shared" in page
    assert "customdata[0]" in page and "games" in page  # intervals and games in hovers
    assert "per turn per turn" not in page


def test_round_robin_heat_map_and_overall_ranking(tmp_path: Path) -> None:
    bots = ["big-money-ultimate", "smithy", "big-money"]
    reports = {
        (i, j): simulate("dominion", [bots[i], bots[j]], 16, seed=1, options=FIRST_GAME)
        for i, j in itertools.combinations(range(3), 2)
    }
    rr = RoundRobin(bots, reports)
    fig = round_robin_figure(rr)
    assert_no_overprint(fig)
    assert "48 games" in fig._suptitle.get_text() and "First Game" in fig._suptitle.get_text()
    assert "overall" in [t.get_text() for t in fig.axes[0].get_xticklabels()]
    cells = [t.get_text() for t in fig.axes[0].texts]
    assert sum(1 for c in cells if "[" in c and "–" in c) == 6  # every matchup's interval
    data = rr.to_json()
    assert data["ranking"][0] == bots[max(range(3), key=lambda i: data["overall"][i])]
    page = round_robin_html(rr, tmp_path / "rr.html").read_text()
    assert "<title>round robin of 3 bots" in page and "overall" in page
    assert len(page.encode()) < 1_000_000


def test_round_robin_cli_writes_charts_and_refuses_what_it_cannot_do(tmp_path: Path) -> None:
    png, html = tmp_path / "rr.png", tmp_path / "rr.html"
    args = ["sim", "dominion", "--round-robin", "smithy,big-money", "-n", "6", "--kingdom"]
    res = CliRunner().invoke(main, [*args, "First Game", "--chart", str(png), "--html", str(html)])
    assert res.exit_code == 0, res.output
    assert png.read_bytes()[:4] == b"\x89PNG" and "<title>" in html.read_text()
    assert "overall" in res.output
    for flag in ("--curves", "--sample-log"):
        res = CliRunner().invoke(main, [*args, "First Game", flag])
        assert res.exit_code == 2 and flag in res.output and "--round-robin" in res.output
