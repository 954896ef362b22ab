"""The Dominion observations of the build in use equal the pure-Python source's.

In the compiled build :class:`kingdoms.rl.dominion_obs.DominionEncoder` writes its
vectors in C (:mod:`kingdoms.rl._cdominion_obs`); the pure-Python source of the same
module, loaded here as a module of its own (its incremental encoding, no C), stays
the reference.  Random games are played side by side through two environments —
one with the build's encoder, one with the pure source's — and every observation,
mask, reward and flag must be equal, for the acting seat after every step and for
another seat now and then.  On the pure-Python path both sides run the same source,
and the test checks the environments agree.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import kingdoms
from kingdoms.core import new_game
from kingdoms.dominion.state import DominionState
from kingdoms.rl import dominion_obs
from kingdoms.rl.env import KingdomsAECEnv, wrap
from tests.rl.helpers import (
    check_copies_and_seats,
    check_new_arrays,
    check_states,
    play_side_by_side,
    pure_source,
)

PURE = pure_source(dominion_obs)


def _env(encoder: Any, players: int, options: dict[str, Any]) -> Any:
    raw = KingdomsAECEnv(
        "dominion", players, options, encoder, max_steps=1500, mask_by_legal_list=True
    )
    return wrap(raw)


def test_the_compiled_build_writes_dominion_observations_in_c() -> None:
    if kingdoms.build_kind() != "compiled":
        pytest.skip("the pure-Python path is in use")
    assert dominion_obs.NATIVE_ENCODER
    assert dominion_obs.DominionEncoder(2).native is not None
    assert dominion_obs.DominionEncoder(2, native=False).native is None
    assert PURE.DominionEncoder(2, native=False).native is None
    assert not str(dominion_obs.__file__).endswith(".py")


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {"kingdom": "First Game"}),
        (3, {"sets": ["base", "alchemy"]}),
        (2, {"sets": ["alchemy"]}),
        (4, {"sets": ["base", "base-2e", "alchemy"], "base_edition": 2}),
        (5, {"sets": ["base", "alchemy"]}),
    ],
)
def test_build_and_pure_environments_agree(players: int, options: dict[str, Any]) -> None:
    built = _env(dominion_obs.DominionEncoder(players), players, options)
    pure = _env(PURE.DominionEncoder(players, native=False), players, options)
    steps = play_side_by_side(built, pure, players, 3)
    assert steps > 300


@pytest.mark.parametrize("native", [True, False])
def test_states_out_of_order_equal_the_pure_source(native: bool) -> None:
    """One encoder asked about copies of a game's states in shuffled order, every seat
    (its cached victory points and buffers must follow the state it is given)."""
    players = 3
    options = {"sets": ["base", "alchemy"]}
    rng = random.Random(7)
    st = new_game("dominion", players=players, seed=11, options=options)
    assert isinstance(st, DominionState)
    st.logging = False
    copies = []
    while not st.is_terminal() and len(copies) < 2500:
        copies.append(st.clone())
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    picked = rng.sample(copies, 200)
    enc = dominion_obs.DominionEncoder(players, native=native)
    ref = PURE.DominionEncoder(players, native=False)
    check_states(
        enc, ref, picked, players, lambda r, s, seat: r.encode_view(s.view(seat), bool(s.bought))
    )


def test_copies_and_bad_seats() -> None:
    check_copies_and_seats(dominion_obs.DominionEncoder, "dominion")


def test_handed_out_masks_and_vectors_are_new_arrays() -> None:
    st = new_game("dominion", players=2, seed=4, options={"kingdom": "First Game"})
    check_new_arrays(dominion_obs.DominionEncoder(2), st)
