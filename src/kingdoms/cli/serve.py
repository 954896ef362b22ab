"""``kingdoms serve``: run the web app (lobby, games, browser client)."""

from __future__ import annotations

from typing import Any

import click

DEFAULT_RATES = {"create": 0.5, "replay": 5.0, "record": 2.0}
"""Requests per second one client may make by default (bursts of five times that)."""


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=int, help="Port to listen on.")
@click.option(
    "--db",
    default="sqlite:///data/kingdoms.sqlite",
    show_default=True,
    help="Database URL: sqlite:///PATH or postgresql+psycopg://USER@HOST/DB.",
)
@click.option(
    "--bot-delay",
    default=0.3,
    show_default=True,
    type=float,
    help="Seconds a bot waits before acting (so people can follow).",
)
@click.option(
    "--bot-think",
    default=5.0,
    show_default=True,
    type=float,
    help="Most seconds a bot may think per move (clients asking for more are refused).",
)
@click.option(
    "--bot-iterations",
    default=20_000,
    show_default=True,
    type=int,
    help="Most search iterations a bot may run per move.",
)
@click.option(
    "--bot-workers",
    default=2,
    show_default=True,
    type=int,
    help="Bot moves computed at once across all games (the bots' share of the CPU).",
)
@click.option(
    "--rate",
    "rates",
    multiple=True,
    metavar="KIND=PER_SECOND",
    help="Requests per second one client may make, by kind (create, replay, record); "
    "default create=0.5, replay=5, record=2; KIND=0 lifts a limit.",
)
@click.option(
    "--expire-after",
    default=24.0,
    show_default=True,
    type=float,
    help="Hours after which a game nobody joined expires (0: never).",
)
@click.option(
    "--header-timeout",
    default=10.0,
    show_default=True,
    type=float,
    help="Seconds a client has to send a complete request head.",
)
@click.option(
    "--idle-timeout",
    default=30.0,
    show_default=True,
    type=float,
    help="Seconds an idle HTTP connection is kept open.",
)
@click.option(
    "--max-connections",
    default=None,
    type=int,
    help="Open connections at most (default: most of the open-file limit).",
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Server processes on this port (more than one needs PostgreSQL).",
)
@click.option(
    "--lease-time",
    default=6.0,
    show_default=True,
    type=click.FloatRange(1.0, 600.0),
    help="Seconds a process holds a game's bots without renewing (PostgreSQL): "
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
    expire_after: float,
    header_timeout: float,
    idle_timeout: float,
    max_connections: int | None,
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

    def make_app() -> Any:
        return create_app(
            db,
            bot_delay=bot_delay,
            limits=limits,
            rate_limits={k: v for k, v in rate_limits.items() if v > 0},
            expire_after=expire_after * 3600 if expire_after > 0 else None,
            lease_time=lease_time,
        )

    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    many = f"; {workers} processes" if workers > 1 else ""
    click.echo(f"kingdoms: open http://{shown}:{port}/  (database: {db}{many}; Ctrl+C stops)")
    options = ServeOptions(header_timeout, idle_timeout, max_connections)
    if workers > 1:
        run_workers(make_app, workers, host, port, options)
    else:
        run_server(make_app(), host, port, options)
