"""The Kingdomino observations of the build in use equal the pure-Python source's.

In the compiled build :class:`kingdoms.rl.kingdomino_obs.KingdominoEncoder` writes
its vectors in C (:mod:`kingdoms.rl._ckingdomino_obs`); the pure-Python source of
the same module, loaded here as a module of its own (its incremental encoding, no
C), stays the reference.  Random games are played side by side through two
environments — one with the build's encoder, one with the pure source's — and every
observation, mask, reward and flag must be equal, for the acting seat after every
step and for another seat now and then.  On the pure-Python path both sides run the
same source, and the test checks the environments agree.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import kingdoms
from kingdoms.core import new_game
from kingdoms.kingdomino.board import Board
from kingdoms.kingdomino.tiles import TILES
from kingdoms.rl import kingdomino_obs
from kingdoms.rl.env import KingdomsAECEnv, wrap
from tests.rl.helpers import (
    check_copies_and_seats,
    check_new_arrays,
    check_states,
    play_side_by_side,
    pure_source,
)

PURE = pure_source(kingdomino_obs)


def _env(encoder: Any, players: int, options: dict[str, Any]) -> Any:
    raw = KingdomsAECEnv("kingdomino", players, options, encoder, max_steps=1500)
    return wrap(raw)


def test_the_compiled_build_writes_kingdomino_observations_in_c() -> None:
    if kingdoms.build_kind() != "compiled":
        pytest.skip("the pure-Python path is in use")
    assert kingdomino_obs.NATIVE_ENCODER
    assert kingdomino_obs.KingdominoEncoder(2).native is not None
    assert kingdomino_obs.KingdominoEncoder(2, native=False).native is None
    assert PURE.KingdominoEncoder(2, native=False).native is None


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {}),
        (3, {"variants": ["harmony"]}),
        (4, {"variants": ["middle-kingdom", "dynasty"]}),
        (2, {"variants": ["mighty-duel"]}),
        (3, {"variants": ["dynasty", "harmony", "middle-kingdom"]}),
    ],
)
def test_build_and_pure_environments_agree(players: int, options: dict[str, Any]) -> None:
    built = _env(kingdomino_obs.KingdominoEncoder(players), players, options)
    pure = _env(PURE.KingdominoEncoder(players, native=False), players, options)
    steps = play_side_by_side(built, pure, players, 4)
    assert steps > 100


@pytest.mark.parametrize("native", [True, False])
def test_states_out_of_order_equal_the_pure_source(native: bool) -> None:
    """One encoder asked about copies of games' states in shuffled order, every seat
    (its grid planes and cached stats must follow the state it is given)."""
    players = 4
    rng = random.Random(7)
    copies = []
    for seed in (11, 12):
        st = new_game("kingdomino", players=players, seed=seed, options={"variants": ["dynasty"]})
        while not st.is_terminal():
            copies.append(st.clone())
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
        copies.append(st.clone())
    picked = rng.sample(copies, 150)
    enc = kingdomino_obs.KingdominoEncoder(players, native=native)
    ref = PURE.KingdominoEncoder(players, native=False)
    check_states(enc, ref, picked, players, lambda r, s, seat: r.encode_view(s.view(seat)))


def _with_pure_boards(st: Any) -> Any:
    """A copy of ``st`` whose kingdoms are the pure-Python board class (the same
    placements and discards), as a state rebuilt without the C board holds them."""
    out = st.clone()
    boards = []
    for b in st.boards:
        pure = Board(b.size)
        for number, code in b.placed:
            pure.place(TILES[number], code)
        pure.discarded = list(b.discarded)
        boards.append(pure)
    out.boards = boards
    return out


@pytest.mark.parametrize("native", [True, False])
def test_kingdoms_of_either_board_class_are_read(native: bool) -> None:
    """The C encoder reads the C board's fields in C and any other board through its
    attributes: states of both kinds, mixed in one encoder, equal the pure source."""
    players = 3
    rng = random.Random(5)
    st = new_game("kingdomino", players=players, seed=21, options={"variants": ["harmony"]})
    states = []
    while not st.is_terminal():
        states.append(st.clone())
        states.append(_with_pure_boards(st))
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    states.append(_with_pure_boards(st))
    assert any(type(s.boards[0]) is not type(st.boards[0]) for s in states) == (
        type(st.boards[0]) is not Board
    )
    picked = states[::3] + rng.sample(states, 40)
    enc = kingdomino_obs.KingdominoEncoder(players, native=native)
    ref = PURE.KingdominoEncoder(players, native=False)
    check_states(enc, ref, picked, players, lambda r, s, seat: r.encode_view(s.view(seat)))


def test_copies_and_bad_seats() -> None:
    check_copies_and_seats(kingdomino_obs.KingdominoEncoder, "kingdomino")


SETTINGS = [
    (2, []),
    (3, []),
    (4, []),
    (2, ["middle-kingdom"]),
    (3, ["harmony"]),
    (4, ["middle-kingdom", "harmony", "dynasty"]),
    (2, ["dynasty"]),
    (2, ["mighty-duel"]),
    (2, ["mighty-duel", "middle-kingdom", "harmony"]),
]


@pytest.mark.parametrize(("players", "variants"), SETTINGS)
def test_kept_unseen_block_equals_a_fresh_encoding(players: int, variants: list[str]) -> None:
    """The unseen dominoes' block, kept between calls while the state's pile and
    set-aside lists stay (worked out again when either is another list or the pile
    shrank), equals a fresh encoding after every step of random games — every seat,
    with now and then a determinized copy (other lists of the same lengths, the
    same dominoes) or another game's state in between."""
    rng = random.Random(players * 31 + len(variants))
    enc = kingdomino_obs.KingdominoEncoder(players)
    other = new_game("kingdomino", players=players, seed=99, options={"variants": variants})
    for seed in (1, 2):
        st = new_game("kingdomino", players=players, seed=seed, options={"variants": variants})
        while not st.is_terminal():
            for seat in range(players):
                fresh = PURE.KingdominoEncoder(players, native=False).encode(st, seat)
                assert np.array_equal(enc.encode(st, seat), fresh)
            roll = rng.random()
            if roll < 0.1:
                seat = rng.randrange(players)
                guess = st.determinize(seat, random.Random(seed))
                fresh = PURE.KingdominoEncoder(players, native=False).encode(guess, seat)
                assert np.array_equal(enc.encode(guess, seat), fresh)
            elif roll < 0.15:
                seat = rng.randrange(players)
                fresh = PURE.KingdominoEncoder(players, native=False).encode(other, seat)
                assert np.array_equal(enc.encode(other, seat), fresh)
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])


def test_handed_out_masks_and_vectors_are_new_arrays() -> None:
    check_new_arrays(kingdomino_obs.KingdominoEncoder(2), new_game("kingdomino", players=2, seed=4))
