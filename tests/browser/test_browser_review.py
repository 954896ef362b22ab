"""The game review in the browser: the Review button of a finished game, the chart of
winning chances with its hover texts, the biggest mistakes linking to the replay at
that position with the preferred move shown, and the seats a player may see."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser.conftest import _until_started

from kingdoms.review import Budget
from kingdoms.review.checks import MIDDLE_KINGDOM_GAME
from kingdoms.server.privacy import SHARE_HASH
from kingdoms.server.storage import STATUS_FINISHED, Storage, StoredGame
from kingdoms.server.table import hash_token

pytestmark = pytest.mark.browser

ANN, BOB = "ann-browser-token-1", "bob-browser-token-2"
SHARE = "mk1-share-key-3"
"""The private game's share key (its share link: ``/game/mk1#k=…``)."""
GAME = [*MIDDLE_KINGDOM_GAME[:40], 438, 742, 665, 730, 728, 116, 728, 728]
"""A Middle Kingdom game in which Bob (seat 2), ahead, places domino 43 outside the
5×5 window centred on his castle (action 438, step 40): the 10 points and the game lost."""


@pytest.fixture
def review_server(tmp_path: Path, toy_game: None) -> Iterator[str]:
    import socket

    import uvicorn

    from kingdoms.server.app import create_app

    url = f"sqlite:///{tmp_path / 'k.sqlite'}"
    store = Storage(url)
    seats = [
        {"kind": "human", "name": name, "token_hash": hash_token(tok), "joined": True}
        for name, tok in (("Ann", ANN), ("Bob", BOB))
    ]
    options = {"variants": ["middle-kingdom"], "middle_kingdom_rule": "window"}
    store.create_game(
        StoredGame(
            id="mk1", game="kingdomino", players=2, seed=17, options=options, seats=seats,
            status=STATUS_FINISHED, outcome={"scores": [35.0, 28.0], "winners": [0]},
            meta={"private": True, SHARE_HASH: hash_token(SHARE)}, actions=GAME,
        )
    )  # fmt: skip
    public = [{k: v for k, v in seat.items() if k != "token_hash"} for seat in seats]
    store.create_game(  # the same game, public: any stranger may ask for its review
        StoredGame(
            id="pub1", game="kingdomino", players=2, seed=17, options=options, seats=public,
            status=STATUS_FINISHED, outcome={"scores": [35.0, 28.0], "winners": [0]},
            meta={}, actions=GAME,
        )
    )  # fmt: skip
    store.close()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    app = create_app(url, bot_delay=0.05, review_budget=Budget(iterations=16, width=2))
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    _until_started(srv, thread)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)


def test_review_chart_mistakes_and_the_link_to_the_replay(page: Any, review_server: str) -> None:
    page.goto(f"{review_server}/game/mk1#t={BOB}")
    page.click("#review-button")
    page.wait_for_selector("#review-panel[data-status=done]", timeout=180_000)
    panel = page.inner_text("#review-panel")
    assert "Biggest mistakes of Bob" in panel
    assert "Not shared: Ann" in panel  # a private game: Ann's part is hers
    # the chart: Bob's line only, a point per decision, hover shows turn and move
    points = page.query_selector_all("#review-chart .review-point")
    assert len(points) > 10
    assert {p.get_attribute("data-seat") for p in points} == {"1"}
    points[0].hover()
    tip = page.inner_text("#review-tip")
    assert tip.startswith("Bob · Turn 1 · ") and "%" in tip
    mistake = page.locator(".review-mistakes li").first
    text = mistake.inner_text()
    assert "place 43 at -2,-1 left" in text and "better: place 43 at 1,2 up" in text
    assert "lost 100% winning chance" in text
    # the link opens the replay at that position, seen by Bob, the preferred move shown
    mistake.locator("a").click()
    page.wait_for_selector("#review-hint")
    assert page.get_attribute("body", "data-step") == "40"
    assert page.input_value("#r-seat") == "1"
    assert "place 43 at 1,2 up" in page.inner_text("#review-hint")
    assert page.is_visible("#replay-controls #review-button")
    # Bob shares his review: a visitor without a seat sees it, Ann's stays hidden
    page.goto(f"{review_server}/game/mk1#t={BOB}")
    page.click("#review-button")
    page.wait_for_selector("#review-panel[data-status=done]")
    with page.expect_response(lambda r: r.url.endswith("/review/share")) as shared:
        page.check("#review-share-1")
    assert shared.value.ok  # the event: the server took it
    # (a private game: the visitor holds its share link)
    visitor = page.context.browser.new_context(bypass_csp=True, locale="en-US").new_page()
    visitor.goto(f"{review_server}/game/mk1#replay&k={SHARE}")
    # the page shows the review already asked for by itself; asking again, the panel's
    # status is the new request's until it answers, never the one shown before
    visitor.wait_for_selector("#review-panel[data-status=done]", timeout=30_000)
    status = visitor.evaluate(
        "() => { document.querySelector('#replay-controls #review-button').click();"
        " return document.querySelector('#review-panel').dataset.status; }"
    )
    assert status == "asking"
    visitor.wait_for_selector("#review-panel[data-status=done]")
    assert "Biggest mistakes of Bob" in visitor.inner_text("#review-panel")
    assert "Not shared: Ann" in visitor.inner_text("#review-panel")
    assert SHARE not in visitor.url  # the key kept out of the address bar
    # its record downloads with the key the page holds (the link is set when the replay's
    # step is drawn, which may come after the review)
    visitor.wait_for_selector("body[data-ready='1']")
    assert f"key={SHARE}" in (visitor.get_attribute("#record-link", "href") or "")
    visitor.context.close()
    # a stranger, with neither a seat's token nor the share link: no such game
    stranger = page.context.browser.new_context(bypass_csp=True, locale="en-US").new_page()
    stranger.goto(f"{review_server}/game/mk1#replay")
    stranger.wait_for_selector("body[data-ready='1']")
    assert stranger.inner_text("#prompt-title") == "There is no such game."
    assert stranger.is_hidden("#replay-controls")
    assert "place 43" not in stranger.content()
    stranger.context.close()


def _signed_in(page: Any, name: str, secret: str) -> None:
    page.context.add_init_script(
        f"localStorage.setItem('kingdoms:profile', JSON.stringify({{name: '{name}', "
        f"secret: '{secret}'}}))"
    )


def test_a_signed_in_stranger_asks_for_a_review_with_its_profile(
    page: Any, review_server: str
) -> None:
    """A signed-in stranger's request carries its profile (counted in the profile's
    quota); one whose profile this server does not know asks again as anyone."""
    secret = "ann-browser-secret-0123456789"
    made = page.request.post(
        review_server + "/api/profiles", data={"name": "Ann", "secret": secret}
    )
    assert made.status == 201, made.text()
    _signed_in(page, "Ann", secret)
    page.goto(f"{review_server}/game/pub1#replay")
    page.wait_for_selector("#replay-controls:not([hidden]) #review-button")
    with page.expect_request(lambda r: r.method == "POST" and "/review" in r.url) as asked:
        page.click("#replay-controls #review-button")
    assert asked.value.post_data_json == {"profile": {"name": "Ann", "secret": secret}}
    page.wait_for_selector(
        "#review-panel:is([data-status=queued], [data-status=running], [data-status=done])"
    )
    stale = page.context.browser.new_context(bypass_csp=True, locale="en-US").new_page()
    try:
        _signed_in(stale, "Gone", "a-secret-this-server-never-saw")
        stale.goto(f"{review_server}/game/pub1#replay")
        stale.wait_for_selector("#replay-controls:not([hidden]) #review-button")
        bodies: list[Any] = []
        stale.on(
            "request",
            lambda r: (
                bodies.append(r.post_data) if r.method == "POST" and "/review" in r.url else None
            ),
        )
        stale.click("#replay-controls #review-button")
        stale.wait_for_selector(
            "#review-panel:is([data-status=queued], [data-status=running], [data-status=done])"
        )
        assert len(bodies) == 2 and "Gone" in bodies[0] and not bodies[1], bodies
    finally:
        stale.context.close()
