"""``kingdoms sim GAME``: bot-vs-bot simulation with a progress bar, a table or JSON."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from kingdoms.cli.dominion_options import dominion_options, game_options
from kingdoms.sim.runner import SimReport, default_workers, simulate


def _common(f: Callable[..., Any]) -> Callable[..., Any]:
    for opt in reversed(
        [
            click.option("--bots", required=True, help="Comma-separated bot specs, one per seat."),
            click.option(
                "-n", "--games", type=click.IntRange(min=1), default=100, show_default=True
            ),
            click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True),
            click.option("--json", "as_json", is_flag=True, help="Print one JSON object."),
            click.option(
                "--workers",
                type=click.IntRange(min=1),
                default=1,
                show_default=True,
                help=f"Worker processes (this machine has {default_workers()} cores).",
            ),
            click.option("--chart", type=click.Path(dir_okay=False), help="Write a PNG chart."),
        ]
    ):
        f = opt(f)
    return f


def _split_bots(bots: str) -> list[str]:
    # Commas separate seats, but also a bot's parameters ("mcts:time=1,playout=greedy"):
    # a part containing "=" without ":" continues the previous bot's parameters.
    out: list[str] = []
    for part in (p.strip() for p in bots.split(",")):
        if not part:
            continue
        if out and "=" in part and ":" not in part:
            out[-1] += "," + part
        else:
            out.append(part)
    return out


def _run(
    game: str,
    bots: str,
    games: int,
    seed: int,
    options: dict[str, Any],
    as_json: bool,
    workers: int,
    chart: str | None,
) -> None:
    specs = _split_bots(bots)
    err = Console(stderr=True)
    with Progress(
        TextColumn(f"[bold]{game}[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    ) as progress:
        task = progress.add_task("games", total=games)
        report = simulate(
            game,
            specs,
            games,
            seed,
            options,
            workers=workers,
            progress=lambda k: progress.advance(task, k),
        )
    if chart:
        from kingdoms.sim.chart import win_rate_chart

        win_rate_chart(report, chart)
    if as_json:
        click.echo(json.dumps(report.to_json()))
    else:
        _print_table(report)
        if chart:
            click.echo(f"chart written to {chart}")


def _print_table(report: SimReport) -> None:
    console = Console()
    table = Table(title=f"{report.game}: {report.games} games, seed rotation")
    table.add_column("#", justify="right")
    table.add_column("bot")
    table.add_column("wins", justify="right")
    table.add_column("win rate [95% CI]", justify="right")
    table.add_column(f"mean {report.score_name}", justify="right")
    table.add_column("mean margin", justify="right")
    for i, (bot, wins, (lo, hi), score, margin) in enumerate(
        zip(
            report.bots,
            report.wins,
            report.win_intervals(),
            report.mean_scores(),
            report.mean_margins(),
            strict=True,
        )
    ):
        table.add_row(
            str(i + 1),
            bot,
            str(wins),
            f"{wins / report.games:.1%} [{lo:.1%}–{hi:.1%}]",
            f"{score:.2f}",
            f"{margin:+.2f}",
        )
    console.print(table)
    data = report.to_json()
    extra = [f"shared wins: {report.ties}", f"first-seat wins: {report.first_seat_wins}"]
    if "mean_turns" in data:
        extra.append(f"mean turns: {data['mean_turns']}")
    if "three_pile_endings" in data:
        extra.append(f"pile endings: {data['three_pile_endings']}")
    extra.append(f"{report.games_per_second:.1f} games/s")
    console.print(" · ".join(extra))


@click.group()
def sim() -> None:
    """Pit bots against each other: win rates with 95 % confidence intervals."""


@sim.command("dominion")
@_common
@dominion_options
def sim_dominion(
    bots: str,
    games: int,
    seed: int,
    as_json: bool,
    workers: int,
    chart: str | None,
    **flags: Any,
) -> None:
    """Simulate Dominion games, e.g. --bots witch,big-money-ultimate -n 10000."""
    options = game_options(**flags)
    _run("dominion", bots, games, seed, options, as_json, workers, chart)


@sim.command("kingdomino")
@_common
@click.option(
    "--variants", default="", help="Comma-separated: middle-kingdom, harmony, dynasty, mighty-duel."
)
@click.option(
    "--middle-kingdom-rule",
    type=click.Choice(["window", "bbox"]),
    default="window",
    show_default=True,
)
def sim_kingdomino(
    bots: str,
    games: int,
    seed: int,
    as_json: bool,
    workers: int,
    chart: str | None,
    variants: str,
    middle_kingdom_rule: str,
) -> None:
    """Simulate Kingdomino games, e.g. --bots mcts:time=0.2,full-greedy,full-greedy,full-greedy."""
    options: dict[str, Any] = {
        "variants": [v.strip() for v in variants.split(",") if v.strip()],
        "middle_kingdom_rule": middle_kingdom_rule,
    }
    _run("kingdomino", bots, games, seed, options, as_json, workers, chart)
