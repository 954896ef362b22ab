"""Generic MCTS on a tiny hidden-information toy game."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from kingdoms.bots import base as bots_base
from kingdoms.bots import mcts as mcts_mod
from kingdoms.bots.mcts import MCTSBot, rewards
from kingdoms.core.errors import InvalidConfig
from kingdoms.core.registry import Game
from kingdoms.core.runner import play_out
from kingdoms.core.state import TERMINAL, GameConfig, Outcome, State


class ToyState(State):
    """Two seats take turns adding 0-3 to their own total, 3 turns each.

    Each seat also has a hidden bonus card (0 or 1) that only it sees; action 3
    is best for the mover regardless of the hidden cards."""

    __slots__ = ("bonus", "totals", "turn")
    game_name = "toy"

    def __init__(self, config: GameConfig) -> None:
        self._init_core(config)
        self.totals = [0, 0]
        self.bonus = [self.rng.randrange(2), self.rng.randrange(2)]
        self.turn = 0

    @property
    def current_player(self) -> int:
        return TERMINAL if self.turn >= 6 else self.turn % 2

    def legal_actions(self) -> list[int]:
        return [] if self.turn >= 6 else [0, 1, 2, 3]

    def _apply(self, action: int) -> None:
        self.totals[self.turn % 2] += action
        self.turn += 1

    def clone(self) -> ToyState:
        new = ToyState.__new__(ToyState)
        new._copy_core(self)
        new.totals = self.totals.copy()
        new.bonus = self.bonus.copy()
        new.turn = self.turn
        return new

    def view(self, player: int) -> dict[str, Any]:
        return {
            "game": "toy",
            "seat": player,
            "totals": list(self.totals),
            "my_bonus": self.bonus[player],
            "turn": self.turn,
            "players": 2,
        }

    def determinize(self, player: int, rng: random.Random) -> State:
        return TOY.state_from_view(self.view(player), rng)

    def outcome(self) -> Outcome | None:
        if self.turn < 6:
            return None
        scores = tuple(float(t + b) for t, b in zip(self.totals, self.bonus, strict=True))
        best = max(scores)
        return Outcome(scores, tuple(p for p in range(2) if scores[p] == best))

    def action_to_str(self, action: int, lang: str = "en") -> str:
        return f"add {action}"

    def snapshot(self) -> dict[str, Any]:
        return {"totals": self.totals, "bonus": self.bonus, "turn": self.turn}


class ToyGame(Game):
    name = "toy"
    title = "Toy"
    min_players = 2
    max_players = 2

    def __init__(self) -> None:
        self.built = 0

    def normalize_options(
        self, options: Mapping[str, Any], players: int, seed: int
    ) -> dict[str, Any]:
        return {}

    def create(self, config: GameConfig) -> State:
        return ToyState(config)

    def num_distinct_actions(self, config: GameConfig) -> int:
        return 4

    def state_from_view(self, view: Mapping[str, Any], rng: random.Random) -> State:
        self.built += 1
        state = ToyState(GameConfig("toy", 2, rng.randrange(2**31)))
        state.totals = list(view["totals"])
        state.turn = view["turn"]
        seat = view["seat"]
        state.bonus[seat] = view["my_bonus"]
        state.bonus[1 - seat] = rng.randrange(2)
        return state


TOY = ToyGame()


@pytest.fixture(autouse=True)
def _toy_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    real = mcts_mod.get_game

    def fake(name: str) -> Game:
        return TOY if name == "toy" else real(name)

    monkeypatch.setattr(mcts_mod, "get_game", fake)
    monkeypatch.setattr(bots_base, "get_game", fake)  # the bot hooks' lookup


def _view(turn: int = 0, seat: int = 0) -> dict[str, Any]:
    return {"game": "toy", "seat": seat, "totals": [0, 0], "my_bonus": 0, "turn": turn}


@pytest.mark.parametrize("algorithm", ["flat", "uct"])
@pytest.mark.parametrize("scoring", ["win", "score", "relative"])
def test_finds_best_action_from_view_only(algorithm: str, scoring: str) -> None:
    bot = MCTSBot(iterations=300, algorithm=algorithm, scoring=scoring, seed=1)
    # only a plain dict is passed: there is no state object to peek at
    action = bot.act(_view(), [0, 1, 2, 3], random.Random(0))
    assert action == 3


@pytest.mark.parametrize("algorithm", ["flat", "uct"])
def test_iteration_budget(algorithm: str) -> None:
    bot = MCTSBot(iterations=57, algorithm=algorithm, seed=3)
    before = TOY.built
    bot.act(_view(), [0, 1, 2, 3], random.Random(0))
    assert bot.last_iterations == 57
    # one state rebuilt from the view, then one determinization per iteration
    assert TOY.built - before == 1 + 57
    assert sum(n for n, _ in bot.last_stats.values()) == 57


def test_time_budget() -> None:
    import time

    bot = MCTSBot(time=0.05)  # CPU seconds of this thread (the default clock)
    start = time.thread_time()
    bot.act(_view(), [0, 1, 2, 3], random.Random(0))
    assert time.thread_time() - start < 0.5
    assert bot.last_iterations >= 1


def test_cpu_clock_budget_counts_this_threads_cpu_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """``clock=cpu``: the think time is CPU time of the searching thread, so a loaded
    machine buys the same search as a quiet one."""
    ticks = iter(range(10_000))
    monkeypatch.setitem(mcts_mod.CLOCKS, "cpu", lambda: next(ticks) * 0.01)
    bot = MCTSBot(time=0.1, clock="cpu")
    bot.act(_view(), [0, 1, 2, 3], random.Random(0))
    # the clock is read once to set the deadline and once per further iteration:
    # 0.1 s of 0.01 s ticks buys 10 iterations whatever the wall clock does
    assert bot.last_iterations == 10
    with pytest.raises(InvalidConfig, match="clock"):
        MCTSBot(clock="sundial")


@pytest.mark.parametrize("algorithm", ["flat", "uct"])
def test_deterministic_given_seed(algorithm: str) -> None:
    picks = []
    for _ in range(2):
        bot = MCTSBot(iterations=40, algorithm=algorithm, seed=7)
        picks.append(
            [
                bot.act(_view(turn=t % 6, seat=t % 2), [0, 1, 2, 3], random.Random())
                for t in range(6)
            ]
        )
        picks.append(bot.last_stats)
    assert picks[0] == picks[2]
    assert picks[1] == picks[3]


def test_single_legal_action_short_circuits() -> None:
    bot = MCTSBot(iterations=10)
    assert bot.act(_view(), [2], random.Random(0)) == 2
    assert bot.last_iterations == 0


def test_plays_legal_game() -> None:
    state = ToyState(GameConfig("toy", 2, 5))
    bots = [MCTSBot(iterations=20, algorithm="uct"), MCTSBot(iterations=20)]
    play_out(state, bots, checked=True)
    assert state.is_terminal()


def test_bad_parameters() -> None:
    with pytest.raises(InvalidConfig):
        MCTSBot(algorithm="nope")
    with pytest.raises(InvalidConfig):
        MCTSBot(scoring="nope")
    with pytest.raises(InvalidConfig):
        MCTSBot(iterations=0)
    bot = MCTSBot(iterations=5, playout="no-such-policy")
    with pytest.raises(InvalidConfig):
        bot.act(_view(), [0, 1], random.Random(0))


def test_rewards() -> None:
    assert rewards([10, 5, 5], [0], "win") == [1.0, 0.0, 0.0]
    assert rewards([10, 10, 5], [0, 1], "win") == [0.5, 0.5, 0.0]
    assert rewards([10, 5], [0], "score") == [1.0, 0.5]
    assert rewards([30, 10, 0], [0], "relative") == [0.75, 0.25, 0.0]
    assert rewards([0, 0], [0, 1], "relative") == [0.5, 0.5]
