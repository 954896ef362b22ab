"""The phone's dock gives the hand the room it needs (390×844, touch), in en/pl/cs:
the cards in play fold into one line named by their owner, seven hand cards all in
view without swiping, every affordable buy reachable above the dock and the bar, one
tap plays a Treasure and two buy a card.  At 1366×768 the cards in play stay open.
While buying on a phone, every pile offered is on the screen above the dock at once."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest
from tests.browser.drive import wait_step_change
from tests.browser.reach import Reached, _policy, open_at

from kingdoms.core.registry import get_game
from kingdoms.dominion import actions as A
from kingdoms.dominion.data import CARDS

pytestmark = pytest.mark.browser

OPTIONS = {"kingdom": "First Game"}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
YOURS = {"en": "Your cards in play", "pl": "Twoje karty w grze", "cs": "Tvoje karty ve hře"}


@cache
def _seven_cards() -> Reached:
    """A seeded hot-seat game at a buy phase with seven cards in hand (a Smithy played),
    a Treasure to play and something to buy."""
    spec = get_game("dominion")
    for seed in range(200):
        st = spec.create(spec.config(2, seed, dict(OPTIONS)))
        rng = random.Random(seed)
        ids = {c.id: i for i, c in enumerate(CARDS)}
        basic = ("copper", "silver", "gold", "estate", "duchy", "province", "curse")
        kingdom = {ids[v["card"]] for v in st.view(0)["supply"] if v["card"] not in basic}
        moves: list[int] = []
        while not st.is_terminal() and len(moves) < 400:
            view = st.view(st.current_player)
            legal = st.legal_actions()
            plays = [a for a in legal if A.decode(a)[0] == A.PLAY]
            if (
                not st.stack
                and view.get("phase") == "buy"
                and len(view.get("hand", [])) == 7
                and plays
                and any(A.decode(a)[0] == A.BUY for a in legal)
            ):
                return Reached(dict(OPTIONS), seed, tuple(moves), "seven cards")
            action = _policy(st, rng, kingdom)
            moves.append(action)
            st.apply(action)
    raise AssertionError("no seeded game reached seven cards in hand")


def _ready(page: Any) -> None:
    page.wait_for_selector("#d-hand .dcard, #pass-screen:not([hidden])")
    if page.query_selector("#pass-screen:not([hidden])"):
        page.keyboard.press("Enter")
        page.wait_for_selector("#pass-screen", state="hidden")
    page.wait_for_selector("#d-hand .dcard")


UNCOVERED = """el => { el.scrollIntoView({block: 'center'});
  const r = el.getBoundingClientRect();
  const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !!at && el.contains(at); }"""


@pytest.mark.parametrize("lang", ["en", "pl", "cs"])
def test_phone_dock_gives_the_hand_room_and_taps_act(
    browser: Any, unthrottled: str, lang: str
) -> None:
    reached = _seven_cards()
    context = browser.new_context(**PHONE, locale=lang, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        open_at(page, unthrottled, reached)
        _ready(page)
        # the cards in play: folded into one line, named by their owner
        assert page.get_attribute("#d-play", "open") is None
        assert YOURS[lang] in (page.text_content("#d-play summary") or "")
        # seven hand cards, every one whole on the screen: no swiping
        cards = page.eval_on_selector_all(
            "#d-hand .dcard",
            "els => els.map(e => e.getBoundingClientRect().toJSON())",
        )
        held = page.eval_on_selector_all(
            "#d-hand .dcard",
            "els => els.reduce((n, e) =>"
            " n + Number(e.querySelector('.dcount')?.textContent || 1), 0)",
        )
        assert held == 7, held
        for r in cards:
            assert r["left"] >= 0 and r["right"] <= 390 and r["top"] >= 0 and r["bottom"] <= 844, r
        # every affordable buy can be brought into view, nothing of the dock over it
        for handle in page.query_selector_all("#d-supply .dcard.clickable"):
            assert handle.evaluate(UNCOVERED), handle.get_attribute("data-card")
        # one tap plays a Treasure
        step = page.get_attribute("body", "data-step")
        treasure = page.query_selector("#d-hand .dcard.clickable.type-treasure")
        assert treasure
        treasure.tap()
        wait_step_change(page, step)
        # opened, the cards in play show (and stay open at the next move)
        page.tap("#d-play summary")
        page.wait_for_selector("#d-play[open] .dcard")
        # a buy needs a second tap (the first shows the card)
        step = page.get_attribute("body", "data-step")
        buy = "#d-supply .dcard.clickable >> nth=0"
        page.locator(buy).scroll_into_view_if_needed()
        page.locator(buy).tap()
        page.wait_for_selector("#d-supply .dcard.selected")
        assert page.get_attribute("body", "data-step") == step
        page.locator("#d-supply .dcard.selected").tap()
        wait_step_change(page, step)
        # at 1366×768 they are always shown
        desk = context.browser.new_context(
            viewport={"width": 1366, "height": 768}, locale=lang, bypass_csp=True
        )
        other = desk.new_page()
        open_at(other, unthrottled, reached)
        _ready(other)
        assert other.get_attribute("#d-play", "open") is not None
        assert other.is_visible("#d-play .dcard")
        desk.close()
    finally:
        context.close()


ALL_IN_VIEW = """() => {
  const dock = document.getElementById('d-dock').getBoundingClientRect().top;
  const piles = [...document.querySelectorAll('#d-supply .dcard')];
  return piles.filter((el) => {
    const r = el.getBoundingClientRect();
    const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !(r.top >= 0 && r.bottom <= dock && r.left >= 0 && r.right <= innerWidth
             && at && el.contains(at));
  }).map((el) => el.dataset.card); }"""


@pytest.mark.parametrize("lang", ["en", "pl", "cs"])
def test_phone_buy_shows_every_pile_above_the_dock_at_once(
    browser: Any, unthrottled: str, lang: str
) -> None:
    """Buying on a phone, no pile offered is folded away or under the hand: the supply
    (name bands, four a row) sits whole above the dock, before and after the Treasures
    are played (the decision bar's list of buys may stay folded)."""
    reached = _seven_cards()
    context = browser.new_context(**PHONE, locale=lang, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        open_at(page, unthrottled, reached)
        _ready(page)
        page.wait_for_selector("#d-supply .dcard.clickable")
        assert page.evaluate(ALL_IN_VIEW) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        step = page.get_attribute("body", "data-step")
        page.keyboard.press("a")  # play all treasures: more piles are affordable
        wait_step_change(page, step)
        page.wait_for_selector("#d-supply .dcard.clickable")
        offered = page.eval_on_selector_all("#d-supply .dcard.clickable", "els => els.length")
        assert offered >= 8, offered
        assert page.evaluate(ALL_IN_VIEW) == []
        # holding a pile still shows its whole text
        # hover() waits until the pile is visible and still (a redraw after the step
        # may replace it), then puts the pointer on it
        page.locator("#d-supply .pile-kingdom .dcard").first.hover()
        page.mouse.down()
        page.wait_for_selector("#d-zoom:not([hidden]) .dcard.big .dtext")
        page.mouse.up()
        page.wait_for_selector("#d-zoom", state="hidden")
    finally:
        context.close()
