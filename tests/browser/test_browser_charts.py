"""The simulator's HTML report in Chromium at 800 px: every chart drawn, each chart's
title inside its own box (no title over another chart), no horizontal scrolling."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

from kingdoms.sim.chart import html_report
from kingdoms.sim.runner import simulate


def test_html_report_at_800_px(page: Any, tmp_path: Path) -> None:
    report = simulate(
        "dominion", ["big-money-ultimate", "smithy"], 20, seed=1,
        options={"kingdom": "First Game"}, curves=True,
    )  # fmt: skip
    path = html_report(report, tmp_path / "report.html")
    page.set_viewport_size({"width": 800, "height": 5000})  # all in view: page coordinates
    page.goto(path.as_uri())
    page.wait_for_selector(".chart .main-svg")
    charts = page.query_selector_all(".chart")
    assert len(charts) >= 5
    boxes = []
    for chart in charts:
        box = chart.bounding_box()
        assert chart.query_selector(".main-svg") is not None
        title = chart.query_selector(".gtitle")
        assert title is not None and title.text_content()
        t = title.bounding_box()
        assert box["x"] <= t["x"] and t["x"] + t["width"] <= box["x"] + box["width"] + 1
        assert box["y"] <= t["y"] and t["y"] + t["height"] <= box["y"] + box["height"]
        boxes.append(box)
    for a, b in itertools.pairwise(boxes):
        assert a["y"] + a["height"] <= b["y"] + 1  # stacked, not overlapping
    assert page.evaluate("document.documentElement.scrollWidth") <= 800
    assert "First Game" in page.title() or "smithy" in page.title()
