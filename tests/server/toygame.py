"""A tiny hidden-information game that follows the core contract, so the
server can be tested without depending on the real games' rules.

Each seat holds a secret hand; on its turn a seat plays a card (public),
draws one (secret to the drawer, uses the RNG) or passes.  After 12 actions
the highest total of played cards wins.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from kingdoms.core.errors import InvalidConfig
from kingdoms.core.events import Event
from kingdoms.core.registry import Game
from kingdoms.core.state import TERMINAL, GameConfig, Outcome, State

DRAW, PASS = 6, 7
LENGTH = 12


class ToyState(State):
    __slots__ = ("deck", "hands", "played", "turn")
    game_name = "toy"

    def __init__(self, config: GameConfig | None = None) -> None:
        if config is None:
            return
        self._init_core(config)
        self.deck = [v for v in range(6) for _ in range(2 + config.players)]
        self.rng.shuffle(self.deck)
        self.hands = [
            [self.deck.pop() for _ in range(int(config.options["hand"]))]
            for _ in range(config.players)
        ]
        self.played = [0] * config.players
        self.turn = 0
        for p, hand in enumerate(self.hands):
            self.emit(Event("draw", p, {"count": len(hand)}, {"cards": list(hand)}, (p,)))

    @property
    def current_player(self) -> int:
        return TERMINAL if self.step >= LENGTH else self.turn

    def legal_actions(self) -> list[int]:
        if self.current_player == TERMINAL:
            return []
        out = sorted(set(self.hands[self.turn]))
        if self.deck:
            out.append(DRAW)
        out.append(PASS)
        return out

    def _apply(self, action: int) -> None:
        p = self.turn
        if action == DRAW:
            card = self.deck.pop(self.rng.randrange(len(self.deck)))
            self.hands[p].append(card)
            self.emit(Event("draw", p, {"count": 1}, {"cards": [card]}, (p,)))
        elif action == PASS:
            self.emit(Event("pass", p))
        else:
            self.hands[p].remove(action)
            self.played[p] += action
            self.emit(Event("play", p, {"card": action}))
        self.turn = (p + 1) % self.num_players

    def clone(self) -> ToyState:
        new = ToyState()
        new._copy_core(self)
        new.deck = self.deck.copy()
        new.hands = [h.copy() for h in self.hands]
        new.played = self.played.copy()
        new.turn = self.turn
        return new

    def view(self, player: int) -> dict[str, Any]:
        return {
            "seat": player,
            "hand": sorted(self.hands[player]),
            "hand_sizes": [len(h) for h in self.hands],
            "played": list(self.played),
            "deck": len(self.deck),
            "current_player": self.current_player,
        }

    def determinize(self, player: int, rng: random.Random) -> ToyState:
        return self.clone()

    def outcome(self) -> Outcome | None:
        if not self.is_terminal():
            return None
        best = max(self.played)
        return Outcome(
            tuple(float(s) for s in self.played),
            tuple(p for p, s in enumerate(self.played) if s == best),
        )

    def action_to_str(self, action: int, lang: str = "en") -> str:
        words = {
            "en": ("draw", "pass", "play"),
            "pl": ("dobierz", "pas", "zagraj"),
            "cs": ("lízni", "pas", "zahraj"),
        }[lang]
        if action == DRAW:
            return words[0]
        if action == PASS:
            return words[1]
        return f"{words[2]} {action}"

    def action_info(self, action: int) -> dict[str, Any]:
        """Actions as data for the board (the optional hook the server passes on)."""
        if action == DRAW:
            return {"kind": "draw"}
        if action == PASS:
            return {"kind": "pass"}
        return {"kind": "play", "card": action}

    def snapshot(self) -> dict[str, Any]:
        return {
            "deck": self.deck,
            "hands": self.hands,
            "played": self.played,
            "turn": self.turn,
            "step": self.step,
        }


class ToyGame(Game):
    name = "toy"
    title = "Toy"
    min_players = 2
    max_players = 4

    def normalize_options(
        self, options: Mapping[str, Any], players: int, seed: int
    ) -> dict[str, Any]:
        unknown = set(options) - {"hand"}
        if unknown:
            raise InvalidConfig(f"unknown toy options: {sorted(unknown)}")
        hand = options.get("hand", 3)
        if not isinstance(hand, int) or not 1 <= hand <= 5:
            raise InvalidConfig("option 'hand' must be 1..5")
        return {"hand": hand}

    def create(self, config: GameConfig) -> ToyState:
        return ToyState(config)

    def num_distinct_actions(self, config: GameConfig) -> int:
        return 8

    def action_info(self, state: State, action: int) -> dict[str, Any] | None:
        assert isinstance(state, ToyState)
        return state.action_info(action)


GAME = ToyGame()
