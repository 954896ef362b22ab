"""Accessibility: axe-core (axe-playwright-python) finds no serious or critical
violation on any screen; both games are played to the end by keyboard alone."""

from __future__ import annotations

from typing import Any

import pytest
from tests.browser.drive import wait_step_change
from tests.browser.reach import open_decision, wanted

pytestmark = pytest.mark.browser

axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")


def _serious(page: Any, screen: str) -> list[str]:
    results = axe_module.Axe().run(page)
    out = []
    for v in results.response["violations"]:
        if v["impact"] in ("serious", "critical"):
            nodes = [n["target"] for n in v["nodes"][:3]]
            out.append(f"{screen}: {v['id']} ({v['impact']}) {len(v['nodes'])}× e.g. {nodes}")
    return out


def _new(page: Any, server: str, game: str, seats: list[dict[str, Any]], **opts: Any) -> Any:
    res = page.request.post(server + "/api/games", data={"game": game, "seats": seats, **opts})
    assert res.ok, res.text()
    return res.json()


def test_no_serious_axe_violation_on_any_screen(browser: Any, seeded: str) -> None:
    found: list[str] = []
    for size in ({"width": 1366, "height": 768}, {"width": 390, "height": 844}):
        context = browser.new_context(viewport=size, bypass_csp=True)
        page = context.new_page()
        page.set_default_timeout(15_000)
        try:
            page.goto(seeded + "/")
            page.wait_for_selector("body[data-ready]")
            found += _serious(page, f"lobby {size['width']}")
            dom = _new(
                page,
                seeded,
                "dominion",
                [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Kuba"}],
                options={"kingdom": "First Game"},
            )
            tokens = ",".join(s["token"] for s in dom["seats"])
            page.goto(f"{seeded}/game/{dom['id']}#t={tokens}")
            page.wait_for_selector("#d-hand .dcard, #pass-screen:not([hidden])")
            found += _serious(page, f"Dominion {size['width']}")
            for _ in range(6):
                if page.query_selector("#pass-screen:not([hidden])"):
                    break
                step = page.get_attribute("body", "data-step")
                page.click("#choices > .choice >> nth=-1")
                wait_step_change(page, step)
            page.wait_for_selector("#pass-screen:not([hidden])")
            found += _serious(page, f"pass screen {size['width']}")
            kd = _new(
                page,
                seeded,
                "kingdomino",
                [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}],
            )
            page.goto(kd["seats"][0]["link"])
            page.wait_for_selector(".domino.clickable")
            found += _serious(page, f"Kingdomino pick {size['width']}")
            for _ in range(6):
                page.wait_for_selector(".domino.clickable, .kd-cell.target")
                if page.query_selector(".kd-cell.target"):
                    break
                step = page.get_attribute("body", "data-step")
                page.click(".domino.clickable >> nth=0")
                wait_step_change(page, step)
            page.click(".kd-cell.target >> nth=0")
            found += _serious(page, f"Kingdomino place {size['width']}")
            page.click("#resign")
            page.click("#resign")
            page.wait_for_selector(".scores")
            found += _serious(page, f"Kingdomino end {size['width']}")
            page.click("#replay-link")
            page.wait_for_selector("#replay-controls:not([hidden])")
            page.wait_for_function("document.querySelector('#r-label').textContent !== ''")
            found += _serious(page, f"replay {size['width']}")
            page.goto(seeded + "/leaderboard")
            page.wait_for_selector("body[data-ready]")
            found += _serious(page, f"leaderboard {size['width']}")
        finally:
            context.close()
    assert not found, "\n".join(found)


def _tab_to(page: Any, selector: str, limit: int = 120) -> None:
    """Press Tab until an element matching ``selector`` has the focus."""
    for _ in range(limit):
        if page.evaluate(f"!!document.activeElement?.matches({selector!r})"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"{selector} is not reachable with Tab")


def _focus_ring(page: Any) -> str:
    return str(
        page.evaluate(
            "(() => { const s = getComputedStyle(document.activeElement);"
            " return s.outlineStyle + ' ' + s.outlineWidth; })()"
        )
    )


def test_dominion_and_kingdomino_by_keyboard_alone(page: Any, seeded: str) -> None:
    # Dominion: treasures with "a", cards reached with Tab and bought with Enter,
    # the phase ended with "e"
    dom = _new(
        page,
        seeded,
        "dominion",
        [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "big-money"}],
        options={"kingdom": "First Game"},
        seed=11,
    )
    page.goto(dom["seats"][0]["link"])
    page.wait_for_selector("#d-supply .dcard")
    checked_ring = False
    for _ in range(300):
        page.wait_for_selector("#choices > .choice, .scores")
        if page.query_selector(".scores"):
            break
        step = page.get_attribute("body", "data-step")
        if page.query_selector("#choices .choice[data-action] >> text=Play all treasures"):
            page.keyboard.press("a")
        else:
            coins = int((page.text_content("#d-coins") or "0").split(": ")[1])
            want = "province" if coins >= 8 else "gold" if coins >= 6 else "silver"
            sel = f"#d-supply .dcard.clickable[data-card='{want}']"
            if coins >= 3 and page.query_selector(sel):
                _tab_to(page, sel)
                if not checked_ring:
                    assert _focus_ring(page).startswith("solid"), _focus_ring(page)
                    checked_ring = True
                page.keyboard.press("Enter")
            else:
                page.keyboard.press("e")
        wait_step_change(page, step)
    page.wait_for_selector(".scores")
    assert checked_ring
    # Kingdomino: dominoes and squares reached with Tab, R turns, Enter places
    kd = _new(
        page,
        seeded,
        "kingdomino",
        [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}],
        seed=4,
    )
    page.goto(kd["seats"][0]["link"])
    page.wait_for_selector("#k-kingdoms")
    for _ in range(200):
        page.wait_for_selector(".domino.clickable, .kd-cell.target, #choices > .choice, .scores")
        if page.query_selector(".scores"):
            break
        step = page.get_attribute("body", "data-step")
        if page.query_selector(".domino.clickable"):
            _tab_to(page, ".domino.clickable")
            assert page.evaluate("document.activeElement.getAttribute('aria-label')")
            page.keyboard.press("Enter")
        elif page.query_selector(".kd-cell.target"):
            _tab_to(page, ".kd-cell.target")
            assert "place here" in page.evaluate(
                "document.activeElement.getAttribute('aria-label')"
            )
            page.keyboard.press("Enter")  # choose the square (the focus stays on it)
            page.wait_for_selector(".kd-cell.preview")
            page.keyboard.press("r")
            page.keyboard.press("Enter")  # place
        else:
            page.keyboard.press("1")  # a discard: the first listed action
        wait_step_change(page, step)
    page.wait_for_selector(".scores")


ORDERS = sorted((k, z) for k, z in wanted() if k == "order")


@pytest.mark.parametrize(("kind", "zone"), [*ORDERS, ("choose_cards", "hand")])
def test_order_decision_by_keyboard_with_names(
    page: Any, unthrottled: str, kind: str, zone: str
) -> None:
    # an order question (Sentry's look, Apothecary's or Golem's set-aside cards, the
    # cards leaving play at Clean-up), and a pick of several cards from the hand: no
    # serious axe violation, every card to pick named by what choosing it does, and
    # answered by keyboard alone, the focus staying on the cards between picks
    open_decision(page, unthrottled, kind, zone)
    found = _serious(page, f"{kind} from {zone}")
    assert not found, "\n".join(found)
    answered = 0
    same = f"#d-decision[data-kind='{kind}'][data-zone='{zone}']"
    while page.query_selector(same) and page.query_selector("#d-dock .picking"):
        step = page.get_attribute("body", "data-step")
        choices = [t.strip() for t in page.locator("#choices > .choice").all_inner_texts()]
        if answered:
            # the next card to pick is where the keyboard already is
            assert page.evaluate(
                "document.activeElement.matches('#d-dock .picking .dcard.clickable')"
            ), page.evaluate("document.activeElement.outerHTML.slice(0, 120)")
        _tab_to(page, "#d-dock .picking .dcard.clickable")
        assert _focus_ring(page).startswith("solid"), _focus_ring(page)
        name = page.evaluate("document.activeElement.getAttribute('aria-label')")
        said = name.split(": ")[0]
        assert any(c.endswith(said) for c in choices), f"{name!r} names none of {choices}"
        page.keyboard.press(" " if answered % 2 else "Enter")
        wait_step_change(page, step)
        page.wait_for_selector("#choices > .choice, #pass-screen:not([hidden])")
        answered += 1
        if page.query_selector("#pass-screen:not([hidden])"):
            break
    assert answered >= (2 if kind == "choose_cards" else 1)
