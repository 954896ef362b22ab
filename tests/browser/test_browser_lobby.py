"""The lobby as a new player meets it, in en/pl/cs at 1366×768 and on a 390×844
phone: a strong bot preselected, every bot described, the kingdom menu following
typed cards, and the next step in view once a game is created."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

SIZES = ({"width": 1366, "height": 768}, {"width": 390, "height": 844})
DEFAULTS = {"dominion": "big-money-ultimate", "kingdomino": "planning-greedy"}

ABOUT = (
    """sel => [...sel.options].map(o => ({bot: o.value, label: o.textContent, about: o.title}))"""
)


def _in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return bool(
        box
        and box["y"] >= 0
        and box["y"] + box["height"] <= size["height"]
        and box["x"] >= 0
        and box["x"] + box["width"] <= size["width"]
    )


@pytest.mark.parametrize("lang", ["en", "pl", "cs"])
def test_lobby_defaults_descriptions_typed_kingdom_and_the_next_step(
    browser: Any, server: str, lang: str
) -> None:
    context = browser.new_context(viewport=SIZES[0], locale=lang, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    english: dict[str, str] = {}
    try:
        for size in SIZES:
            page.set_viewport_size(size)
            page.goto(server + "/")
            page.wait_for_selector("body[data-ready]")
            for game, default in DEFAULTS.items():
                page.select_option("#game", game)
                page.select_option("#players", "2")
                second = "#seats .seat >> nth=1"
                assert page.locator(f"{second} >> .kind").input_value() == "bot"
                assert page.locator(f"{second} >> .bot").input_value() == default
                about = page.locator(f"{second} >> .bot-about").text_content() or ""
                assert about.strip(), (game, "no description of the default bot")
                bots = page.locator(f"{second} >> .bot").evaluate(ABOUT)
                for b in bots:
                    assert b["about"].strip(), (lang, b)  # every bot described
                    assert b["label"] != b["bot"], b
                    if lang == "en":
                        english[b["bot"]] = b["about"]
                    elif b["bot"] in english:
                        assert b["about"] != english[b["bot"]], (lang, b)  # translated
            # the long bot names never widen the page (no sideways scroll on a phone)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= size["width"], width
            # typed cards: the kingdom menu says the typed cards decide
            page.select_option("#game", "dominion")
            menu = "#game-options [data-option='kingdom']"
            random_kingdom = page.locator(f"{menu} option:checked").text_content()
            page.fill("#game-options [data-text='kingdom']", "Smithy, Witch")
            checked = page.locator(f"{menu} option:checked").text_content()
            assert checked != random_kingdom, checked
            page.fill("#game-options [data-text='kingdom']", "")
            assert page.locator(f"{menu} option:checked").text_content() == random_kingdom
            page.fill("#game-options [data-text='kingdom']", "Smithy, Witch, Chapel")
            page.click("#create")
            page.wait_for_selector("#play-here")
            # the next step in view at once, without scrolling
            page.wait_for_function(
                "() => { const r = document.querySelector('#play-here').getBoundingClientRect();"
                " return r.top >= 0 && r.bottom <= innerHeight; }"
            )
            assert _in_view(page, "#play-here"), size
            page.click("#play-here")
            page.wait_for_selector("#d-supply .dcard[data-card='witch']")
            assert page.query_selector("#d-supply .dcard[data-card='chapel']")
    finally:
        context.close()


def test_a_signed_in_player_creates_in_its_profiles_own_rate(page: Any, rated_create: str) -> None:
    """The address has used its create rate: the signed-in player still creates (its
    profile's own rate); with a profile this server does not know the lobby creates
    as anyone, and is refused with the address's ``rate_limited``; the first-game
    buttons send the profile too."""
    import httpx

    ann = {"name": "Ann", "secret": "Ann-secret-0123456789"}
    assert httpx.post(f"{rated_create}/api/profiles", json=ann).status_code == 201
    game = {"game": "kingdomino", "players": 2}
    assert httpx.post(f"{rated_create}/api/games", json=game).status_code == 201
    assert httpx.post(f"{rated_create}/api/games", json=game).status_code == 429
    page.goto(f"{rated_create}/")
    page.evaluate("p => localStorage.setItem('kingdoms:profile', JSON.stringify(p))", ann)
    page.goto(f"{rated_create}/")
    with page.expect_response(
        lambda r: r.url.endswith("/api/games") and r.request.method == "POST"
    ) as got:
        page.locator("#create").click()
    assert got.value.status == 201, got.value.text()
    page.locator("#created").wait_for(state="visible")
    stale = {"name": "Nobody", "secret": "made-up-secret-0123"}
    page.evaluate("p => localStorage.setItem('kingdoms:profile', JSON.stringify(p))", stale)
    page.goto(f"{rated_create}/")
    with page.expect_response(
        lambda r: r.url.endswith("/api/games") and r.request.method == "POST" and r.status == 429
    ):
        page.locator("#create").click()
    page.locator("#create-error").wait_for(state="visible")
    assert page.locator("#create-error").inner_text().strip()
    # the first-game buttons send the profile too: Bob's own rate
    bob = {"name": "Bob", "secret": "Bob-secret-0123456789"}
    assert httpx.post(f"{rated_create}/api/profiles", json=bob).status_code == 201
    page.evaluate("p => localStorage.setItem('kingdoms:profile', JSON.stringify(p))", bob)
    page.goto(f"{rated_create}/")
    page.locator("#first-game button[data-game=kingdomino]").click()
    page.wait_for_url("**/game/**")
    page.wait_for_selector("body[data-ready='1']")  # the game page drawn, its board loaded
