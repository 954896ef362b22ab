"""Private games are private: listed nowhere, and their record, replay, review and
spectating open only with a seat's token or the game's share key — on SQLite and on
PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient
from toygame import PASS

from kingdoms.review import Budget
from kingdoms.server.app import create_app

HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
BUDGET = Budget(iterations=2, width=1)


def _client(url: str) -> TestClient:
    return TestClient(create_app(url, bot_delay=0, allow_seeds=True, review_budget=BUDGET))


def _create(client: TestClient, **kw: Any) -> dict[str, Any]:
    res = client.post("/api/games", json={"game": "toy", "seats": HUMANS, "seed": 5, **kw})
    assert res.status_code == 201, res.text
    return res.json()  # type: ignore[no-any-return]


def _play_out(client: TestClient, game: dict[str, Any]) -> None:
    """Both seats pass until the game ends (each step: two views, then the ack)."""
    tokens = [s["token"] for s in game["seats"]]
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.send_json({"type": "hello", "tokens": tokens})
        views = [ws.receive_json(), ws.receive_json()]
        while not views[0]["finished"]:
            seat, step = views[0]["current_player"], views[0]["state_id"]
            ws.send_json({"type": "action", "action": PASS, "state_id": step, "seat": seat})
            views = [ws.receive_json(), ws.receive_json()]
            assert ws.receive_json()["type"] == "ack"


def _watch(client: TestClient, game_id: str, tokens: list[str] | None) -> dict[str, Any]:
    hello: dict[str, Any] = {"type": "hello", "watch": True}
    if tokens is not None:
        hello["tokens"] = tokens
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        ws.send_json(hello)
        msg: dict[str, Any] = ws.receive_json()
    return msg


def test_a_private_game_opens_only_with_its_secrets(storage_url: str) -> None:
    with _client(storage_url) as client:
        public = _create(client)
        private = _create(client, private=True)
        assert private["private"] and not public["private"]
        key = private["share_key"]
        assert private["share_link"].endswith(f"/game/{private['id']}#k={key}")
        assert "share_key" not in public
        seat = private["seats"][0]["token"]
        gid = private["id"]

        # running: listed nowhere, watched only with a secret
        for query in ("", "?status=running"):
            listed = [g["id"] for g in client.get("/api/games" + query).json()["games"]]
            assert public["id"] in listed and gid not in listed
        refused = _watch(client, gid, None)
        assert refused["type"] == "error" and refused["code"] == "no_game"
        assert _watch(client, gid, ["a-guess-of-a-key"])["code"] == "no_game"
        assert _watch(client, gid, [key])["spectator"] is True
        assert _watch(client, gid, [seat])["spectator"] is True
        assert _watch(client, public["id"], None)["spectator"] is True

        _play_out(client, private)
        _play_out(client, public)
        for query in ("", "?status=finished"):
            listed = [g["id"] for g in client.get("/api/games" + query).json()["games"]]
            assert public["id"] in listed and gid not in listed

        # finished: record, replay and review each need a seat's token or the share key
        routes = [
            ("get", f"/api/games/{gid}/record"),
            ("get", f"/api/games/{gid}/replay?step=3&seat=1"),
            ("get", f"/api/games/{gid}/review"),
            ("post", f"/api/games/{gid}/review"),
            ("post", f"/api/games/{gid}/review/share"),
        ]
        for method, path in routes:
            res = getattr(client, method)(path)
            assert res.status_code == 404 and res.json()["error"] == "no_game", (path, res.text)
            wrong = getattr(client, method)(path, headers={"X-Seat-Tokens": "nope,guess"})
            assert wrong.status_code == 404, path
            assert "actions" not in res.text
        for method, path in routes[:4]:
            for headers, query in (({"X-Seat-Tokens": seat}, ""), ({}, f"key={key}")):
                joined = f"{path}{'&' if '?' in path else '?'}{query}" if query else path
                res = getattr(client, method)(joined, headers=headers)
                assert res.status_code in (200, 202), (path, headers, query, res.text)
        record = client.get(f"/api/games/{gid}/record?key={key}").json()
        assert record["actions"]
        shared = client.post(
            f"/api/games/{gid}/review/share", json={"shared": True}, headers={"X-Seat-Tokens": seat}
        )
        assert shared.status_code == 200, shared.text
        # the public game stays open to anyone
        assert client.get(f"/api/games/{public['id']}/record").status_code == 200
        assert client.get(f"/api/games/{public['id']}/replay").status_code == 200
        assert client.get(f"/api/games/{public['id']}/review").status_code == 200


@pytest.mark.parametrize("flag", [True, False])
def test_the_share_hash_never_leaves_the_server(flag: bool) -> None:
    with _client("sqlite://") as client:
        game = _create(client, private=flag)
        text = client.get(f"/api/games/{game['id']}").text + client.get("/api/games").text
        assert "share_hash" not in text and "token_hash" not in text


def _answer(res: Any) -> tuple[int, Any]:
    return res.status_code, res.json()


def test_a_stranger_learns_nothing_of_a_private_game(storage_url: str) -> None:
    """Every route answers a stranger exactly as it answers an id that names no game —
    the summary ``GET /api/games/<id>`` too, and a player's hello with a wrong token —
    while a seat's token or the share key open the summary."""
    with _client(storage_url) as client:
        private = _create(client, private=True)
        gid, key = private["id"], private["share_key"]
        seat = private["seats"][1]["token"]
        unknown = "0" * len(gid) if gid != "0" * len(gid) else "1" * len(gid)

        def routes(game_id: str) -> list[tuple[str, str]]:
            return [
                ("get", f"/api/games/{game_id}"),
                ("get", f"/api/games/{game_id}/record"),
                ("get", f"/api/games/{game_id}/replay"),
                ("get", f"/api/games/{game_id}/review"),
                ("post", f"/api/games/{game_id}/review"),
                ("post", f"/api/games/{game_id}/review/share"),
            ]

        def hello(game_id: str, tokens: list[str]) -> dict[str, Any]:
            with client.websocket_connect(f"/ws/{game_id}") as ws:
                ws.send_json({"type": "hello", "tokens": tokens})
                msg: dict[str, Any] = ws.receive_json()
            return msg

        def strangers_see_nothing() -> None:
            for (method, path), (_, none) in zip(routes(gid), routes(unknown), strict=True):
                for headers in ({}, {"X-Seat-Tokens": "nope,guess"}):
                    mine = _answer(getattr(client, method)(path, headers=headers))
                    theirs = _answer(getattr(client, method)(none, headers=headers))
                    assert mine == theirs, (path, headers)
                    assert mine[0] == 404 and mine[1]["error"] == "no_game"
            assert hello(gid, ["a-guess"]) == hello(unknown, ["a-guess"])
            assert hello(gid, []) == hello(unknown, [])
            assert hello(gid, ["a-guess"])["code"] == "no_game"
            assert _watch(client, gid, ["a-guess"]) == _watch(client, unknown, ["a-guess"])
            for status in ("", "?status=running", "?status=finished", "?status=abandoned"):
                assert gid not in client.get("/api/games" + status).text

        def summary(headers: dict[str, str], query: str = "") -> dict[str, Any]:
            res = client.get(f"/api/games/{gid}{query}", headers=headers)
            assert res.status_code == 200, res.text
            body: dict[str, Any] = res.json()
            return body

        strangers_see_nothing()  # waiting for its players
        assert summary({"X-Seat-Tokens": seat})["id"] == gid
        assert summary({}, f"?key={key}")["id"] == gid
        assert summary({"X-Seat-Tokens": f"guess,{key}"})["id"] == gid
        # a seat's own player still learns that a wrong token is wrong, not that the game
        # is gone: the share key holder trying to play is told it holds no seat
        assert hello(gid, [key])["code"] == "bad_token"
        _play_out(client, private)
        strangers_see_nothing()  # finished
        assert summary({"X-Seat-Tokens": seat})["status"] == "finished"
