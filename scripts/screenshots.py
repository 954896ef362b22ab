"""Screenshots of the web app for the README (docs/img/), taken with Debian's Chromium.

    .venv/bin/python scripts/screenshots.py [--out docs/img]

Starts the app on a free loopback port over a temporary database, plays a few
moves of each game with a bot opponent (fixed seeds), and saves desktop
(1366×768) and phone (390×844) pictures.
"""

from __future__ import annotations

import argparse
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn
from playwright.sync_api import sync_playwright

from kingdoms.server.app import create_app

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.browser.drive import kingdomino_moves

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _game(page: Any, base: str, game: str, bot: str, seed: int, options: dict[str, Any]) -> str:
    seats = [{"kind": "human", "name": "Alice"}, {"kind": "bot", "name": "Bob", "bot": bot}]
    res = page.request.post(
        base + "/api/games",
        data={"game": game, "seats": seats, "seed": seed, "options": options},
    )
    return str(res.json()["seats"][0]["link"])


def _settled(page: Any) -> None:
    """Wait until the page is drawn: fonts and pictures loaded, animations (a card
    dealt in) finished, two frames painted."""
    page.wait_for_function(
        "document.fonts.status === 'loaded' && [...document.images].every((i) => i.complete)"
    )
    page.wait_for_function(
        "document.getAnimations().every((a) => a.playState !== 'running')", timeout=10_000
    )
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def _dominion_moves(page: Any, n: int) -> None:
    for _ in range(n):
        page.wait_for_selector(".choices > .choice")
        step = page.get_attribute("body", "data-step")
        for sel in (
            "#d-supply .dcard.clickable[data-card='gold']",
            "#d-supply .dcard.clickable[data-card='smithy']",
            "#d-supply .dcard.clickable[data-card='silver']",
            "#d-hand .dcard.clickable",
        ):
            el = page.query_selector(sel)
            if el:
                el.click()
                if page.query_selector("#d-confirm:not([hidden])"):  # a touch screen
                    page.click("#d-confirm-do")
                break
        else:
            page.click(".choice >> nth=-1")
        page.wait_for_function(f"document.body.dataset.step !== '{step}'")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default="docs/img")
    parser.add_argument("--lang", default="en", choices=["en", "pl", "cs"])
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    suffix = "" if args.lang == "en" else f"-{args.lang}"
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(f"sqlite:///{tmp}/shots.sqlite", bot_delay=0.05, allow_seeds=True)
        port = _free_port()
        srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
        thread = threading.Thread(target=srv.run, daemon=True)
        thread.start()
        while not srv.started:
            time.sleep(0.05)
        base = f"http://127.0.0.1:{port}"
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                shots = {
                    "desktop": {"viewport": {"width": 1366, "height": 768}},
                    "phone": {
                        "viewport": {"width": 390, "height": 844},
                        "device_scale_factor": 2,
                        "is_mobile": True,
                        "has_touch": True,
                    },
                }
                for kind, opts in shots.items():
                    ctx = browser.new_context(locale="en-US", bypass_csp=True, **opts)
                    ctx.add_init_script(f"localStorage.setItem('kingdoms:lang', '{args.lang}')")
                    page = ctx.new_page()
                    link = _game(page, base, "dominion", "big-money", 11, {"kingdom": "First Game"})
                    page.goto(link)
                    page.wait_for_selector("#d-supply")
                    _dominion_moves(page, 14)
                    page.wait_for_selector(".choices > .choice")
                    page.evaluate("window.scrollTo(0, 0)")
                    _settled(page)
                    page.screenshot(path=str(out / f"dominion-{kind}{suffix}.png"))
                    link = _game(page, base, "kingdomino", "greedy", 5, {})
                    page.goto(link)
                    page.wait_for_selector("#k-current")
                    kingdomino_moves(page, 9)
                    page.wait_for_selector(".choices > .choice, #k-tools")
                    if page.query_selector(".kd-cell.target"):  # a placement shown on the grid
                        page.click(".kd-cell.target >> nth=0")
                        page.wait_for_selector(".kd-cell.preview")
                    page.evaluate("window.scrollTo(0, 0)")
                    _settled(page)
                    page.screenshot(path=str(out / f"kingdomino-{kind}{suffix}.png"))
                    if kind == "desktop":  # the end of a game between bots, as a spectator
                        for game, bot, sel in (
                            ("dominion", "big-money", "#d-outcome"),
                            ("kingdomino", "greedy", "#k-breakdown"),
                        ):
                            seats = [
                                {"kind": "bot", "bot": bot, "name": "Alice"},
                                {"kind": "bot", "bot": bot, "name": "Bob"},
                            ]
                            res = page.request.post(
                                base + "/api/games",
                                data={"game": game, "seats": seats, "seed": 3},
                            )
                            page.goto(f"{base}/game/{res.json()['id']}")
                            page.wait_for_selector(sel, timeout=120_000)
                            _settled(page)
                            page.screenshot(
                                path=str(out / f"{game}-end{suffix}.png"), full_page=True
                            )
                    page.goto(base + "/")
                    page.wait_for_selector("#running-games li[data-id]")
                    _settled(page)
                    page.screenshot(
                        path=str(out / f"lobby-{kind}{suffix}.png"), full_page=kind == "phone"
                    )
                    ctx.close()
                browser.close()
        finally:
            srv.should_exit = True
            thread.join(timeout=10)


if __name__ == "__main__":
    main()
