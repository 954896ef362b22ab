"""``kingdoms rank dominion --kingdom …``: rank a kingdom's cards by how much they add
to Big Money Ultimate."""

from __future__ import annotations

import json

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from kingdoms.cli.run_options import FORMAT, MAX_TURNS, count_option, run_options
from kingdoms.sim.rank import COMBO_GAMES, OPPONENT, Ranked, rank_kingdom
from kingdoms.sim.tables import console as report_console
from kingdoms.sim.tables import show
from kingdoms.sim.templates import name_of


@click.group()
def rank() -> None:
    """Rank the cards of a kingdom."""


@rank.command("dominion")
@click.option(
    "--kingdom",
    required=True,
    help="A recommended set's name or comma-separated cards (missing ones drawn at random).",
)
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@count_option(
    "--max-games",
    1000,
    "Games per card at most (a card stops earlier once its rank is separated from "
    "its neighbours').",
    minimum=10,
)
@count_option("--min-games", 100, "Games per card before stopping early may happen.")
@count_option("--screen-games", 40, "Games per candidate number of copies (1-4) in the screen.")
@count_option(
    "--combo-games",
    COMBO_GAMES,
    "Fresh games measuring each card's best two-card combination (0: no combinations).",
    minimum=0,
)
@MAX_TURNS
@FORMAT
@run_options
def rank_dominion(
    kingdom: str,
    seed: int,
    max_games: int,
    min_games: int,
    screen_games: int,
    combo_games: int,
    workers: int,
    backend: str,
    address: str | None,
    as_json: bool,
    fmt: str,
    max_turns: int,
) -> None:
    """For every kingdom card X, Big Money Ultimate + X (at most N copies, N from a
    small screen) against big-money-ultimate; ranked by win rate with 95 % CIs."""
    err = Console(stderr=True)
    with Progress(
        TextColumn("[bold]rank[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    ) as progress:
        task = progress.add_task("cards", total=10)
        ranked = rank_kingdom(
            kingdom,
            seed=seed,
            screen_games=screen_games,
            max_games=max_games,
            min_games=min(min_games, max_games),
            workers=workers,
            backend=backend,
            address=address,
            progress=lambda _card: progress.advance(task),
            combo_games=combo_games,
            max_turns=max_turns,
        )
    if as_json or fmt == "json":
        data = {
            "opponent": OPPONENT,
            "max_turns": max_turns,
            "capped_games": sum(r.capped for r in ranked),
            "max_games": max_games,
            "stopped_early": [r.card for r in ranked if r.games < max_games],
            "ranking": [r.to_json() for r in ranked],
        }
        click.echo(json.dumps(data))
        return
    table = Table(title=f"Big Money Ultimate + X vs {OPPONENT} (score: wins + ½ shared)")
    table.add_column("#", justify="right")
    table.add_column("card X")
    table.add_column("copies", justify="right")
    table.add_column("games", justify="right")
    table.add_column("score [95% CI]", justify="right")
    table.add_column("verdict")
    table.add_column("vs next rank")
    capped = sum(r.capped for r in ranked)
    if capped:
        table.add_column("capped", justify="right")
    if combo_games:
        table.add_column("best combination [95% CI]")
    for i, r in enumerate(ranked):
        lo, hi = r.ci
        verdict = "helps" if lo > 0.5 else "hurts" if hi < 0.5 else "unclear"
        table.add_row(
            str(i + 1),
            r.card,
            f"≤{r.copies}" + ("" if r.copies_separated else " (not separated)"),
            str(r.games),
            f"{r.score:.1%} [{lo:.1%}–{hi:.1%}]",
            verdict,
            "" if r.separated_from_next is None else
            "separated" if r.separated_from_next else "not separated",
            *([str(r.capped)] if capped else []),
            *([_combo(r)] if combo_games else []),
        )  # fmt: skip
    out = report_console()
    show(out, table, fmt)
    if fmt == "csv":
        return
    if combo_games:
        out.print(
            "best combination: the card with at most one other kingdom card in a strategy "
            f"template (engine, trashing engine, rush, Potion, Big Money), vs {OPPONENT}, "
            f"{combo_games} fresh games each",
            highlight=False,
        )
    if capped:
        out.print(
            f"capped: of a card's games, those stopped at the {max_turns}-turn cap "
            f"(scored as they stood; {capped} in all)",
            highlight=False,
        )
    early = [r for r in ranked if r.games < max_games]
    if early:
        out.print(
            "stopped before --max-games, once separated from its neighbours (scores "
            "and intervals as they stood at the stop; a run stopped on its lead tends "
            "to overstate it): " + ", ".join(f"{r.card} after {r.games} games" for r in early),
            highlight=False,
        )
    loose = [f"{i + 1}–{i + 2}" for i, r in enumerate(ranked) if r.separated_from_next is False]
    played = (
        f"after {max_games} games"
        if not early
        else f"on the games both played (at most {max_games})"
    )
    out.print(
        f"paired games (every card on the same seeds); ranks not separated {played}: "
        f"{', '.join(loose)}"
        if loose
        else "every rank is separated from its neighbours (paired 99 % intervals)",
        highlight=False,
    )


def _combo(r: Ranked) -> str:
    c = r.combo
    if c is None:
        return ""
    lo, hi = c.ci
    with_ = f"+ {name_of(c.partner)}" if c.partner else "alone"
    text = f"{with_} ({c.template}) {c.score:.1%} [{lo:.1%}–{hi:.1%}]"
    if c.gain is None or c.gain_half is None:
        return text
    if c.better:
        return f"{text}, {c.gain:+.1%} ± {c.gain_half:.1%} over the card alone"
    return (
        f"none better than the card alone (best tried: {text}; "
        f"{c.gain:+.1%} ± {c.gain_half:.1%} on the same games)"
    )
