"""What strangers cannot do: unbounded bots, bad text, deep or big bodies, floods."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

import pytest
from sqlalchemy import insert
from starlette.testclient import TestClient
from toygame import PASS

from kingdoms.server.app import create_app
from kingdoms.server.botnames import display_names
from kingdoms.server.botpool import BotPool
from kingdoms.server.guard import Guard, RateLimiter, RateRule, RepeatFilter
from kingdoms.server.limits import ServerLimits, bounded_bot_spec, check_text, parse_json
from kingdoms.server.master import GameMaster, RequestError
from kingdoms.server.storage import Storage, games_table

HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


def _client(url: str = "sqlite://", **kw: Any) -> TestClient:
    return TestClient(create_app(url, bot_delay=0, allow_seeds=True, **kw))


# -- bots ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec",
    ["mcts:time=100000", "mcts:time=inf", "mcts:time=nan", "mcts:iterations=1000000000"],
)
def test_unbounded_bot_options_are_refused(spec: str) -> None:
    with _client() as client:
        seats = [{"kind": "bot", "bot": spec}, {"kind": "bot", "bot": spec}]
        res = client.post("/api/games", json={"game": "kingdomino", "seats": seats})
        assert res.status_code == 400, res.text
        assert res.json()["error"] == "bad_config" and "bot option" in res.json()["message"]
        assert client.get("/api/games").json()["games"] == []


@pytest.mark.parametrize(
    ("game", "spec", "wanted"),
    [
        ("kingdomino", "mcts:playout=" + "x" * 150, "no playout policy"),
        ("dominion", "mcts:playout=<b>hello</b>", "no playout policy"),
        ("kingdomino", "mcts:seed=free text", "seed"),
        ("kingdomino", "mcts:algorithm=fancy", "algorithm must be one of"),
        ("kingdomino", "planning-greedy:width=wide", "width must be"),
    ],
)
def test_bot_options_outside_their_choices_are_refused_at_creation(
    game: str, spec: str, wanted: str
) -> None:
    """Every bot option is checked against its choices when the game is made (a free
    text playout used to be stored and shown, failing only when the bot moved)."""
    with _client() as client:
        seats = [{"kind": "human"}, {"kind": "bot", "bot": spec}]
        res = client.post("/api/games", json={"game": game, "seats": seats})
        assert res.status_code == 400, res.text
        assert res.json()["error"] == "bad_config" and wanted in res.json()["message"]
        assert "seat 2" in res.json()["message"]
        assert client.get("/api/games").json()["games"] == []


def test_bot_options_within_the_limits_are_accepted_and_capped() -> None:
    limits = ServerLimits(bot_think=2.0, bot_iterations=100)
    assert bounded_bot_spec("mcts:time=1.5", limits) == "mcts:time=1.5"
    # iterations alone would let the search run as long as it likes: the time cap joins
    assert bounded_bot_spec("mcts:iterations=50", limits) == "mcts:iterations=50,time=2.0"
    assert bounded_bot_spec("mcts:time=100000", limits, clamp=True) == "mcts:time=2.0"
    with pytest.raises(RequestError):
        bounded_bot_spec("mcts:width=1e300", limits)
    # think time on the server is CPU time: a bot plays the same on a busy server
    with pytest.raises(RequestError, match="clock"):
        bounded_bot_spec("mcts:time=1,clock=wall", limits)
    assert bounded_bot_spec("mcts:time=1,clock=wall", limits, clamp=True) == "mcts:time=1,clock=cpu"
    # a spec comes back as the player wrote it: the level first, on/off as on/off
    assert bounded_bot_spec("best:strong", limits) == "best:strong"
    assert bounded_bot_spec("best:level=strong", limits) == "best:strong"
    assert bounded_bot_spec("best:many=on", limits) == "best:many=on"
    assert bounded_bot_spec("best:strong,many=off,bank=yes", limits) == (
        "best:strong,many=off,bank=on"
    )


def test_a_bots_level_and_options_keep_their_spelling_in_the_game() -> None:
    """The lobby offers ``best:strong``: the game, the game list and the seat's name
    keep it (the server once stored it as ``best:level=strong`` and ``many=on`` as
    ``many=True``, and named the seat as the default level)."""
    with _client() as client:
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "best:strong,many=on"}]
        res = client.post("/api/games", json={"game": "dominion", "seats": seats})
        assert res.status_code == 201, res.text
        assert res.json()["seats"][1]["bot"] == "best:strong,many=on"
        listed = client.get("/api/games").json()["games"][0]["seats"]
        assert listed[1]["bot"] == "best:strong,many=on"
        assert display_names(listed) == ["Player 1", "Strongest, thinking longer"]


def test_a_stored_runaway_bot_resumes_within_the_limits(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path}/k.sqlite"
    store = Storage(url)
    gm = GameMaster(store, bot_delay=0, limits=ServerLimits(bot_think=0.05))
    table, _ = gm.create_game("kingdomino", [{"kind": "bot", "bot": "mcts:time=0.05"}] * 2)
    # a database written by an older server, which took any think time
    seats = [{"kind": "bot", "name": "b", "bot": "mcts:time=100000"}] * 2
    store.update_seats(table.id, seats)
    fresh = GameMaster(Storage(url), bot_delay=0, limits=ServerLimits(bot_think=0.05))
    loaded = fresh.get(table.id)
    assert all(bot.time == 0.05 for bot in loaded.bots.values())  # type: ignore[attr-defined]
    run = asyncio.run

    async def stop() -> None:
        await fresh.stop()

    run(stop())


def test_a_game_of_bots_alone_thinks_within_its_budget(tmp_path: Any) -> None:
    """Search bots at their maximum think time would hold a worker for the whole game;
    with a budget per game its bots answer at once once it is spent, and the game ends
    soon."""
    limits = ServerLimits(bot_think=0.2, bot_game_seconds=0.5)

    async def main() -> None:
        gm = GameMaster(Storage(f"sqlite:///{tmp_path}/k.sqlite"), bot_delay=0, limits=limits)
        bots = [{"kind": "bot", "bot": "mcts:time=0.2"}] * 2
        ended = asyncio.Event()
        gm.finish_hooks.append(lambda _table: ended.set())
        table, _ = gm.create_game("kingdomino", bots, seed=1)
        searched = 0

        class Counted:
            """The bot, its searches counted (a compiled bot's ``act`` cannot be
            replaced on the object itself)."""

            def __init__(self, bot: Any) -> None:
                self._bot = bot

            def __getattr__(self, name: str) -> Any:
                return getattr(self._bot, name)

            def act(self, *args: Any) -> Any:
                nonlocal searched
                searched += 1
                return self._bot.act(*args)

        for seat, bot in list(table.bots.items()):
            table.bots[seat] = Counted(bot)
        await asyncio.wait_for(ended.wait(), 120)  # the event: the game's end
        assert table.finished
        # about 50 steps at 0.2 s each without the budget; 0.5 s of it with (the move
        # that crosses it finishes): a few searches, then instant answers
        assert searched <= 4, searched
        assert table.state.step > 3 * searched
        assert table.id not in gm.bot_spent  # forgotten once the game ended
        await gm.stop()

    asyncio.run(main())


def test_one_client_runs_only_a_few_games_of_search_bots_alone_at_once() -> None:
    heavy = [{"kind": "bot", "bot": "mcts:time=0.05"}] * 6
    with _client(limits=ServerLimits(bot_games_per_client=2, bot_workers=1)) as client:
        for _ in range(2):
            res = client.post("/api/games", json={"game": "dominion", "seats": heavy})
            assert res.status_code == 201, res.text
        res = client.post("/api/games", json={"game": "dominion", "seats": heavy})
        assert res.status_code == 429 and res.json()["error"] == "too_many_bot_games"
        assert res.headers["retry-after"]
        # games with a person, or with cheap bots only, are not counted
        light = [{"kind": "bot", "bot": "random"}] * 2
        assert client.post("/api/games", json={"game": "toy", "seats": light}).status_code == 201
        mixed = [{"kind": "human"}, *heavy[:1]]
        res = client.post("/api/games", json={"game": "kingdomino", "seats": mixed})
        assert res.status_code == 201
        assert len(client.get("/api/games").json()["games"]) == 4


def test_malformed_seats_are_refused_before_any_bot_count() -> None:
    # the count of search-bot games reads the seats before the game checks them
    with _client() as client:
        for seats in (
            [[None, None], {"kind": "human", "name": "", "bot": ""}],
            ["bot", {"kind": "bot", "bot": "mcts"}],
            [{"kind": "bot", "bot": "mcts"}, 7],
        ):
            res = client.post("/api/games", json={"game": "dominion", "seats": seats})
            assert res.status_code == 400, (seats, res.text)
            assert res.json()["error"] == "bad_config"
        assert client.get("/api/games").json()["games"] == []


def test_bot_pool_serves_people_first_round_robin_and_bounds_work() -> None:
    async def main() -> list[str]:
        pool, order = BotPool(workers=1, share=3), []
        running = [0]

        async def move(name: str, people: bool) -> None:
            async with pool.slot(people):
                running[0] += 1
                assert running[0] <= 1  # never more than `workers` at once
                order.append(name)
                await asyncio.sleep(0.001)
                running[0] -= 1

        await asyncio.gather(
            move("b0", False), *(move(f"b{i}", False) for i in (1, 2)), move("p1", True)
        )
        await asyncio.gather(move("p2", True), *(move(f"p{i}", True) for i in (3, 4, 5)))
        return order

    order = asyncio.run(main())
    assert order[:4] == ["b0", "p1", "b1", "b2"]  # the person skips the bots-only line
    assert order[4:] == ["p2", "p3", "p4", "p5"]  # arrival order within a line


def test_a_game_with_a_person_does_not_wait_behind_bots_only_games() -> None:
    """Three bots-only games with slow bots and one worker: a person's game is served
    next.  Events, not time: once the person's bot move waits in line, the next bot
    move to start is the person's game's, ahead of the bots-only games queued before."""

    async def main() -> tuple[list[str], int]:
        gm = GameMaster(Storage("sqlite://"), bot_delay=0, limits=ServerLimits(bot_workers=1))
        started: list[str] = []  # which game's bot began to think, in order
        busy = []
        for seed in range(3):
            table, _ = gm.create_game("toy", [{"kind": "bot"}] * 2, seed=seed)
            busy.append(table)
        for table in busy:
            for bot in table.bots.values():
                slow_act = bot.act

                def slow(*args: Any, _act: Any = slow_act) -> Any:
                    started.append("bots-only")
                    time.sleep(0.3)
                    return _act(*args)

                bot.act = slow  # type: ignore[method-assign]
        while gm.bot_pool.busy < 1 or gm.bot_pool.queued < 2:  # the event: the bots-only
            await asyncio.sleep(0.001)  # games are thinking (one) and queued (two)
        table, _ = gm.create_game("toy", [HUMANS[0], {"kind": "bot"}], seed=9)
        person_act = table.bots[1].act

        def person(*args: Any) -> Any:
            started.append("person")
            return person_act(*args)

        table.bots[1].act = person  # type: ignore[method-assign]
        await gm.act(table, (0,), {"action": PASS, "state_id": 0})
        # the event: the person's game's bot move waits in line (or already began)
        while not (gm.bot_pool._waiting[True] or "person" in started):
            await asyncio.sleep(0.001)
        in_line = len(started)
        while table.state.step < 2:  # the event: its bot has moved
            await asyncio.sleep(0.005)
        await gm.stop()
        return started, in_line

    started, in_line = asyncio.run(main())
    # in arrival order it would come after both queued bots-only games' moves
    assert "person" in started[: in_line + 1], (started, in_line)


# -- text and JSON ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["\ud800", "bad\x00name", "tab\there", "line\u2028break", "x" * 41, "\u202eevil"]
)
def test_bad_names_are_refused_before_anything_is_stored(name: str) -> None:
    with _client() as client:
        seats = [{"kind": "human", "name": name}, {"kind": "human"}]
        body = json.dumps({"game": "toy", "seats": seats})  # \ud800 stays an escape
        res = client.post("/api/games", content=body, headers={"content-type": "application/json"})
        assert res.status_code == 400 and res.json()["error"] == "bad_text"
        listing = client.get("/api/games")
        assert listing.status_code == 200 and listing.json()["games"] == []


def test_good_names_pass() -> None:
    for name in ("Zoë", "Łukasz", "Jiří", "李", "👩‍👩‍👧", "Ann Smith"):
        assert check_text(name, "name", 40) == name


def test_one_unreadable_record_never_breaks_the_listing(storage_url: str) -> None:
    with _client(storage_url) as client:
        client.post("/api/games", json={"game": "toy", "seats": HUMANS})
        store: Storage = client.app.state.storage  # type: ignore[attr-defined]
        with store.engine.begin() as conn:
            conn.execute(
                insert(games_table).values(
                    id="broken1", game="toy", players=2, seed=1, options="{", seats="[",
                    status="running", meta="{}", num_actions=0, created=1.0, updated=9e9,
                )
            )  # fmt: skip
        res = client.get("/api/games")
        assert res.status_code == 200 and len(res.json()["games"]) == 1


def test_bad_text_on_the_websocket_gets_a_clean_error() -> None:
    with _client() as client:
        game = client.post("/api/games", json={"game": "toy", "seats": HUMANS}).json()
        with client.websocket_connect(f"/ws/{game['id']}") as ws:
            ws.send_text('{"type": "hello", "tokens": ["\\ud800"]}')
            assert ws.receive_json()["code"] == "bad_message"
            ws.send_text("[" * 5000 + "]" * 5000)
            assert ws.receive_json()["code"] == "bad_message"
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}  # still connected
            ws.send_json({"type": "hello", "tokens": [game["seats"][0]["token"]]})
            first = ws.receive_json()
            ws.send_text(
                json.dumps({"type": "action", "text": "\ud800", "state_id": first["state_id"]})
            )
            assert ws.receive_json()["code"] == "bad_message"


def test_deeply_nested_json_is_a_clean_400() -> None:
    with _client() as client:
        body = b"[" * 8000 + b"]" * 8000
        res = client.post("/api/games", content=body)
        assert res.status_code == 400 and res.json()["error"] == "bad_json"
    assert parse_json(b'{"a": [1, {"b": "[[[["}]}', max_depth=3) == {"a": [1, {"b": "[[[["}]}


def test_nan_and_infinity_are_not_json() -> None:
    with pytest.raises(RequestError):
        parse_json(b'{"seed": NaN}')


# -- bodies and headers ---------------------------------------------------------------------


def test_a_big_declared_body_is_refused_before_reading() -> None:
    with _client() as client:
        res = client.post(
            "/api/games",
            content=b"{}",
            headers={"content-length": str(100 * 1024 * 1024), "content-type": "text/plain"},
        )
    assert res.status_code == 413 and res.json()["error"] == "too_large"


def test_a_body_without_length_stops_being_read_past_the_limit() -> None:
    chunks_read = [0]

    async def receive() -> dict[str, Any]:
        chunks_read[0] += 1
        return {"type": "http.request", "body": b"x" * 1024, "more_body": True}

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("the app must not see the body")

    scope = {"type": "http", "method": "POST", "path": "/api/games", "headers": []}
    asyncio.run(Guard(app, max_body=8 * 1024)(scope, receive, send))
    assert sent[0]["status"] == 413 and chunks_read[0] == 9  # the ninth KB is one too many


def test_security_headers_on_every_response() -> None:
    with _client() as client:
        game = client.post("/api/games", json={"game": "toy", "seats": HUMANS}).json()
        for path in (
            "/",
            f"/game/{game['id']}",
            "/api/games",
            "/api/catalog",
            "/openapi.json",
            "/static/css/app.css",
            "/api/games/nosuch",
            "/no/such/page",
        ):
            res = client.get(path)
            assert res.headers["x-content-type-options"] == "nosniff", path
            assert res.headers["referrer-policy"] == "no-referrer", path
            if res.headers.get("content-type", "").startswith("text/html"):
                assert "default-src 'self'" in res.headers["content-security-policy"], path
        assert client.get("/").headers["content-security-policy"]
        res = client.post("/api/games", content=b"x" * 20_000)
        assert res.status_code == 413 and res.headers["x-content-type-options"] == "nosniff"


def test_pages_may_open_sockets_to_their_own_host_only() -> None:
    """connect-src names the page's own host (ws:// and wss:// of it), never bare ws:
    or wss: (any host); a malformed Host header leaves only 'self'."""
    with _client() as client:
        game = client.post("/api/games", json={"game": "toy", "seats": HUMANS}).json()
        for path in ("/", f"/game/{game['id']}", "/leaderboard", "/no/such/page"):
            res = client.get(path, headers={"host": "games.example:8443"})
            if not res.headers.get("content-type", "").startswith("text/html"):
                continue
            policy = res.headers["content-security-policy"]
            assert res.headers.get_list("content-security-policy") == [policy], path
            sources = next(
                d.split()[1:] for d in policy.split("; ") if d.startswith("connect-src ")
            )
            assert sources == ["'self'", "ws://games.example:8443", "wss://games.example:8443"]
        bad = client.get("/", headers={"host": "x.example ws: *"})
        assert "connect-src 'self';" in bad.headers["content-security-policy"]


# -- rate limits, expiry ------------------------------------------------------------------


def test_rate_limits_answer_429_with_retry_after() -> None:
    with _client(rate_limits={"create": 0.2}) as client:
        codes = [
            client.post("/api/games", json={"game": "toy", "seats": HUMANS}).status_code
            for _ in range(3)
        ]
        assert codes == [201, 429, 429]  # a burst of one at 0.2 per second
        res = client.post("/api/games", json={"game": "toy", "seats": HUMANS})
        assert res.status_code == 429 and int(res.headers["retry-after"]) >= 1
        assert client.get("/api/games").status_code == 200  # listing is not limited
    with _client() as client:  # off unless asked for
        for _ in range(10):
            assert client.post("/api/games", json={"game": "toy", "seats": HUMANS}).is_success


def test_rate_limiter_refills_and_forgets_old_clients() -> None:
    limiter = RateLimiter({"replay": RateRule("replay", 2.0, 2.0)}, max_clients=2)
    assert limiter.wait_time("a", "replay", now=0) == 0
    assert limiter.wait_time("a", "replay", now=0) == 0
    assert limiter.wait_time("a", "replay", now=0) == pytest.approx(0.5)
    assert limiter.wait_time("a", "replay", now=0.5) == 0  # refilled
    for client in "bcd":
        limiter.wait_time(client, "replay", now=1)
    assert len(limiter._buckets) == 2


def test_games_nobody_joined_expire(storage_url: str) -> None:
    with _client(storage_url) as client:
        master: GameMaster = client.app.state.master  # type: ignore[attr-defined]
        lonely = client.post("/api/games", json={"game": "toy", "seats": HUMANS}).json()
        joined = client.post("/api/games", json={"game": "toy", "seats": HUMANS}).json()
        bots = client.post(
            "/api/games", json={"game": "toy", "seats": [{"kind": "bot"}] * 2}
        ).json()
        with client.websocket_connect(f"/ws/{joined['id']}") as ws:
            ws.send_json({"type": "hello", "tokens": [joined["seats"][0]["token"]]})
            ws.receive_json()
        assert master.expire_unjoined(time.time() + 1) == [lonely["id"]]
        assert client.get(f"/api/games/{lonely['id']}").status_code == 410
        with client.websocket_connect(f"/ws/{lonely['id']}") as ws:
            ws.send_json({"type": "hello", "tokens": [lonely["seats"][0]["token"]]})
            assert ws.receive_json()["code"] == "expired"
        assert client.get(f"/api/games/{joined['id']}").json()["status"] == "running"
        assert client.get(f"/api/games/{bots['id']}").status_code == 200


# -- logging ----------------------------------------------------------------------------------


def test_repeated_errors_are_not_logged_thousands_of_times() -> None:
    filt = RepeatFilter(burst=3, period=60)
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "accept failed", None, None)
    kept = sum(filt.filter(record) for _ in range(10_000))
    assert kept == 3
    other = logging.LogRecord("x", logging.ERROR, __file__, 1, "something else", None, None)
    assert filt.filter(other)
