"""What one client can make the server keep: idle games leave memory (and come back
identically), games waiting for players are bounded per address, spectators are
bounded per game and per address, and storage writes never hold up the event loop."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette
from test_server_slow_clients import Player, _dominion_against_a_bot

from kingdoms.server import spectate
from kingdoms.server import storage as storage_module
from kingdoms.server.app import create_app
from kingdoms.server.limits import ServerLimits
from kingdoms.server.master import GameMaster, RequestError
from kingdoms.server.spectate import watch
from kingdoms.server.storage import Storage

HUMANS = [{"kind": "human"}, {"kind": "human"}]


class Inbox:
    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    async def send(self, msg: dict[str, Any]) -> None:
        self.messages.append(json.loads(json.dumps(msg)))


async def _play(gm: GameMaster, game_id: str, moves: int) -> None:
    rng = random.Random(3)
    for _ in range(moves):
        table = await gm.fetch(game_id)
        if table.finished:
            return
        seat = table.state.current_player
        legal = table.state.legal_actions()
        msg = {"action": rng.choice(legal), "state_id": table.state.step}
        await gm.act(table, [seat], msg)


def _snapshot(gm: GameMaster, game_id: str) -> dict[str, Any]:
    table = gm.tables[game_id]
    state = table.state
    return {
        "history": list(state.history),
        "views": [state.view(p) for p in range(state.num_players)],
        "log": state.log_for(None),
        "legal": state.legal_actions(),
        "seats": table.seats,
        "version": table.version,
    }


def test_idle_games_leave_memory_and_come_back_identically(tmp_path: Path) -> None:
    async def main() -> None:
        limits = ServerLimits(evict_after=60.0, max_resident=5)
        gm = GameMaster(Storage(f"sqlite:///{tmp_path}/k.sqlite"), bot_delay=0, limits=limits)
        games = []
        for i in range(12):
            game = "dominion" if i % 2 else "kingdomino"
            table, _ = gm.create_game(game, HUMANS, seed=i)
            await _play(gm, table.id, 25)
            games.append(table.id)
        before = {gid: _snapshot(gm, gid) for gid in games}
        assert len(gm.tables) == 12
        # watched games stay, however many there are
        await watch(gm, games[0], Inbox().send)
        assert gm.evict_idle() == 12 - 5  # over max_resident: least recently used first
        assert len(gm.tables) == 5 and games[0] in gm.tables
        assert gm.evict_idle(time.monotonic() + 61) == 4  # idle for evict_after: all go
        assert list(gm.tables) == [games[0]]
        for gid in games:  # reloaded on demand, identical
            await gm.fetch(gid)
            assert _snapshot(gm, gid) == before[gid], gid
        await _play(gm, games[3], 5)  # and they go on
        assert gm.tables[games[3]].state.step > len(before[games[3]]["history"])

    asyncio.run(main())


def test_games_waiting_for_players_are_bounded_per_address(tmp_path: Path) -> None:
    async def main() -> None:
        limits = ServerLimits(unjoined_per_address=3)
        gm = GameMaster(Storage(f"sqlite:///{tmp_path}/k.sqlite"), bot_delay=0, limits=limits)
        made = [await gm.open_game("kingdomino", HUMANS, address="10.0.0.1") for _ in range(3)]
        with pytest.raises(RequestError) as err:
            await gm.open_game("kingdomino", HUMANS, address="10.0.0.1")
        assert err.value.code == "too_many"
        await gm.open_game("kingdomino", HUMANS, address="10.0.0.2")  # someone else may
        bots = [{"kind": "bot"}, {"kind": "bot"}]
        table, tokens = made[0]
        inbox = Inbox()
        await gm.subscribe(table.id, [t for t in tokens if t], inbox.send)  # joined
        await gm.open_game("kingdomino", HUMANS, address="10.0.0.1")  # a place again
        with pytest.raises(RequestError):
            await gm.open_game("kingdomino", HUMANS, address="10.0.0.1")
        assert await gm.client_games("10.0.0.1") == (3, 0)
        expired = gm.expire_unjoined(time.time() + 1)  # expired: places again
        assert made[1][0].id in expired and made[0][0].id not in expired
        assert await gm.client_games("10.0.0.1") == (0, 0)
        await gm.open_game("kingdomino", HUMANS, address="10.0.0.1")
        await gm.open_game("kingdomino", bots, address="10.0.0.1")  # nobody to wait for
        assert await gm.client_games("10.0.0.1") == (1, 0)
        await gm.stop()

    asyncio.run(main())


def test_spectators_are_bounded_per_game_and_per_address(tmp_path: Path) -> None:
    async def main() -> None:
        limits = ServerLimits(spectators_per_game=3, spectators_per_address=2)
        gm = GameMaster(Storage(f"sqlite:///{tmp_path}/k.sqlite"), bot_delay=0, limits=limits)
        one, _ = gm.create_game("kingdomino", HUMANS)
        two, _ = gm.create_game("kingdomino", HUMANS)
        _, first = await watch(gm, one.id, Inbox().send, address="a")
        await watch(gm, two.id, Inbox().send, address="a")
        with pytest.raises(RequestError) as err:
            await watch(gm, one.id, Inbox().send, address="a")  # a third from one address
        assert err.value.code == "too_many"
        await watch(gm, one.id, Inbox().send, address="b")
        await watch(gm, one.id, Inbox().send, address="c")
        with pytest.raises(RequestError):
            await watch(gm, one.id, Inbox().send, address="d")  # the game is full
        gm.unsubscribe(one, first)
        await watch(gm, one.id, Inbox().send, address="a")  # a place again, for both
        await gm.stop()

    asyncio.run(main())


def test_spectators_share_one_message_per_move_with_only_the_new_events(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        gm = GameMaster(Storage(f"sqlite:///{tmp_path}/k.sqlite"), bot_delay=0)
        table, _ = gm.create_game("dominion", HUMANS, seed=5)
        await _play(gm, table.id, 30)
        inboxes = [Inbox() for _ in range(20)]
        for inbox in inboxes:
            await watch(gm, table.id, inbox.send)
        full = inboxes[0].messages[0]
        assert full["log_start"] == 0 and len(full["log"]) == len(table.state.log)
        calls = 0
        original = spectate.public_view

        def counting(state: Any) -> Any:
            nonlocal calls
            calls += 1
            return original(state)

        spectate.public_view = counting
        try:
            await _play(gm, table.id, 3)
        finally:
            spectate.public_view = original
        assert calls == 3  # once per move, not once per spectator
        for inbox in inboxes:
            assert len(inbox.messages) == 4
            first, *deltas = inbox.messages
            log = list(first["log"])
            for msg in deltas:  # each holds only what is new
                assert msg["log_start"] == len(log)
                log += msg["log"]
            assert len(log) == len(table.state.log)
            assert deltas[-1] == inboxes[0].messages[-1]

    asyncio.run(main())


@contextlib.contextmanager
def _served(db: Path, **options: Any) -> Iterator[tuple[str, Starlette]]:
    """The app served by uvicorn in a thread of this process; its base URL and app."""
    import uvicorn

    app = create_app(f"sqlite:///{db}", **options)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120  # the event: it listens (the bound only ends a hang)
    while not srv.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        srv.should_exit = True
        thread.join(timeout=60)


def test_a_write_waiting_on_a_database_lock_holds_up_no_other_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With SQLite, a move whose write waits for a lock another connection holds (as
    another process would) does not stop the server from answering everyone else
    meanwhile.  Events, not time: the write has begun (a hook on the storage), the
    other requests are answered, and only then is the lock let go; the move is
    acknowledged after that, once stored."""
    monkeypatch.setattr(storage_module, "SQLITE_BUSY_MS", 120_000)  # waits, never fails
    db = tmp_path / "k.sqlite"
    with _served(db, bot_delay=0) as (base, app):
        storage = app.state.master.storage
        game_id, tokens = _dominion_against_a_bot(base)
        player = Player(base, game_id, tokens)
        player.my_turn()
        writing = threading.Event()
        append = storage.append_action

        def hooked(*args: Any, **kwargs: Any) -> Any:
            writing.set()  # the move's write begins (and waits for the lock below)
            return append(*args, **kwargs)

        monkeypatch.setattr(storage, "append_action", hooked)
        other = sqlite3.connect(db, timeout=0)
        try:
            other.execute("BEGIN IMMEDIATE")  # another connection holds the write lock
            choice = player.state["legal"][0]["action"]
            move = {"type": "action", "action": choice, "state_id": player.state["state_id"]}
            player.ws.send(json.dumps(move))
            assert writing.wait(120), "the move never reached the database"
            for path in ("/api/catalog", "/api/games", f"/api/games/{game_id}"):
                # answered while the write waits (a blocked event loop: a timeout here)
                assert httpx.get(base + path, timeout=30).status_code == 200
            with pytest.raises(TimeoutError):  # the move is still waiting for the lock
                player.ws.recv(timeout=0)
        finally:
            other.rollback()
            other.close()
        answer = player._recv(120)
        while answer["type"] == "state":
            answer = player._recv(120)
        player.ws.close()
        assert answer["type"] == "ack", answer  # stored once the lock was free
