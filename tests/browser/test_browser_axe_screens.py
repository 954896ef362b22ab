"""axe-core finds no serious or critical violation on any screen — the lobby, both
games, their end screens, the replay, the review, the rules, the leaderboard and a
spectator's page — in en/pl/cs, at 1366×768 and on a 390×844 phone."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")

SIZES = ({"width": 1366, "height": 768}, {"width": 390, "height": 844})


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


def _resign(page: Any) -> None:
    page.click("#resign")
    page.click("#resign")
    page.wait_for_selector(".scores")


def _replay(page: Any) -> None:
    page.click("#replay-link")
    page.wait_for_selector("#replay-controls:not([hidden])")
    page.wait_for_function("document.querySelector('#r-label').textContent !== ''")


@pytest.mark.parametrize("lang", ["en", "pl", "cs"])
def test_every_screen_in_every_language_and_size(browser: Any, seeded: str, lang: str) -> None:
    found: list[str] = []
    context = browser.new_context(viewport=SIZES[0], locale=lang, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        # bot games played to their end: emptied piles, crowns in every kingdom
        ended = [
            _new(page, seeded, "kingdomino", [{"kind": "bot", "bot": "greedy"}] * 4, seed=3),
            _new(
                page,
                seeded,
                "dominion",
                [{"kind": "bot", "bot": b} for b in ("witch", "big-money", "smithy")],
                options={"kingdom": "First Game"},
                seed=3,
            ),
        ]
        for size in SIZES:
            w = size["width"]
            page.set_viewport_size(size)
            page.goto(seeded + "/")
            page.wait_for_selector("body[data-ready]")
            found += _serious(page, f"lobby {w}")
            dom = _new(
                page,
                seeded,
                "dominion",
                [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "witch"}],
                options={
                    "kingdom": "Witch,Moat,Familiar,Chapel,Market,Village,Smithy,"
                    "Laboratory,University,Throne Room"
                },
                seed=3,
            )
            page.goto(dom["seats"][0]["link"])
            page.wait_for_selector("#d-hand .dcard")
            found += _serious(page, f"Dominion {w}")
            # a spectator of the running game
            spectator = context.new_page()
            spectator.goto(f"{seeded}/game/{dom['id']}")
            spectator.wait_for_selector("#d-supply .dcard")
            found += _serious(spectator, f"Dominion spectator {w}")
            spectator.close()
            _resign(page)
            found += _serious(page, f"Dominion end {w}")
            _replay(page)
            found += _serious(page, f"Dominion replay {w}")
            kd = _new(
                page,
                seeded,
                "kingdomino",
                [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}],
                seed=2,
            )
            page.goto(kd["seats"][0]["link"])
            page.wait_for_selector(".domino.clickable")
            found += _serious(page, f"Kingdomino {w}")
            _resign(page)
            found += _serious(page, f"Kingdomino end {w}")
            _replay(page)
            found += _serious(page, f"Kingdomino replay {w}")
            for game in ended:
                page.goto(f"{seeded}/game/{game['id']}")
                page.wait_for_selector(".scores, #replay-controls:not([hidden])", timeout=60_000)
                if page.is_hidden("#replay-controls"):
                    found += _serious(page, f"{game['game']} bots' end {w}")
                    page.click("#replay-link")
                page.wait_for_selector("#replay-controls:not([hidden])")
                page.wait_for_function("document.querySelector('#r-label').textContent !== ''")
                page.wait_for_selector(".score-line")
                found += _serious(page, f"{game['game']} bots' replay {w}")
            for path in ("/rules/dominion", "/rules/kingdomino", "/leaderboard"):
                page.goto(seeded + path)
                page.wait_for_selector("body[data-ready]")
                found += _serious(page, f"{path} {w}")
    finally:
        context.close()
    assert not found, "\n".join(found)
