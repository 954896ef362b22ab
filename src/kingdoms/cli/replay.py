"""``kingdoms replay FILE``: print a saved game's log in English, Polish or Czech."""

from __future__ import annotations

import click

from kingdoms.core.record import load_record
from kingdoms.i18n import LANGUAGES


@click.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--lang", type=click.Choice(LANGUAGES), default="en", show_default=True)
@click.option(
    "--player",
    type=int,
    default=None,
    help="Show the log as this seat (1-based) saw it; default: everything.",
)
def replay(path: str, lang: str, player: int | None) -> None:
    """Replay a saved game record and print its log."""
    record = load_record(path)
    state = record.replay()
    seat = None if player is None else player - 1
    if seat is not None and not 0 <= seat < state.num_players:
        raise click.BadParameter(f"--player must be 1..{state.num_players}")
    cfg = record.config
    seats = ", ".join(record.seats) if record.seats else f"{cfg.players} players"
    click.echo(f"{cfg.game} · {seats} · seed {cfg.seed} · {len(record.actions)} actions")
    if cfg.options:
        click.echo("options: " + ", ".join(f"{k}={v}" for k, v in sorted(cfg.options.items())))
    for event in state.log_for(seat):
        click.echo(state.event_to_str(event, lang))
    outcome = state.outcome()
    if outcome is None:
        click.echo(f"(game in progress: player {state.current_player + 1} to act)")
    else:
        scores = ", ".join(f"{i + 1}: {s:g}" for i, s in enumerate(outcome.scores))
        winners = ", ".join(str(w + 1) for w in outcome.winners)
        click.echo(f"final scores — {scores}; winner(s): {winners}")
