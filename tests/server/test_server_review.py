"""Game reviews on the server: asked for, computed in the background, stored, resumed
after a restart, bounded per client and shown by the visibility rules."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from kingdoms.bots.base import make_bot
from kingdoms.core.runner import run_game
from kingdoms.review import Budget
from kingdoms.server.app import create_app
from kingdoms.server.botpool import BotPool
from kingdoms.server.master import GameMaster
from kingdoms.server.review import ReviewService, ReviewStore
from kingdoms.server.storage import STATUS_FINISHED, STATUS_RUNNING, Storage, StoredGame
from kingdoms.server.table import hash_token

BUDGET = Budget(iterations=3, width=2)
TOKENS = ("ann-secret-token", "bob-secret-token")


def _store_game(
    url: str, game_id: str, meta: dict[str, Any] | None = None, done: bool = True
) -> None:
    state = run_game("kingdomino", [make_bot("kingdomino", "greedy")] * 2, seed=4)
    actions = list(state.history) if done else list(state.history[:6])
    outcome = state.outcome()
    seats = [
        {"kind": "human", "name": name, "token_hash": hash_token(tok), "joined": True}
        for name, tok in zip(("Ann", "Bob"), TOKENS, strict=True)
    ]
    store = Storage(url)
    store.create_game(
        StoredGame(
            id=game_id, game="kingdomino", players=2, seed=4, options=dict(state.config.options),
            seats=seats, status=STATUS_FINISHED if done else STATUS_RUNNING,
            outcome=outcome.to_json() if done and outcome else None, meta=meta or {},
            actions=actions,
        )
    )  # fmt: skip
    store.close()


def _wait_done(
    client: TestClient, game_id: str, timeout: float = 300.0, headers: dict[str, str] | None = None
) -> dict[str, Any]:
    """Wait for the event: the review is done (the bound only ends a hang)."""
    until = time.monotonic() + timeout
    while time.monotonic() < until:
        body: dict[str, Any] = client.get(f"/api/games/{game_id}/review", headers=headers).json()
        if body["status"] in ("done", "failed"):
            return body
        time.sleep(0.2)
    raise AssertionError(f"review of {game_id} not done in {timeout} s")


def _url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'kingdoms.sqlite'}"


def test_review_is_computed_stored_and_shown_by_the_rules(tmp_path: Path) -> None:
    url = _url(tmp_path)
    _store_game(url, "priv1", {"private": True})
    _store_game(url, "pub1")
    _store_game(url, "run1", done=False)
    with TestClient(create_app(url, bot_delay=0, review_budget=BUDGET)) as client:
        # a private game: a stranger cannot even tell it exists
        assert client.get("/api/games/priv1/review").status_code == 404
        assert client.post("/api/games/priv1/review").status_code == 404
        assert client.post("/api/games/run1/review").status_code == 409
        assert client.post("/api/games/nosuch/review").status_code == 404
        ann_asks = {"X-Seat-Tokens": TOKENS[0]}
        assert client.get("/api/games/priv1/review", headers=ann_asks).json()["status"] == "none"
        res = client.post("/api/games/priv1/review", headers=ann_asks)
        assert res.status_code == 202 and res.json()["status"] in ("queued", "running")
        body = _wait_done(client, "priv1", headers=ann_asks)
        assert body["status"] == "done" and body["done"] == body["total"] > 0
        assert [s["visible"] for s in body["seats"]] == [True, False]
        own = client.get(
            "/api/games/priv1/review?lang=pl", headers={"X-Seat-Tokens": TOKENS[0]}
        ).json()
        assert [s["visible"] for s in own["seats"]] == [True, False]
        ann = own["seats"][0]
        assert ann["mine"] and ann["curve"] and len(ann["mistakes"]) <= 3
        assert all(0 <= p["win"] <= 1 for p in ann["curve"])
        assert any(ch in "ółżąę" for p in ann["curve"] for ch in p["move"])  # Polish texts
        assert "curve" not in own["seats"][1]
        # Bob shares his: now everyone sees it
        anonymous = client.post("/api/games/priv1/review/share", json={"shared": True})
        assert anonymous.status_code == 404  # private: a stranger sees no game at all
        shared = client.post(
            "/api/games/priv1/review/share",
            json={"shared": True},
            headers={"X-Seat-Tokens": TOKENS[1]},
        )
        assert shared.json() == {"shared": [1]}
        seen = client.get("/api/games/priv1/review", headers=ann_asks).json()
        assert [s["visible"] for s in seen["seats"]] == [True, True]
        # a public finished game: every seat for everyone; a second request is cached
        client.post("/api/games/pub1/review")
        pub = _wait_done(client, "pub1")
        assert [s["visible"] for s in pub["seats"]] == [True, True]
        again = client.post("/api/games/pub1/review")
        assert again.json()["status"] == "done" and again.json()["done"] == pub["done"]


def test_an_interrupted_review_resumes_after_a_restart(tmp_path: Path) -> None:
    url = _url(tmp_path)
    _store_game(url, "g1")
    storage = Storage(url)
    store = ReviewStore(storage)
    assert store.request("g1", "1.2.3.4", BUDGET)
    from kingdoms.core.record import GameRecord
    from kingdoms.review.game import analyse_steps, positions

    stored = storage.load_game("g1")
    assert stored is not None
    from kingdoms.core.state import GameConfig

    record = GameRecord(GameConfig("kingdomino", 2, 4, stored.options), tuple(stored.actions))
    steps = positions(record, None, BUDGET.width)
    first = analyse_steps(record, steps[:3], BUDGET)
    for _, decision in first:
        if decision is not None:
            decision.iterations = 777_777  # a mark: kept, not analysed again
    store.add("g1", first, 1.0)
    store.start("g1", len(steps))
    storage.close()
    with TestClient(create_app(url, bot_delay=0, review_budget=BUDGET)) as client:
        body = _wait_done(client, "g1")
        assert body["done"] == len(steps) and body["status"] == "done"
    store = ReviewStore(Storage(url))
    decisions = store.get("g1")["decisions"]  # type: ignore[index]
    marked = [d for d in decisions.values() if d and d["iterations"] == 777_777]
    assert len(marked) == sum(1 for _, d in first if d is not None)
    assert {int(s) for s in decisions} == set(steps)


def test_reviews_are_bounded_per_client(tmp_path: Path) -> None:
    url = _url(tmp_path)
    for i in range(4):
        _store_game(url, f"g{i}")

    async def main() -> list[str]:
        master = GameMaster(Storage(url), bot_delay=0)
        service = ReviewService(master, BUDGET, per_client=2)  # not started: nothing runs
        out = []
        for i in range(3):
            table = await master.fetch(f"g{i}")
            try:
                out.append((await service.request(table, "9.9.9.9"))["status"])
            except Exception as err:
                out.append(getattr(err, "code", "?"))
        table = await master.fetch("g3")
        out.append((await service.request(table, "8.8.8.8"))["status"])
        return out

    assert asyncio.run(main()) == ["queued", "queued", "busy", "queued"]


def test_reviews_wait_for_every_bot_move() -> None:
    async def main() -> list[str]:
        pool, order = BotPool(workers=1), []

        async def move(name: str, people: bool) -> None:
            async with pool.slot(people):
                order.append(name)
                await asyncio.sleep(0.01)

        async def review() -> None:
            async with pool.idle_slot(poll=0.001):
                order.append("review")

        first = asyncio.create_task(move("bots", False))
        await asyncio.sleep(0)
        await asyncio.gather(review(), move("people", True), move("bots-2", False), first)
        return order

    assert asyncio.run(main()) == ["bots", "people", "bots-2", "review"]
