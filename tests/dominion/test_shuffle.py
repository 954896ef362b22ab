"""The engine's compiled shuffle is ``random.shuffle``, permutation and generator
state alike (old records replay only so)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from kingdoms.dominion.shuffle import shuffle


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=2**64), st.lists(st.integers(0, 40), max_size=80))
def test_the_same_permutation_and_generator_state_as_random_shuffle(
    seed: int, cards: list[int]
) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    mine, std = list(cards), list(cards)
    shuffle(mine, ours)
    theirs.shuffle(std)
    assert mine == std
    assert ours.getstate() == theirs.getstate()


def test_every_length_up_to_a_large_deck() -> None:
    for n in range(0, 300):
        a, b = list(range(n)), list(range(n))
        shuffle(a, random.Random(n))
        random.Random(n).shuffle(b)
        assert a == b, n


class _Loaded(random.Random):
    def random(self) -> float:  # a subclass drawing otherwise: its own shuffle is used
        return 0.0


def test_a_generator_subclass_shuffles_its_own_way() -> None:
    a, b = list(range(30)), list(range(30))
    shuffle(a, _Loaded(1))
    _Loaded(1).shuffle(b)
    assert a == b
