"""The table as people see it: phones (390×844) for both games, spectators, and every
screen in Polish and Czech without an English interface string or a raw key."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser.conftest import _serve
from tests.browser.drive import kingdomino_moves, wait_step_change

from kingdoms.i18n import catalog
from kingdoms.server.limits import ServerLimits
from kingdoms.server.ratings import MIN_DECISIONS

pytestmark = pytest.mark.browser

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "bypass_csp": True,
    "locale": "en-US",
}


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(10_000)
    yield page
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def _new_game(page: Any, server: str, game: str, seats: list[dict[str, Any]], **opts: Any) -> Any:
    res = page.request.post(server + "/api/games", data={"game": game, "seats": seats, **opts})
    assert res.ok, res.text()
    return res.json()


def _no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px screen"


def _decision_bar_on_screen(page: Any) -> None:
    page.evaluate("window.scrollTo(0, document.body.scrollHeight / 2)")
    box = page.eval_on_selector("#prompt", "el => el.getBoundingClientRect().toJSON()")
    assert box["bottom"] <= 844 + 1 and box["top"] >= 844 * 0.5, box
    assert page.is_visible("#prompt .choice")


def test_phone_lobby_and_dominion_tap_selects_then_confirms(phone: Any, server: str) -> None:
    phone.goto(server + "/")
    phone.wait_for_selector("body[data-ready]")
    phone.select_option("#game", "dominion")
    _no_sideways_scroll(phone)
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "big-money", "name": "Bob"}]
    game = _new_game(phone, server, "dominion", seats, options={"kingdom": "First Game"})
    phone.goto(game["seats"][0]["link"])
    phone.wait_for_selector("#d-supply .dcard.clickable")
    _no_sideways_scroll(phone)
    _decision_bar_on_screen(phone)
    hinted = 0
    for _ in range(12):  # a few turns: bought by two taps, a Treasure played by one
        phone.wait_for_selector(".choices > .choice")
        step = phone.get_attribute("body", "data-step")
        if not hinted and phone.query_selector("#board-hint"):
            # a long list of card choices leaves a phone's bar (nothing folded away):
            # the bar says where they are, each a framed card on the board
            hinted = phone.eval_on_selector_all("#d-supply .dcard.clickable", "els => els.length")
            assert hinted > 6 and phone.is_visible("#to-supply")
            assert not phone.query_selector("#more-choices")
        card = phone.query_selector(
            "#d-supply .dcard.clickable[data-card='silver'], #d-hand .dcard.clickable"
        )
        if card is None:
            phone.click(".choice >> nth=-1")
        elif card.evaluate("e => e.closest('#d-hand') && e.matches('.type-treasure')"):
            card.tap()  # a Treasure from the hand: one tap plays it (nothing to confirm)
        else:
            card.tap()
            # the first tap only selects: nothing is bought, the card is shown large
            phone.wait_for_selector("#d-confirm:not([hidden]) .dcard.big")
            assert phone.get_attribute("body", "data-step") == step
            assert phone.query_selector(".dcard.selected")
            phone.tap("#d-confirm-do")
        wait_step_change(phone, step)
    assert hinted  # the buy phase offered many cards
    _no_sideways_scroll(phone)


def test_phone_kingdomino_by_taps(phone: Any, server: str) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy", "name": "Bob"}]
    game = _new_game(phone, server, "kingdomino", seats)
    phone.goto(game["seats"][0]["link"])
    phone.wait_for_selector("#k-kingdoms")
    _no_sideways_scroll(phone)
    _decision_bar_on_screen(phone)
    kingdomino_moves(phone, 8, tap=True)
    _no_sideways_scroll(phone)
    # placed squares show their terrain (colour and pattern), not the empty square's
    colours = phone.eval_on_selector_all(
        ".kd-grid .kd-cell[class*='terrain-']:not(.terrain-castle)",
        "els => els.map(e => getComputedStyle(e).backgroundImage)",
    )
    assert colours and all(c.startswith(("repeating", "radial")) for c in colours)
    # crowns and the castle are drawn (SVG), not font glyphs that may be missing
    assert phone.query_selector(".kd-grid svg.castle")
    assert "♛" not in phone.text_content("#board") and "♜" not in phone.text_content("#board")


def test_a_spectator_watches_live_from_the_lobby(page: Any, server: str, browser: Any) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "big-money", "name": "Bob"}]
    game = _new_game(page, server, "dominion", seats, options={"kingdom": "First Game"})
    page.goto(game["seats"][0]["link"])
    page.wait_for_selector("#d-hand .dcard")
    watcher_ctx = browser.new_context(bypass_csp=True, locale="en-US")
    try:
        watcher = watcher_ctx.new_page()
        watcher.goto(server + "/")
        watcher.click(f"#running-games li[data-id='{game['id']}'] a.watch")
        watcher.wait_for_selector("#d-supply")
        assert "Watching" in watcher.text_content("#title")
        assert watcher.query_selector("#d-hand") is None  # nobody's hand
        assert watcher.query_selector(".choice") is None  # and no choices
        step = watcher.get_attribute("body", "data-step")
        page.keyboard.press("a")  # Ann plays her treasures
        watcher.wait_for_function(f"document.body.dataset.step !== '{step}'")
        assert "Ann" in watcher.text_content("#log")
    finally:
        watcher_ctx.close()


@pytest.fixture
def one_place(tmp_path: Path, toy_game: None) -> Iterator[str]:
    """A server where each client watches one game at a time."""
    limits = ServerLimits(spectators_per_address=1)
    yield from _serve(tmp_path / "k.sqlite", bot_delay=0.05, limits=limits)


def test_a_signed_in_spectator_watches_in_its_profiles_place(
    page: Any, one_place: str, browser: Any
) -> None:
    """One place per client: a watcher whose stored profile this server does not know
    watches as anyone (the address's place); a signed-in watcher on the same address
    then watches in its profile's own place."""
    humans = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    first, second = (_new_game(page, one_place, "kingdomino", humans) for _ in range(2))
    secret = "ann-browser-secret-0123456789"
    made = page.request.post(one_place + "/api/profiles", data={"name": "Ann", "secret": secret})
    assert made.status == 201, made.text()
    contexts = []
    try:
        for game, name, key in ((first, "Gone", "never-seen-secret-0123"), (second, "Ann", secret)):
            context = browser.new_context(bypass_csp=True, locale="en-US")
            contexts.append(context)
            context.add_init_script(
                f"localStorage.setItem('kingdoms:profile', JSON.stringify({{name: '{name}', "
                f"secret: '{key}'}}))"
            )
            watcher = context.new_page()
            watcher.goto(f"{one_place}/game/{game['id']}")
            watcher.wait_for_selector(".kd-kingdom", timeout=30_000)
            assert "Watching" in watcher.text_content("#title")
    finally:
        for context in contexts:
            context.close()


def test_watching_kingdomino_between_bots_to_its_final_scoring(page: Any, server: str) -> None:
    seats = [{"kind": "bot", "bot": "greedy", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}]
    game = _new_game(page, server, "kingdomino", seats)
    page.goto(f"{server}/game/{game['id']}")
    page.wait_for_selector("#k-breakdown", timeout=60_000)
    assert len(page.query_selector_all(".kd-kingdom")) == 2
    assert page.query_selector(".kd-tools") is None  # a spectator places nothing
    page.goto(f"{server}/game/{game['id']}#replay")
    page.reload()
    page.wait_for_selector("#replay-controls:not([hidden])")
    page.wait_for_selector("#k-breakdown")  # the replay's final position has it too


def test_watching_dominion_between_bots_to_its_points_by_card(page: Any, server: str) -> None:
    seats = [
        {"kind": "bot", "bot": "big-money", "name": "Ann"},
        {"kind": "bot", "bot": "big-money", "name": "Bob"},
    ]
    game = _new_game(page, server, "dominion", seats, options={"kingdom": "First Game"})
    page.goto(f"{server}/game/{game['id']}")
    page.wait_for_selector("#d-outcome", timeout=60_000)
    lines = page.eval_on_selector_all(
        "#d-outcome .end-player[data-seat='0'] .vp-list li", "els => els.map(e => e.textContent)"
    )
    assert any(line.startswith("Province × ") and line.endswith(" VP") for line in lines), lines
    total = page.text_content("#d-outcome .end-player[data-seat='0'] .end-score")
    worth = [int(line.rsplit("— ", 1)[1].split()[0]) for line in lines]
    assert total == f"{sum(worth)} VP"


# --- every screen in Polish and Czech -------------------------------------------------

RAW_KEY = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b|\bdecision\.\w+")


def _english_strings(lang: str) -> set[str]:
    """Interface messages whose translation differs from the English (placeholders
    removed): if one of them shows in a pl/cs page, something was not translated."""
    out = set()
    for msgid, text in catalog(lang).items():
        if text != msgid and "{" not in msgid and len(msgid) > 2:
            out.add(msgid)
    out |= {"Your decision", "Game over", "Lobby", "Log", "Supply", "Watch", "Replay"}
    return out


def _check_page(page: Any, lang: str, screen: str) -> None:
    texts: list[str] = page.evaluate(
        """() => {
          const out = [];
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          while (walker.nextNode()) {
            const node = walker.currentNode;
            const el = node.parentElement;
            if (!el || el.closest("#lang, script, style, input")) continue;
            if (el.closest("[hidden]")) continue;
            const text = node.textContent.trim();
            if (text) out.push(text);
          }
          for (const el of document.querySelectorAll("button, [aria-label], input[placeholder]")) {
            if (el.closest("[hidden]") || el.id === "lang") continue;
            if (el.placeholder) out.push(el.placeholder);
          }
          return out;
        }"""
    )
    english = _english_strings(lang)
    found = sorted({t for t in texts if t in english or t.rstrip(":") in english})
    assert not found, f"{screen} ({lang}) shows English: {found}"
    raw = sorted({m for t in texts for m in RAW_KEY.findall(t)})
    assert not raw, f"{screen} ({lang}) shows raw keys: {raw}"


@pytest.mark.parametrize("lang", ["pl", "cs"])
def test_every_screen_is_translated(browser: Any, server: str, lang: str) -> None:
    context = browser.new_context(bypass_csp=True, locale=lang)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(server + "/")
        page.wait_for_selector("body[data-ready]")
        page.add_init_script(f"localStorage.setItem('kingdoms:lang', '{lang}')")
        page.evaluate(f"localStorage.setItem('kingdoms:lang', '{lang}')")
        bots_dom = [
            {"kind": "bot", "bot": "big-money", "name": "Ala"},
            {"kind": "bot", "bot": "big-money", "name": "Olek"},
        ]
        finished = _new_game(
            page, server, "dominion", bots_dom, options={"kingdom": "Forbidden Arts"}
        )
        human = [
            {"kind": "human"},
            {"kind": "bot", "bot": "greedy"},
            {"kind": "human"},
        ]
        kd = _new_game(page, server, "kingdomino", human, options={"variants": ["harmony"]})
        dom = _new_game(
            page,
            server,
            "dominion",
            [{"kind": "human"}, {"kind": "bot", "bot": "big-money"}],
            options={"kingdom": "Forbidden Arts"},
        )
        for name in ("dominion", "kingdomino"):  # the lobby, each game's form
            page.goto(server + "/")
            page.wait_for_selector("body[data-ready]")
            page.select_option("#game", name)
            page.wait_for_selector("#running-games li[data-id]")
            _check_page(page, lang, f"lobby ({name})")
        page.select_option("#players", "3")
        page.query_selector_all("#seats .seat .kind")[1].select_option("human")
        page.click("#create")
        page.wait_for_selector("#created:not([hidden]) #watch-link")
        page.fill("#profile-name-input", f"Gracz {lang}")
        page.click("#create-profile")
        page.wait_for_selector("#profile-name")
        _check_page(page, lang, "lobby: a game created, a profile made")
        page.goto(dom["seats"][0]["link"])
        page.wait_for_selector("#d-hand .dcard")
        _check_page(page, lang, "Dominion")
        page.goto(kd["seats"][0]["link"])
        page.wait_for_selector("#k-kingdoms .kd-grid")
        _check_page(page, lang, "Kingdomino")
        page.goto(f"{server}/game/{finished['id']}")  # watched live, then its end screen
        page.wait_for_selector("#d-outcome", timeout=60_000)
        _check_page(page, lang, "Dominion end (spectator)")
        page.goto(f"{server}/game/{finished['id']}#replay")
        page.reload()
        page.wait_for_selector("#replay-controls:not([hidden]) ~ .log-panel li, #score-line")
        page.wait_for_selector("#d-outcome")
        _check_page(page, lang, "Dominion replay")
        page.goto(server + "/")
        page.wait_for_selector(f"#finished-games li[data-id='{finished['id']}']")
        _check_page(page, lang, "lobby with a finished game")
        page.goto(server + "/leaderboard")
        page.wait_for_selector("body[data-ready]")
        _check_page(page, lang, "leaderboard")
        page.goto(server + "/")
        page.wait_for_selector(f"#finished-games li[data-id='{finished['id']}']")
        # a plural form from the catalog: the Kingdomino game has one open seat left
        one = {"pl": "1 wolne miejsce", "cs": "1 volné místo"}[lang]
        assert one in page.text_content(f"#running-games li[data-id='{kd['id']}']")
    finally:
        context.close()


def test_resign_then_the_finished_list_shows_date_players_and_scores(
    page: Any, server: str
) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy", "name": "Bob"}]
    game = _new_game(page, server, "kingdomino", seats)
    page.goto(game["seats"][0]["link"])
    page.wait_for_selector(".choice")
    page.click("#resign")
    assert page.query_selector(".scores") is None  # the first click only arms the button
    page.click("#resign")
    page.wait_for_selector(".scores")
    assert page.text_content("#ended-note") == "Ann resigned."
    assert page.is_hidden("#resign")
    page.click("#rematch")  # the same seats and options again, this browser in Ann's seat
    page.wait_for_function(f"!location.pathname.endsWith('{game['id']}')")
    page.wait_for_selector(".choices > .choice")
    assert page.text_content("#title") == "Kingdomino · Ann"
    page.goto(server + "/")
    line = page.wait_for_selector(f"#finished-games li[data-id='{game['id']}']")
    text = line.text_content()
    assert "Ann" in text and "Bob" in text and "resigned" in text
    assert line.query_selector("time.when") and line.query_selector(".score")


def _make_profile(page: Any, server: str, name: str) -> None:
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready]")
    page.fill("#profile-name-input", name)
    page.click("#create-profile")
    page.wait_for_selector("#profile-name")
    assert page.text_content("#profile-name") == name


_MY_TURN = """() => [...document.querySelectorAll('.choices > .choice, #k-tools')]
    .some(e => e.offsetParent !== null)"""
"""Whether the page shows a decision of its own seat (a visible choice or the placing tools)."""


def test_rated_game_between_profiles_reaches_the_leaderboard(browser: Any, server: str) -> None:
    ann_ctx = browser.new_context(bypass_csp=True, locale="en-US")
    bob_ctx = browser.new_context(bypass_csp=True, locale="en-US")
    try:
        ann, bob = ann_ctx.new_page(), bob_ctx.new_page()
        _make_profile(ann, server, "Ann")
        _make_profile(bob, server, "Bob")
        # the secret stays in the browser; the server only answers with id and name
        assert len(ann.evaluate("JSON.parse(localStorage['kingdoms:profile']).secret")) >= 24
        ann.select_option("#game", "kingdomino")
        ann.select_option("#players", "2")
        rows = ann.query_selector_all("#seats .seat")
        rows[1].query_selector(".kind").select_option("human")
        rows[1].query_selector(".name").fill("Bob")
        assert rows[0].query_selector(".name").input_value() == "Ann"
        ann.check("#rated")
        ann.click("#create")
        ann.wait_for_selector("#created:not([hidden])")
        links = [el.get_attribute("value") for el in ann.query_selector_all("#created .invite")]
        ann.goto(links[0])
        bob.goto(links[1])
        ann.wait_for_selector(".choice, #prompt-title")
        bob.wait_for_selector("body[data-ready]")
        # only games that were played are rated: each seat makes its minimum of moves
        made = {0: 0, 1: 0}
        deadline = time.monotonic() + 120
        while min(made.values()) < MIN_DECISIONS and time.monotonic() < deadline:
            moved = False
            for i, player in enumerate((ann, bob)):
                if player.evaluate(_MY_TURN):
                    kingdomino_moves(player, 1)
                    made[i] += 1
                    moved = True
            if not moved:
                ann.wait_for_timeout(50)
        assert min(made.values()) >= MIN_DECISIONS, made
        ann.wait_for_selector("#resign:not([hidden])")
        ann.click("#resign")
        ann.click("#resign")
        ann.wait_for_selector(".scores")
        bob.wait_for_selector(".scores")
        board = ann.context.new_page()
        board.goto(server + "/leaderboard?game=kingdomino")
        board.wait_for_selector("#lb-rows tr td:nth-child(2)")
        names = board.eval_on_selector_all(
            "#lb-rows tr td:nth-child(2)", "els => els.map(e => e.textContent)"
        )
        assert names == ["Bob", "Ann"]
        board.select_option("#lb-players", "3")
        board.wait_for_selector("#lb-rows td.muted")
    finally:
        ann_ctx.close()
        bob_ctx.close()


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_cards_zoom_when_held_and_move_gently_unless_motion_is_reduced(
    browser: Any, server: str, motion: str
) -> None:
    context = browser.new_context(bypass_csp=True, locale="en-US", reduced_motion=motion)
    page = context.new_page()
    try:
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "big-money"}]
        game = _new_game(page, server, "dominion", seats, options={"kingdom": "First Game"})
        page.goto(game["seats"][0]["link"])
        page.wait_for_selector(".choices > .choice")  # Ann's turn (the bot may begin)
        before = page.get_attribute("body", "data-step")
        card = page.wait_for_selector("#d-supply .dcard[data-card='village']")
        box = card.bounding_box()
        page.mouse.move(box["x"] + 20, box["y"] + 40)
        page.mouse.down()
        page.wait_for_selector("#d-zoom:not([hidden]) .dcard.big[data-card='village']")
        # the large copy (drawn over the card) stays while its picture loads and while
        # the held pointer shakes onto the dark layer around it; it goes on release
        page.wait_for_function(
            "() => { const i = document.querySelector('#d-zoom .dart');"
            " return i && i.complete && i.naturalWidth > 0; }"
        )
        page.mouse.move(box["x"] + 23, box["y"] + 42)
        page.mouse.move(box["x"] + 5, box["y"] + 5)
        page.mouse.move(box["x"] - 40, box["y"] - 30)
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() => setTimeout(r)))")
        assert page.is_visible("#d-zoom .dcard.big[data-card='village']")
        page.mouse.up()
        page.wait_for_selector("#d-zoom", state="hidden")
        # holding a card to read it did nothing else
        assert page.get_attribute("body", "data-step") == before
        page.keyboard.press("a")  # play all treasures: they slide into play
        page.wait_for_selector("#d-play .dcard.fresh")
        names = page.eval_on_selector_all(
            "#d-play .dcard.fresh", "els => els.map(e => getComputedStyle(e).animationName)"
        )
        assert names and set(names) == {"none" if motion == "reduce" else "deal-in"}
    finally:
        context.close()
