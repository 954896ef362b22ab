"""The real games in the browser: Dominion and Kingdomino played to the end by
clicking, an online game between two browsers, hot-seat privacy, Polish names."""

from __future__ import annotations

import re
from typing import Any

import pytest
from tests.browser.drive import wait_step_change

pytestmark = pytest.mark.browser


def _lobby(page: Any, server: str, game: str, kinds: list[str], **options: str) -> None:
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready]")
    page.select_option("#game", game)
    page.select_option("#players", str(len(kinds)))
    for row, kind in zip(page.query_selector_all("#seats .seat"), kinds, strict=True):
        row.query_selector(".kind").select_option(kind)
        if kind == "bot" and game == "dominion":
            row.query_selector(".bot").select_option("big-money")
        if kind == "bot" and game == "kingdomino":
            row.query_selector(".bot").select_option("greedy")
    for key, value in options.items():
        page.select_option(f"#game-options [data-option='{key}']", value)
    page.click("#create")
    page.wait_for_selector("#created:not([hidden])")


def _step(page: Any) -> str:
    return str(page.get_attribute("body", "data-step"))


def _dominion_click(page: Any) -> None:
    """One big-money decision by clicking the board (or a panel button)."""
    for card in ("province", "gold", "silver"):
        el = page.query_selector(f"#d-supply .dcard.clickable[data-card='{card}']")
        if el:
            el.click()
            return
    button = page.query_selector(".choice >> text=play all treasures")
    if button:
        page.keyboard.press("a")  # the shortcut
        return
    hand = page.query_selector("#d-hand .dcard.clickable")
    if hand:
        hand.click()
        return
    page.click(".choice >> nth=-1")  # end the phase / done / the last option


def test_dominion_against_a_bot_to_the_end_by_clicking(page: Any, server: str) -> None:
    _lobby(page, server, "dominion", ["human", "bot"], kingdom='"First Game"')
    page.click("#play-here")
    page.wait_for_selector("body[data-ready]")
    page.wait_for_selector("#d-supply")
    assert page.query_selector("#d-supply .dcard[data-card='province']")
    text = page.text_content("#d-supply .dcard[data-card='smithy'] .dtext")
    assert text is not None and "+3 Cards" in text  # the card's text on its face
    for _ in range(400):
        page.wait_for_selector(".choice, .scores")
        if page.query_selector(".scores"):
            break
        step = _step(page)
        _dominion_click(page)
        wait_step_change(page, step)
    page.wait_for_selector(".scores")
    assert page.text_content("#prompt-title") == "Game over"
    assert page.query_selector("#d-outcome")


def _kingdomino_click(page: Any) -> None:
    pick = page.query_selector(".domino.clickable")
    if pick:
        pick.click()
        return
    target = page.query_selector(".kd-cell.target")
    if target:
        target.click()
        page.wait_for_selector("#k-place:not([disabled])")
        page.click(".kd-cell.preview >> nth=0")  # clicking the chosen square again places
        return
    page.click(".choice >> nth=-1")  # discard


def test_kingdomino_against_a_bot_to_the_end_by_clicking(page: Any, server: str) -> None:
    _lobby(page, server, "kingdomino", ["human", "bot"])
    page.click("#play-here")
    page.wait_for_selector("body[data-ready]")
    page.wait_for_selector("#k-current")
    # the board's style sheet, as the game's registration declares it (Game.web)
    assert page.locator('link[href="/static/css/kingdomino.css"]').count() == 1
    for _ in range(200):
        page.wait_for_selector(".choices > .choice, #k-tools, .scores")
        if page.query_selector(".scores"):
            break
        step = _step(page)
        if page.query_selector(".kd-cell.target"):
            page.click(".kd-cell.target >> nth=0")
            page.keyboard.press("r")  # rotate through the placements there
            page.wait_for_selector(".kd-cell.preview")
            page.keyboard.press("Enter")
        else:
            _kingdomino_click(page)
        wait_step_change(page, step)
    page.wait_for_selector(".scores")
    assert page.query_selector("#k-breakdown")
    assert len(page.query_selector_all(".kd-kingdom")) == 2


def test_two_browsers_play_kingdomino_online(browser: Any, server: str) -> None:
    host = browser.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=True)
    guest = browser.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=True)
    try:
        page = host.new_page()
        _lobby(page, server, "kingdomino", ["human", "human"])
        links = [el.get_attribute("value") for el in page.query_selector_all("#created .invite")]
        assert len(links) == 2
        pages = [page, guest.new_page()]
        pages[0].goto(links[0])
        pages[1].goto(links[1])
        for pg in pages:
            pg.wait_for_selector("body[data-ready]")
        for _ in range(300):
            if all(pg.query_selector(".scores") for pg in pages):
                break
            acted = False
            for pg in pages:
                if pg.query_selector(".choice") and not pg.query_selector(".scores"):
                    step = _step(pg)
                    _kingdomino_click(pg)
                    wait_step_change(pg, step)
                    acted = True
            if not acted:
                pages[0].wait_for_timeout(50)
        for pg in pages:
            pg.wait_for_selector(".scores")
        # each browser saw the same final scores
        scores = [pg.text_content(".scores") for pg in pages]
        assert scores[0] == scores[1]
    finally:
        host.close()
        guest.close()


def test_hot_seat_dominion_hides_the_previous_hand(page: Any, server: str) -> None:
    _lobby(page, server, "dominion", ["human", "human"], kingdom='"First Game"')
    page.click("#play-here")
    page.wait_for_selector("#d-hand, #pass-screen:not([hidden])")
    if page.query_selector("#pass-screen:not([hidden])"):  # the second seat begins
        page.keyboard.press("Enter")
    page.wait_for_selector("#d-hand")
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
    assert page.query_selector("#d-hand") is None  # the previous hand is gone
    assert "Hidden until" in page.text_content("#board")
    page.keyboard.press("Enter")
    page.wait_for_selector("#d-hand")  # the next player's own hand, once they are ready


def test_polish_card_names(page: Any, server: str) -> None:
    _lobby(
        page,
        server,
        "dominion",
        ["human", "bot"],
        kingdom='"First Game"',
        base_edition="2",
        alchemy_errata="true",
    )
    page.click("#play-here")
    page.wait_for_selector("#d-supply .dcard[data-card='province']")
    page.select_option("#lang-slot select", "pl")
    page.wait_for_function(
        "document.querySelector(\"#d-supply .dcard[data-card='province'] .dname\")"
        "?.textContent.replaceAll('\\u00ad', '') === 'Prowincja'"
    )
    # (names drawn on cards carry soft hyphens where they may break)
    assert "Kuźnia" in (page.text_content("#d-supply") or "").replace("\u00ad", "")
    # the rules-version options chosen in the lobby are shown with the supply
    assert page.text_content("#d-rules") == (
        "karty podstawowe: 2. edycja; errata Alchemii: włączona"
    )
    assert re.search(r"Zasoby", page.text_content("#board"))


def test_dominion_card_decision_renders_from_its_kind_and_zone(page: Any, server: str) -> None:
    """A card's question (Cellar) shows its prompt from the view and makes the cards of
    its zone (the hand) clickable; clicking one answers it — no per-card client code."""
    _lobby(page, server, "dominion", ["human", "bot"], kingdom='"First Game"')
    page.click("#play-here")
    page.wait_for_selector("body[data-ready]")
    page.wait_for_selector("#d-supply")
    for _ in range(200):
        page.wait_for_selector(".choices > .choice, #k-tools, .scores")
        decision = page.query_selector("#d-decision")
        if decision and "Cellar" in (decision.text_content() or ""):
            break
        step = _step(page)
        cellar = page.query_selector("#d-hand .dcard.clickable[data-card='cellar']")
        buy = page.query_selector("#d-supply .dcard.clickable[data-card='cellar']")
        if cellar:
            cellar.click()
        elif buy:
            buy.click()
        elif page.query_selector(".choice >> text=play all treasures"):
            page.keyboard.press("a")
        else:
            page.click(".choice >> nth=-1")
        wait_step_change(page, step)
    else:
        pytest.fail("never reached a Cellar decision")
    text = page.text_content("#d-decision") or ""
    assert "Cellar: discard cards, then draw as many (done to stop)." in text
    # the whole decision's bounds, from the view's decision.total
    assert page.text_content("#d-bounds") == "chosen 0, any number"
    hand = page.query_selector_all("#d-hand .dcard.clickable")
    assert hand  # the hand is the decision's zone: its cards are the choices

    def discard_size() -> int:
        found = re.search(r"Discard pile: (\d+)", page.text_content("#d-hand h2") or "")
        assert found
        return int(found.group(1))

    before = discard_size()
    step = _step(page)
    hand[0].click()
    wait_step_change(page, step)
    assert discard_size() == before + 1  # the clicked card was discarded
    if page.query_selector("#d-bounds"):  # still deciding (the hand was not empty)
        assert page.text_content("#d-bounds") == "chosen 1, any number"
