"""``kingdoms strategy``: check Dominion strategy files, list and show the bundled ones."""

from __future__ import annotations

import random

import click

from kingdoms.bots.dominion.bundled import bundled_names, bundled_text
from kingdoms.bots.dominion.lang import check_file
from kingdoms.dominion.kingdom import SETS, resolve_kingdom


@click.group()
def strategy() -> None:
    """Dominion strategy files: check one, list or show the bundled ones."""


@strategy.command("check")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option(
    "--kingdom",
    default=None,
    help="Also report cards not in this kingdom (set name or comma-separated cards).",
)
@click.option("--strict", is_flag=True, help="Fail on warnings too.")
def check(path: str, kingdom: str | None, strict: bool) -> None:
    """Lint a strategy file: unknown cards, conditions that can never hold, cards never
    afforded or bought, unreachable entries — each with its line."""
    cards = None
    if kingdom:
        cards = resolve_kingdom(kingdom, list(SETS), random.Random(0))
    findings = check_file(path, cards)
    for f in findings:
        click.echo(f.format(path))
    errors = sum(1 for f in findings if f.level == "error")
    warnings = len(findings) - errors
    if not findings:
        click.echo(f"{path}: OK")
    else:
        click.echo(f"{path}: {errors} error(s), {warnings} warning(s)")
    if errors or (strict and warnings):
        raise SystemExit(1)


@strategy.command("list")
def list_() -> None:
    """The bundled strategies (each is a bot name)."""
    for name in bundled_names():
        click.echo(name)


@strategy.command("show")
@click.argument("name")
def show(name: str) -> None:
    """Print a bundled strategy file (a starting point for your own); ``default`` is the
    default policy every strategy falls back to."""
    click.echo(bundled_text(name), nl=False)


@strategy.command("import")
@click.argument("path", type=click.Path(dir_okay=False, exists=True))
@click.option(
    "-o",
    "--out",
    "out",
    type=click.Path(file_okay=False),
    default=".",
    show_default=True,
    help="Directory the strategy files are written to.",
)
@click.option("--force", is_flag=True, help="Overwrite files that exist.")
def import_(path: str, out: str, force: bool) -> None:
    """Convert the bots of Geronimoo's Dominion Simulator (DomBots.xml) into strategy
    files, one per bot whose cards and conditions exist here; report the others."""
    from pathlib import Path

    from kingdoms.bots.dominion.geronimoo import convert

    try:
        bots = convert(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as err:
        raise click.ClickException(f"cannot read {path}: {err}") from None
    target = Path(out)
    written = 0
    used: set[str] = set()
    for bot in bots:
        if bot.toml is None:
            reasons = bot.reasons or [str(bot.reason)]
            click.echo(f"skipped {bot.name!r}: {reasons[0]}")
            for more in reasons[1:]:
                click.echo(f"  and {more}")
            continue
        slug = bot.slug
        n = 2
        while slug in used:
            slug = f"{bot.slug}-{n}"
            n += 1
        used.add(slug)
        file = target / f"{slug}.toml"
        if file.exists() and not force:
            click.echo(f"skipped {bot.name!r}: {file} exists (--force overwrites)")
            continue
        target.mkdir(parents=True, exist_ok=True)
        file.write_text(bot.toml, encoding="utf-8")
        written += 1
        click.echo(f"wrote {file} ({bot.name})")
        for note in bot.notes:
            click.echo(f"  note: {note}")
    click.echo(f"{written} of {len(bots)} bot(s) converted")
    if not written:
        raise SystemExit(1)
