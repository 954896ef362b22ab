"""Game reviews on the server: asked for, computed in the background, stored, resumed
after a restart, bounded per client and shown by the visibility rules."""

from __future__ import annotations

import asyncio
import subprocess
import sys
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
from kingdoms.server.review import ReviewGate, ReviewService, ReviewStore
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


def test_the_bot_pool_says_when_play_waits() -> None:
    """Its listeners hear True when a bot move starts to wait or run while none did, and
    False once the last is done."""

    async def main() -> list[bool]:
        pool, heard = BotPool(workers=1), []
        pool.listeners.append(heard.append)

        async def move() -> None:
            async with pool.slot(False):
                await asyncio.sleep(0)

        await asyncio.gather(move(), move(), move())
        await move()
        return heard

    assert asyncio.run(main()) == [True, False, True, False]


def _state_of(pid: int, stopped: bool | None = None) -> str:
    """The process's state letter; with ``stopped``, once it is (or is not) stopped: a
    signal is delivered soon after it is sent, not at once (the bound ends a hang)."""
    end = time.monotonic() + 30
    while True:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        if stopped is None or (state == "T") == stopped or time.monotonic() > end:
            return state
        time.sleep(0.001)


def test_the_gate_stops_review_processes_while_a_bot_move_runs() -> None:
    """A review process is stopped while a bot move waits or runs, and goes on after:
    the bot's move never shares a CPU with it."""
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:

        async def main() -> list[str]:
            pool, gate = BotPool(workers=1), ReviewGate()
            pool.listeners.append(gate.update)
            gate.adopt({busy.pid})
            seen = [_state_of(busy.pid, stopped=False)]
            async with pool.slot(True):
                seen.append(_state_of(busy.pid, stopped=True))
            seen.append(_state_of(busy.pid, stopped=False))
            gate.update(True)  # a process adopted while play waits is stopped at once
            late = subprocess.Popen([sys.executable, "-c", "while True: pass"])
            try:
                gate.adopt({late.pid})
                seen.append(_state_of(late.pid, stopped=True))
                gate.release()
                seen.append(_state_of(late.pid, stopped=False))
            finally:
                late.kill()
                late.wait()
            return seen

        states = asyncio.run(main())
    finally:
        busy.kill()
        busy.wait()
    # going on: running, asleep, or waiting on the disk (D: a new process still loading)
    going = "RSD"
    assert states[0] in going and states[1] == "T" and states[2] in going, states
    assert states[3] == "T" and states[4] in going, states


def test_a_games_own_players_are_never_refused_and_go_first(tmp_path: Path) -> None:
    """Strangers fill the queue: a game's own player still gets its review, ahead of
    every stranger's; a stranger may not ask for a private game's."""
    url = _url(tmp_path)
    for i in range(4):
        _store_game(url, f"g{i}")
    _store_game(url, "secret", {"private": True})

    async def main() -> tuple[list[str], list[str]]:
        master = GameMaster(Storage(url), bot_delay=0)
        service = ReviewService(master, BUDGET, per_client=1, max_queue=2)  # not started
        out = []
        for i, client in enumerate(("1.1.1.1", "2.2.2.2", "3.3.3.3")):
            try:
                table = await master.fetch(f"g{i}")
                out.append((await service.request(table, client))["status"])
            except Exception as err:
                out.append(getattr(err, "code", "?"))
        for game_id, own in (("g3", True), ("g1", True), ("secret", False)):
            table = await master.fetch(game_id)
            try:
                out.append((await service.request(table, "4.4.4.4", own=own))["status"])
            except Exception as err:
                out.append(getattr(err, "code", "?"))
        order = []
        while not service.queue.empty():
            priority, _seq, game_id = service.queue.get_nowait()
            if service._queued.get(game_id) == priority:  # as the worker takes them
                order.append(game_id)
        return out, order

    out, order = asyncio.run(main())
    assert out == ["queued", "queued", "busy", "queued", "queued", "no_game"]
    assert order == ["g3", "g1", "g0"]  # own ones first (g1 moved ahead), then strangers


def test_a_strangers_review_gives_way_to_a_players_own(tmp_path: Path) -> None:
    """A stranger's review under way stops between two steps when a game's own player
    asks for theirs; it ends afterwards, every step kept."""
    url = _url(tmp_path)
    _store_game(url, "theirs")
    _store_game(url, "mine")
    ended: list[str] = []

    async def main() -> None:
        master = GameMaster(Storage(url), bot_delay=0)
        service = ReviewService(master, BUDGET)
        real_finish = service.store.finish

        def finish(game_id: str, error: str | None = None) -> None:
            ended.append(game_id)
            real_finish(game_id, error)

        service.store.finish = finish  # type: ignore[method-assign]
        real_add = service.store.add
        first_step = asyncio.Event()
        loop = asyncio.get_running_loop()

        def add(game_id: str, results: Any, cpu: float) -> None:
            real_add(game_id, results, cpu)
            loop.call_soon_threadsafe(first_step.set)

        service.store.add = add  # type: ignore[method-assign]
        await service.start()
        try:
            await service.request(await master.fetch("theirs"), "5.5.5.5")
            await asyncio.wait_for(first_step.wait(), 300)  # the event: it is under way
            await service.request(await master.fetch("mine"), "6.6.6.6", own=True)
            while len(ended) < 2:
                await asyncio.sleep(0.05)
        finally:
            await service.stop()
            await master.stop()

    asyncio.run(asyncio.wait_for(main(), 600))
    assert ended == ["mine", "theirs"]
    store = ReviewStore(Storage(url))
    for game_id in ("mine", "theirs"):
        review = store.get(game_id)
        assert review is not None and review["status"] == "done"
        assert len(review["decisions"]) == review["total"] > 0
