"""Profiles (hashed secrets, rate-limited) and openskill ratings of rated games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from starlette.testclient import TestClient

from kingdoms.server.app import create_app
from kingdoms.server.ratings import RatingBook, _rank, profiles_table
from kingdoms.server.storage import Storage

SECRET = "a secret kept by the browser"


def _client(url: str = "sqlite://") -> TestClient:
    return TestClient(create_app(url, bot_delay=0, allow_seeds=True))


def test_profiles_keep_only_a_hash_and_check_their_input() -> None:
    book = RatingBook(Storage("sqlite://").engine)
    ann = book.create_profile("  Anna Nováková ", SECRET)
    assert ann["name"] == "Anna Nováková"
    with book.engine.connect() as conn:
        row = conn.execute(select(profiles_table)).one()
    assert SECRET not in str(tuple(row)) and len(row.secret_hash) == 128
    assert book.check_profile("anna nováková", SECRET) == ann  # names: case-insensitive
    for name, secret, code in [
        ("Anna Nováková", SECRET, "name_taken"),
        ("x" * 41, SECRET, "bad_profile"),
        ("bad\u0007bell", SECRET, "bad_profile"),
        ("", SECRET, "bad_profile"),
        ("Bob", "short", "bad_profile"),
        (7, SECRET, "bad_profile"),
    ]:
        with pytest.raises(Exception) as err:
            book.create_profile(name, secret)
        assert getattr(err.value, "code", None) == code, (name, err.value)
    with pytest.raises(Exception, match="no profile"):
        book.check_profile("Anna Nováková", SECRET + "!")


def test_ranks_put_winners_first_and_a_resigner_last() -> None:
    assert _rank([10, 20, 20], [1, 2], None) == [3, 1, 1]
    assert _rank([10, 20, 15], [2], None) == [3, 2, 1]  # a tie-break winner ranks first
    assert _rank([30, 20, 10], [], 0) == [3, 1, 2]


def test_http_profiles_are_rate_limited() -> None:
    with _client() as client:
        res = client.post("/api/profiles", json={"name": "Ann", "secret": SECRET})
        assert res.status_code == 201 and set(res.json()) == {"id", "name"}
        assert (
            client.post("/api/profiles", json={"name": "ann", "secret": SECRET}).status_code == 409
        )
        ok = client.post("/api/profiles/login", json={"name": "Ann", "secret": SECRET})
        assert ok.status_code == 200 and ok.json()["name"] == "Ann"
        codes = [
            client.post(
                "/api/profiles/login", json={"name": "Ann", "secret": "wrong " * 3}
            ).status_code
            for _ in range(30)
        ]
        assert codes[0] == 403 and codes[-1] == 429  # guessing secrets is slowed down
        assert client.post("/api/profiles", content=b"[1]").status_code in (400, 429)
        assert client.get("/api/ratings?game=dominion&players=9").status_code == 400


def _play_rated_game(client: TestClient, seats: list[dict[str, Any]], profiles: list[Any]) -> str:
    game = client.post(
        "/api/games",
        json={"game": "kingdomino", "seats": seats, "seed": 2, "rated": True},
    ).json()
    tokens = [s.get("token") for s in game["seats"]]
    socks = []
    for token, profile in zip(tokens, profiles, strict=True):
        if token is None:
            continue
        ws = client.websocket_connect(f"/ws/{game['id']}")
        ws.__enter__()
        hello: dict[str, Any] = {"type": "hello", "tokens": [token]}
        if profile is not None:
            hello["profile"] = {"name": profile, "secret": SECRET}
        ws.send_json(hello)
        ws.receive_json()
        socks.append(ws)
    # the first human resigns: a rated result without playing the whole game
    socks[0].send_json({"type": "resign"})
    while True:
        msg = socks[0].receive_json()
        if msg.get("type") == "state" and msg["finished"]:
            break
    for ws in socks:
        ws.__exit__(None, None, None)
    return str(game["id"])


def test_a_rated_game_between_profiles_updates_ratings_per_bucket(tmp_path: Path) -> None:
    with _client(f"sqlite:///{tmp_path / 'k.sqlite'}") as client:
        for name in ("Ann", "Bob"):
            client.post("/api/profiles", json={"name": name, "secret": SECRET})
        humans = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
        _play_rated_game(client, humans, ["Ann", "Bob"])
        board = client.get("/api/ratings?game=kingdomino&players=2").json()
        assert board["bucket"] == "2p"
        rows = {r["name"]: r for r in board["ratings"]}
        assert rows["Bob"]["mu"] > 25 > rows["Ann"]["mu"]  # Ann resigned
        assert rows["Bob"]["games"] == rows["Ann"]["games"] == 1
        assert client.get("/api/ratings?game=kingdomino&players=3").json()["ratings"] == []
        # a bot is rated too; a 3-player game goes to the other bucket
        three = [*humans, {"kind": "bot", "bot": "greedy", "name": "Robo"}]
        _play_rated_game(client, three, ["Ann", "Bob", None])
        multi = client.get("/api/ratings?game=kingdomino&players=4").json()
        assert multi["bucket"] == "multi"
        assert {r["name"] for r in multi["ratings"]} == {"Ann", "Bob", "bot:greedy"}
        # without a profile on every human seat nothing is rated
        _play_rated_game(client, humans, ["Ann", None])
        again = client.get("/api/ratings?game=kingdomino&players=2").json()["ratings"]
        assert {r["name"]: r["games"] for r in again} == {"Ann": 1, "Bob": 1}
    # the profiles and ratings tables join an existing database on start
    with _client(f"sqlite:///{tmp_path / 'k.sqlite'}") as client:
        rows = client.get("/api/ratings?game=kingdomino&players=2").json()["ratings"]
        assert len(rows) == 2


def test_proving_a_profile_on_joining_is_rate_limited_too() -> None:
    with _client() as client:
        client.post("/api/profiles", json={"name": "Ann", "secret": SECRET})
        game = client.post("/api/games", json={"game": "kingdomino", "players": 2}).json()
        token = game["seats"][0]["token"]
        codes: list[str] = []
        # a burst of 20, then one a second: on a loaded machine the bucket refills
        # between slow attempts, so go on (bounded) until the limit shows
        while len(codes) < 200 and "rate_limited" not in codes:
            with client.websocket_connect(f"/ws/{game['id']}") as ws:
                ws.send_json(
                    {
                        "type": "hello",
                        "tokens": [token],
                        "profile": {"name": "Ann", "secret": "x" * 20},
                    }
                )
                ws.receive_json()  # the seat's state
                codes.append(ws.receive_json()["code"])
        assert codes[0] == "bad_profile" and codes[-1] == "rate_limited"
        assert len(codes) > 20  # the burst itself is allowed
