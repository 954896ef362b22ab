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
    """One generator per seat, derived from the game seed (bots never share the game's).

    Each is ``random.Random(f"{seed}:seat:{p}")``, seeded when its bot first draws
    from it (:class:`SeatRandom`): most bots of a simulation never draw, and seeding
    a generator costs more than many of their decisions."""
    return [SeatRandom(f"{seed}:seat:{p}") for p in range(players)]


class SeatRandom(random.Random):
    """``random.Random(text)``, seeded on first use.

    Until then the generator's state is not made; the first draw (or ``getstate``,
    ``seed``, ``setstate``, a copy or a pickle) seeds it from ``text`` exactly as
    ``random.Random(text)`` does and turns the object into a plain
    :class:`random.Random` (same memory layout), so later draws run at full speed
    and every number is the one the eagerly seeded generator gives.

    >>> lazy, eager = SeatRandom("7:seat:0"), random.Random("7:seat:0")
    >>> [lazy.random() for _ in range(3)] == [eager.random() for _ in range(3)]
    True
    >>> type(lazy) is random.Random
    True
    """

    def __init__(self, text: str) -> None:  # no seeding here: see _seed_now
        self._text = text
        self.gauss_next = None

    def _seed_now(self) -> None:
        # a method bound before the first draw may be called again afterwards
        # (``choices`` keeps ``self.random``) when ``self`` is a plain generator
        # already: only the first call seeds
        if type(self) is SeatRandom:
            text = self._text
            SeatRandom._plain(self)
            random.Random.seed(self, text)

    def _plain(self) -> None:
        self.__class__ = random.Random  # type: ignore[assignment]
        self.__dict__.pop("_text", None)

    def random(self) -> float:
        SeatRandom._seed_now(self)
        return random.Random.random(self)

    def getrandbits(self, k: int, /) -> int:
        SeatRandom._seed_now(self)
        return random.Random.getrandbits(self, k)

    def seed(self, a: Any = None, version: int = 2) -> None:
        SeatRandom._plain(self)
        random.Random.seed(self, a, version)

    def getstate(self) -> tuple[Any, ...]:
        SeatRandom._seed_now(self)
        return random.Random.getstate(self)

    def setstate(self, state: tuple[Any, ...]) -> None:
        SeatRandom._plain(self)
        random.Random.setstate(self, state)

    def __reduce__(self) -> str | tuple[Any, ...]:
        SeatRandom._seed_now(self)
        return random.Random.__reduce__(self)


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


GameLoop = Callable[[State, Sequence[Bot], Sequence[random.Random], int], bool]
"""A bot class's own loop (``play_game(state, bots, rngs, max_steps)``): plays the
game to its end with the actions the generic loop would give, or returns False and
does nothing when it does not take this game."""


def joint_loop(bots: Sequence[Bot]) -> GameLoop | None:
    """The ``play_game`` loop of the bots' class when every seat holds a bot of that
    one class and the class has one, else None."""
    kind = type(bots[0]) if bots else None
    if kind is None or any(type(bot) is not kind for bot in bots):
        return None
    return cast("GameLoop | None", getattr(kind, "play_game", None))


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
    loop = None if checked else joint_loop(bots)
    if loop is not None and loop(state, bots, rngs, max_steps):
        return state
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
