"""Every card a player may buy is in view, or one scroll away, and never folded away
(no "n more choices" to open), at 1366×768 and on a 390×844 phone, in en/pl/cs.

At 1366×768 the decision panel lists a button for each buy (many buys: one group
headed "Buy", each button its card's name) and the supply frames each pile offered;
every answer is on the screen at once.  On a phone the supply is the control: every
pile offered sits on the screen above the hand at once, the decision bar says how many
there are and brings the supply back into view, and nothing that makes a move is in a
folded list.  Two kingdoms: the First Game, and one of the longest names in Polish and
Czech (Alchemy: the Potion makes eighteen piles, every one of them affordable)."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from tests.browser.drive import wait_step_change
from tests.browser.reach import Reached, first_buy_phase, open_at
from tests.browser.test_browser_dock import ALL_IN_VIEW, PHONE, UNCOVERED

pytestmark = pytest.mark.browser

DESK = {"viewport": {"width": 1366, "height": 768}}
LONG_NAMES = {
    "kingdom": "Philosopher's Stone, Scrying Pool, Familiar, Council Room, Moat, "
    "Throne Room, Laboratory, Witch, Artisan, Transmute",
    "base_edition": 2,
}
KINGDOMS = {"first-game": ({"kingdom": "First Game"}, 12), "long-names": (LONG_NAMES, 18)}

FOLDED = """() => [...document.querySelectorAll('details:not([open]) [data-action]')]
  .map((el) => el.textContent.trim())"""


@cache
def _buying(kingdom: str) -> Reached:
    options, buys = KINGDOMS[kingdom]
    return first_buy_phase(options, buys)


def _open(browser: Any, server: str, size: str, lang: str, kingdom: str) -> tuple[Any, Any]:
    context = browser.new_context(
        **(PHONE if size == "phone" else DESK), locale=lang, bypass_csp=True
    )
    page = context.new_page()
    page.set_default_timeout(20_000)
    open_at(page, server, _buying(kingdom))
    page.wait_for_selector("#d-supply .dcard, #pass-screen:not([hidden])")
    if page.query_selector("#pass-screen:not([hidden])"):
        page.keyboard.press("Enter")
        page.wait_for_selector("#pass-screen", state="hidden")
    page.wait_for_selector("#d-supply .dcard.clickable")
    page.wait_for_selector("#choices .choice")
    return context, page


def _buys(page: Any) -> dict[str, str]:
    """The piles offered: card id -> its action."""
    pairs = page.eval_on_selector_all(
        "#d-supply .dcard.clickable", "els => els.map((e) => [e.dataset.card, e.dataset.action])"
    )
    return dict(pairs)


@pytest.mark.parametrize("kingdom", sorted(KINGDOMS))
@pytest.mark.parametrize("lang", ["en", "pl", "cs"])
def test_desktop_every_buy_is_a_button_and_a_pile_in_reach(
    browser: Any, unthrottled: str, lang: str, kingdom: str
) -> None:
    context, page = _open(browser, unthrottled, "desk", lang, kingdom)
    try:
        buys = _buys(page)
        assert len(buys) >= KINGDOMS[kingdom][1], buys
        assert page.evaluate(FOLDED) == []
        # every answer (each buy, End buys, Undo) on the screen at once, unscrolled
        page.evaluate("window.scrollTo(0, 0)")
        off = page.eval_on_selector_all(
            "#prompt button:not([hidden])",
            "els => els.filter((el) => { const r = el.getBoundingClientRect();"
            " return !(r.top >= 0 && r.bottom <= innerHeight && r.width > 0); })"
            ".map((el) => el.textContent)",
        )
        assert off == [], off
        for card, action in buys.items():
            button = page.query_selector(f"#choices .choice[data-action='{action}']")
            assert button, f"no button buys {card}"
            assert button.evaluate("el => el.checkVisibility()"), card
            # a grouped buy shows its card's name, and is named by its whole action
            name = page.eval_on_selector(
                f"#d-supply .dcard[data-card='{card}'] .dname",
                "el => el.textContent.replaceAll('\\u00ad', '')",
            )
            assert name in (button.text_content() or ""), (card, name)
            assert name in (button.get_attribute("aria-label") or ""), card
            assert button.evaluate(UNCOVERED), f"the button buying {card} is covered"
            pile = page.query_selector(f"#d-supply .dcard[data-card='{card}']")
            assert pile.evaluate(UNCOVERED), f"the pile {card} is covered"
        assert page.evaluate("document.documentElement.scrollWidth") <= 1366
    finally:
        context.close()


@pytest.mark.parametrize("kingdom", sorted(KINGDOMS))
@pytest.mark.parametrize("lang", ["en", "pl", "cs"])
def test_phone_every_buy_is_on_screen_at_once_and_nothing_is_folded(
    browser: Any, unthrottled: str, lang: str, kingdom: str
) -> None:
    context, page = _open(browser, unthrottled, "phone", lang, kingdom)
    try:
        buys = _buys(page)
        assert len(buys) >= KINGDOMS[kingdom][1], buys
        # nothing that makes a move waits in a folded list
        assert page.evaluate(FOLDED) == []
        # every pile offered: whole on the screen, above the hand, uncovered, at once
        page.wait_for_function(f"({ALL_IN_VIEW})().length === 0")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        # the bar says how many there are; scrolled away, its button brings them back
        hint = page.locator("#to-supply")
        assert hint.is_visible()
        assert str(len(buys)) in (hint.text_content() or "")
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        page.wait_for_function(f"({ALL_IN_VIEW})().length > 0")
        hint.tap()
        page.wait_for_function(f"({ALL_IN_VIEW})().length === 0")
        # a pile bought from there: a tap shows it, a second tap buys it
        step = page.get_attribute("body", "data-step")
        last = page.locator("#d-supply .dcard.clickable >> nth=-1")
        last.tap()
        page.wait_for_selector("#d-supply .dcard.selected")
        assert page.get_attribute("body", "data-step") == step
        page.locator("#d-supply .dcard.selected").tap()
        wait_step_change(page, step)
    finally:
        context.close()
