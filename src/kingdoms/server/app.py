"""The ASGI application: lobby API, WebSocket play and the static browser client.

>>> app = create_app("sqlite://", bot_delay=0)
>>> sorted(r.path for r in app.routes if r.path.startswith("/api/games"))[:2]
['/api/games', '/api/games/{game_id}']
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from kingdoms.i18n import LANGUAGES
from kingdoms.server import protocol, ratings, resign, spectate
from kingdoms.server import review as reviews
from kingdoms.server.guard import ABORT, CSP, Guard, RateLimiter, RateRule
from kingdoms.server.limits import DEFAULT_LIMITS, ServerLimits
from kingdoms.server.lobby import ROUTES
from kingdoms.server.master import GameMaster, RequestError, Subscriber, Table
from kingdoms.server.storage import Storage
from kingdoms.server.table import Outbox
from kingdoms.web import render_page

log = logging.getLogger(__name__)

DEFAULT_DB = "sqlite:///data/kingdoms.sqlite"

PAGE_HEADERS = {
    # only our own scripts, styles and sockets; seat tokens never leave in a Referer
    "Content-Security-Policy": CSP,
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}


class GuardedStarlette(Starlette):
    """Starlette with :class:`~kingdoms.server.guard.Guard` outermost, so that even its
    own error pages get the security headers."""

    def __init__(self, guard: tuple[int, RateLimiter | None, int], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.guard = guard

    def build_middleware_stack(self) -> Any:
        max_body, limiter, ipv6_prefix = self.guard
        return Guard(super().build_middleware_stack(), max_body, limiter, ipv6_prefix)


def static_dir() -> Path:
    return Path(str(resources.files("kingdoms.web").joinpath("static")))


def _abort(ws: WebSocket) -> None:
    """Close ``ws`` at once, dropping whatever it has not read (a polite close would
    wait for a client that does not read); see :data:`~kingdoms.server.guard.ABORT`."""
    abort = ws.scope.get(ABORT)
    if abort is not None:
        abort()


async def _write_all(outbox: Outbox, ws: WebSocket) -> None:
    """The connection's writer task: what the master posts, in order."""

    async def write(text: str) -> None:
        if ws.application_state == WebSocketState.CONNECTED:
            await ws.send_text(text)

    try:
        await outbox.run(write)
    except Exception as err:  # the client went away: the reader sees it too
        log.debug("stopped writing to a connection: %r", err)
        outbox.close()


async def _shut(ws: WebSocket, outbox: Outbox, writer: asyncio.Task[None], code: int) -> None:
    """End a connection from our side: what is queued (an error saying why) is written,
    then the socket is closed; at once if the client does not read."""
    outbox.close()
    try:
        await asyncio.wait_for(asyncio.shield(writer), 2.0)
        await asyncio.wait_for(ws.close(code), 2.0)
    except Exception:  # it does not read (or is gone): drop it
        _abort(ws)


async def play_socket(ws: WebSocket) -> None:
    """One browser connection to one game (one or several seats).

    Everything sent to it goes through its :class:`~kingdoms.server.table.Outbox`,
    written by a task of its own: a client that stops reading only ever holds up
    itself, and is closed once too far behind."""
    master: GameMaster = ws.app.state.master
    limits = master.limits
    await ws.accept()
    outbox = Outbox(limits.send_queue, limits.send_queue_bytes, lambda: _abort(ws))
    writer = asyncio.create_task(_write_all(outbox, ws))
    send = outbox.post
    address = ws.client.host if ws.client else "?"

    table: Table | None = None
    sub: Subscriber | None = None
    rate: float | None = ws.app.state.message_rate
    limit = protocol.RateLimit(rate, 3 * rate) if rate else None
    hello_by = asyncio.get_running_loop().time() + limits.hello_timeout
    try:
        while True:
            if table is None:  # a socket that never says hello does not hold a slot
                left = hello_by - asyncio.get_running_loop().time()
                try:
                    frame = await asyncio.wait_for(ws.receive(), max(left, 0.0))
                except TimeoutError:
                    late = RequestError("hello_timeout", "no hello in time: closing")
                    send(protocol.error(late))
                    await _shut(ws, outbox, writer, 1008)
                    break
            else:
                frame = await ws.receive()
            if frame["type"] == "websocket.disconnect" or outbox.overflowed:
                break
            raw = frame.get("text")
            if raw is None and frame.get("bytes") is not None:
                raw = frame["bytes"].decode("utf-8", errors="replace")
            ref = None
            if limit is not None and not limit.take():  # a flood: closed after its burst
                send(protocol.error(RequestError("slow_down", "too many messages: closing")))
                await _shut(ws, outbox, writer, 1008)
                break
            try:
                msg = protocol.decode(raw)
                ref = protocol.safe_ref(msg)
                kind = msg["type"]
                if kind == "ping":
                    send({"type": "pong"})
                elif kind == "hello":
                    if table is not None:
                        raise RequestError("bad_message", "already said hello")
                    lang = str(msg["lang"]) if msg.get("lang") in LANGUAGES else "en"
                    if msg.get("watch") is True:  # a spectator: public view, no seat
                        shown = msg.get("tokens")  # a private game's share key (or a seat's)
                        client = address  # a signed-in spectator: its profile's places
                        if msg.get("profile") is not None:
                            client = await ratings.profile_client(ws, msg["profile"], address)
                        table, sub = await spectate.watch(
                            master,
                            ws.path_params["game_id"],
                            outbox,
                            lang,
                            client,
                            protocol.hello_tokens(msg) if shown is not None else (),
                        )
                        continue
                    table, sub = await master.subscribe(
                        ws.path_params["game_id"], protocol.hello_tokens(msg), outbox, lang
                    )
                    if msg.get("profile") is not None:  # a player proves a profile: rated
                        await ratings.claim_seats(
                            ws.app.state.ratings,
                            master,
                            table,
                            sub.seats,
                            msg["profile"],
                            ws.app.state.profile_limits,
                            address,
                        )
                elif table is None or sub is None:
                    raise RequestError("bad_message", "say hello with your seat token first")
                elif not sub.seats and kind in ("action", "undo", "resign"):
                    raise RequestError("wrong_seat", "a spectator holds no seat")
                elif kind == "action":
                    step = await master.act(table, sub.seats, msg, sub.lang)
                    send({"type": "ack", "ref": ref, "state_id": step})
                elif kind == "resign":
                    await resign.resign(master, table, sub.seats, msg)
                    send({"type": "ack", "ref": ref, "state_id": table.state.step})
                elif kind == "undo":
                    step = await master.undo(table, sub.seats, msg)
                    send({"type": "ack", "ref": ref, "state_id": step})
                elif kind == "lang":
                    if msg.get("lang") not in LANGUAGES:
                        raise RequestError("bad_message", f"lang must be one of {LANGUAGES}")
                    sub.lang = msg["lang"]
                    sub.log_sent.clear()
                    async with table.lock:
                        await master.push(table, [sub])
            except RequestError as err:
                send(protocol.error(err, ref))
            except Exception:  # a bug must not cost the player the connection
                log.exception("websocket message failed in game %s", ws.path_params["game_id"])
                oops = RequestError("server", "internal error; the message changed nothing")
                send(protocol.error(oops, ref))
    except WebSocketDisconnect:
        pass
    finally:
        if table is not None and sub is not None:
            master.unsubscribe(table, sub)
        outbox.close()
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await writer


def create_app(
    db_url: str = DEFAULT_DB,
    bot_delay: float = 0.3,
    message_rate: float | None = 10.0,
    allow_seeds: bool = False,
    idle_limit: float | None = resign.DEFAULT_IDLE_LIMIT,
    limits: ServerLimits = DEFAULT_LIMITS,
    rate_limits: dict[str, float] | None = None,
    expire_after: float | None = 24 * 3600.0,
    resume: bool = True,
    lease_time: float = 6.0,
    review_budget: Any = None,
) -> Starlette:
    """The web app over the database at ``db_url`` (SQLite file or PostgreSQL URL).

    ``bot_delay``: seconds a bot waits before acting; ``message_rate``: messages per
    second one connection may send (bursts of three times that), ``None``: no limit;
    ``allow_seeds``: accept a chosen seed when creating a game (tests, tournaments —
    whoever knows the seed can foresee the shuffles); ``idle_limit``: seconds without a
    move after which a running game is marked abandoned (``None``: never); ``limits``:
    sizes and bot maxima; ``rate_limits``: requests per second one client may make, by
    kind (``create``, ``replay``, ``record``; bursts of five times that), ``None``: no
    limits; ``expire_after``: seconds after which a game nobody joined expires;
    ``resume``: walk the unfinished games after the start (repairs, waiting bots);
    ``lease_time``: seconds a process runs a game's bots without renewing its lease
    (PostgreSQL: another process takes them over after that if it died);
    ``review_budget``: the search per decision of game reviews
    (:data:`kingdoms.server.review.SERVER_BUDGET` by default)."""
    storage = Storage(db_url)
    master = GameMaster(
        storage,
        bot_delay=bot_delay,
        limits=limits,
        expire_after=expire_after,
        lease_time=lease_time,
    )
    review_service = reviews.ReviewService(
        master, review_budget or reviews.SERVER_BUDGET, workers=limits.review_workers
    )
    book = ratings.RatingBook(storage.engine)
    master.finish_hooks.append(book.on_finish(storage))
    static = static_dir()

    async def index(request: Any) -> Response:
        return HTMLResponse(render_page("index"), headers=PAGE_HEADERS)

    async def game_page(request: Any) -> Response:
        return HTMLResponse(render_page("game"), headers=PAGE_HEADERS)

    async def leaderboard_page(request: Any) -> Response:
        return HTMLResponse(render_page("leaderboard"), headers=PAGE_HEADERS)

    async def rules_page(request: Any) -> Response:
        return HTMLResponse(render_page("rules"), headers=PAGE_HEADERS)

    async def healthz(request: Any) -> Response:
        """For container healthchecks and load balancers: 200 when this process serves
        and reaches its database, else 503 (the database round trip runs off the loop)."""
        from kingdoms._build import build_kind
        from kingdoms._version import __version__

        about = {"version": __version__, "build": build_kind()}
        try:
            if storage.threadsafe:
                await asyncio.to_thread(storage.ping)
            else:
                storage.ping()
        except Exception as exc:
            log.warning("health check: the database is unreachable: %s", exc)
            return JSONResponse({"status": "unavailable", **about}, status_code=503)
        return JSONResponse({"status": "ok", **about}, headers={"Cache-Control": "no-store"})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await master.start(resume=resume)
        await review_service.start()
        sweeper = None
        if idle_limit is not None:
            every = min(max(idle_limit / 10, 1.0), 600.0)
            sweeper = asyncio.create_task(resign.sweep(master, idle_limit, every))
        try:
            yield
        finally:
            if sweeper is not None:
                sweeper.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await sweeper
            await review_service.stop()
            await master.stop()
            storage.close()

    limiter = None
    if rate_limits:
        limiter = RateLimiter(
            {k: RateRule(k, rate, max(1.0, 5 * rate)) for k, rate in rate_limits.items()}
        )
    app = GuardedStarlette(
        guard=(limits.max_body, limiter, limits.ipv6_prefix),
        routes=[
            Route("/", index),
            Route("/game/{game_id}", game_page),
            *ROUTES,
            *ratings.ROUTES,
            *reviews.ROUTES,
            Route("/leaderboard", leaderboard_page),
            Route("/rules/{game}", rules_page),
            Route("/healthz", healthz),
            WebSocketRoute("/ws/{game_id}", play_socket),
            Mount("/static", StaticFiles(directory=static), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.master = master
    app.state.storage = storage
    app.state.message_rate = message_rate
    app.state.allow_seeds = allow_seeds
    app.state.ratings = book
    app.state.reviews = review_service
    app.state.profile_limits = {}
    return app
