"""Play a game to the end with bots in every seat (the simulator's inner loop)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, cast, runtime_checkable

from kingdoms.core.errors import IllegalAction
from kingdoms.core.registry import new_game
from kingdoms.core.state import State


@runtime_checkable
class Bot(Protocol):
    """Anything with a ``name`` and an ``act`` method is a bot (the bots themselves
    live in :mod:`kingdoms.bots`, which re-exports this protocol)."""

    name: str

    def act(self, view: Any, legal_actions: Sequence[int], rng: random.Random) -> int: ...


@runtime_checkable
class ObservingBot(Bot, Protocol):
    """A bot that reads its own typed observation of a seat instead of the seat's view:
    ``observe(state, player)`` shows only what that view shows, without building it."""

    def observe(self, state: Any, player: int) -> Any: ...


_OBSERVES: dict[type, bool] = {}
"""Bot class -> whether it is an :class:`ObservingBot` (checked once per class)."""

DEFAULT_MAX_STEPS = 100_000


def seat_rngs(seed: int, players: int) -> list[random.Random]:
    """One generator per seat, derived from the game seed (bots never share the game's)."""
    return [random.Random(f"{seed}:seat:{p}") for p in range(players)]


def bot_input(bot: Bot, state: State, player: int) -> Any:
    """What ``bot`` reads for ``player``'s decision: its own typed observation of that
    seat when it has one (``bot.observe(state, player)``: only what the seat's view
    shows, without building the view), else ``state.view(player)``."""
    return bot_reader(bot)(state, player)


def _view(state: State, player: int) -> Any:
    return state.view(player)


def bot_reader(bot: Bot) -> Callable[[State, int], Any]:
    """:func:`bot_input` for ``bot`` as one function (looked up once per game): its
    bound ``observe`` when it is an :class:`ObservingBot`, else the seat's view."""
    kind = type(bot)
    observes = _OBSERVES.get(kind)
    if observes is None:
        observes = _OBSERVES[kind] = isinstance(bot, ObservingBot)
    return cast(ObservingBot, bot).observe if observes else _view


def play_out(
    state: State,
    bots: Sequence[Bot],
    rngs: Sequence[random.Random] | None = None,
    *,
    checked: bool = False,
    max_steps: int = DEFAULT_MAX_STEPS,
) -> State:
    """Let ``bots[seat]`` decide for every seat until the game ends. Returns ``state``."""
    if rngs is None:
        rngs = seat_rngs(state.config.seed, state.num_players)
    reads = [bot_reader(bot) for bot in bots]
    for _ in range(max_steps):
        player = state.current_player
        if player < 0:
            return state
        legal = state.legal_actions()
        action = bots[player].act(reads[player](state, player), legal, rngs[player])
        if checked:
            if action not in legal:
                raise IllegalAction(f"bot {bots[player].name!r} chose illegal action {action!r}")
            state.apply_checked(action)
        else:
            state.apply(action)
    raise IllegalAction(f"game did not end within {max_steps} actions")


def run_game(
    game: str,
    bots: Sequence[Bot],
    seed: int,
    options: Mapping[str, Any] | None = None,
    *,
    log: bool = False,
) -> State:
    """A whole game of ``game`` between ``bots`` (seat order as given)."""
    state = new_game(game, players=len(bots), seed=seed, options=options)
    state.logging = log
    return play_out(state, bots)
