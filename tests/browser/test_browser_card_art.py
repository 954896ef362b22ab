"""Card pictures: every Dominion card has its own SVG (well-formed, a viewBox, small),
and the game page shows each hand card's and each supply pile's picture, loaded under
the server's own Content-Security-Policy, at 1366×768 and on a 390×844 phone, in
en/pl/cs."""

from __future__ import annotations

import contextlib
import xml.etree.ElementTree as ET
from importlib import resources
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from kingdoms.dominion.data import CARDS

ART = resources.files("kingdoms.web") / "static" / "img" / "cards"
MAX_BYTES = 1500

SIZES = {
    "laptop": {"viewport": {"width": 1366, "height": 768}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}


@pytest.mark.parametrize("card", [c.id for c in CARDS])
def test_every_card_has_a_small_well_formed_svg(card: str) -> None:
    path = ART / f"{card}.svg"
    assert path.is_file(), f"no picture for {card}"
    data = path.read_bytes()
    assert len(data) < MAX_BYTES, f"{card}.svg is {len(data)} bytes"
    root = ET.fromstring(data)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    box = [float(x) for x in root.attrib["viewBox"].split()]
    assert len(box) == 4 and box[2] > 0 and box[3] > 0
    # drawn, not empty; and nothing that would load from elsewhere or run
    assert len(root) > 0
    text = data.decode()
    assert "<script" not in text and "href" not in text


def test_no_picture_without_a_card() -> None:
    ids = {c.id for c in CARDS}
    extra = [p.name for p in ART.iterdir() if p.name.endswith(".svg") and p.name[:-4] not in ids]
    assert not extra, extra


PICTURES = """els => els.map(el => {
  const img = el.querySelector('img.dart');
  return {card: el.dataset.card, ok: !!img && img.complete && img.naturalWidth > 0
    && img.getAttribute('alt') === '' && img.getAttribute('aria-hidden') === 'true'};
})"""


def _pictures(page: Any, zone: str) -> list[dict[str, Any]]:
    """Each card's picture state in `zone`, once every picture has loaded (or 10 s)."""
    # (a timeout is no error here: the assertion that follows names the cards left out)
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(
            f"() => [...document.querySelectorAll('{zone} .dcard img.dart')]"
            ".every(i => i.complete)",
            timeout=10_000,
        )
    seen: list[dict[str, Any]] = page.eval_on_selector_all(f"{zone} .dcard", PICTURES)
    return seen


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "pl", "cs"])
@pytest.mark.parametrize("size", list(SIZES))
def test_hand_and_supply_cards_show_their_pictures(
    browser: Any, server: str, size: str, lang: str
) -> None:
    # the server's CSP left on: the pictures must load as same-origin images
    context = browser.new_context(**SIZES[size], locale=lang)
    page = context.new_page()
    page.set_default_timeout(20_000)
    blocked: list[str] = []
    page.on("console", lambda m: blocked.append(m.text) if "Content Security" in m.text else None)
    try:
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "big-money"}]
        res = page.request.post(
            server + "/api/games",
            data={"game": "dominion", "seats": seats, "options": {"kingdom": "First Game"}},
        )
        assert res.ok, res.text()
        page.goto(res.json()["seats"][0]["link"])
        page.wait_for_selector("#d-hand .dcard")
        page.wait_for_selector("#d-supply .dcard")
        # (the hand groups equal cards: one face for a first hand of five Coppers)
        for zone, least in (("#d-hand", 1), ("#d-supply", 17)):
            seen = _pictures(page, zone)
            assert len(seen) >= least, (zone, seen)
            missing = [s["card"] for s in seen if not s["ok"]]
            assert not missing, f"{zone}: no picture shown for {missing}"
        # the picture is out of the flow: it never sets a card's size
        assert page.eval_on_selector_all(
            "#d-supply img.dart",
            "els => els.every(e => getComputedStyle(e).position === 'absolute')",
        )
        assert not blocked, blocked
    finally:
        context.close()
