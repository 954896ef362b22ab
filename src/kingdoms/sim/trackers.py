"""Per-turn statistics, collected by the simulator from the full state between
actions (the engine is not asked for anything; bots never see these).

A tracker watches one game: :meth:`before` is called before every action and
:meth:`after` after it; :meth:`series` returns, per metric, one list per seat of the
values at the end of each of that seat's turns (Dominion) or rounds (Kingdomino).
Which tracker a game uses, its metrics and their unit come from the game's
registration (``Game.sim``).

>>> sorted(METRICS["dominion"])
['coins', 'money', 'vp']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, Protocol, TypeVar

from kingdoms.core.errors import KingdomsError
from kingdoms.core.registry import SimMetrics, available_games, get_game, load_target

T = TypeVar("T")


def _sim_of(game: str) -> SimMetrics | None:
    try:
        return get_game(game).sim
    except (ImportError, KingdomsError):
        return None


class _PerGame(Mapping[str, T]):
    """Game -> one field of its ``Game.sim``, read from the registered games."""

    def __init__(self, read: Callable[[SimMetrics], T]) -> None:
        self._read = read

    def __getitem__(self, game: str) -> T:
        sim = _sim_of(game)
        if sim is None:
            raise KeyError(game)
        return self._read(sim)

    def __iter__(self) -> Iterator[str]:
        return iter(available_games())

    def __len__(self) -> int:
        return len(available_games())


METRICS: Mapping[str, Mapping[str, str]] = _PerGame(lambda sim: sim.metrics)
"""Game -> metric -> what it means (the metrics of the per-turn curves)."""

UNIT: Mapping[str, str] = _PerGame(lambda sim: sim.unit)


class Tracker(Protocol):
    def before(self, state: Any) -> None: ...

    def after(self, state: Any) -> None: ...

    def series(self) -> dict[str, list[list[float]]]: ...


class DominionTracker:
    """VP, money in deck and coins generated at the end of every seat's turn."""

    def __init__(self, state: Any) -> None:
        from kingdoms.bots.dominion.strategy import ACTION_COINS
        from kingdoms.dominion.data import CARDS
        from kingdoms.dominion.state import TREASURE_COINS

        n = state.num_players
        self._value = [TREASURE_COINS[c.index] or ACTION_COINS.get(c.id, 0) for c in CARDS]
        self._turns = list(state.turns)
        self._coins = 0
        self._turn = state.turn
        self._generated = [0] * n
        self.data: dict[str, list[list[float]]] = {
            m: [[] for _ in range(n)] for m in METRICS["dominion"]
        }

    def before(self, state: Any) -> None:
        self._coins = state.coins
        self._turn = state.turn

    def after(self, state: Any) -> None:
        if state.turn == self._turn and state.coins > self._coins:
            self._generated[self._turn] += state.coins - self._coins
        turns = state.turns
        if turns == self._turns:  # no turn ended (most actions)
            return
        for p, t in enumerate(turns):
            if t != self._turns[p]:
                self._turns[p] = t
                value = self._value
                self.data["vp"][p].append(float(state.vp_of(p)))
                self.data["money"][p].append(float(sum(value[c] for c in state.owned(p))))
                self.data["coins"][p].append(float(self._generated[p]))
                self._generated[p] = 0

    def series(self) -> dict[str, list[list[float]]]:
        return self.data


class KingdominoTracker:
    """Each seat's points at the end of every round (and at the end of the game)."""

    def __init__(self, state: Any) -> None:
        self._round = state.round
        self.data: dict[str, list[list[float]]] = {"points": [[] for _ in range(state.num_players)]}

    def before(self, state: Any) -> None:
        self._round = state.round

    def after(self, state: Any) -> None:
        if state.round != self._round or state.current_player < 0:
            for p, row in enumerate(self.data["points"]):
                row.append(float(state.score(p)))
            self._round = state.round

    def series(self) -> dict[str, list[list[float]]]:
        return self.data


def tracker_for(game: str, state: Any) -> Tracker | None:
    """The tracker the game registered (``Game.sim.tracker``) for ``state``, if any."""
    sim = _sim_of(game)
    if sim is None or sim.tracker is None:
        return None
    tracker: Tracker = load_target(sim.tracker)(state)
    return tracker
