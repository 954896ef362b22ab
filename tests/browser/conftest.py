"""Browser tests: the app served by uvicorn in a thread, Debian's Chromium via Playwright."""

from __future__ import annotations

import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from kingdoms.core import registry

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent / "server"))  # the toy game
ARTIFACTS = HERE.parents[1] / "test-artifacts"
CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Any:
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


@pytest.fixture(autouse=True)
def toy_game(monkeypatch: pytest.MonkeyPatch) -> None:
    games = {**registry._entry_points(), "toy": "toygame:GAME"}
    monkeypatch.setattr(registry, "_entry_points", lambda: MappingProxyType(games))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _until_started(srv: Any, thread: threading.Thread, timeout: float = 120.0) -> None:
    """Wait for the event: uvicorn listens (a loaded machine may take seconds; the
    bound only ends a hang, and a server that stopped fails at once)."""
    deadline = time.monotonic() + timeout
    while not srv.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("the server did not start")
        time.sleep(0.02)


def _serve(db: Path, **options: Any) -> Iterator[str]:
    """The app on a free port over a fresh SQLite file; yields its base URL."""
    import uvicorn

    from kingdoms.server.app import create_app

    port = _free_port()
    app = create_app(f"sqlite:///{db}", **options)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    _until_started(srv, thread)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture
def server(tmp_path: Path, toy_game: None) -> Iterator[str]:
    """The app on a free port over a fresh SQLite file; yields its base URL."""
    yield from _serve(tmp_path / "k.sqlite", bot_delay=0.05)


@pytest.fixture
def rated_create(tmp_path: Path, toy_game: None) -> Iterator[str]:
    """A server allowing one creation per client now and then (burst 1)."""
    yield from _serve(tmp_path / "k.sqlite", bot_delay=0.05, rate_limits={"create": 0.001})


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    # Module scope: Playwright's sync API keeps an event loop running while it is
    # open, which would stop later tests in the same worker from using asyncio.run.
    if not CHROMIUM.exists():
        pytest.skip("Debian's Chromium (/usr/bin/chromium) is not installed")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright (python) is not installed")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    # bypass_csp: Playwright's wait_for_function evaluates strings, which our CSP forbids
    context = browser.new_context(
        viewport={"width": 1200, "height": 900}, locale="en-US", bypass_csp=True
    )
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.set_default_timeout(10_000)
    yield pg
    rep = getattr(request.node, "rep_call", None)
    if rep is not None and rep.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        for i, open_page in enumerate(context.pages):
            open_page.screenshot(
                path=str(ARTIFACTS / f"{request.node.name}-{i}.png"), full_page=True
            )
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture
def seeded(tmp_path: Path, toy_game: None) -> Iterator[str]:
    """The app accepting seeds (reproducible games) with quick bots."""
    yield from _serve(tmp_path / "k.sqlite", bot_delay=0.01, allow_seeds=True)


@pytest.fixture
def unthrottled(tmp_path: Path, toy_game: None) -> Iterator[str]:
    """A seeded server taking moves as fast as they come (a game set up by its moves)."""
    yield from _serve(tmp_path / "k.sqlite", bot_delay=0.01, allow_seeds=True, message_rate=None)
