"""Where card effects and pending tasks are registered (by card index / task code)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kingdoms.dominion.data import BY_ID

if TYPE_CHECKING:
    from kingdoms.dominion.frames import Frame
    from kingdoms.dominion.state import DominionState

Effect = Callable[["DominionState", int, int], None]
Task = Callable[["DominionState", "Frame"], None]

EFFECTS: dict[int, Effect] = {}
"""Card index -> what one play of it does (``effect(state, player, play_id)``)."""
TASKS: dict[str, Task] = {}
"""Task code -> what a pending task frame does."""


def card(cid: str) -> Callable[[Effect], Effect]:
    def deco(fn: Effect) -> Effect:
        EFFECTS[BY_ID[cid]] = fn
        return fn

    return deco


def task(code: str) -> Callable[[Task], Task]:
    def deco(fn: Task) -> Task:
        TASKS[code] = fn
        return fn

    return deco
