"""Profiles (hashed secrets, rate-limited) and openskill ratings of rated games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert, select, update
from starlette.testclient import TestClient

from kingdoms.server.app import create_app
from kingdoms.server.names import LOWER, UPPER, name_key
from kingdoms.server.ratings import (
    MAX_PAIR_GAMES,
    MIN_DECISIONS,
    PAIR_WINDOW,
    RatingBook,
    _rank,
    profiles_table,
    rated_games_table,
)
from kingdoms.server.storage import Storage
from kingdoms.server.table import RequestError

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


def _next_state(ws: Any, after: int) -> dict[str, Any]:
    """The first state message of ``ws`` past step ``after`` (acks skipped)."""
    while True:
        msg = ws.receive_json()
        if msg.get("type") == "state" and msg["state_id"] > after:
            return dict(msg)


def _play_rated_game(
    client: TestClient,
    seats: list[dict[str, Any]],
    profiles: list[Any],
    moves: int = MIN_DECISIONS,
    game: str = "kingdomino",
) -> str:
    """Create a rated game, join every human seat on its own socket (with its profile),
    play until each seat made ``moves`` decisions, then the first human resigns."""
    created = client.post(
        "/api/games", json={"game": game, "seats": seats, "seed": 2, "rated": True}
    ).json()
    tokens = [s.get("token") for s in created["seats"]]
    socks, sock_of, latest = [], {}, []
    for seat, (token, profile) in enumerate(zip(tokens, profiles, strict=True)):
        if token is None:
            continue
        ws = client.websocket_connect(f"/ws/{created['id']}")
        ws.__enter__()
        hello: dict[str, Any] = {"type": "hello", "tokens": [token]}
        if profile is not None:
            hello["profile"] = {"name": profile, "secret": SECRET}
        ws.send_json(hello)
        latest.append(_next_state(ws, -1))
        sock_of[seat] = len(socks)
        socks.append(ws)
    made = [0] * len(seats)
    while min(made) < moves:
        step = max(m["state_id"] for m in latest)
        latest = [
            m if m["state_id"] == step else _next_state(ws, m["state_id"] - 1)
            for ws, m in zip(socks, latest, strict=True)
        ]
        current = latest[0]["current_player"]
        made[current] += 1
        if current in sock_of:
            mine = latest[sock_of[current]]
            socks[sock_of[current]].send_json(
                {"type": "action", "action": mine["legal"][0]["action"], "state_id": step}
            )
        latest = [_next_state(ws, step) for ws in socks]
    # the first human resigns
    socks[0].send_json({"type": "resign"})
    while not _next_state(socks[0], -1)["finished"]:
        pass
    for ws in socks:
        ws.__exit__(None, None, None)
    return str(created["id"])


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
        assert len(codes) >= 20  # the burst (20, one spent on creating the profile) is allowed


def test_profile_requests_refuse_deeply_nested_json_with_a_clear_400() -> None:
    deep = b"[" * 1000 + b"]" * 1000
    with _client() as client:
        for path in ("/api/profiles", "/api/profiles/login"):
            res = client.post(path, content=deep)
            assert res.status_code == 400, (path, res.text)
            assert res.json()["error"] == "bad_json"
            assert "nested deeper" in res.json()["message"]


def test_names_that_read_the_same_are_one_name(tmp_path: Path) -> None:
    """NFKC and a confusables skeleton: Latin, Cyrillic and full-width "Ann" collide
    (and "BOB" with Cyrillic "ВОВ"); accents still make another name."""
    book = RatingBook(Storage(f"sqlite:///{tmp_path / 'k.sqlite'}").engine)
    ann = book.create_profile("Ann", SECRET)
    for twin in ("\u0410nn", "\uff21\uff4e\uff4e", "ANN", "A\u043d\u043d".replace("\u043d", "n")):
        with pytest.raises(RequestError) as err:
            book.create_profile(twin, SECRET)
        assert err.value.code == "name_taken", twin
    assert book.check_profile("\u0410nn", SECRET) == ann
    book.create_profile("BOB", SECRET)
    with pytest.raises(RequestError):
        book.create_profile("\u0412\u041e\u0412", SECRET)  # Cyrillic ВОВ
    book.create_profile("Zoë", SECRET)
    book.create_profile("Zoe", SECRET)
    # a profile stored under the old key (case folding alone) gets the new one on start
    with book.engine.begin() as conn:
        conn.execute(
            insert(profiles_table).values(
                id="old1",
                name="\u0421\u0430t",
                name_key="\u0441\u0430t",
                salt="00",
                secret_hash="00",
                created=0.0,
            )
        )
    again = RatingBook(book.engine)
    with again.engine.connect() as conn:
        key = conn.execute(
            select(profiles_table.c.name_key).where(profiles_table.c.id == "old1")
        ).scalar_one()
    assert key == name_key("Cat") == "cat"


def test_the_confusables_table_maps_to_plain_latin_letters() -> None:
    for source, table in (("upper", UPPER), ("lower", LOWER)):
        for char, latin in table.items():
            assert (len(char) == 1 and not char.isascii()) or char in "01|", char
            assert latin.isascii() and latin.isalpha(), (char, latin)
            if source == "upper":
                assert char.isupper() and latin.isupper(), char
            elif char.isalpha():
                assert not char.isupper() and latin.islower(), char


def test_games_resigned_before_they_were_played_are_not_rated() -> None:
    with _client() as client:
        for name in ("Ann", "Bob"):
            client.post("/api/profiles", json={"name": name, "secret": SECRET})
        humans = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
        _play_rated_game(client, humans, ["Ann", "Bob"], moves=0)
        _play_rated_game(client, humans, ["Ann", "Bob"], moves=MIN_DECISIONS - 2)
        assert client.get("/api/ratings?game=kingdomino&players=2").json()["ratings"] == []
        _play_rated_game(client, humans, ["Ann", "Bob"])
        rows = client.get("/api/ratings?game=kingdomino&players=2").json()["ratings"]
        assert {r["name"]: r["games"] for r in rows} == {"Ann": 1, "Bob": 1}


def test_rated_games_between_the_same_two_profiles_are_bounded() -> None:
    book = RatingBook(Storage("sqlite://").engine)
    ann, bob, cy = (f"p:{book.create_profile(n, SECRET)['id']}" for n in ("Ann", "Bob", "Cy"))
    rated = [
        book.rate_game(f"g{i}", "dominion", [ann, bob], [1.0, 0.0], [0])
        for i in range(MAX_PAIR_GAMES + 2)
    ]
    assert rated == [True] * MAX_PAIR_GAMES + [False, False]
    # other pairs, other games and bots are not held back
    assert book.rate_game("h1", "dominion", [ann, cy], [1.0, 0.0], [0])
    assert book.rate_game("h2", "kingdomino", [ann, bob], [1.0, 0.0], [0])
    assert book.rate_game("h3", "dominion", [ann, "bot:big-money"], [1.0, 0.0], [0])
    assert not book.rate_game("h4", "dominion", [cy, bob, ann], [1.0, 0.0, 0.5], [0])
    # the bound holds whichever of the seats' ids sorts first
    first, x, y = "p:000", "p:zz1", "p:zz2"
    for i in range(MAX_PAIR_GAMES):
        assert book.rate_game(f"k{i}", "dominion", [x, y], [1.0, 0.0], [0])
    assert not book.rate_game("k9", "dominion", [first, y, x], [1.0, 0.0, 0.5], [0])
    board = {r["name"]: r["games"] for r in book.leaderboard("dominion", 2)}
    assert board["Bob"] == MAX_PAIR_GAMES
    # once the window has passed they are rated again
    with book.engine.begin() as conn:
        conn.execute(update(rated_games_table).values(at=rated_games_table.c.at - PAIR_WINDOW))
    assert book.rate_game("g9", "dominion", [ann, bob], [1.0, 0.0], [0])
