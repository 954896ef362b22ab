"""Resigning and abandoned games: stored, announced, listed, and final after a restart."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from kingdoms.server.app import create_app
from kingdoms.server.master import GameMaster
from kingdoms.server.resign import abandon_idle
from kingdoms.server.storage import STATUS_ABANDONED, Storage

SEATS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


def _hello(ws: Any, token: str) -> dict[str, Any]:
    ws.send_json({"type": "hello", "tokens": [token], "lang": "en"})
    msg: dict[str, Any] = ws.receive_json()
    return msg


def test_a_player_resigns_and_the_game_stays_over(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'k.sqlite'}"
    with TestClient(create_app(url, bot_delay=0, allow_seeds=True)) as client:
        game = client.post(
            "/api/games",
            json={
                "game": "dominion",
                "seats": SEATS,
                "seed": 1,
                "options": {"kingdom": "First Game"},
            },
        ).json()
        ann_token, bob_token = (s["token"] for s in game["seats"])
        with (
            client.websocket_connect(f"/ws/{game['id']}") as ann,
            client.websocket_connect(f"/ws/{game['id']}") as bob,
        ):
            _hello(ann, ann_token)
            _hello(bob, bob_token)
            with client.websocket_connect(f"/ws/{game['id']}") as watcher:
                watcher.send_json({"type": "hello", "watch": True})
                watcher.receive_json()
                watcher.send_json({"type": "resign"})
                assert watcher.receive_json()["code"] == "wrong_seat"  # no seat to resign
            ann.send_json({"type": "resign", "seat": 1})
            assert ann.receive_json()["code"] == "wrong_seat"  # not Ann's seat
            ann.send_json({"type": "resign"})
            seen = [ann.receive_json(), ann.receive_json()]
            final = next(m for m in seen if m["type"] == "state")
            assert final["finished"] and final["legal"] == []
            assert final["outcome"]["winners"] == [1]
            assert final["outcome"]["details"] == {"ended": "resigned", "resigned": 0, "step": 0}
            bob_final = bob.receive_json()
            assert bob_final["finished"] and bob_final["outcome"]["winners"] == [1]
            bob.send_json({"type": "action", "action": 0, "state_id": bob_final["state_id"]})
            assert bob.receive_json()["code"] == "finished"
        listed = client.get("/api/games?status=finished").json()["games"]
        assert [g["id"] for g in listed] == [game["id"]]
        assert listed[0]["outcome"]["scores"] == [3.0, 3.0] and listed[0]["updated"] > 0
        assert client.get(f"/api/games/{game['id']}/replay").status_code == 200
    # a restarted server does not bring the game back
    with TestClient(create_app(url, bot_delay=0)) as client:
        info = client.get(f"/api/games/{game['id']}").json()
        assert info["status"] == "finished"
        with client.websocket_connect(f"/ws/{game['id']}") as bob:
            msg = _hello(bob, bob_token)
            assert msg["finished"] and msg["legal"] == []


def test_idle_games_are_abandoned() -> None:
    async def main() -> None:
        gm = GameMaster(Storage("sqlite://"), bot_delay=0)
        idle, _ = gm.create_game("kingdomino", SEATS, {}, seed=3)
        assert await abandon_idle(gm, 3600.0) == []  # just created: not idle
        gone = await abandon_idle(gm, 3600.0, now=time.time() + 7200)
        assert gone == [idle.id]
        stored = gm.storage.load_game(idle.id)
        assert stored is not None and stored.status == STATUS_ABANDONED
        assert stored.outcome is not None and stored.outcome["details"]["ended"] == "abandoned"
        assert gm.summary(stored)["status"] == STATUS_ABANDONED
        assert idle.id not in gm.tables  # nobody watches it: dropped from memory
        again = gm.get(idle.id)
        assert again.finished and again.ended is not None

    asyncio.run(main())


def test_idle_games_not_in_memory_are_abandoned_too(tmp_path: Path) -> None:
    """Games are loaded on demand: the sweep asks the database, not the memory."""

    async def main() -> None:
        url = f"sqlite:///{tmp_path / 'k.sqlite'}"
        gm = GameMaster(Storage(url), bot_delay=0)
        idle, _ = gm.create_game("kingdomino", SEATS, {}, seed=3)
        restarted = GameMaster(Storage(url), bot_delay=0)  # nothing loaded yet
        assert idle.id not in restarted.tables
        assert await abandon_idle(restarted, 3600.0, now=time.time() + 7200) == [idle.id]
        stored = restarted.storage.load_game(idle.id)
        assert stored is not None and stored.status == STATUS_ABANDONED

    asyncio.run(main())


def test_the_lobby_lists_abandoned_games() -> None:
    with TestClient(create_app("sqlite://", bot_delay=0)) as client:
        assert client.get("/api/games?status=abandoned").json() == {"games": []}
