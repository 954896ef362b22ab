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
        # the picture never sets a card's size (nor moves anything as it loads): out of
        # the flow on a whole card, a fixed square in a name band
        assert page.eval_on_selector_all(
            "#d-supply img.dart",
            "els => els.every(e => { const s = getComputedStyle(e);"
            " return s.position === 'absolute' || (e.parentElement.matches('.dhead')"
            " && s.width === s.height && e.style.width === '' && parseFloat(s.width) > 0"
            " && parseFloat(s.width) <= e.parentElement.clientHeight); })",
        )
        assert not blocked, blocked
    finally:
        context.close()


# Each card whose name (its lines of text) or cost runs over its picture: the boxes
# measured, the picture's shrunk by half a pixel (antialiasing); pictures loaded.
OVERLAPS = """els => els.flatMap(el => {
  const img = el.querySelector('img.dart');
  if (!img || !img.checkVisibility()) return [];
  const p = img.getBoundingClientRect();
  const pic = {l: p.left + .5, r: p.right - .5, t: p.top + .5, b: p.bottom - .5};
  const hit = (r) => r.width > 0 && r.height > 0 && r.left < pic.r && r.right > pic.l
    && r.top < pic.b && r.bottom > pic.t;
  const range = document.createRange();
  range.selectNodeContents(el.querySelector('.dname'));
  const name = [...range.getClientRects()].some(hit);
  const cost = [...el.querySelectorAll('.coin, .potion')]
    .some((c) => hit(c.getBoundingClientRect()));
  return name || cost ? [`${el.closest('[id]').id} ${el.dataset.card}: `
    + `${el.querySelector('.dname').textContent.replaceAll('\\u00ad', '')}`
    + `${name ? ' (name)' : ''}${cost ? ' (cost)' : ''}`] : [];
})"""


SMALL = """els => els.filter((el) => el.checkVisibility()
  && parseFloat(getComputedStyle(el).fontSize) < 11.95)
  .map((el) => `${el.textContent.replaceAll('\\u00ad', '')} ${getComputedStyle(el).fontSize}`)"""


def _small_names(page: Any) -> list[str]:
    """The names in the supply and the dock drawn below 12 px."""
    small: list[str] = page.eval_on_selector_all("#d-supply .dname, #d-dock .dname", SMALL)
    return small


def _overlaps(page: Any, zone: str = "#board") -> list[str]:
    page.wait_for_function(
        f"() => [...document.querySelectorAll('{zone} .dcard img.dart')].every(i => i.complete)"
    )
    found: list[str] = page.eval_on_selector_all(f"{zone} .dcard", OVERLAPS)
    return found


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "pl", "cs"])
@pytest.mark.parametrize("size", list(SIZES))
def test_no_card_name_runs_over_its_picture(
    browser: Any, unthrottled: str, size: str, lang: str
) -> None:
    """The longest names (a kingdom of them, with Alchemy's Potion: eighteen piles, the
    basic piles' Polish and Czech names) beside their pictures in the supply, the hand
    and the cards in play: on a phone's supply while buying (name bands, four a row),
    and as a spectator sees it (whole cards), and at 1366×768.  No name is drawn
    below 12 px either (a long one breaks into lines instead)."""
    from tests.browser.reach import Reached, open_at
    from tests.browser.test_browser_buys import _buying

    from kingdoms.dominion import actions as A

    reached = _buying("long-names")
    # the same turn with its Treasures still in the hand (Philosopher's Stone, Potion)
    moves = list(reached.moves)
    while moves and A.decode(moves[-1])[0] == A.PLAY:
        moves.pop()
    assert len(moves) < len(reached.moves)
    before = Reached(reached.options, reached.seed, tuple(moves), "treasures in hand")
    context = browser.new_context(**SIZES[size], locale=lang, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        for at in (before, reached):
            open_at(page, unthrottled, at)
            page.wait_for_selector("#d-supply .dcard, #pass-screen:not([hidden])")
            if page.query_selector("#pass-screen:not([hidden])"):
                page.keyboard.press("Enter")
            page.wait_for_selector("#d-supply .dcard.clickable")
            page.wait_for_selector("#d-dock .dcard", state="attached")
            if page.get_attribute("#d-play", "open") is None:
                page.click("#d-play summary")  # a phone's cards in play, opened
                page.wait_for_selector("#d-play[open]")
            if size == "phone":
                assert page.query_selector("#d-supply.buying")
            assert page.eval_on_selector_all("#d-supply .dcard", "els => els.length") == 18
            assert _overlaps(page) == [], (at.purpose, _overlaps(page))
            assert _small_names(page) == [], at.purpose
        assert page.query_selector("#d-hand .dcard[data-card='philosophers_stone']") or (
            page.query_selector("#d-play .dcard[data-card='philosophers_stone']")
        )
        # a spectator's page (no seat's keys): every kingdom pile a whole card
        url = page.url.split("#")[0]
        context.close()
        context = browser.new_context(**SIZES[size], locale=lang, bypass_csp=True)
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("#d-supply .pile-kingdom .dcard .dtext")
        assert not page.query_selector("#d-supply.buying")
        assert _overlaps(page) == []
        assert _small_names(page) == []
    finally:
        context.close()
