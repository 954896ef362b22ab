"""Seat generators are seeded on first use and draw exactly what an eagerly seeded
``random.Random`` of the same text draws."""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from kingdoms.core.runner import SeatRandom, seat_rngs

FIRST_USES: dict[str, Callable[[random.Random], Any]] = {
    "random": lambda r: r.random(),
    "getrandbits": lambda r: r.getrandbits(70),
    "randrange": lambda r: r.randrange(1000),
    "randint": lambda r: r.randint(-5, 5),
    "choice": lambda r: r.choice("abcdefgh"),
    "shuffle": lambda r: (lambda x: (r.shuffle(x), x)[1])(list(range(30))),
    "sample": lambda r: r.sample(range(100), 7),
    "choices": lambda r: r.choices("abc", weights=[1, 2, 3], k=5),
    "uniform": lambda r: r.uniform(1.0, 2.0),
    "gauss": lambda r: (r.gauss(), r.gauss()),
    "randbytes": lambda r: r.randbytes(9),
    "getstate": lambda r: r.getstate(),
    "copy": lambda r: copy.copy(r).random(),
    "deepcopy": lambda r: copy.deepcopy(r).random(),
    "pickle": lambda r: pickle.loads(pickle.dumps(r)).random(),
}


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**48),
    seat=st.integers(min_value=0, max_value=5),
    first=st.sampled_from(sorted(FIRST_USES)),
)
def test_a_seat_generator_draws_what_the_eagerly_seeded_one_draws(
    seed: int, seat: int, first: str
) -> None:
    text = f"{seed}:seat:{seat}"
    lazy, eager = SeatRandom(text), random.Random(text)
    assert isinstance(lazy, random.Random)
    assert FIRST_USES[first](lazy) == FIRST_USES[first](eager)
    assert type(lazy) is random.Random  # a plain generator from the first use on
    assert [lazy.random() for _ in range(5)] == [eager.random() for _ in range(5)]
    assert lazy.getstate() == eager.getstate()


def test_seat_rngs_are_the_documented_generators() -> None:
    for lazy, p in zip(seat_rngs(42, 3), range(3), strict=True):
        assert lazy.getstate() == random.Random(f"42:seat:{p}").getstate()


def test_seeding_or_setting_the_state_before_any_draw_wins() -> None:
    a, b = SeatRandom("1:seat:0"), SeatRandom("1:seat:0")
    a.seed(99)
    assert a.random() == random.Random(99).random()
    b.setstate(random.Random(5).getstate())
    assert b.random() == random.Random(5).random()
    assert type(a) is random.Random and type(b) is random.Random
