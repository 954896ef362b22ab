"""Nim on the core State API: a tiny third game, registered like any other game
would be (one module, one ``kingdoms.games`` entry point) and used to check that
no front end lists the games by hand.

Two players take turns removing 1–3 stones from one heap; whoever takes the last
stone wins.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from kingdoms.core.errors import InvalidConfig
from kingdoms.core.registry import Game
from kingdoms.core.state import GameConfig, Outcome, State

HEAPS = (7, 10, 15)
MAX_TAKE = 3


class NimState(State):
    game_name = "nim"

    def __init__(self, config: GameConfig) -> None:
        self._init_core(config)
        self.stones = int(config.options["heap"])
        self.turn = 0

    @property
    def current_player(self) -> int:
        return -1 if self.stones == 0 else self.turn

    def legal_actions(self) -> list[int]:
        return list(range(1, min(MAX_TAKE, self.stones) + 1)) if self.stones else []

    def _apply(self, action: int) -> None:
        self.emit({"type": "take", "player": self.turn, "stones": action})
        self.stones -= action
        if self.stones:
            self.turn = 1 - self.turn

    def clone(self) -> NimState:
        new = NimState.__new__(NimState)
        new._copy_core(self)
        new.stones, new.turn = self.stones, self.turn
        return new

    def view(self, player: int) -> dict[str, Any]:
        return {"game": "nim", "stones": self.stones, "turn": self.turn, "seat": player}

    def determinize(self, player: int, rng: random.Random) -> NimState:
        return self.clone()  # nothing is hidden

    def outcome(self) -> Outcome | None:
        if self.stones:
            return None
        return Outcome(
            scores=tuple(1.0 if p == self.turn else 0.0 for p in range(2)), winners=(self.turn,)
        )

    def action_to_str(self, action: int, lang: str = "en") -> str:
        return f"take {action}"

    def snapshot(self) -> dict[str, Any]:
        return {"stones": self.stones, "turn": self.turn}


class NimGame(Game):
    name = "nim"
    title = "Nim"
    min_players = 2
    max_players = 2

    def normalize_options(
        self, options: Mapping[str, Any], players: int, seed: int
    ) -> dict[str, Any]:
        unknown = sorted(set(options) - {"heap"})
        if unknown:
            raise InvalidConfig(f"unknown Nim options {unknown}; known: heap")
        heap = options.get("heap", HEAPS[0])
        if heap not in HEAPS or isinstance(heap, bool):
            raise InvalidConfig(f"heap must be one of {HEAPS}, not {heap!r}")
        return {"heap": heap}

    def create(self, config: GameConfig) -> State:
        return NimState(config)

    def num_distinct_actions(self, config: GameConfig) -> int:
        return MAX_TAKE + 1

    def lobby_options(self) -> dict[str, Any]:
        return {"heap": {"label": "Stones in the heap", "choices": [[h, str(h)] for h in HEAPS]}}


GAME = NimGame()
