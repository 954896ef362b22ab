"""``kingdoms serve``: run the web app (lobby, games, browser client)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

DEFAULT_RATES = {"create": 0.5, "replay": 5.0, "record": 2.0}
"""Requests per second one client may make by default (bursts of five times that)."""


ENV_PREFIX = "KINGDOMS_"
"""Every setting may also come from ``KINGDOMS_<FLAG>`` (``--bot-think``:
``KINGDOMS_BOT_THINK``); a flag on the command line wins (the container image's way)."""


def hold_sqlite_file(db: str) -> Any:
    """One ``kingdoms serve`` process per SQLite file: a lock on ``FILE.serve-lock``,
    held until the returned handle is closed (or the process ends, however it ends).
    Several processes on one file would each keep their own view of the games (no
    notifications, no bot leases: that takes PostgreSQL).  ``None`` for other
    databases; :class:`click.UsageError` if another process holds the file."""
    from sqlalchemy.engine import make_url

    try:
        import fcntl
    except ImportError:  # no POSIX locks here: nothing to check with
        return None
    url = make_url(db)
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    path = Path(url.database).resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = open(f"{path}.serve-lock", "ab")  # noqa: SIM115 - held while serving
    try:  # a POSIX lock: not inherited by forked children, gone with the process
        fcntl.lockf(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as err:
        handle.close()
        raise click.UsageError(
            f"another kingdoms serve process uses {path}: several processes cannot share "
            "a SQLite file; stop it, or use PostgreSQL for several processes "
            "(--db postgresql+psycopg://...)"
        ) from err
    return handle


def _env(flag: str) -> str:
    return ENV_PREFIX + flag.lstrip("-").replace("-", "_").upper()


def _setting(flag: str, default: Any, kind: Any, help: str) -> Callable[[F], F]:
    """A server setting: a flag with a default shown in ``--help``, or its variable."""
    return click.option(
        flag,
        default=default,
        show_default=True,
        type=kind,
        help=help,
        envvar=_env(flag),
        show_envvar=True,
    )


@click.command()
@_setting("--host", "127.0.0.1", str, "Address to listen on.")
@_setting("--port", 8000, int, "Port to listen on.")
@_setting(
    "--db",
    "sqlite:///data/kingdoms.sqlite",
    str,
    "Database URL: sqlite:///PATH or postgresql+psycopg://USER@HOST/DB.",
)
@_setting("--bot-delay", 0.3, float, "Seconds a bot waits before acting (so people can follow).")
@_setting(
    "--bot-think",
    5.0,
    float,
    "Most seconds a bot may think per move (clients asking for more are refused).",
)
@_setting("--bot-iterations", 20_000, int, "Most search iterations a bot may run per move.")
@_setting(
    "--bot-workers",
    2,
    int,
    "Bot moves computed at once across all games (the bots' share of the CPU).",
)
@click.option(
    "--rate",
    "rates",
    multiple=True,
    envvar=_env("--rate"),
    show_envvar=True,
    metavar="KIND=PER_SECOND",
    help="Requests per second one client may make, by kind (create, replay, record); "
    "default create=0.5, replay=5, record=2; KIND=0 lifts a limit.",
)
@_setting(
    "--message-rate",
    10.0,
    float,
    "WebSocket messages per second one connection may send, in bursts of three times "
    "that (a connection flooding past its burst is closed; 0: no limit).",
)
@_setting(
    "--expire-after", 24.0, float, "Hours after which a game nobody joined expires (0: never)."
)
@_setting("--header-timeout", 10.0, float, "Seconds a client has to send a complete request head.")
@_setting("--idle-timeout", 30.0, float, "Seconds an idle HTTP connection is kept open.")
@click.option(
    "--max-connections",
    default=None,
    type=int,
    envvar=_env("--max-connections"),
    show_envvar=True,
    help="Open connections at most (default: most of the open-file limit).",
)
@_setting(
    "--max-connections-per-address",
    64,
    click.IntRange(0),
    "Open connections one client address may hold (0: no cap; behind a reverse proxy, "
    "where every client has the proxy's address, use 0 and cap at the proxy).",
)
@_setting("--spectators-per-game", 1000, click.IntRange(0), "Spectators one game may have at once.")
@_setting(
    "--spectators-per-address",
    16,
    click.IntRange(0),
    "Spectator connections one client address may hold at once.",
)
@_setting(
    "--forwarded-allow-ips",
    "",
    str,
    "Proxies whose X-Forwarded-For is believed (comma-separated addresses or networks, "
    "e.g. 127.0.0.1 for a proxy on this host; * for any); empty: none, every client is "
    "the address it connects from.",
)
@_setting(
    "--ipv6-prefix",
    64,
    click.IntRange(1, 128),
    "IPv6 addresses of one network of this prefix length count as one client in every "
    "per-client limit (IPv4: one address, one client).",
)
@_setting(
    "--bot-games-per-client",
    2,
    click.IntRange(0),
    "Games of search bots alone one client may have running at once.",
)
@_setting(
    "--unjoined-per-client",
    100,
    click.IntRange(0),
    "Games one client may have waiting for their players at once.",
)
@_setting(
    "--reviews-per-client",
    2,
    click.IntRange(0),
    "Reviews of other people's finished games one client may have waiting at once "
    "(a game's own players are never refused).",
)
@_setting(
    "--review-queue",
    50,
    click.IntRange(0),
    "Reviews asked for by strangers waiting at once in all (a game's own players are "
    "never refused).",
)
@_setting(
    "--review-workers",
    1,
    click.IntRange(1, 64),
    "Processes analysing game reviews (nice 19; stopped whenever a bot move waits).",
)
@_setting(
    "--workers",
    1,
    click.IntRange(1, 64),
    "Server processes on this port (more than one needs PostgreSQL).",
)
@_setting(
    "--lease-time",
    6.0,
    click.FloatRange(1.0, 600.0),
    "Seconds a process holds a game's bots without renewing (PostgreSQL): "
    "when a process dies, another takes its bots over after this.",
)
def serve(
    host: str,
    port: int,
    db: str,
    bot_delay: float,
    bot_think: float,
    bot_iterations: int,
    bot_workers: int,
    rates: tuple[str, ...],
    message_rate: float,
    expire_after: float,
    header_timeout: float,
    idle_timeout: float,
    max_connections: int | None,
    max_connections_per_address: int,
    spectators_per_game: int,
    spectators_per_address: int,
    forwarded_allow_ips: str,
    ipv6_prefix: int,
    bot_games_per_client: int,
    unjoined_per_client: int,
    reviews_per_client: int,
    review_queue: int,
    review_workers: int,
    workers: int,
    lease_time: float,
) -> None:
    """Run the web app: open the printed address in a browser."""
    from kingdoms.server.app import create_app
    from kingdoms.server.limits import ServerLimits
    from kingdoms.server.runtime import ServeOptions, run_server, run_workers

    if workers > 1 and not db.startswith("postgresql"):
        raise click.UsageError(
            f"--workers {workers} needs a PostgreSQL database (--db postgresql+psycopg://...): "
            "several processes cannot share a SQLite file safely; run one process with SQLite"
        )
    held = hold_sqlite_file(db)  # one process per SQLite file (before anything opens it)

    rate_limits = dict(DEFAULT_RATES)
    for item in rates:
        kind, eq, value = item.partition("=")
        if not eq or kind not in DEFAULT_RATES:
            raise click.BadParameter(
                f"{item!r}: use KIND=PER_SECOND, KIND one of create, replay, record"
            )
        try:
            rate_limits[kind] = float(value)
        except ValueError as err:
            raise click.BadParameter(f"{item!r}: {value!r} is not a number") from err
    if bot_think <= 0 or bot_iterations < 1 or bot_workers < 1:
        raise click.BadParameter("bot limits must be positive")
    limits = ServerLimits(
        bot_think=bot_think, bot_iterations=bot_iterations, bot_workers=bot_workers
    )
    limits = replace(
        limits,
        spectators_per_game=spectators_per_game,
        spectators_per_address=spectators_per_address,
        ipv6_prefix=ipv6_prefix,
        bot_games_per_client=bot_games_per_client,
        unjoined_per_address=unjoined_per_client,
        reviews_per_client=reviews_per_client,
        review_queue=review_queue,
        review_workers=review_workers,
    )

    def make_app() -> Any:
        return create_app(
            db,
            bot_delay=bot_delay,
            message_rate=message_rate if message_rate > 0 else None,
            limits=limits,
            rate_limits={k: v for k, v in rate_limits.items() if v > 0},
            expire_after=expire_after * 3600 if expire_after > 0 else None,
            lease_time=lease_time,
        )

    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    many = f"; {workers} processes" if workers > 1 else ""
    click.echo(f"kingdoms: open http://{shown}:{port}/  (database: {db}{many}; Ctrl+C stops)")
    options = ServeOptions(
        header_timeout,
        idle_timeout,
        max_connections,
        max_per_address=max_connections_per_address,
        forwarded_allow_ips=forwarded_allow_ips,
        ipv6_prefix=ipv6_prefix,
    )
    if workers > 1:
        run_workers(make_app, workers, host, port, options)
        return
    try:
        run_server(make_app(), host, port, options)
    finally:
        if held is not None:
            held.close()


@click.command()
@click.option(
    "--url",
    default=None,
    help="The server's address (default: http://127.0.0.1:$KINGDOMS_PORT, port 8000).",
)
@click.option("--timeout", default=5.0, show_default=True, type=float, help="Seconds to wait.")
def health(url: str | None, timeout: float) -> None:
    """Ask a running server's /healthz: exit 0 when it serves and reaches its database."""
    import json
    import os
    import urllib.error
    import urllib.request

    base = url or f"http://127.0.0.1:{os.environ.get(_env('--port'), '8000')}"
    target = base.rstrip("/") + "/healthz"
    try:
        with urllib.request.urlopen(target, timeout=timeout) as res:
            body = json.loads(res.read())
    except urllib.error.HTTPError as err:
        raise click.ClickException(f"{target}: unhealthy (HTTP {err.code})") from err
    except (OSError, ValueError) as err:
        raise click.ClickException(f"{target}: no answer ({err})") from err
    click.echo(
        f"{target}: {body.get('status')} (kingdoms {body.get('version')}, "
        f"{body.get('build')} build)"
    )
