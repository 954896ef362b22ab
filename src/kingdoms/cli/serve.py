"""``kingdoms serve``: run the web app (lobby, games, browser client)."""

from __future__ import annotations

import click


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
def serve(host: str, port: int, db: str, bot_delay: float) -> None:
    """Run the web app: open the printed address in a browser."""
    import uvicorn

    from kingdoms.server.app import create_app

    app = create_app(db, bot_delay=bot_delay)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    click.echo(f"kingdoms: open http://{shown}:{port}/  (database: {db}; Ctrl+C stops)")
    uvicorn.run(app, host=host, port=port, log_level="warning")
