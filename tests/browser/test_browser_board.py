"""The board a player keeps in view: hot-seat secrecy, what stays on screen, the
phone's Kingdomino, the ends and the log."""

from __future__ import annotations

from typing import Any

import pytest
from tests.browser.test_browser_games import _lobby, _step

pytestmark = pytest.mark.browser


def _dom_text(page: Any) -> str:
    """Everything the page holds: its text (hidden parts too) and its markup."""
    return str(
        page.evaluate("document.documentElement.textContent + document.documentElement.outerHTML")
    )


def test_hot_seat_pass_screen_holds_nothing_of_the_next_seat(
    page: Any, server: str, browser: Any
) -> None:
    _lobby(page, server, "dominion", ["human", "human"], kingdom='"First Game"')
    links = [el.get_attribute("value") for el in page.query_selector_all("#created .invite")]
    page.click("#play-here")
    page.wait_for_selector("#d-hand, #pass-screen:not([hidden])")
    if page.query_selector("#pass-screen:not([hidden])"):
        page.keyboard.press("Enter")
    page.wait_for_selector("#d-hand")
    first = page.text_content("#title") or ""
    for _ in range(20):
        if page.query_selector("#pass-screen:not([hidden])"):
            break
        step = _step(page)
        page.click(".choice >> nth=-1")  # end phases until the turn passes
        page.wait_for_function(
            f"document.body.dataset.step !== '{step}' || "
            "!document.querySelector('#pass-screen').hidden"
        )
    page.wait_for_selector("#pass-screen:not([hidden])")
    page.wait_for_selector("#board >> text=Hidden until")
    # what the next seat sees alone, from a browser holding only that seat
    seat = 1 if first.endswith("1") else 0
    other = browser.new_context(bypass_csp=True).new_page()
    try:
        other.goto(links[seat])
        other.wait_for_selector("#d-hand .dcard")
        hand = other.eval_on_selector_all("#d-hand .dname", "els => els.map(e => e.textContent)")
        private = [
            line
            for line in other.eval_on_selector_all("#log li", "els => els.map(e => e.textContent)")
            if "draws" in line
        ]
    finally:
        other.context.close()
    assert hand and private
    # the pass screen covers everything and lets nothing through
    bg = page.eval_on_selector("#pass-screen", "el => getComputedStyle(el).backgroundColor")
    assert bg.startswith("rgb("), bg  # opaque: no alpha
    text = _dom_text(page)
    for name in hand:
        assert name not in text, f"{name} (in the next hand) is in the page at the pass screen"
    for line in private:
        assert line not in text
    assert "data-card" not in text and "draws" not in text
    assert page.query_selector(".choice") is None
    page.keyboard.press("Enter")
    page.wait_for_selector("#d-hand .dcard")
    assert sorted(
        page.eval_on_selector_all("#d-hand .dname", "els => els.map(e => e.textContent)")
    ) == sorted(hand)
