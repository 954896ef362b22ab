"""Scenario helpers: build a position and drive it by action text."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from kingdoms.bots.dominion.soak import SoakBot, random_setup
from kingdoms.core import new_game
from kingdoms.dominion.data import CARDS
from kingdoms.dominion.kingdom import RECOMMENDED
from kingdoms.dominion.state import DominionState

FIRST_GAME = list(next(cards for names, cards in RECOMMENDED.items() if "First Game" in names))
ALL_1E = [
    "adventurer", "bureaucrat", "chancellor", "chapel", "feast",
    "library", "moneylender", "spy", "thief", "throne_room",
]  # fmt: skip
OTHERS = [
    "council_room", "festival", "gardens", "laboratory", "witch",
    "moat", "militia", "remodel", "mine", "cellar",
]  # fmt: skip


def make(players: int = 2, kingdom: Sequence[str] | None = None, **kw: Any) -> DominionState:
    return DominionState.scenario(players, list(kingdom or FIRST_GAME), **kw)


def do(state: DominionState, *texts: str) -> None:
    for t in texts:
        state.apply_checked(state.parse_action(t))


def ids(zone: Sequence[int]) -> list[str]:
    return [CARDS[c].id for c in zone]


def deck_top_first(state: DominionState, p: int) -> list[str]:
    return ids(list(reversed(state.decks[p])))


def legal(state: DominionState) -> list[str]:
    return state.describe_legal()


def soak_game(seed: int, tag: str) -> tuple[DominionState, list[SoakBot], list[random.Random]]:
    """A soak game of ``seed`` (random kingdom of any set, random and policy seats)
    with its log off, its bots and one generator per seat (named by ``tag``)."""
    setup = random_setup(random.Random(seed))
    n = setup["players"]
    state = new_game("dominion", players=n, seed=seed, options=setup["options"])
    assert isinstance(state, DominionState)
    state.logging = False
    bots = [SoakBot(setup["policy_seats"][p]) for p in range(n)]
    rngs = [random.Random(f"{seed}:{tag}:{p}") for p in range(n)]
    return state, bots, rngs
