"""One person, one client: every per-client limit counts an IPv4 address or an IPv6
/64 (however it is spelled), and believes a forwarded address only from the proxies
named by ``--forwarded-allow-ips`` (none by default)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from serverproc import serve
from starlette.testclient import TestClient
from test_server_review import _store_game

from kingdoms.cli import main
from kingdoms.server.app import create_app
from kingdoms.server.limits import ServerLimits, client_id

HEAVY = [{"kind": "bot", "bot": "mcts:time=0.05"}] * 2


class Peers:
    """The network in front of the app: each request comes from the address in its
    ``X-Test-Peer`` header (as a different machine would)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            peer = dict(scope.get("headers") or []).get(b"x-test-peer")
            if peer is not None:
                scope = {**scope, "client": (peer.decode(), 40000)}
        await self.app(scope, receive, send)


def _heavy_games(client: TestClient, peers: list[str]) -> list[int]:
    return [
        client.post(
            "/api/games",
            json={"game": "kingdomino", "seats": HEAVY},
            headers={"X-Test-Peer": peer},
        ).status_code
        for peer in peers
    ]


@pytest.mark.parametrize(
    ("same", "other"),
    [
        (["2001:db8:0:7::1", "2001:db8:0:7::2", "2001:db8:0:7:ffff:ffff:ffff:ffff"], None),
        (["2001:db8:0:7::1", "2001:DB8:0:7:0:0:0:1", "2001:0db8:0000:0007::0001"], None),
        (["203.0.113.5", "::ffff:203.0.113.5", "::ffff:cb00:7105"], "203.0.113.6"),
    ],
)
def test_one_ipv6_network_or_one_address_is_one_client(same: list[str], other: str | None) -> None:
    limits = ServerLimits(bot_games_per_client=2, bot_workers=1, bot_think=0.05)
    app = create_app("sqlite://", bot_delay=0, limits=limits)
    with TestClient(Peers(app)) as client:
        assert _heavy_games(client, same) == [201, 201, 429]
        neighbour = other or "2001:db8:0:8::1"  # the next /64: someone else
        assert _heavy_games(client, [neighbour]) == [201]


def test_the_ipv6_prefix_is_a_setting() -> None:
    limits = ServerLimits(bot_games_per_client=1, bot_workers=1, ipv6_prefix=128)
    app = create_app("sqlite://", bot_delay=0, limits=limits)
    with TestClient(Peers(app)) as client:
        assert _heavy_games(client, ["2001:db8::1", "2001:db8::2", "2001:db8::1"]) == [
            201,
            201,
            429,
        ]
    assert client_id("2001:db8::1", 48) == "2001:db8::/48"


def _forwarded_games(base: str, addresses: list[str]) -> list[int]:
    return [
        httpx.post(
            base + "/api/games",
            json={"game": "kingdomino", "seats": HEAVY},
            headers={"X-Forwarded-For": address},
            timeout=30,
        ).status_code
        for address in addresses
    ]


def test_forwarded_addresses_are_not_believed_by_default(tmp_path: Path) -> None:
    """A client that connects from this very host (as through a same-host proxy passing
    headers on) cannot pick its own address with ``X-Forwarded-For``."""
    args = ("--bot-games-per-client", "2", "--bot-workers", "1", "--bot-think", "0.05")
    fake = ["198.51.100.1", "198.51.100.2", "198.51.100.3", "198.51.100.4"]
    with serve(tmp_path, *args) as (base, _proc):
        assert _forwarded_games(base, fake) == [201, 201, 429, 429]


def test_forwarded_addresses_are_believed_from_the_proxies_named(tmp_path: Path) -> None:
    args = ("--bot-games-per-client", "1", "--bot-workers", "1", "--bot-think", "0.05")
    with serve(tmp_path, *args, "--forwarded-allow-ips", "127.0.0.1") as (base, _proc):
        statuses = _forwarded_games(base, ["198.51.100.1", "198.51.100.2", "198.51.100.1"])
        assert statuses == [201, 201, 429]


def test_every_per_client_limit_is_a_flag_with_its_default() -> None:
    text = CliRunner().invoke(main, ["serve", "--help"], terminal_width=200).output
    for flag, default in (
        ("--forwarded-allow-ips", "empty: none"),
        ("--ipv6-prefix", "default: 64"),
        ("--bot-games-per-client", "default: 2"),
        ("--unjoined-per-client", "default: 100"),
        ("--reviews-per-client", "default: 2"),
        ("--review-queue", "default: 50"),
        ("--spectators-per-address", "default: 16"),
        ("--max-connections-per-address", "default: 64"),
        ("--rate", "create=0.5"),
    ):
        assert flag in text, flag
        after = " ".join(text.split(flag, 1)[1].split())[:600]
        assert default in after, (flag, after)


def test_signed_in_profiles_have_quotas_of_their_own() -> None:
    """Behind one address (a school's NAT), each signed-in player creates within their
    own profile's quota; a wrong secret is refused and counts for nobody."""
    limits = ServerLimits(bot_games_per_client=1, bot_workers=1, bot_think=0.05)
    app = create_app("sqlite://", bot_delay=0, limits=limits)
    school = {"X-Test-Peer": "198.51.100.20"}
    with TestClient(Peers(app)) as client:
        profiles = []
        for name in ("Ann", "Bob"):
            body = {"name": name, "secret": f"{name}-secret-0123456789"}
            assert client.post("/api/profiles", json=body, headers=school).status_code == 201
            profiles.append(body)

        def create(profile: dict[str, str] | None) -> int:
            body: dict[str, Any] = {"game": "kingdomino", "seats": HEAVY}
            if profile is not None:
                body["profile"] = profile
            return client.post("/api/games", json=body, headers=school).status_code

        assert [create(None), create(None)] == [201, 429]  # the address's own quota
        assert [create(profiles[0]), create(profiles[0])] == [201, 429]
        assert create(profiles[1]) == 201
        assert create({"name": "Ann", "secret": "not-the-secret-at-all"}) == 400


def test_signed_in_profiles_have_create_rates_of_their_own() -> None:
    """``--rate create=…`` counts a signed-in creation in its profile's own bucket: two
    profiles behind one address each get the whole rate, the address without a profile
    is still limited, and a wrong proof is refused (400 ``bad_profile``), creates
    nothing and charges no bucket."""
    app = create_app("sqlite://", bot_delay=0, rate_limits={"create": 0.001})  # burst 1
    humans = [{"kind": "human"}, {"kind": "human"}]
    school, home = {"X-Test-Peer": "198.51.100.30"}, {"X-Test-Peer": "198.51.100.31"}
    with TestClient(Peers(app)) as client:
        ann, bob = _profiles(client, school, "Ann", "Bob")

        def create(profile: dict[str, str] | None, headers: dict[str, str]) -> Any:
            body: dict[str, Any] = {"game": "kingdomino", "seats": humans}
            if profile is not None:
                body["profile"] = profile
            return client.post("/api/games", json=body, headers=headers)

        def games() -> int:
            return len(client.get("/api/games").json()["games"])

        assert [create(None, school).status_code, create(None, school).status_code] == [
            201,
            429,
        ]  # the address's own bucket, as before
        late = create(None, school)
        assert late.json()["error"] == "rate_limited" and late.headers["retry-after"]
        assert [create(ann, school).status_code, create(bob, school).status_code] == [201, 201]
        again = create(ann, school)  # Ann's own bucket is empty now
        assert again.status_code == 429, again.text
        assert again.json()["error"] == "rate_limited" and int(again.headers["retry-after"]) >= 1
        assert create(None, school).status_code == 429  # the address still is
        before = games()
        assert before == 3, before
        wrong = create({"name": "Bob", "secret": "not-the-secret-at-all"}, home)
        assert wrong.status_code == 400 and wrong.json()["error"] == "bad_profile", wrong.text
        invented = create({"name": "Nobody", "secret": "made-up-secret-0123"}, home)
        assert invented.status_code == 400 and invented.json()["error"] == "bad_profile"
        assert games() == before  # nothing created
        assert create(None, home).status_code == 201  # home's bucket was not charged
        assert create(None, home).status_code == 429
        # invented profiles do not lift the address's limit either
        assert create({"name": "Nobody", "secret": "made-up-secret-0123"}, home).status_code == 400


def test_spectators_count_per_ipv6_network() -> None:
    """``spectators_per_address`` counts a /64 as one client: two addresses of one
    network fill its places, a third address of it is refused, the next /64 is not;
    a place freed by one of its addresses is a place for the others."""
    limits = ServerLimits(spectators_per_address=2)
    app = create_app("sqlite://", bot_delay=0, limits=limits)
    humans = [{"kind": "human"}, {"kind": "human"}]
    with TestClient(Peers(app)) as client, contextlib.ExitStack() as sockets:
        ids = []
        for _ in range(3):
            res = client.post("/api/games", json={"game": "kingdomino", "seats": humans})
            assert res.status_code == 201, res.text
            ids.append(res.json()["id"])

        def watch(game_id: str, peer: str) -> tuple[Any, dict[str, Any]]:
            # each socket closed when the test ends, failing or not
            ws = client.websocket_connect(f"/ws/{game_id}", headers={"X-Test-Peer": peer})
            socket = sockets.enter_context(ws)
            socket.send_json({"type": "hello", "watch": True})
            return socket, socket.receive_json()

        first, seen = watch(ids[0], "2001:db8:0:7::1")
        assert seen.get("spectator") is True, seen
        _, seen = watch(ids[1], "2001:db8:0:7:abcd::2")
        assert seen.get("spectator") is True, seen
        _, seen = watch(ids[2], "2001:db8:0:7:ffff:ffff:ffff:ffff")
        assert seen["type"] == "error" and seen["code"] == "too_many", seen
        _, seen = watch(ids[2], "2001:db8:0:8::1")  # the next /64: someone else
        assert seen.get("spectator") is True, seen
        # closing ends the server's side of the socket (the test client waits for it
        # to finish): its place is free when close returns
        first.exit_stack.close()  # (a second close, at the end, does nothing)
        _, seen = watch(ids[2], "2001:db8:0:7::3")
        assert seen.get("spectator") is True, seen


def _profiles(client: TestClient, headers: dict[str, str], *names: str) -> list[dict[str, str]]:
    """New profiles, made from behind ``headers``' address; their ``{name, secret}``."""
    made = []
    for name in names:
        body = {"name": name, "secret": f"{name}-secret-0123456789"}
        assert client.post("/api/profiles", json=body, headers=headers).status_code == 201
        made.append(body)
    return made


WRONG = {"name": "Ann", "secret": "not-the-secret-at-all"}


def test_signed_in_spectators_have_places_of_their_own() -> None:
    """Behind one address, a spectator who proves a profile (``profile`` in its hello)
    watches within its profile's places, not the address's: over them it is refused
    (``too_many``) and nothing is subscribed; a wrong secret is refused
    (``bad_profile``) and watches nothing."""
    app = create_app("sqlite://", bot_delay=0, limits=ServerLimits(spectators_per_address=1))
    master = app.state.master
    school = {"X-Test-Peer": "198.51.100.20"}
    humans = [{"kind": "human"}, {"kind": "human"}]
    with TestClient(Peers(app)) as client, contextlib.ExitStack() as sockets:
        ann, bob = _profiles(client, school, "Ann", "Bob")
        ids = []
        for _ in range(3):
            res = client.post("/api/games", json={"game": "kingdomino", "seats": humans})
            assert res.status_code == 201, res.text
            ids.append(res.json()["id"])

        def watch(game_id: str, profile: dict[str, str] | None = None) -> dict[str, Any]:
            ws = client.websocket_connect(f"/ws/{game_id}", headers=school)
            socket = sockets.enter_context(ws)  # closed when the test ends, failing or not
            hello: dict[str, Any] = {"type": "hello", "watch": True}
            if profile is not None:
                hello["profile"] = profile
            socket.send_json(hello)
            answer: dict[str, Any] = socket.receive_json()
            return answer

        def watchers() -> list[int]:
            return [sum(not s.seats for s in master.tables[i].subscribers) for i in ids]

        assert watch(ids[0]).get("spectator") is True  # the address's one place
        assert watch(ids[1])["code"] == "too_many"  # full
        assert watch(ids[1], ann).get("spectator") is True  # Ann's own place
        assert watchers() == [1, 1, 0]
        over = watch(ids[2], ann)
        assert over["type"] == "error" and over["code"] == "too_many", over
        assert "at most 1 games watched" in over["message"]
        assert watchers() == [1, 1, 0]  # refused: nothing changed
        wrong = watch(ids[2], WRONG)
        assert wrong["type"] == "error" and wrong["code"] == "bad_profile", wrong
        assert watch(ids[2], {"name": "Ann"})["code"] == "bad_profile"
        assert watch(ids[2], "Ann")["code"] == "bad_profile"  # type: ignore[arg-type]
        assert watchers() == [1, 1, 0]
        assert watch(ids[2], bob).get("spectator") is True  # Bob's own place
        assert watchers() == [1, 1, 1]


def test_signed_in_reviewers_have_quotas_of_their_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Behind one address, a stranger who proves a profile (``{"profile": …}`` as the
    body of ``POST …/review``) asks within its profile's reviews quota: over it the
    answer is 429 ``busy`` and nothing is queued; a wrong profile or body is refused
    (400) and queues nothing."""
    url = f"sqlite:///{tmp_path / 'k.sqlite'}"
    for i in range(5):
        _store_game(url, f"g{i}")  # public finished games of other people
    app = create_app(url, bot_delay=0, limits=ServerLimits(reviews_per_client=1))

    async def not_started() -> None:  # nothing runs: every request stays waiting
        pass

    monkeypatch.setattr(app.state.reviews, "start", not_started)
    school = {"X-Test-Peer": "198.51.100.20"}
    with TestClient(Peers(app)) as client:
        ann, bob = _profiles(client, school, "Ann", "Bob")

        def ask(game_id: str, body: Any = None, raw: str | None = None) -> tuple[int, Any]:
            url = f"/api/games/{game_id}/review"
            if raw is not None:
                res = client.post(url, content=raw, headers=school)
            else:
                res = client.post(url, json=body, headers=school)
            return res.status_code, res.json()

        def status(game_id: str) -> str:
            body: dict[str, Any] = client.get(f"/api/games/{game_id}/review").json()
            return str(body["status"])

        assert ask("g0")[0] == 202  # the address's one review
        assert ask("g1")[1]["error"] == "busy"
        assert ask("g1", {"profile": ann})[0] == 202  # Ann's own
        code, over = ask("g2", {"profile": ann})
        assert code == 429 and over["error"] == "busy", over
        assert "1 reviews waiting already" in over["message"]
        assert status("g2") == "none"  # refused: nothing queued
        for body, raw, error in (
            ({"profile": WRONG}, None, "bad_profile"),
            ({"profile": "Ann"}, None, "bad_profile"),
            (None, "[1, 2", "bad_json"),
            (None, "[1]", "bad_request"),
        ):
            code, refused = ask("g2", body, raw)
            assert (code, refused["error"]) == (400, error), refused
        assert status("g2") == "none" and app.state.reviews.strangers_waiting() == 2
        assert ask("g2", {"profile": bob})[0] == 202  # Bob's own
        assert ask("g3", {})[1]["error"] == "busy"  # no profile: the address's, full
        assert [status(f"g{i}") for i in range(5)] == ["queued"] * 3 + ["none"] * 2
