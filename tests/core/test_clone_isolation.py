"""A clone is independent of its original, on both games and both builds.

Whatever is done to a clone — actions applied, its random generator drawn from, any
list, dict or board reachable from its public fields changed in place — leaves the
original as it was (its whole serialization, the counts it keeps beside it, and its
scores), and the other way round.

What a clone shares on purpose: the game's configuration (a frozen record), the log's
events (frozen records) and the Dominion stack's frames (records never changed once
made): neither the engine nor a caller changes them, so they are not walked here.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from kingdoms.core import new_game
from kingdoms.core.state import State
from kingdoms.dominion.state import FIELDS, DominionState
from kingdoms.kingdomino.state import KingdominoState

CORE = ("history", "log", "rng")
"""The fields every state has besides its game's own (``config`` is a frozen record)."""

KINGDOMINO = (
    *("aside", "boards", "current", "current_kings", "dynasty", "first", "game_no"),
    *("harmony", "kings", "middle", "middle_rule", "mighty", "next", "next_kings"),
    *("past", "phase", "pick_order", "pick_pos", "pile", "round", "size", "slot"),
)
"""Every public field of a Kingdomino state (checked against its ``__slots__``)."""

BOARD = ("placed", "discarded", "terrain", "crown", "adj")
"""The lists of a Kingdomino board (the compiled board holds only the first two)."""

SENTINEL = 999


def field_names(state: State) -> tuple[str, ...]:
    if isinstance(state, DominionState):
        return CORE + tuple(f.name for f in FIELDS)
    return CORE + KINGDOMINO


def targets(path: str, value: Any) -> Iterator[tuple[str, Any]]:
    """Every mutable thing reachable from ``value`` (named by its path)."""
    if isinstance(value, list):
        yield path, value
        for i, item in enumerate(value):
            yield from targets(f"{path}[{i}]", item)
    elif isinstance(value, dict):
        yield path, value
        for key, item in value.items():
            yield from targets(f"{path}[{key!r}]", item)
    elif isinstance(value, random.Random):
        yield path, value
    elif hasattr(value, "placed") and hasattr(value, "discarded"):  # a board
        for name in BOARD:
            if hasattr(value, name):
                yield from targets(f"{path}.{name}", getattr(value, name))


def reachable(state: State) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for name in field_names(state):
        out.extend(targets(name, getattr(state, name)))
    return out


def mutate(value: Any) -> None:
    """Change ``value`` in place every way its type allows, ending different from how
    it began."""
    if isinstance(value, random.Random):
        value.random()
        value.shuffle([1, 2, 3])
    elif isinstance(value, dict):
        value[SENTINEL] = [SENTINEL]
        value.pop(SENTINEL)
        for key in list(value):
            value[key] = SENTINEL
        value.clear()
        value[SENTINEL] = SENTINEL
    else:
        value.append(SENTINEL)
        value.insert(0, SENTINEL)
        value[1] = SENTINEL
        value.reverse()
        value.sort(key=repr)
        value.pop()
        del value[0]
        value.extend([SENTINEL, SENTINEL])
        value += [SENTINEL]
        value.remove(SENTINEL)
        value.clear()
        value.append(SENTINEL)


def fingerprint(state: State, cache: bool = True) -> list[Any]:
    """The state as data: its serialization (fields, generator, history, log), the
    counts a Dominion state keeps beside it (and its memo of buy actions, which a
    clone starts empty), the scores."""
    out: list[Any] = [state.serialize()]
    if isinstance(state, DominionState):
        out += [state.totals, state.owned_counts, state.owned_kinds]
        if cache:
            out.append(state.buy_cache)
        out.append(state.vp())
    else:
        assert isinstance(state, KingdominoState)
        out.append([state.score(p) for p in range(state.num_players)])
        out.append([b.snapshot() for b in state.boards])
    return [repr(x) for x in out]


def position(game: str, players: int, seed: int, steps: int, variant: int) -> State:
    if game == "dominion":
        options: dict[str, Any] = {
            "sets": ["base", "base-1e", "base-2e", "alchemy"],
            "base_edition": 1 + variant % 2,
            "alchemy_errata": bool(variant & 2),
        }
    else:
        variants = ["middle-kingdom", "harmony", "dynasty"]
        options = {"variants": [v for i, v in enumerate(variants) if variant >> i & 1]}
    state = new_game(game, players=players, seed=seed, options=options)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def play_on(state: State, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            return
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])


def check_isolated(state: State, seed: int) -> int:
    """Mutate clones of ``state`` (and ``state`` under a clone) every way; return how
    many things were mutated."""
    before = fingerprint(state)
    # actions applied to a clone
    copy = state.clone()
    assert fingerprint(copy, cache=False) == fingerprint(state, cache=False)
    play_on(copy, seed, 60)
    assert fingerprint(state) == before, "applying actions to a clone changed the original"
    # each mutable thing of a clone changed in place (after some actions, or none)
    paths = [path for path, _ in reachable(state)]
    for i, path in enumerate(paths):
        copy = state.clone()
        if i % 3 == 0:
            play_on(copy, seed + i, 3)
        found = dict(reachable(copy))
        if path not in found:  # the actions changed the shape (a zone emptied...)
            continue
        mutate(found[path])
        assert fingerprint(state) == before, f"changing the clone's {path} changed the original"
    # and the other way round: the original changed in place, the clone untouched
    original = state.clone()  # what ``state`` was, to mutate freely
    copy = original.clone()
    kept = fingerprint(copy, cache=False)
    for _, value in reachable(original):
        mutate(value)
    assert fingerprint(copy, cache=False) == kept, "changing the original changed its clone"
    return len(paths)


def test_kingdomino_fields_listed_are_every_field() -> None:
    slots = getattr(KingdominoState, "__slots__", ())
    if not slots:  # the compiled class lists none (the pure build checks the list)
        pytest.skip("the compiled class does not list its slots")
    assert set(KINGDOMINO) == {s for s in slots if not s.startswith("_")}


@pytest.mark.parametrize(
    ("game", "players", "seed", "steps"),
    [("dominion", 2, 3, 40), ("dominion", 3, 8, 150), ("kingdomino", 2, 1, 9),
     ("kingdomino", 4, 2, 30)],
)  # fmt: skip
def test_mutating_a_clone_leaves_the_original(
    game: str, players: int, seed: int, steps: int
) -> None:
    state = position(game, players, seed, steps, variant=seed)
    assert check_isolated(state, seed) > 10  # lists, dicts, boards and the generator


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=hs.sampled_from(["dominion", "kingdomino"]),
    players=hs.integers(2, 4),
    seed=hs.integers(0, 10_000),
    steps=hs.integers(0, 250),
    variant=hs.integers(0, 7),
    logging=hs.booleans(),
)
def test_clone_is_independent_property(
    game: str, players: int, seed: int, steps: int, variant: int, logging: bool
) -> None:
    state = position(game, players, seed, steps, variant)
    state.logging = logging
    check_isolated(state, seed)


def test_clone_of_the_set_aside_dominoes_and_piles_is_its_own() -> None:
    """The two fields a clone used to share (found by an audit): Kingdomino's
    set-aside dominoes and Dominion's supply piles."""
    km = position("kingdomino", 2, 5, 4, 0)
    assert isinstance(km, KingdominoState)
    aside = list(km.aside)
    km.clone().aside.append(SENTINEL)
    assert km.aside == aside
    dom = position("dominion", 2, 5, 10, 0)
    assert isinstance(dom, DominionState)
    piles, totals, kinds = list(dom.piles), dom.totals, list(dom.owned_kinds)
    assert isinstance(totals, tuple)  # immutable: shared by a copy
    copy = dom.clone()
    copy.piles.append(SENTINEL)
    copy.owned_kinds.clear()
    assert (dom.piles, dom.totals, dom.owned_kinds) == (piles, totals, kinds)
