"""``kingdoms optimize dominion --kingdom … --vs BOT``: evolve a strategy file that
beats the given bots on a kingdom."""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from kingdoms.cli.run_options import ADDRESS, BACKEND, FORMAT, JSON, MAX_TURNS, count_option
from kingdoms.cli.sim import _split_bots
from kingdoms.sim.optimize import optimize as run_optimize
from kingdoms.sim.optimize import pool_label, pool_labels
from kingdoms.sim.runner import default_workers
from kingdoms.sim.tables import console, show


@click.group()
def optimize() -> None:
    """Search for a strong strategy."""


@optimize.command("dominion")
@click.option("--kingdom", required=True, help="A recommended set's name or comma-separated cards.")
@click.option(
    "--vs", "opponents", default="big-money-ultimate", show_default=True,
    help="Comma-separated opponent bots or strategy files (the first one races the pool).",
)  # fmt: skip
@click.option(
    "-o", "--out", type=click.Path(dir_okay=False), default="optimized.toml", show_default=True,
    help="Where to write the best strategy file.",
)  # fmt: skip
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@count_option("--population", 16, "Strategies in each generation.", minimum=2)
@click.option(
    "--generations",
    type=click.IntRange(min=1),
    default=None,
    help="Stop after this many generations (default: when the time budget is spent).",
)
@click.option(
    "--minutes",
    type=click.FloatRange(min=0),
    default=None,
    help="Budget of the search in minutes of game CPU time per worker (default 3; at most "
    "three times as long on the clock; the final measurement comes on top).",
)
@click.option(
    "--pool/--no-pool",
    default=True,
    show_default=True,
    help="Also play every bundled bot that fits the kingdom (strongest first, by a quick "
    "race against the first --vs bot) and the winners of earlier restarts.",
)
@click.option(
    "--pool-dir",
    type=click.Path(file_okay=False, exists=True),
    default=None,
    help="A directory of strategy files (e.g. from `kingdoms strategy import`): those that "
    "fit the kingdom join the pool too.",
)
@count_option(
    "--games",
    16,
    "Games per candidate and opponent in a generation's first round (survivors play more).",
)
@count_option("--final-games", 1000, "Fresh games measuring the winner.")
@click.option(
    "--time-limit", type=click.FloatRange(min=0), default=None,
    help="Stop evolving after this many seconds (then measure the best).",
)  # fmt: skip
@MAX_TURNS
@JSON
@FORMAT
@ADDRESS
@BACKEND
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help=f"Worker processes or Ray CPUs (default: every core; this machine has "
    f"{default_workers()}).",
)
def optimize_dominion(
    kingdom: str,
    opponents: str,
    out: str,
    seed: int,
    population: int,
    generations: int | None,
    minutes: float | None,
    pool: bool,
    pool_dir: str | None,
    games: int,
    final_games: int,
    time_limit: float | None,
    workers: int | None,
    backend: str,
    address: str | None,
    as_json: bool,
    fmt: str,
    max_turns: int,
) -> None:
    """Evolve strategy files from templates (Big Money + X, draw and trashing
    engines, gainer rushes, Potion cards, attackers: thresholds, cards, copies, play
    order, decision rules) against a pool; write the best as a strategy file with its
    score on fresh games against each pool member.  Games run on every core unless
    --workers says otherwise."""
    err = Console(stderr=True)
    with Progress(
        TextColumn("[bold]optimize[/]"),
        BarColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        TextColumn("{task.description}"),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    ) as progress:
        task = progress.add_task("", total=None)

        def step(gen: int, best: float, elapsed: float, budget: float) -> None:
            # the bar runs over the budget, or over the generations asked for
            total, done = (budget, elapsed) if budget else (float(generations or gen), gen)
            progress.update(
                task,
                total=total,
                completed=min(done, total),
                description=f"generation {gen}, best fitness so far {best:.1%}",
            )

        pool_files = sorted(str(p) for p in Path(pool_dir).glob("*.toml")) if pool_dir else []
        if pool_dir and not pool_files:
            raise click.BadParameter(
                f"{pool_dir} holds no strategy files (*.toml)", param_hint="'--pool-dir'"
            )
        result = run_optimize(
            kingdom,
            _split_bots(opponents),
            seed=seed,
            population=population,
            generations=generations,
            games=games,
            final_games=final_games,
            time_limit=time_limit,
            minutes=minutes,
            pool=pool,
            pool_files=pool_files,
            workers=workers,
            backend=backend,
            address=address,
            name=Path(out).stem,
            progress=step,
            max_turns=max_turns,
        )
    Path(out).write_text(result.text, encoding="utf-8")
    named = dict(zip(result.pool, pool_labels(result.pool), strict=True))

    def _label(spec: str) -> str:
        return named.get(spec) or pool_label(spec)

    unfit = [pool_label(f) for f in pool_files if f not in result.pool]
    if pool and unfit:
        click.echo(f"left out of the pool (cards not in the kingdom): {', '.join(unfit)}", err=True)
    if as_json or fmt == "json":
        click.echo(json.dumps({**result.to_json(), "file": out}))
        return
    lo, hi = result.ci
    summary = (
        f"written to {out}: score {result.score:.1%} [95% CI {lo:.1%}–{hi:.1%}] over "
        f"{result.games} fresh games against the pool {', '.join(_label(p) for p in result.pool)} "
        f"({result.template}; {result.generations} generations, {result.restarts} restarts, "
        f"{result.searched_games} games searched, {result.seconds:.0f} s)"
    )
    if result.capped_games:
        summary += (
            f"; {result.capped_games} games stopped at the {result.max_turns}-turn cap "
            "(scored as they stood)"
        )
    table = Table(title=f"{Path(out).stem} against each opponent")
    capped = bool(result.capped_games)
    columns = ("opponent", "score", "95% CI", "games", *(("capped",) if capped else ()))
    for column in columns:
        table.add_column(column, justify="left" if column == "opponent" else "right")
    for opp, (score, a, b, n) in result.per_opponent.items():
        cap = (str(result.capped_per_opponent.get(opp, 0)),) if capped else ()
        table.add_row(_label(opp), f"{score:.1%}", f"{a:.1%}–{b:.1%}", str(n), *cap)
    screen = console()
    if fmt == "plain":
        click.echo(result.text)
        click.echo(summary)
    elif fmt == "markdown":
        click.echo(summary + "\n")
    show(screen, table, fmt)
