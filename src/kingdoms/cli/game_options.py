"""What every game's commands share: its options as flags, the seats' bots.

A game may name its own :class:`CliOptions` in its registration
(``Game.cli_options``, e.g. Dominion's ``--kingdom``/``--sets``); otherwise the
flags are generated from the options its lobby offers (``Game.lobby_options``):
a choice becomes ``--name`` with those values, a set of flags ``--name a,b``,
free text ``--name TEXT``.  Every game also takes ``--options JSON``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import click

from kingdoms.core.errors import InvalidConfig
from kingdoms.core.registry import Game, load_target

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class CliOptions:
    """A game's options as flags: ``decorate`` adds them to a click command, whose
    callback then receives them as the keyword arguments ``names``; ``collect``
    turns those into the options of ``new_game``."""

    decorate: Callable[[Callable[..., Any]], Callable[..., Any]]
    names: tuple[str, ...]
    collect: Callable[..., dict[str, Any]]

    def take(self, flags: dict[str, Any]) -> dict[str, Any]:
        """The game options of the parsed ``flags`` (removing the game's own flags)."""
        return self.collect(**{name: flags.pop(name) for name in self.names})


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _split(text: str) -> list[str]:
    return [v.strip() for v in text.split(",") if v.strip()]


def options_from_schema(schema: Mapping[str, Mapping[str, Any]]) -> CliOptions:
    """Flags for the options a lobby offers (see ``Game.lobby_options``)."""
    decorators: list[Callable[[Any], Any]] = []
    convert: dict[str, Callable[[str], Any]] = {}
    for key, spec in schema.items():
        if "into" in spec:  # another way to type an option already offered
            continue
        flag = "--" + key.replace("_", "-")
        label = str(spec.get("label", key))
        choices = [_text(value) for value, _ in spec.get("choices", [])]
        if spec.get("type") == "flags":
            help_ = f"{label}, comma-separated: {', '.join(choices)}."
            decorators.append(click.option(flag, key, default="", help=help_))
            convert[key] = _split
        elif spec.get("type") == "text" or not choices:
            decorators.append(click.option(flag, key, default=None, help=label))
            convert[key] = str
        else:
            values = {_text(value): value for value, _ in spec["choices"]}
            help_ = f"{label} (default: {choices[0]})."
            decorators.append(
                click.option(flag, key, type=click.Choice(choices), default=None, help=help_)
            )
            convert[key] = values.__getitem__

    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        for option in reversed(decorators):
            f = option(f)
        return f

    def collect(**flags: Any) -> dict[str, Any]:
        return {k: convert[k](v) for k, v in flags.items() if v not in (None, "")}

    return CliOptions(decorate, tuple(convert), collect)


def cli_options(game: Game) -> CliOptions:
    """The game's option flags plus ``--options JSON`` (flags given win)."""
    own = load_target(game.cli_options) if game.cli_options else None
    if own is not None and not isinstance(own, CliOptions):
        raise InvalidConfig(f"{game.cli_options} is not a CliOptions")
    base = own if own is not None else options_from_schema(game.lobby_options())
    json_option = click.option(
        "--options",
        "options_json",
        default=None,
        metavar="JSON",
        help="Game options as a JSON object (the flags above win).",
    )

    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        return json_option(base.decorate(f))

    def collect(options_json: str | None, **flags: Any) -> dict[str, Any]:
        raw: Any = {}
        if options_json:
            try:
                raw = json.loads(options_json)
            except json.JSONDecodeError as err:
                raise click.BadParameter(f"not JSON: {err}", param_hint="--options") from err
            if not isinstance(raw, dict):
                raise click.BadParameter("must be a JSON object", param_hint="--options")
        return {**raw, **base.collect(**flags)}

    return CliOptions(decorate, ("options_json", *base.names), collect)


def seat_options(players: str, default_bot: str, bots_help: str) -> Callable[[F], F]:
    """``--players`` (help ``players``, e.g. "2–4") and ``--bots`` for a play command."""

    def decorate(f: F) -> F:
        f = click.option("--bots", default=default_bot, show_default=True, help=bots_help)(f)
        return click.option(
            "--players", "-n", type=int, default=None, help=f"Number of players ({players})."
        )(f)

    return decorate


def seat_specs(bots: str, players: int | None, default_bot: str) -> tuple[int, list[str]]:
    """The number of players and the bot spec of every seat after the first: the
    last spec repeats to fill the table; without ``players`` one seat per spec."""
    specs = [s.strip() for s in bots.split(",") if s.strip()] or [default_bot]
    if players is None:
        players = len(specs) + 1
    while len(specs) < players - 1:
        specs.append(specs[-1])
    return players, specs[: max(players - 1, 0)]
