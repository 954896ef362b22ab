"""States of both games pickle, copy, deep-copy and serialize to text, and come back
as the same game (also in the middle of a decision): same fingerprint, history and
legal actions, and the same future under the same actions (the random generator
travels with the state)."""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kingdoms.core.errors import InvalidArgument
from kingdoms.core.registry import get_game
from kingdoms.core.serial import new_state_from
from kingdoms.core.state import TERMINAL, State
from kingdoms.dominion.state import DominionState

ROUND_TRIPS: dict[str, Callable[[State], State]] = {
    "pickle": lambda s: pickle.loads(pickle.dumps(s)),
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "serialize": lambda s: new_state_from(s.serialize()),  # type: ignore[attr-defined]
}

OPTIONS: dict[str, list[dict[str, Any]]] = {
    # random kingdoms (every set: Possession, Library, Thief… decisions), First Game
    "dominion": [{"sets": ["base", "base-2e", "alchemy"]}, {"kingdom": "First Game"}],
    "kingdomino": [{}, {"variants": ["harmony", "middle-kingdom"]}, {"variants": ["dynasty"]}],
}


def random_state(game: str, players: int, seed: int, steps: int, variant: int) -> State:
    g = get_game(game)
    options = OPTIONS[game][variant % len(OPTIONS[game])]
    state = g.create(g.config(players, seed, options))
    rng = random.Random(seed)
    for _ in range(steps):
        if state.current_player == TERMINAL:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def same_game(a: State, b: State, seed: int) -> None:
    """``b`` is ``a``: now and after the same 40 random actions."""
    assert type(b) is type(a) and b is not a
    assert b.fingerprint() == a.fingerprint()
    assert b.history == a.history and b.config == a.config and b.logging == a.logging
    assert [e.visible_to(None) for e in b.log] == [e.visible_to(None) for e in a.log]
    rng = random.Random(seed)
    for _ in range(40):
        assert b.current_player == a.current_player
        assert b.legal_actions() == a.legal_actions()
        if a.current_player == TERMINAL:
            break
        legal = a.legal_actions()
        action = legal[rng.randrange(len(legal))]
        a.apply(action)
        b.apply(action)
        assert b.fingerprint() == a.fingerprint()
    b.check_invariants()


@pytest.mark.parametrize("how", sorted(ROUND_TRIPS))
@given(
    game=st.sampled_from(["dominion", "kingdomino"]),
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 300),
    variant=st.integers(0, 2),
)
@settings(max_examples=25, deadline=None)
def test_round_trip_is_the_same_game(
    how: str, game: str, players: int, seed: int, steps: int, variant: int
) -> None:
    state = random_state(game, players, seed, steps, variant)
    again = ROUND_TRIPS[how](state)
    same_game(state, again, seed)


KINGDOM = [
    "militia",
    "cellar",
    "moat",
    "village",
    "smithy",
    "market",
    "mine",
    "remodel",
    "workshop",
    "woodcutter",
]


def test_mid_decision_dominion_state_round_trips() -> None:
    """A Militia attack waiting for the other seat's discards, on every path."""
    state = DominionState.scenario(
        kingdom=KINGDOM,
        hands={0: ["militia", "copper", "copper", "copper", "estate"]},
    )
    militia = next(a for a in state.legal_actions() if "Militia" in state.action_to_str(a))
    state.apply(militia)
    assert state.current_player == 1 and state.stack
    for how, trip in ROUND_TRIPS.items():
        again = trip(state.clone())
        assert again.current_player == 1, how
        same_game(state.clone(), again, 5)


def test_independent_after_copy() -> None:
    state = random_state("kingdomino", 2, 3, 10, 0)
    again = copy.deepcopy(state)
    before = state.fingerprint()
    again.apply(again.legal_actions()[0])
    assert state.fingerprint() == before


@pytest.mark.parametrize(
    "text",
    ["", "[]", "{}", '{"kingdoms_state": 9}', '{"kingdoms_state": 1, "config": {"game": "chess"}}'],
)
def test_malformed_text_is_refused(text: str) -> None:
    with pytest.raises(InvalidArgument):
        new_state_from(text)


def test_truncated_dominion_text_is_refused() -> None:
    text = random_state("dominion", 2, 1, 30, 1).serialize()
    broken = text.replace('"hands"', '"hand"')
    with pytest.raises(InvalidArgument):
        new_state_from(broken)
    with pytest.raises(InvalidArgument):
        new_state_from(text[: len(text) // 2])


def test_kingdomino_text_names_a_bad_field() -> None:
    text = random_state("kingdomino", 2, 1, 30, 0).serialize()
    with pytest.raises(InvalidArgument, match="Kingdomino"):
        new_state_from(text.replace('"boards"', '"board"'))
