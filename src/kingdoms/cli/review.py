"""``kingdoms review FILE``: the search bot's review of a finished game — each seat's
winning chance over the game and its biggest mistakes."""

from __future__ import annotations

import json
import sys

import click

from kingdoms.core.errors import KingdomsError
from kingdoms.core.record import load_record
from kingdoms.i18n import LANGUAGES
from kingdoms.review import Budget, default_workers, review_game
from kingdoms.review.analysis import DEFAULT_GAME_SECONDS, DEFAULT_ITERATIONS


@click.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--seat", type=int, default=None, help="Review only this seat (1-based).")
@click.option(
    "--budget",
    default=None,
    help=f"Search per decision: iterations (300), CPU seconds (2s) or key=value pairs "
    f"(iterations=300,seconds=2,game=120,width=4). Default: iterations={DEFAULT_ITERATIONS},"
    f"game={DEFAULT_GAME_SECONDS:g} (CPU seconds for the whole game).",
)
@click.option("--workers", type=int, default=None, help="Processes (default: every core).")
@click.option("--mistakes", "count", type=int, default=3, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the whole review as JSON.")
@click.option("--html", "html_path", default=None, help="Write an interactive chart (HTML).")
@click.option("--png", "png_path", default=None, help="Write the chart as a PNG.")
@click.option("--lang", type=click.Choice(LANGUAGES), default="en", show_default=True)
@click.option("--quiet", is_flag=True, help="No progress on stderr.")
def review(
    path: str,
    seat: int | None,
    budget: str | None,
    workers: int | None,
    count: int,
    as_json: bool,
    html_path: str | None,
    png_path: str | None,
    lang: str,
    quiet: bool,
) -> None:
    """Review a finished game: winning chances and the biggest mistakes."""
    from kingdoms.review.report import text_report, write_html, write_png

    try:
        record = load_record(path)
        plan = Budget.parse(budget) if budget else Budget()
        seats = None
        if seat is not None:
            if not 1 <= seat <= record.config.players:
                raise click.BadParameter(f"must be 1..{record.config.players}", param_hint="--seat")
            seats = [seat - 1]
        if workers is not None and workers < 1:
            raise click.BadParameter("must be at least 1", param_hint="--workers")

        live = sys.stderr.isatty()
        shown = [-1]

        def progress(done: int, total: int) -> None:
            tenth = done * 10 // max(total, 1)
            if quiet or (not live and tenth == shown[0]):
                return
            shown[0] = tenth
            end = "\n" if done == total or not live else ""
            click.echo(f"\ranalysed {done}/{total} decisions{end}", nl=False, err=True)

        result = review_game(record, seats, plan, workers or default_workers(), progress=progress)
        if as_json:
            click.echo(json.dumps(result.to_json(), ensure_ascii=False, indent=1))
        else:
            click.echo(text_report(result, count, lang))
        if html_path:
            write_html(result, html_path, count)
            click.echo(f"chart written to {html_path}", err=True)
        if png_path:
            write_png(result, png_path)
            click.echo(f"chart written to {png_path}", err=True)
    except KingdomsError as err:
        click.echo(f"error: {err}", err=True)
        sys.exit(2)
