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

import copy
import importlib.util
import pickle
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import kingdoms
from kingdoms.core import new_game
from kingdoms.rl import kingdomino_obs
from kingdoms.rl.env import KingdomsAECEnv, wrap

SOURCE = Path(kingdomino_obs.__file__).with_name("kingdomino_obs.py")


def _pure_source() -> ModuleType:
    """``kingdoms/rl/kingdomino_obs.py`` loaded from its source (never compiled)."""
    spec = importlib.util.spec_from_file_location("_pure_kingdomino_obs", SOURCE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PURE = _pure_source()


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
    rng = random.Random(players)
    steps = 0
    for game in range(4):
        built.reset(seed=100 * players + game)
        pure.reset(seed=100 * players + game)
        for agent in built.agent_iter():
            assert pure.agent_selection == agent
            a, b = built.last(), pure.last()
            assert np.array_equal(a[0]["observation"], b[0]["observation"]), (game, steps)
            assert a[0]["observation"].dtype == b[0]["observation"].dtype
            assert np.array_equal(a[0]["action_mask"], b[0]["action_mask"])
            assert a[1:] == b[1:]
            if rng.random() < 0.25:
                other = built.possible_agents[rng.randrange(players)]
                oa, ob = built.observe(other), pure.observe(other)
                assert np.array_equal(oa["observation"], ob["observation"])
                assert np.array_equal(oa["action_mask"], ob["action_mask"])
            if a[2] or a[3]:
                built.step(None)
                pure.step(None)
                continue
            legal = np.flatnonzero(a[0]["action_mask"])
            action = int(legal[rng.randrange(len(legal))])
            built.step(action)
            pure.step(action)
            steps += 1
        assert not pure.agents
        assert built.unwrapped.rewards == pure.unwrapped.rewards
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
    for state in picked:
        for seat in range(players):
            got = enc.encode(state, seat)
            assert np.array_equal(got, ref.encode(state, seat))
            assert np.array_equal(got, ref.encode_view(state.view(seat)))
            if enc.native is not None:
                shared = enc.native.buffer(state, seat)
                assert np.array_equal(shared, got)
                assert shared is not got
                assert np.shares_memory(shared, enc.native.buffer(state, seat))


def test_a_handed_observation_is_the_learners() -> None:
    """The C encoder hands out copies: changing one changes no later observation."""
    enc = kingdomino_obs.KingdominoEncoder(2)
    st = new_game("kingdomino", players=2, seed=3)
    first = enc.encode(st, 0)
    first[:] = 9
    assert np.array_equal(enc.encode(st, 0), PURE.KingdominoEncoder(2).encode(st, 0))


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_encoder_copies_keep_their_kind(how: str) -> None:
    for native in (True, False):
        enc = kingdomino_obs.KingdominoEncoder(3, native=native)
        again = pickle.loads(pickle.dumps(enc)) if how == "pickle" else copy.deepcopy(enc)
        assert (again.native is None) == (enc.native is None)
        st = new_game("kingdomino", players=3, seed=5)
        for seat in range(3):
            assert np.array_equal(again.encode(st, seat), enc.encode(st, seat))


def test_bad_seat_is_refused() -> None:
    enc = kingdomino_obs.KingdominoEncoder(2)
    st = new_game("kingdomino", players=2, seed=1)
    with pytest.raises(IndexError):
        enc.encode(st, 2)
