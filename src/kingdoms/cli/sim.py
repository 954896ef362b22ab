"""``kingdoms sim GAME``: bot-vs-bot simulation with a progress bar, a text report,
JSON, charts (PNG, interactive HTML), a sample game's log and round robins."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from kingdoms.cli.dominion_options import dominion_options, game_options
from kingdoms.core.errors import InvalidConfig
from kingdoms.sim.backends import BACKENDS
from kingdoms.sim.runner import SimReport, default_workers, simulate


def _common(f: Callable[..., Any]) -> Callable[..., Any]:
    for opt in reversed(
        [
            click.option(
                "--bots", help="Comma-separated bot specs or strategy files, one per seat."
            ),
            click.option(
                "--round-robin",
                "round_robin",
                help="Comma-separated bots: every pair plays -n games; prints a win-rate matrix.",
            ),
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
                help=f"Worker processes or Ray CPUs (this machine has {default_workers()} cores).",
            ),
            click.option(
                "--backend",
                type=click.Choice(BACKENDS),
                default="local",
                show_default=True,
                help="Where batches run: local processes, or Ray (pip install 'kingdoms[ray]').",
            ),
            click.option(
                "--address",
                default=None,
                help="Ray cluster address (ray://head:10001 or auto); default: a local Ray.",
            ),
            click.option("--chart", type=click.Path(dir_okay=False), help="Write a PNG chart."),
            click.option(
                "--html",
                type=click.Path(dir_okay=False),
                help="Write a self-contained interactive HTML report.",
            ),
            click.option(
                "--sample-log", is_flag=True, help="Also print the log of the run's first game."
            ),
            click.option(
                "--curves",
                is_flag=True,
                help="Also record and report the per-turn curves (VP, money, coins per "
                "turn; Kingdomino: points per round); --chart and --html imply it.",
            ),
            click.option(
                "--until-clear",
                "until_clear",
                is_flag=True,
                help="Two bots: stop once the first bot's 99 % interval is clear of 50 % "
                "(checked after every batch, from 100 games on).",
            ),
            click.option(
                "--turns",
                type=click.IntRange(min=0),
                default=25,
                show_default=True,
                help="Turns (rounds) shown in the per-turn table.",
            ),
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


def _progress(game: str, console: Console) -> Progress:
    return Progress(
        TextColumn(f"[bold]{game}[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )


def _run(
    game: str,
    options: dict[str, Any],
    *,
    bots: str | None,
    round_robin: str | None,
    games: int,
    seed: int,
    as_json: bool,
    workers: int,
    backend: str,
    address: str | None,
    chart: str | None,
    html: str | None,
    sample_log: bool,
    turns: int,
    until_clear: bool,
    curves: bool,
) -> None:
    if bool(bots) == bool(round_robin):
        raise click.UsageError("give either --bots or --round-robin")
    err = Console(stderr=True)
    out = Console(width=160) if not Console().is_terminal else Console()
    if round_robin:
        _round_robin(game, options, _split_bots(round_robin), games, seed, as_json, workers,
                     backend, address, err, out)  # fmt: skip
        return
    specs = _split_bots(bots or "")
    stop = None
    if until_clear:
        from kingdoms.sim.rank import clear_of_half

        if len(specs) != 2:
            raise click.UsageError("--until-clear needs exactly two bots")
        stop = clear_of_half(min(100, games))
    with _progress(game, err) as progress:
        task = progress.add_task("games", total=games)
        report = simulate(
            game,
            specs,
            games,
            seed,
            options,
            workers=workers,
            backend=backend,
            address=address,
            progress=lambda k: progress.advance(task, k),
            stop=stop,
            curves=curves or bool(chart or html),
        )
    _outputs(report, chart, html)
    if as_json:
        data = report.to_json()
        if sample_log:
            from kingdoms.sim.report import sample_log as log_lines

            data["sample_log"] = log_lines(game, specs, seed, options)
        click.echo(json.dumps(data))
        return
    from kingdoms.sim.report import print_report
    from kingdoms.sim.report import sample_log as log_lines

    print_report(report, out, turns=turns)
    for path in (chart, html):
        if path:
            click.echo(f"chart written to {path}")
    if sample_log:
        click.echo("")
        for line in log_lines(game, specs, seed, options):
            click.echo(line)


def _outputs(report: SimReport, chart: str | None, html: str | None) -> None:
    if chart:
        from kingdoms.sim.chart import win_rate_chart

        win_rate_chart(report, chart)
    if html:
        from kingdoms.sim.chart import html_report

        html_report(report, html)


def _round_robin(
    game: str,
    options: dict[str, Any],
    bots: list[str],
    games: int,
    seed: int,
    as_json: bool,
    workers: int,
    backend: str,
    address: str | None,
    err: Console,
    out: Console,
) -> None:
    from kingdoms.sim.report import RoundRobin

    if len(bots) < 2:
        raise InvalidConfig("a round robin needs at least two bots")
    pairs = list(itertools.combinations(range(len(bots)), 2))
    reports = {}
    with _progress(game, err) as progress:
        task = progress.add_task("games", total=games * len(pairs))
        for i, j in pairs:
            reports[(i, j)] = simulate(
                game,
                [bots[i], bots[j]],
                games,
                seed,
                options,
                workers=workers,
                backend=backend,
                address=address,
                progress=lambda k: progress.advance(task, k),
            )
    rr = RoundRobin(bots, reports)
    if as_json:
        click.echo(json.dumps(rr.to_json()))
    else:
        rr.print(out)


@click.group()
def sim() -> None:
    """Pit bots against each other: win rates with 95 % confidence intervals,
    per-turn curves, game lengths, charts."""


@sim.command("dominion")
@_common
@dominion_options
def sim_dominion(**flags: Any) -> None:
    """Simulate Dominion games, e.g. --bots witch,big-money-ultimate -n 10000, or
    --bots my_bot.toml,big-money-ultimate."""
    keys = ("kingdom", "sets", "edition", "alchemy_errata", "alchemy_cards")
    options = game_options(**{k: flags.pop(k) for k in keys})
    _run("dominion", options, **flags)


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
def sim_kingdomino(variants: str, middle_kingdom_rule: str, **flags: Any) -> None:
    """Simulate Kingdomino games, e.g. --bots mcts:time=0.2,full-greedy,full-greedy,full-greedy."""
    options: dict[str, Any] = {
        "variants": [v.strip() for v in variants.split(",") if v.strip()],
        "middle_kingdom_rule": middle_kingdom_rule,
    }
    _run("kingdomino", options, **flags)
