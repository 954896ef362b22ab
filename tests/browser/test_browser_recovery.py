"""The game page recovers by itself when its first hello meets a database error."""

from __future__ import annotations

import itertools
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from kingdoms.server import storage

pytestmark = pytest.mark.browser


@pytest.fixture
def short_busy_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite writes give up on a lock after 0.2 s (before the server starts)."""
    monkeypatch.setattr(storage, "SQLITE_BUSY_MS", 200)


def test_a_first_hello_that_meets_a_locked_database_is_said_again_until_it_works(
    short_busy_timeout: None, page: Any, server: str, tmp_path: Path
) -> None:
    """Another process holds the database's write lock when the player opens the
    invite: the server answers the hello with an error (the seat cannot be marked
    joined); the page says hello again with a growing pause and shows the game within
    seconds of the lock's release, without a reload."""
    res = page.request.post(server + "/api/games", data={"game": "toy", "players": 2})
    game = res.json()
    locker = sqlite3.connect(tmp_path / "k.sqlite", isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")
    hellos: list[float] = []
    page.on(
        "websocket",
        lambda ws: ws.on(
            "framesent", lambda f: hellos.append(time.monotonic()) if "hello" in str(f) else None
        ),
    )
    try:
        page.goto(game["seats"][0]["link"])
        page.wait_for_function(
            "document.querySelector('#toast').textContent.includes('trying again')"
        )
        # the event: the page said hello again (not left on a blank page)
        deadline = time.monotonic() + 60
        while len(hellos) < 2 and time.monotonic() < deadline:
            page.wait_for_timeout(50)  # (lets the page's events in)
        assert len(hellos) >= 2
        assert page.query_selector(".choice") is None
    finally:
        locker.execute("COMMIT")
        locker.close()
    released = time.monotonic()
    page.wait_for_selector(".choice", timeout=8_000)
    assert time.monotonic() - released < 6
    assert page.text_content("#prompt-title") == "Your decision"
    gaps = [b - a for a, b in itertools.pairwise(hellos)]
    assert gaps and max(gaps) <= 5  # a bounded, growing pause between hellos
