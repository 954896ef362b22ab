"""The review streams: a review asked for by one seat shows itself, growing, on the
other seat's page without a click (each seat seeing what it may), with its progress
and an estimate of the time left while it runs — en/pl/cs, the asking seat at
1366×768 and the other on a 390×844 phone."""

from __future__ import annotations

from typing import Any

import pytest
from tests.browser.test_browser_review import ANN, BOB, review_server  # noqa: F401

pytestmark = pytest.mark.browser

MISTAKES = {"en": "Biggest mistakes of", "pl": "Największe błędy", "cs": "Největší chyby"}


@pytest.mark.parametrize("lang", ["en", "pl", "cs"])
def test_a_review_one_seat_asks_for_shows_on_the_others_page(
    browser: Any,
    review_server: str,  # noqa: F811
    lang: str,
) -> None:
    bob = browser.new_context(
        viewport={"width": 1366, "height": 768}, locale=lang, bypass_csp=True
    ).new_page()
    ann = browser.new_context(
        viewport={"width": 390, "height": 844}, locale=lang, bypass_csp=True
    ).new_page()
    try:
        ann.goto(f"{review_server}/game/mk1#t={ANN}")
        ann.wait_for_selector("#review-button")
        assert not ann.query_selector("#review-panel")  # nobody asked yet
        bob.goto(f"{review_server}/game/mk1#t={BOB}")
        bob.click("#review-button")
        # while it runs: the progress, and once it has moved here, the time left
        bob.wait_for_selector("#review-eta, #review-panel[data-status=done]", timeout=180_000)
        if bob.query_selector("#review-eta"):
            assert bob.text_content("#review-eta")
        # Ann's page, open all along, shows it without a click: her own part
        ann.wait_for_selector("#review-panel[data-status]", state="attached", timeout=30_000)
        ann.wait_for_selector("#review-panel[data-status=done]", timeout=180_000)
        panel = ann.inner_text("#review-panel")
        assert MISTAKES[lang] in panel and "Ann" in panel, panel
        assert "Bob" not in panel.split(MISTAKES[lang])[1].split("\n")[0], panel
        assert ann.query_selector("#review-chart .review-point")
    finally:
        bob.context.close()
        ann.context.close()
