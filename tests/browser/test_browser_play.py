"""Play through the browser: lobby → game → decisions → hot-seat → game over."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


def _create_from_lobby(page: Any, server: str, kinds: list[str]) -> None:
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready]")
    page.select_option("#game", "toy")
    page.select_option("#players", str(len(kinds)))
    for row, kind in zip(page.query_selector_all("#seats .seat"), kinds, strict=True):
        row.query_selector(".kind").select_option(kind)
    page.click("#create")
    page.wait_for_selector("#created:not([hidden])")


def test_hot_seat_game_with_pass_the_device(page: Any, server: str) -> None:
    _create_from_lobby(page, server, ["human", "human"])
    assert len(page.query_selector_all("#created .invite")) == 2
    page.click("#play-here")
    page.wait_for_selector("body[data-ready]")
    page.wait_for_selector(".choice")
    assert "#t=" not in page.url  # the secret leaves the address bar
    assert page.text_content("#prompt-title") == "Your decision"
    page.click(".choice >> text=pass")
    # the next human seat is on the same device: the board hides until they are ready
    page.wait_for_selector("#pass-screen:not([hidden])")
    assert "Pass the device" in page.text_content("#pass-text")
    assert page.query_selector(".choice") is None
    assert "Hidden until" in page.text_content("#board")
    assert "hand" not in page.text_content("#board")  # the previous hand is gone
    page.keyboard.press("Enter")
    page.wait_for_selector("#pass-screen", state="hidden")
    page.wait_for_selector("body[data-step='1']")
    page.keyboard.press("1")  # the first legal action, by keyboard
    page.wait_for_selector("body[data-step='2']")


def test_against_a_bot_to_the_end_then_replay(page: Any, server: str) -> None:
    _create_from_lobby(page, server, ["human", "bot"])
    page.click("#play-here")
    page.wait_for_selector("body[data-ready]")
    for _ in range(40):
        page.wait_for_selector(".choice, .scores")
        if page.query_selector(".scores"):
            break
        step = page.get_attribute("body", "data-step")
        page.click(".choice >> nth=-1")  # pass
        page.wait_for_function(f"document.body.dataset.step !== '{step}'")
    page.wait_for_selector(".scores")
    assert page.text_content("#prompt-title") == "Game over"
    href = page.get_attribute("#record-link", "href")
    assert page.request.get(server + href).ok
    # the lobby lists the finished game with a replay
    page.goto(server + "/")
    page.wait_for_selector("#finished-games a")
    page.click("#finished-games a >> text=Replay")
    page.wait_for_selector("#replay-controls:not([hidden])")
    # it opens at the final position, with the scores of that step
    page.wait_for_selector("#score-line")
    label = page.text_content("#r-label")
    moves = label.split(" of ")[1]
    assert label == f"Move {moves} of {moves}" and int(moves) > 0
    page.click("#r-first")
    page.wait_for_function("document.querySelector('#r-label').textContent.startsWith('Move 0 ')")
    # the keyboard steps through it
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.querySelector('#r-label').textContent.startsWith('Move 1 ')")
    page.keyboard.press("End")
    page.wait_for_function(
        f"document.querySelector('#r-label').textContent === 'Move {moves} of {moves}'"
    )


def test_language_switch_and_phone_layout(page: Any, server: str) -> None:
    page.set_viewport_size({"width": 390, "height": 800})
    _create_from_lobby(page, server, ["human", "human"])
    page.click("#play-here")
    page.wait_for_selector(".choice")
    page.select_option("#lang", "pl")
    page.wait_for_selector(".choice >> text=pas")
    page.wait_for_function(
        "document.querySelector('#prompt-title').textContent !== 'Your decision'"
    )
    assert page.text_content("#prompt-title") == "Twoja decyzja"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 400


def test_rejoin_after_closing_the_tab_and_bad_links(page: Any, server: str, browser: Any) -> None:
    res = page.request.post(
        server + "/api/games", data={"game": "toy", "seats": [{"kind": "human"}, {"kind": "bot"}]}
    )
    game = res.json()
    page.goto(game["seats"][0]["link"])
    page.wait_for_selector(".choice")
    page.close()
    # a new tab in the same browser profile finds the seat token in localStorage
    again = page.context.new_page()
    again.goto(f"{server}/game/{game['id']}")
    again.wait_for_selector(".choice")
    assert again.text_content("#prompt-title") == "Your decision"
    # a forged token: a clear message, no board
    other = browser.new_context(bypass_csp=True).new_page()
    other.goto(f"{server}/game/{game['id']}#t=forged")
    other.wait_for_function(
        "document.querySelector('#prompt-title').textContent.includes('not valid')"
    )
    other.context.close()


def test_undo_button_takes_back_a_quiet_action(page: Any, server: str) -> None:
    res = page.request.post(server + "/api/games", data={"game": "toy", "players": 2})
    game = res.json()
    page.goto(game["seats"][0]["link"])
    page.wait_for_selector(".choice")
    page.click(".choice >> text=pass")
    page.wait_for_selector("body[data-step='1']")
    assert page.text_content("#prompt-title").startswith("Waiting for")
    page.wait_for_selector("#undo:not([hidden])")
    page.keyboard.press("u")
    page.wait_for_selector("body[data-step='0']")
    page.wait_for_selector(".choice")
    assert page.is_hidden("#undo")


def test_generic_board_labels_seats(page: Any, server: str) -> None:
    res = page.request.post(
        server + "/api/games",
        data={
            "game": "toy",
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        },
    )
    page.goto(res.json()["seats"][0]["link"])
    page.wait_for_selector(".choice")
    labels = page.eval_on_selector_all(".per-seat dt", "els => els.map(e => e.textContent)")
    assert labels[:2] == ["Ann", "Bob"]


def test_the_client_runs_under_its_content_security_policy(browser: Any, server: str) -> None:
    context = browser.new_context()  # no CSP bypass here
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    try:
        _create_from_lobby(page, server, ["human", "bot"])
        page.click("#play-here")
        page.wait_for_selector(".choice")
        page.click(".choice >> nth=-1")
        page.wait_for_selector("body[data-step='2'] .choice")
    finally:
        context.close()
    assert not problems, problems


def test_watching_a_bots_only_game_live_then_its_replay(page: Any, server: str) -> None:
    _create_from_lobby(page, server, ["bot", "bot"])
    page.click("#watch-created")
    # watched live to the end (or, when the bots were quicker, straight to the replay)
    page.wait_for_selector(".scores, #replay-controls:not([hidden])", timeout=15_000)
    assert page.text_content("#prompt-title") == "Game over"
    if page.query_selector(".scores"):
        assert "Watching" in page.text_content("#title")
        assert page.query_selector_all("#log li")
        assert page.query_selector("#rematch") is None  # a spectator holds no seat
        page.click("#replay-link")
    page.wait_for_selector("#replay-controls:not([hidden])", timeout=15_000)
    # the controls show at once; the final position and its log come with the first fetch
    page.wait_for_selector("body[data-step] #log li", timeout=15_000)
    assert page.query_selector_all("#log li")
