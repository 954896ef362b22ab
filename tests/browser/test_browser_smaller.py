"""The smaller points a new player trips on, in en/pl/cs at 1366×768 and on a
390×844 phone: the end screen without the last turn's leftover status line, "In play"
saying whose cards they are, and Kingdomino squares large enough to tap (Mighty Duel
early, and every kingdom of a 4-player game)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from tests.browser.drive import wait_step_change

pytestmark = pytest.mark.browser

SIZES = ({"width": 1366, "height": 768}, {"width": 390, "height": 844})
WORDS = {
    "en": ("Game over", "Your cards in play", "In play: "),
    "pl": ("Koniec gry", "Twoje karty w grze", "W grze: "),
    "cs": ("Konec hry", "Tvoje karty ve hře", "Ve hře: "),
}


def _new(page: Any, server: str, game: str, seats: list[dict[str, Any]], **opts: Any) -> Any:
    res = page.request.post(server + "/api/games", data={"game": game, "seats": seats, **opts})
    assert res.ok, res.text()
    return res.json()


def _smallest_square(page: Any, seat: int | None = None) -> float:
    where = f".kd-kingdom[data-seat='{seat}'] " if seat is not None else ""
    return float(
        page.eval_on_selector_all(
            f"{where}.kd-grid .kd-cell",
            # (the layout size: a square just placed grows in)
            "els => Math.min(...els.map(e => e.offsetWidth))",
        )
    )


@pytest.mark.parametrize("lang", ["en", "pl", "cs"])
def test_end_screen_in_play_owner_and_kingdomino_squares(
    browser: Any, seeded: str, lang: str
) -> None:
    over, yours, theirs = WORDS[lang]
    context = browser.new_context(viewport=SIZES[0], locale=lang, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        for size in SIZES:
            page.set_viewport_size(size)
            phone = size["width"] < 500
            # Dominion: "In play" is yours in your turn, named by its owner in another's
            dom = _new(
                page,
                seeded,
                "dominion",
                [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "big-money"}],
                options={"kingdom": "First Game"},
                seed=4,
            )
            page.goto(dom["seats"][0]["link"])
            page.wait_for_selector("#d-hand .dcard")
            assert (
                re.sub(r"\s*\(\d+\)$", "", page.text_content("#d-play h2") or "") == yours
            )  # (its count)
            spectator = context.new_page()
            bots = _new(
                page,
                seeded,
                "dominion",
                [{"kind": "bot", "bot": "big-money"}, {"kind": "bot", "bot": "smithy"}],
                options={"kingdom": "First Game"},
                seed=4,
            )
            spectator.goto(f"{seeded}/game/{bots['id']}")
            spectator.wait_for_selector("#d-play h2")
            heading = spectator.text_content("#d-play h2") or ""
            assert heading.startswith(theirs) and len(heading) > len(theirs), heading
            spectator.close()
            # the end: the ranking, and no "Turn of … · Actions: 0 · Coins: 0" left over
            page.click("#resign")
            page.click("#resign")
            page.wait_for_selector(".scores")
            assert page.text_content("#prompt-title") == over
            assert not page.query_selector("#d-status")
            # Kingdomino: squares large enough to tap
            for variants, bots_n, least_mine, least_any in (
                (["mighty-duel"], 1, 36 if phone else 40, 24),
                ([], 3, 36 if phone else 40, 24),
            ):
                kd = _new(
                    page,
                    seeded,
                    "kingdomino",
                    [{"kind": "human", "name": "Ann"}]
                    + [{"kind": "bot", "bot": "greedy"}] * bots_n,
                    options={"variants": variants},
                    seed=5,
                )
                page.goto(kd["seats"][0]["link"])
                for _ in range(8):  # the first picks and placements
                    page.wait_for_selector(".domino.clickable, .kd-cell.target")
                    assert _smallest_square(page, 0) >= least_mine, (variants, size)
                    assert _smallest_square(page) >= least_any, (variants, size)
                    step = page.get_attribute("body", "data-step")
                    if page.query_selector(".domino.clickable"):
                        page.click(".domino.clickable >> nth=0")
                    else:
                        page.click(".kd-cell.target >> nth=0")
                        page.wait_for_selector("#k-place:not([disabled])")
                        page.click("#k-place")
                    wait_step_change(page, step)
    finally:
        context.close()
