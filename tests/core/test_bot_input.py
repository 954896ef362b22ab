"""What a bot reads: its own observation when it is an ObservingBot, else the view."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from kingdoms.bots.base import Bot, ObservingBot
from kingdoms.core import new_game
from kingdoms.core.runner import bot_input, play_out


class Viewer:
    name = "viewer"

    def __init__(self) -> None:
        self.seen: list[Any] = []

    def act(self, view: Any, legal_actions: Sequence[int], rng: random.Random) -> int:
        self.seen.append(view)
        return legal_actions[0]


class Observer(Viewer):
    name = "observer"

    def observe(self, state: Any, player: int) -> Any:
        return ("observed", player, state.step)


def test_observing_bots_get_their_observation_others_the_view() -> None:
    state = new_game("kingdomino", players=2, seed=4)
    viewer, observer = Viewer(), Observer()
    assert isinstance(observer, ObservingBot) and not isinstance(viewer, ObservingBot)
    assert isinstance(viewer, Bot)
    assert bot_input(observer, state, 1) == ("observed", 1, 0)
    assert bot_input(viewer, state, 0) == state.view(0)
    play_out(state, [viewer, observer])
    assert all(isinstance(v, dict) and v["game"] == "kingdomino" for v in viewer.seen)
    assert observer.seen and all(v[0] == "observed" for v in observer.seen)
