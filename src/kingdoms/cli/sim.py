"""``kingdoms sim GAME``: bot-vs-bot simulation with a progress bar, a text report,
JSON, charts (PNG, interactive HTML), a sample game's log and round robins."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from kingdoms.bots.base import bot_names
from kingdoms.cli.game_options import cli_options
from kingdoms.cli.run_options import ADDRESS, BACKEND, FORMAT, JSON, MAX_TURNS, WORKERS
from kingdoms.core.errors import InvalidConfig
from kingdoms.core.registry import Game, available_games, get_game
from kingdoms.sim.runner import DEFAULT_MAX_TURNS, SimReport, StopRule, simulate

if TYPE_CHECKING:
    from kingdoms.sim.report import RoundRobin


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
            JSON,
            FORMAT,
            WORKERS,
            BACKEND,
            ADDRESS,
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
                "--require-cards",
                "require_cards",
                is_flag=True,
                help="Dominion: random kingdoms always hold every kingdom card the bots' "
                "rules buy or play.",
            ),
            click.option(
                "--until-clear",
                "until_clear",
                is_flag=True,
                help="Two bots: stop once the first bot's 99 % interval is clear of 50 % "
                "(checked after every batch, from 100 games on).",
            ),
            MAX_TURNS,
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
    require_cards: bool = False,
    fmt: str = "plain",
    max_turns: int = DEFAULT_MAX_TURNS,
) -> None:
    as_json = as_json or fmt == "json"
    if game != "dominion" and _given("max_turns"):
        raise click.UsageError(
            f"--max-turns applies to Dominion only: a {game.capitalize()} game ends after "
            "its fixed number of rounds, so there is nothing to cap (leave the option out)"
        )
    if bool(bots) == bool(round_robin):
        raise click.UsageError("give either --bots or --round-robin")
    from kingdoms.sim.setup import kingdom_note

    # no --kingdom: the kingdom a bot's file names (--bots and --round-robin alike)
    options, notes = kingdom_note(game, options, _split_bots(bots or round_robin or ""))
    for note in notes:
        click.echo(note, err=True)
    if require_cards:
        from kingdoms.sim.setup import require_cards as with_cards

        specs_ = _split_bots(bots or round_robin or "")
        options = with_cards(game, options, specs_, 2 if round_robin else len(specs_))
    err = Console(stderr=True)
    from kingdoms.sim.tables import console as report_console

    out = report_console()
    runs = _Runs(
        game,
        options,
        games,
        seed,
        workers,
        backend,
        address,
        curves or bool((chart or html) and not round_robin),
        max_turns,
    )
    if round_robin:
        if curves or sample_log or until_clear:
            given = [f for f, on in (("--curves", curves), ("--sample-log", sample_log),
                                     ("--until-clear", until_clear)) if on]  # fmt: skip
            raise click.UsageError(
                f"{', '.join(given)} cannot be used with --round-robin (it plays many "
                "matchups; run one with --bots for its curves or sample game)"
            )
        rr = _round_robin(runs, _split_bots(round_robin), as_json, err, out, fmt)
        if chart:
            from kingdoms.sim.chart import round_robin_chart

            round_robin_chart(rr, chart)
        if html:
            from kingdoms.sim.chart import round_robin_html

            round_robin_html(rr, html)
        for path in (chart, html):
            if path and not as_json:
                click.echo(f"chart written to {path}")
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
        report = runs.run(specs, lambda k: progress.advance(task, k), stop)
    _outputs(report, chart, html)
    if as_json:
        data = report.to_json()
        if sample_log:
            from kingdoms.sim.report import sample_log as log_lines

            data["sample_log"] = log_lines(game, specs, seed, options, max_turns=max_turns)
        click.echo(json.dumps(data))
        return
    from kingdoms.sim.report import print_report
    from kingdoms.sim.report import sample_log as log_lines

    print_report(report, out, turns=turns, fmt=fmt)
    for path in (chart, html):
        if path:
            click.echo(f"chart written to {path}")
    if sample_log:
        click.echo("")
        for line in log_lines(game, specs, seed, options, max_turns=max_turns):
            click.echo(line)


def _given(param: str) -> bool:
    """Whether the command line (or an environment variable) set ``param``."""
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return False
    source = ctx.get_parameter_source(param)
    return source is not None and source not in (
        click.core.ParameterSource.DEFAULT,
        click.core.ParameterSource.DEFAULT_MAP,
    )


def _outputs(report: SimReport, chart: str | None, html: str | None) -> None:
    if chart:
        from kingdoms.sim.chart import win_rate_chart

        win_rate_chart(report, chart)
    if html:
        from kingdoms.sim.chart import html_report

        html_report(report, html)


@dataclass(frozen=True)
class _Runs:
    """What every simulation of one command shares; :meth:`run` plays one batch."""

    game: str
    options: dict[str, Any]
    games: int
    seed: int
    workers: int
    backend: str
    address: str | None
    curves: bool = False
    """Record the per-turn curves (asked for, or needed by a chart)."""
    max_turns: int = DEFAULT_MAX_TURNS
    """The turn cap (0: none)."""

    def run(
        self, specs: list[str], advance: Callable[[int], None], stop: StopRule | None = None
    ) -> SimReport:
        return simulate(
            self.game,
            specs,
            self.games,
            self.seed,
            self.options,
            workers=self.workers,
            backend=self.backend,
            address=self.address,
            progress=advance,
            stop=stop,
            curves=self.curves,
            max_turns=self.max_turns,
        )


def _round_robin(
    runs: _Runs, bots: list[str], as_json: bool, err: Console, out: Console, fmt: str = "plain"
) -> RoundRobin:
    from kingdoms.sim.report import RoundRobin

    if len(bots) < 2:
        raise InvalidConfig("a round robin needs at least two bots")
    pairs = list(itertools.combinations(range(len(bots)), 2))
    reports = {}
    with _progress(runs.game, err) as progress:
        task = progress.add_task("games", total=runs.games * len(pairs))
        for i, j in pairs:
            reports[(i, j)] = runs.run([bots[i], bots[j]], lambda k: progress.advance(task, k))
    from kingdoms.sim.setup import labels

    rr = RoundRobin(labels(runs.game, bots), reports)  # a strategy file by its name
    if as_json:
        click.echo(json.dumps(rr.to_json()))
    else:
        rr.print(out, fmt)
    return rr


class _GameCommands(click.Group):
    """One sub-command per registered game, made from its registration."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return available_games()

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in available_games():
            return None
        return sim_command(get_game(cmd_name))


def sim_command(game: Game) -> click.Command:
    """``kingdoms sim <game>``: the common flags plus the game's option flags."""
    flags_of_game = cli_options(game)
    files = "; or strategy files (.toml)" if game.bots.from_file else ""
    bots = f"Bots: {', '.join(bot_names(game.name))}{files}."

    def run(**flags: Any) -> None:
        options = flags_of_game.take(flags)
        _run(game.name, options, **flags)

    help_ = f"Simulate {game.title} games, e.g. --bots random,random -n 100.\n\n{bots}"
    return click.command(game.name, help=help_)(_common(flags_of_game.decorate(run)))


@click.group(cls=_GameCommands)
def sim() -> None:
    """Pit bots against each other: win rates with 95 % confidence intervals,
    per-turn curves, game lengths, charts."""
