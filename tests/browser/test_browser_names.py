"""One name per seat: the players panel, the log, the end screen, the replay, the
spectator's page and the exported record call a seat the same, in en/pl/cs, at
1366×768 and on a 390×844 phone; identical bots are told apart by a number."""

from __future__ import annotations

import contextlib
import re
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from kingdoms.server.botnames import BOT_LABELS, label_key

pytestmark = pytest.mark.browser

SIZES = ({"width": 1366, "height": 768}, {"width": 390, "height": 844})
# what a default-named seat must never read as, in any language
DEFAULT = re.compile(r"\b(?:Player|Gracz|Hráč|player|gracz|hráč) \d")
NAMES = {
    "en": ("Greedy", "Witch Big Money"),
    "pl": ("Zachłanny", "Bogactwo z Wiedźmą"),
    "cs": ("Hladový", "Velké peníze s Čarodějnicí"),
}


def _new(page: Any, server: str, game: str, seats: list[dict[str, Any]], **opts: Any) -> Any:
    res = page.request.post(server + "/api/games", data={"game": game, "seats": seats, **opts})
    assert res.ok, res.text()
    return res.json()


def _texts(page: Any, selector: str) -> list[str]:
    return [str(e.text_content() or "") for e in page.query_selector_all(selector)]


@pytest.mark.parametrize("lang", ["en", "pl", "cs"])
def test_one_name_per_seat_everywhere(browser: Any, seeded: str, lang: str) -> None:
    greedy, witch = NAMES[lang]
    context = browser.new_context(viewport=SIZES[0], locale=lang, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(60_000)
    try:
        kd = _new(
            page,
            seeded,
            "kingdomino",
            [{"kind": "bot", "bot": "greedy"}] * 3 + [{"kind": "bot", "bot": "random"}],
            seed=3,
        )
        dom = _new(
            page,
            seeded,
            "dominion",
            [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "witch"}] * 2,
            options={"kingdom": "First Game"},
            seed=5,
        )
        want_kd = [f"{greedy} 1", f"{greedy} 2", f"{greedy} 3"]
        for size in SIZES:
            page.set_viewport_size(size)
            # a spectator of the bots' Kingdomino game: finished, it opens as a replay
            page.goto(f"{seeded}/game/{kd['id']}")
            # live to its end, or a replay
            page.wait_for_selector(".scores, #replay-controls:not([hidden])")
            if page.is_hidden("#replay-controls"):
                ranking = " ".join(_texts(page, ".scores li"))
                assert all(n in ranking for n in want_kd), ranking
                page.click("#replay-link")
            page.wait_for_selector("#r-seat option", state="attached")
            page.wait_for_function("document.querySelector('#r-label').textContent !== ''")
            page.wait_for_selector(".score-line")
            # a redraw clears the board before it draws it again: wait until every part
            # names every seat, then read them; the asserts say which part misses which
            # name if that never happens
            with contextlib.suppress(PlaywrightTimeout):
                page.wait_for_function(
                    "names => ['.score-line', '#k-kingdoms h2', '#r-seat option', '#log li'].every("
                    "sel => { const t = [...document.querySelectorAll(sel)]"
                    ".map(e => e.textContent).join(' ');"
                    " return names.every(n => t.includes(n)); })",
                    arg=want_kd,
                    timeout=30_000,
                )
            scores = " ".join(_texts(page, ".score-line"))
            panels = " ".join(_texts(page, "#k-kingdoms h2"))
            options = _texts(page, "#r-seat option")
            log = " ".join(_texts(page, "#log li"))
            for name in want_kd:
                assert name in scores, (name, scores)
                assert name in panels, (name, panels)
                assert name in options, (name, options)
                assert name in log, (name, log[:300])
            assert not DEFAULT.search(scores + panels + log), DEFAULT.search(scores + panels + log)
            # the human's Dominion table: the bots' panels, the prompt, the log, the end
            page.goto(dom["seats"][0]["link"])
            page.wait_for_selector("#d-supply .dcard")
            others = " ".join(_texts(page, ".opponent h3"))
            assert f"{witch} 1" in others and f"{witch} 2" in others, others
            page.wait_for_selector("#choices > .choice")
            page.keyboard.press("e")
            page.wait_for_function(
                "names => [...document.querySelectorAll('#log li')].some("
                "e => names.some(n => e.textContent.includes(n)))",
                arg=[f"{witch} 1", f"{witch} 2"],
            )
            page.click("#resign")
            page.click("#resign")
            page.wait_for_selector(".scores")
            ranking = " ".join(_texts(page, ".scores li"))
            assert f"{witch} 1" in ranking and f"{witch} 2" in ranking, ranking
            log = " ".join(_texts(page, "#log li"))
            assert not DEFAULT.search(log + ranking), DEFAULT.search(log + ranking)
            dom = _new(
                page,
                seeded,
                "dominion",
                [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "witch"}] * 2,
                options={"kingdom": "First Game"},
                seed=5,
            )
        # the exported record: the same names (in English, the record's language)
        record = page.request.get(f"{seeded}/api/games/{kd['id']}/record").json()
        seats = record.get("seats") or record.get("players")
        assert seats[:3] == ["Greedy 1", "Greedy 2", "Greedy 3"], seats
    finally:
        context.close()


def test_the_browser_names_a_bot_by_its_level_as_the_server_does(server: str, page: Any) -> None:
    """``best:strong`` with options after it, or spelled ``level=strong``, is still the
    strong level's name and description in the players panel; other options never
    change a name (the same keys as the server's ``label_key``)."""
    specs = [
        "best",
        "best:strong",
        "best:strong,many=on",
        "best:level=strong",
        "best:many=on,level=strong",
        "best:many=on",
        "best:level=default,time=0.05",
        "mcts:time=1",
        "bmu+laboratory:4+militia:1",
        "big-money",
    ]
    # the server before the page, so the page (the lobby polls) closes before the server
    page.goto(server + "/")
    got = page.evaluate(
        """async (specs) => {
          const m = await import('/static/js/bots.js');
          return specs.map((s) => [m.labelKey(s), m.botLabel(s), m.botAbout(s)]);
        }""",
        specs,
    )
    for spec, (key, label, about) in zip(specs, got, strict=True):
        assert key == label_key(spec), spec
        if key in BOT_LABELS:
            assert label == BOT_LABELS[key] and about, spec
    assert got[3][1] == BOT_LABELS["best:strong"] != got[5][1] == BOT_LABELS["best"]
