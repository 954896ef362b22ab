"""The board a player keeps in view: hot-seat secrecy, what stays on screen, the
phone's Kingdomino, the ends and the log."""

from __future__ import annotations

from typing import Any

import pytest
from tests.browser.drive import wait_step_change
from tests.browser.reach import send_moves
from tests.browser.test_browser_games import _lobby, _step

from kingdoms.core.registry import get_game
from kingdoms.dominion import actions as A

SHY = "\u00ad"  # soft hyphens in the names drawn on cards
SHOWN_NAMES = "els => els.map(e => e.textContent.replaceAll('\\u00ad', ''))"

pytestmark = pytest.mark.browser


def _dom_text(page: Any) -> str:
    """Everything the page holds: its text (hidden parts too) and its markup."""
    return str(
        page.evaluate("document.documentElement.textContent + document.documentElement.outerHTML")
    )


def test_hot_seat_pass_screen_holds_nothing_of_the_next_seat(
    page: Any, server: str, browser: Any
) -> None:
    _lobby(page, server, "dominion", ["human", "human"], kingdom='"First Game"')
    links = [el.get_attribute("value") for el in page.query_selector_all("#created .invite")]
    page.click("#play-here")
    page.wait_for_selector("#d-hand, #pass-screen:not([hidden])")
    if page.query_selector("#pass-screen:not([hidden])"):
        page.keyboard.press("Enter")
    page.wait_for_selector("#d-hand")
    first = page.text_content("#title") or ""
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
    page.wait_for_selector("#board >> text=Hidden until")
    # what the next seat sees alone, from a browser holding only that seat
    seat = 1 if first.endswith("1") else 0
    other = browser.new_context(bypass_csp=True).new_page()
    try:
        other.goto(links[seat])
        other.wait_for_selector("#d-hand .dcard")
        hand = other.eval_on_selector_all("#d-hand .dname", SHOWN_NAMES)
        private = [
            line
            for line in other.eval_on_selector_all("#log li", "els => els.map(e => e.textContent)")
            if "draws" in line
        ]
    finally:
        other.context.close()
    assert hand and private
    # the pass screen covers everything and lets nothing through
    bg = page.eval_on_selector("#pass-screen", "el => getComputedStyle(el).backgroundColor")
    assert bg.startswith("rgb("), bg  # opaque: no alpha
    text = _dom_text(page)
    for name in hand:
        assert name not in text, f"{name} (in the next hand) is in the page at the pass screen"
    for line in private:
        assert line not in text
    assert "data-card" not in text and "draws" not in text
    assert page.query_selector(".choice") is None
    page.keyboard.press("Enter")
    page.wait_for_selector("#d-hand .dcard")
    assert sorted(page.eval_on_selector_all("#d-hand .dname", SHOWN_NAMES)) == sorted(hand)


PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "bypass_csp": True,
    "locale": "en-US",
}


def test_resignation_final_panel_ranking_and_replay_by_step_on_a_phone(
    browser: Any, server: str
) -> None:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        seats = [
            {"kind": "human", "name": "Ann"},
            {"kind": "bot", "bot": "big-money", "name": "Bob"},
        ]
        res = page.request.post(
            server + "/api/games",
            data={"game": "dominion", "seats": seats, "options": {"kingdom": "First Game"}},
        )
        game = res.json()
        page.goto(game["seats"][0]["link"])
        page.wait_for_selector("#d-supply .dcard.clickable")
        step = _step(page)
        page.click("#choices .choice >> text=End buys")  # a turn for the bot too
        page.wait_for_function(
            f"Number(document.body.dataset.step) > {step} && "
            "!!document.querySelector('#choices .choice')"
        )
        page.click("#resign")
        page.click("#resign")
        page.wait_for_selector(".scores")
        # the final panel, the status of a finished game, the ranking with places
        page.wait_for_selector("#d-outcome")
        # (no leftover status line of the last turn: "Actions: 0 · Coins: 0")
        assert page.text_content("#prompt-title") == "Game over"
        assert not page.query_selector("#d-status")
        places = page.eval_on_selector_all(
            ".ranking li", "els => els.map(e => [e.dataset.place, e.textContent])"
        )
        assert places[0][0] == "1" and "Bob" in places[0][1] and "winner" in places[0][1]
        assert places[1][0] == "2" and "Ann" in places[1][1]
        assert page.text_content("#ended-note") == "Ann resigned."
        # the replay: its status follows the step, its controls sit at the bottom
        page.click("#replay-link")
        page.wait_for_selector("#replay-controls:not([hidden])")
        page.wait_for_function("document.querySelector('#r-label').textContent.includes(' of ')")
        label = page.text_content("#r-label") or ""
        steps = label.split(" of ")[1]
        assert page.text_content("#prompt-title") == "Game over"
        page.click("#r-first")
        page.wait_for_function(
            "document.querySelector('#prompt-title').textContent.startsWith('Move 0 of')"
        )
        assert page.text_content("#prompt-title") == f"Move 0 of {steps}"
        box = page.eval_on_selector("#replay-controls", "el => el.getBoundingClientRect().toJSON()")
        assert box["bottom"] <= 844 + 1 and box["top"] >= 844 - 260, box
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        context.close()
    assert not errors, errors


def test_tie_breaks_are_named(page: Any, server: str) -> None:
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready]")
    texts = page.evaluate(
        """async () => {
          const ctx = { t: (s, a) => s.replace(/\\{(\\w+)\\}/g, (m, k) => String(a[k])),
                        name: (i) => ["Ann", "Bob", "Cy"][i] };
          const dom = await import("/static/js/boards/dominion.js");
          const kd = await import("/static/js/boards/kingdomino.js");
          return [
            dom.tieBreak({ scores: [27, 27], winners: [1], details: { turns: [15, 14] } }, ctx),
            dom.tieBreak({ scores: [27, 27], winners: [0, 1], details: { turns: [14, 14] } }, ctx),
            dom.tieBreak({ scores: [30, 27], winners: [0], details: { turns: [14, 14] } }, ctx),
            kd.tieBreak({ scores: [40, 40, 12], winners: [0],
                          details: { largest_property: [9, 7, 3], crowns: [4, 6, 1] } }, ctx),
            kd.tieBreak({ scores: [40, 40], winners: [1],
                          details: { largest_property: [9, 9], crowns: [4, 6] } }, ctx),
          ];
        }"""
    )
    assert texts[0] == "Tied on 27 VP: Bob won by taking fewer turns (Ann 15, Bob 14)."
    assert texts[1] is None and texts[2] is None  # a shared win, a clear win
    assert texts[3] == "Tied on 40 points: Ann won with the largest property (Ann 9, Bob 7)."
    assert texts[4] == (
        "Tied on 40 points and largest property: Bob won with more crowns (Ann 4, Bob 6)."
    )


def test_dynasty_shows_each_games_score_and_the_total(page: Any, seeded: str) -> None:
    seats = [{"kind": "bot", "bot": "greedy", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}]
    res = page.request.post(
        seeded + "/api/games",
        data={"game": "kingdomino", "seats": seats, "options": {"variants": ["dynasty"]}},
    )
    game = res.json()
    page.goto(f"{seeded}/game/{game['id']}")
    page.wait_for_selector("#k-dynasty", timeout=60_000)
    rows = page.eval_on_selector_all(
        "#k-dynasty tbody tr",
        "rows => rows.map(r => [...r.querySelectorAll('td')].map(td => td.textContent))",
    )
    heads = page.eval_on_selector_all("#k-dynasty th", "els => els.map(e => e.textContent)")
    assert heads == ["Player", "Game 1", "Game 2", "Game 3", "Total"]
    for row in rows:
        assert sum(int(x) for x in row[1:4]) == int(row[4])
    ranking = page.eval_on_selector_all(".ranking li", "els => els.map(e => e.textContent)")
    totals = sorted((int(r[4]) for r in rows), reverse=True)
    assert [int(x.split(": ")[1].split(" ")[0]) for x in ranking] == totals


@pytest.mark.parametrize(
    ("variant", "bots"), [("mighty-duel", 1), ("standard", 3)], ids=["mighty-duel", "4-players"]
)
def test_whole_kingdomino_game_by_taps_on_a_phone(
    browser: Any, seeded: str, variant: str, bots: int
) -> None:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        seats = [{"kind": "human", "name": "Ann"}]
        seats += [{"kind": "bot", "bot": "greedy"} for _ in range(bots)]
        options = {"variants": [variant]} if variant != "standard" else {}
        res = page.request.post(
            seeded + "/api/games",
            data={"game": "kingdomino", "seats": seats, "options": options, "seed": 5},
        )
        page.goto(res.json()["seats"][0]["link"])
        placed = 0
        for _ in range(120):
            page.wait_for_selector("#choices .choice, .scores", state="attached")
            if page.query_selector(".scores"):
                break
            step = _step(page)
            if page.query_selector(".domino.clickable"):
                page.tap(".domino.clickable >> nth=0")
            elif page.query_selector(".kd-cell.target"):
                # the coordinate list is folded away, the bar has Rotate and Place
                assert page.is_hidden("#placement-list .choice >> nth=0")
                target = page.query_selector_all(".kd-cell.target")[-1]
                x, y = target.get_attribute("data-x"), target.get_attribute("data-y")
                target.tap()
                # the tap landed on that very square: the domino is shown there
                cell = f".kd-cell.preview[data-x='{x}'][data-y='{y}']"
                page.wait_for_selector(cell)
                if placed % 4 == 0:
                    # the whole kingdom fits the width (Mighty Duel's 7×7 too), the bar is
                    # on screen, Rotate turns the domino about the square
                    grid = page.eval_on_selector(
                        ".kd-kingdom[data-seat='0'] .kd-grid",
                        "el => el.getBoundingClientRect().toJSON()",
                    )
                    assert grid["left"] >= 0 and grid["right"] <= 390, grid
                    bar = page.eval_on_selector(
                        "#prompt", "el => el.getBoundingClientRect().toJSON()"
                    )
                    assert bar["bottom"] <= 844 + 1
                    page.tap("#k-rotate")
                    page.wait_for_selector(cell)
                page.tap("#k-place")
                placed += 1
            else:
                page.tap("#choices > .choice >> nth=-1")  # a discard
            wait_step_change(page, step)
        page.wait_for_selector(".scores")
        assert placed >= 6
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        context.close()
    assert not errors, errors


def test_polish_alchemy_names_and_one_cards_type_line(browser: Any, server: str) -> None:
    context = browser.new_context(bypass_csp=True, viewport={"width": 1366, "height": 768})
    context.add_init_script("localStorage.setItem('kingdoms:lang', 'pl')")
    page = context.new_page()
    try:
        kingdom = (
            "Alchemist, Apothecary, Apprentice, Familiar, Golem, Herbalist, "
            "Philosopher's Stone, Possession, Scrying Pool, Vineyard"
        )
        res = page.request.post(
            server + "/api/games",
            data={
                "game": "dominion",
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "big-money"}],
                "options": {"kingdom": kingdom},
            },
        )
        assert res.ok, res.text()
        page.goto(res.json()["seats"][0]["link"])
        page.wait_for_selector("#d-supply .dcard[data-card='herbalist']")
        names = page.eval_on_selector_all("#d-supply .pile-kingdom .dname", SHOWN_NAMES)
        english = {"Alchemist", "Apothecary", "Apprentice", "Familiar", "Herbalist"}
        assert not english & set(names), names
        assert {"Zielarz", "Kamień filozoficzny", "Winnica", "Opętanie"} <= set(names)
        # one card's type line is singular; the supply's heading names the group
        copper = "#d-supply .dcard[data-card='copper']"
        assert page.text_content("#d-hand .dcard[data-card='copper'] .dtypes") == "Skarb"
        # as the edition names it
        assert (page.text_content(f"{copper} .dname") or "").replace(SHY, "") == "Miedziaki"
        assert "Skarby" in (page.text_content("#d-supply .pile-group h3") or "")
    finally:
        context.close()


def _old_language_left(page: Any, old: str, new: str) -> list[str]:
    """The page's visible texts that are interface messages of ``old`` and not of ``new``."""
    from kingdoms.i18n import catalog

    def strings(lang: str) -> set[str]:
        if lang == "en":
            return {m for m in catalog("pl") if "{" not in m and len(m) > 3}
        return {v for m, v in catalog(lang).items() if "{" not in v and len(v) > 3}

    stale = strings(old) - strings(new)
    texts: list[str] = page.evaluate(
        """() => {
          const out = [];
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          while (walker.nextNode()) {
            const el = walker.currentNode.parentElement;
            if (!el || el.closest("#lang, script, style, [hidden]")) continue;
            const text = walker.currentNode.textContent.trim();
            if (text) out.push(text);
          }
          for (const o of document.querySelectorAll("option")) out.push(o.text.trim());
          return out;
        }"""
    )
    return sorted({t for t in texts if t in stale or t.rstrip(":") in stale})


def test_language_switch_redraws_the_game_and_the_replay(page: Any, seeded: str) -> None:
    # the lobby's box of a game just created
    _lobby(page, seeded, "dominion", ["human", "bot"], kingdom='"First Game"')
    assert page.text_content("#created h3") == "Game created"
    page.select_option("#lang", "cs")
    page.wait_for_function("document.querySelector('#created h3').textContent !== 'Game created'")
    for _ in range(40):  # the game lists come again from the server
        left = _old_language_left(page, "en", "cs")
        if not left:
            break
        page.wait_for_timeout(50)
    assert not left, left
    page.select_option("#lang", "en")
    page.wait_for_function("document.querySelector('#created h3').textContent === 'Game created'")
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "big-money-ultimate"}]
    res = page.request.post(
        seeded + "/api/games",
        data={"game": "dominion", "seats": seats, "options": {"kingdom": "First Game"}},
    )
    page.goto(res.json()["seats"][0]["link"])
    page.wait_for_selector("#d-hand .dcard")
    # the unnamed bot goes by its bot's name
    assert "Big Money, best version" in (page.text_content("#d-players") or "")
    page.select_option("#lang", "pl")
    page.wait_for_function(
        "document.querySelector('#prompt-title').textContent === 'Twoja decyzja'"
    )
    assert not _old_language_left(page, "en", "pl")
    assert "Bogactwo, najlepsza wersja" in (page.text_content("#d-players") or "")
    # a finished game's replay, mid-way, switched from Polish to Czech
    bots = [{"kind": "bot", "bot": "big-money"}, {"kind": "bot", "bot": "big-money"}]
    res = page.request.post(
        seeded + "/api/games",
        data={"game": "dominion", "seats": bots, "options": {"kingdom": "First Game"}},
    )
    gid = res.json()["id"]
    for _ in range(300):
        if page.request.get(f"{seeded}/api/games/{gid}").json()["status"] == "finished":
            break
        page.wait_for_timeout(100)
    page.goto(f"{seeded}/game/{gid}#replay")
    page.wait_for_function("document.querySelector('#r-label').textContent.includes(' z ')")
    page.click("#r-first")
    for _ in range(5):
        page.click("#r-next")
    page.wait_for_function("document.querySelector('#r-label').textContent.startsWith('Ruch 5 ')")
    page.select_option("#lang", "cs")
    page.wait_for_function("document.querySelector('#r-label').textContent.startsWith('Tah 5 ')")
    page.wait_for_function(
        "document.querySelector('#prompt-title').textContent.startsWith('Tah 5 ')"
    )
    left = _old_language_left(page, "pl", "cs")
    assert not left, left


def _long_game(lines: int) -> tuple[dict[str, Any], int, tuple[int, ...]]:
    """Options, seed and moves of a hot-seat game whose seats play their Treasures and
    buy nothing (three log lines a move): ``lines`` lines of log, fast; the seat to
    move then has Coppers to play."""
    spec = get_game("dominion")
    options: dict[str, Any] = {"kingdom": "First Game"}
    st: Any = spec.create(spec.config(2, 5, dict(options)))
    moves: list[int] = []
    while len(st.log_for(0)) < lines or st.view(st.current_player)["hand"].count("copper") < 2:
        legal = st.legal_actions()
        a = A.A_ALL_TREASURES if A.A_ALL_TREASURES in legal else A.A_END_PHASE
        moves.append(a)
        st.apply(a)
    return options, 5, tuple(moves)


# The log's lines in the page, and where its box is scrolled
LOG = """
() => {
  const box = document.querySelector("#log-scroll");
  const b = box.getBoundingClientRect();
  const lis = [...document.querySelectorAll("#log li")];
  const seen = lis.filter((li) => {
    const r = li.getBoundingClientRect();
    return r.bottom > b.top + 1 && r.top < b.bottom - 1;
  });
  return {
    drawn: lis.length,
    seen: seen.map((li) => [Number(li.value), li.textContent]),
    height: box.scrollHeight, view: box.clientHeight, top: box.scrollTop,
    line: Math.min(...lis.map((li) => li.getBoundingClientRect().height)),
    live: document.querySelector("#log-live").textContent,
  };
}
"""


def _scroll_log(page: Any, to: str) -> dict[str, Any]:
    page.eval_on_selector("#log-scroll", f"box => {{ box.scrollTop = {to}; }}")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return dict(page.evaluate(LOG))


def _check_whole_log(page: Any, total: list[str]) -> None:
    """Few lines drawn, a scroll height for all of them, the first line at the top and
    the newest at the bottom."""
    n = len(total)
    log = _scroll_log(page, "box.scrollHeight")
    assert log["drawn"] < 200, log["drawn"]
    assert log["height"] >= n * log["line"] * 0.95, (log["height"], n, log["line"])
    assert log["seen"][-1] == [n, total[-1]], log["seen"][-1]
    log = _scroll_log(page, "0")
    assert log["drawn"] < 200 and log["seen"][0] == [1, total[0]], log["seen"][:2]
    # the middle of the game half way down (the lines' heights are estimated until drawn)
    log = _scroll_log(page, "box.scrollHeight / 2")
    middle = log["seen"][len(log["seen"]) // 2][0]
    assert 0.4 * n < middle < 0.6 * n, (middle, n)
    wrong = [(k, text, total[k - 1]) for k, text in log["seen"] if text != total[k - 1]]
    assert not wrong, wrong[:3]
    numbers = [k for k, _ in log["seen"]]
    assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))


def test_log_is_the_whole_game_virtualised_with_card_previews(page: Any, unthrottled: str) -> None:
    options, seed, moves = _long_game(2100)
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Kuba"}]
    res = page.request.post(
        unthrottled + "/api/games",
        data={"game": "dominion", "seats": seats, "options": options, "seed": seed},
    )
    info = res.json()
    gid, tokens = info["id"], [s["token"] for s in info["seats"]]
    send_moves(unthrottled, gid, tokens, moves)
    page.goto(f"{unthrottled}/game/{gid}#t={','.join(tokens)}")
    page.wait_for_selector("#choices > .choice, #pass-screen:not([hidden])")
    if page.query_selector("#pass-screen:not([hidden])"):
        page.keyboard.press("Enter")
    page.wait_for_selector("#log li")
    # the game in play: the newest line in view, a few lines drawn of 2,000
    log = page.evaluate(LOG)
    n = log["seen"][-1][0]
    assert n >= 2000 and log["drawn"] < 200, (n, log["drawn"])
    assert log["height"] >= n * log["line"] * 0.95
    # at the bottom the log follows the game, and says the new line to screen readers
    copper = "#d-hand .dcard.clickable[data-card='copper']"
    step = page.get_attribute("body", "data-step")
    page.click(copper)
    wait_step_change(page, step)
    log = page.evaluate(LOG)
    played = f"{page.text_content('#title').split(' · ')[1]} plays Copper"
    assert log["seen"][-1] == [n + 1, played], log["seen"][-2:]
    assert log["live"] == played and log["drawn"] < 200
    # a shorter box (a smaller window) still ends at the newest line
    page.set_viewport_size({"width": 1200, "height": 700})
    page.wait_for_function(
        "(() => { const b = document.querySelector('#log-scroll');"
        " return b.scrollHeight - b.scrollTop - b.clientHeight < 2; })()"
    )
    assert page.evaluate(LOG)["seen"][-1] == [n + 1, played]
    # read back to the first line: a new line does not pull the reader down
    first = _scroll_log(page, "0")["seen"][0]
    assert first[0] == 1 and first[1].startswith("Kingdom:"), first
    step = page.get_attribute("body", "data-step")
    page.click(copper)
    wait_step_change(page, step)
    log = _scroll_log(page, "box.scrollTop")
    assert log["seen"][0] == first, log["seen"][:2]
    assert log["live"] == played
    # a card's name in the log: hover shows the card beside it, a click shows it large
    name = page.locator("#log li .log-card[data-card='copper']").first
    name.hover()
    page.wait_for_selector(".card-tip .dcard[data-card='copper']")
    page.mouse.move(5, 5)
    page.wait_for_selector(".card-tip", state="detached")
    name.click()
    page.wait_for_selector("#d-zoom:not([hidden]) .dcard[data-card='copper']")
    page.click("#d-zoom")
    # the replay of the finished game, in each language
    page.click("#resign")
    page.click("#resign")
    page.wait_for_selector(".scores")
    page.click("#replay-link")
    page.wait_for_selector("#replay-controls:not([hidden])")
    for lang, kingdom in (("en", "Kingdom:"), ("pl", "Królestwo:"), ("cs", "Království:")):
        page.wait_for_selector("#r-seat option", state="attached")
        seat = page.eval_on_selector("#r-seat", "el => el.value")
        total = page.request.get(f"{unthrottled}/api/games/{gid}/replay?seat={seat}&lang={lang}")
        texts = [e["text"] for e in total.json()["log"]]
        assert texts[0].startswith(kingdom), texts[0]
        if lang != "en":
            page.select_option("#lang", lang)
        page.wait_for_function(
            f"document.documentElement.lang === {lang!r} && [...document.querySelectorAll("
            f"'#log li')].some((li) => li.textContent === {texts[-1]!r})"
        )
        _check_whole_log(page, texts)


def test_a_mistyped_kingdom_gets_a_polish_error_with_did_you_mean(
    browser: Any, server: str
) -> None:
    context = browser.new_context(bypass_csp=True)
    context.add_init_script("localStorage.setItem('kingdoms:lang', 'pl')")
    page = context.new_page()
    try:
        page.goto(server + "/")
        page.wait_for_selector("body[data-ready]")
        page.select_option("#game", "dominion")
        page.fill(".option-text[data-text='kingdom']", "Piwnica, Kaplca, Fosa")
        page.click("#create")
        page.wait_for_function("document.querySelector('#create-error').textContent !== ''")
        text = page.text_content("#create-error")
        assert text == "Nie ma takiej karty Królestwa: Kaplca. Czy chodziło o: Kaplica?", text
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "pl", "cs"])
def test_first_game_guide_from_the_lobby_and_the_rules_pages(
    browser: Any, server: str, lang: str
) -> None:
    from kingdoms.i18n import catalog

    context = browser.new_context(bypass_csp=True, viewport={"width": 1366, "height": 768})
    context.add_init_script(f"localStorage.setItem('kingdoms:lang', '{lang}')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    tr = catalog(lang) if lang != "en" else {}
    try:
        # Kingdomino: the guide names each step
        page.goto(server + "/")
        page.wait_for_selector("body[data-ready]")
        page.click("#guide-kingdomino")
        page.wait_for_selector("#guide[data-stage='pick']")
        stages = set()
        for _ in range(8):
            page.wait_for_selector("#guide")
            stages.add(page.get_attribute("#guide", "data-stage"))
            if "place" in stages:
                break
            if page.query_selector(".domino.clickable"):
                step = _step(page)
                page.click(".domino.clickable >> nth=0")
                wait_step_change(page, step)
            else:
                page.wait_for_timeout(100)
        assert {"pick", "place"} <= stages
        hint = page.text_content("#guide") or ""
        want = "Place your domino: click a highlighted square"
        assert (
            tr.get(
                want
                + " next to your castle or to a matching terrain, Rotate to turn it, then Place.",
                want,
            )[:20]
            in hint
        )
        # Dominion: the action or buy phase explained
        page.goto(server + "/")
        page.wait_for_selector("body[data-ready]")
        page.click("#guide-dominion")
        page.wait_for_selector("#guide[data-stage='buy'], #guide[data-stage='action']")
        # the rules pages: every card's text, every domino
        page.goto(server + "/rules/dominion")
        page.wait_for_selector("body[data-ready]")
        assert page.locator(".rules-cards .dcard").count() >= 44
        smithy = page.text_content(".rules-cards .dcard[data-card='smithy'] .dtext") or ""
        assert "+3" in smithy
        page.goto(server + "/rules/kingdomino")
        page.wait_for_selector("body[data-ready]")
        assert page.locator("#rules-cards tbody tr").count() == 48
    finally:
        context.close()
    assert not errors, errors
