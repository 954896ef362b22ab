"""Playing the boards of the web app in a browser page as a person does: for the
browser tests and for ``scripts/screenshots.py``."""

from __future__ import annotations

from typing import Any


def wait_step_change(page: Any, step: str | None) -> None:
    """Wait until the page shows a state after ``step`` (or the final scores)."""
    page.wait_for_function(
        f"document.body.dataset.step !== '{step}' || !!document.querySelector('.scores')"
    )


def kingdomino_moves(page: Any, n: int, *, tap: bool = False) -> None:
    """Make ``n`` moves on the Kingdomino board (taps on a touch screen): pick the
    first domino offered, else place on the first target square and confirm, else
    take the last choice (a discard)."""
    press = page.tap if tap else page.click
    for _ in range(n):
        page.wait_for_selector(".choices > .choice, #k-tools")
        step = page.get_attribute("body", "data-step")
        if page.query_selector(".domino.clickable"):
            press(".domino.clickable >> nth=0")
        elif page.query_selector(".kd-cell.target"):
            press(".kd-cell.target >> nth=0")
            page.wait_for_selector("#k-place:not([disabled])")
            press("#k-place")
        else:
            press(".choice >> nth=-1")
        wait_step_change(page, step)
