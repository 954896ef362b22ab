"""``kingdoms dataset export``: games as an offline-RL dataset (Minari, Parquet, JSON
Lines; :mod:`kingdoms.rl.dataset`)."""

from __future__ import annotations

import json
from typing import Any

import click

from kingdoms.core.errors import InvalidArgument
from kingdoms.core.registry import load_target


@click.group()
def dataset() -> None:
    """Export games as datasets for offline reinforcement learning."""


@dataset.command()
@click.option(
    "--source",
    type=click.Choice(["server", "simulator", "self-play"]),
    required=True,
    help="server: the finished public games of a server's database; simulator: games "
    "between bots; self-play: one policy playing every seat.",
)
@click.option("--game", type=click.Choice(["dominion", "kingdomino"]), required=True)
@click.option("--players", type=int, default=2, show_default=True)
@click.option("--db", "db", help="The server's database URL (sqlite:///path or postgresql://…).")
@click.option("--rated-only", is_flag=True, help="Server: rated games only.")
@click.option("--salt", help="Server: the secret the games' ids are hashed with (default: a "
              "fresh random one, so the ids match neither the server's games nor another "
              "export's). The same salt gives the same ids again; keep it secret.")  # fmt: skip
@click.option("--bots", default="random,random", show_default=True,
              help="Simulator: one bot spec per seat, comma-separated.")  # fmt: skip
@click.option("--policy", default="random", show_default=True,
              help="Self-play: 'random', or module:attribute of a policy "
              "(observation, mask) -> action.")  # fmt: skip
@click.option("--games", "count", type=int, default=100, show_default=True,
              help="Simulator and self-play: number of games.")  # fmt: skip
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the first game.")
@click.option("--kingdom", help="Dominion (simulator, self-play): a set's name or ten card ids.")
@click.option("--variants", default="", help="Kingdomino: variants, comma-separated.")
@click.option("--out", required=True, type=click.Path(file_okay=False), help="Output folder.")
@click.option("--format", "formats", multiple=True, default=("jsonl", "parquet", "minari"),
              type=click.Choice(["jsonl", "parquet", "minari"]), show_default=True)  # fmt: skip
@click.option("--id", "dataset_id", help="Minari dataset id (default kingdoms/GAME-Np-v0).")
def export(
    source: str,
    game: str,
    players: int,
    db: str | None,
    rated_only: bool,
    salt: str | None,
    bots: str,
    policy: str,
    count: int,
    seed: int,
    kingdom: str | None,
    variants: str,
    out: str,
    formats: tuple[str, ...],
    dataset_id: str | None,
) -> None:
    """Write games as an offline-RL dataset: per decision the acting seat's
    observation, legal-action mask, action and outcome."""
    from kingdoms.rl import dataset as ds

    options: dict[str, Any] = {}
    if game == "dominion" and kingdom:
        options["kingdom"] = kingdom.split(",") if "," in kingdom else kingdom
    if game == "kingdomino" and variants:
        options["variants"] = [v for v in variants.split(",") if v]
    if salt is not None and source != "server":
        raise click.BadParameter("--salt applies to --source server only (its game ids)")
    try:
        if source == "server":
            if not db:
                raise click.BadParameter("--source server needs --db URL")
            rows = list(
                ds.from_server(db, rated_only=rated_only, game=game, players=players, salt=salt)
            )
            if not rows:
                raise click.ClickException(
                    f"no finished public {game} games of {players} players in the database"
                )
            description = f"finished public {game} games of a kingdoms server" + (
                " (rated only)" if rated_only else ""
            )
        elif source == "simulator":
            specs = [s.strip() for s in bots.split(",") if s.strip()]
            if len(specs) != players:
                raise click.BadParameter(f"--bots needs {players} specs, got {len(specs)}")
            rows = list(ds.from_simulator(game, specs, count, seed, options))
            description = f"{count} games between bots: {', '.join(specs)}"
        else:
            chosen = ds.random_policy(seed) if policy == "random" else load_target(policy)
            rows = list(ds.from_self_play(game, players, chosen, count, seed, options, name=policy))
            description = f"{count} self-play games of the policy {policy}"
        summary = ds.export(rows, out, formats, dataset_id, description)
    except InvalidArgument as err:
        raise click.ClickException(str(err)) from err
    click.echo(json.dumps(summary, indent=1))
