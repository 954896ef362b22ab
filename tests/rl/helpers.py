"""Shared helpers for the environment tests."""

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


def play_random(env: Any, seed: int, max_steps: int = 100_000) -> list[int]:
    """Play one game with random legal actions (drawn from the mask); the actions."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    taken: list[int] = []
    for _agent in env.agent_iter(max_steps):
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = int(legal[rng.randrange(len(legal))])
        taken.append(action)
        env.step(action)
    return taken


def pure_source(module: ModuleType) -> ModuleType:
    """The source file of ``module`` (a package module that the compiled build
    compiles) loaded as a module of its own: never compiled, the reference."""
    path = Path(str(module.__file__)).with_name(module.__name__.rsplit(".", 1)[1] + ".py")
    name = "_pure_" + module.__name__.rsplit(".", 1)[1]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


def play_side_by_side(built: Any, pure: Any, players: int, games: int) -> int:
    """Play ``games`` random games through two environments at once — one with the
    build's encoder, one with the pure source's — and check that every ``last()``
    (observation, mask, reward, flags, info), another seat's observation now and then
    and the final rewards are equal; the steps played."""
    rng = random.Random(players)
    steps = 0
    for game in range(games):
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
    return steps


def check_states(enc: Any, ref: Any, states: list[Any], players: int, from_view: Any) -> None:
    """``enc`` asked about ``states`` in the order given, every seat: each vector equals
    the reference encoder's and the from-scratch one (``from_view(ref, state, seat)``);
    with a C encoder, the seat's own buffer (what the OpenSpiel observer copies from)
    holds the same vector, in the same memory each time."""
    for state in states:
        for seat in range(players):
            got = enc.encode(state, seat)
            assert np.array_equal(got, ref.encode(state, seat))
            assert np.array_equal(got, from_view(ref, state, seat))
            if enc.native is not None:
                shared = enc.native.buffer(state, seat)
                assert np.array_equal(shared, got)
                assert shared is not got
                assert np.shares_memory(shared, enc.native.buffer(state, seat))
                # as floats into a longer array (the OpenSpiel observer's tensor):
                # the vector at its start, the rest untouched
                target = np.full(len(got) + 3, -7, np.float32)
                enc.native.fill(state, seat, target)
                assert np.array_equal(target[: len(got)], got)
                assert np.array_equal(target[len(got) :], [-7, -7, -7])
                # a target that is short, of another type, read-only or not 1-D is
                # refused and left as it was
                readonly = np.full(len(got), 5, np.float32)
                readonly.flags.writeable = False
                for bad in (
                    np.full(len(got) - 1, 5, np.float32),
                    np.full(len(got), 5, np.float64),
                    readonly,
                    np.full((1, len(got)), 5, np.float32),
                    np.full(2 * len(got), 5, np.float32)[::2],
                ):
                    with pytest.raises(ValueError, match="target"):
                        enc.native.fill(state, seat, bad)
                    assert (bad == 5).all()
                with pytest.raises(TypeError):
                    enc.native.fill(state, seat, [0.0] * len(got))


def check_copies_and_seats(encoder: Any, game: str) -> None:
    """Handed-out vectors are the learner's; pickle and deepcopy keep the kind of
    encoder (C or not) and its vectors; a seat out of range raises ``IndexError``."""
    from kingdoms.core import new_game

    options = {"kingdom": "First Game"} if game == "dominion" else {}
    st = new_game(game, players=2, seed=3, options=options)
    enc = encoder(2)
    first = enc.encode(st, 0)
    expected = first.copy()
    first[:] = 9
    assert np.array_equal(enc.encode(st, 0), expected)
    with pytest.raises(IndexError):
        enc.encode(st, 2)
    for native in (True, False):
        enc = encoder(3, native=native)
        st = new_game(game, players=3, seed=5)
        for again in (pickle.loads(pickle.dumps(enc)), copy.deepcopy(enc)):
            assert (again.native is None) == (enc.native is None)
            for seat in range(3):
                assert np.array_equal(again.encode(st, seat), enc.encode(st, seat))


def check_new_arrays(enc: Any, state: Any) -> None:
    """The C encoder's arrays (its vectors and the masks copied for the environment
    by ``kingdoms.rl._cfresh``) are new int8 / int16 arrays owning their memory,
    writable, equal to what they copy, and a later call changes none of them."""
    if enc.native is None:
        pytest.skip("no C encoder in this build")
    native = enc.native
    from kingdoms.rl._cfresh import fresh_mask  # built with the C encoders

    buf = bytearray(b"\x01\x00\x01")
    mask = fresh_mask(buf)
    assert mask.dtype == np.int8 and mask.flags.owndata and mask.flags.writeable
    assert mask.flags.c_contiguous and mask.tolist() == [1, 0, 1]
    buf[1] = 1
    assert mask.tolist() == [1, 0, 1]
    assert fresh_mask(bytearray()).shape == (0,)
    for bad in (memoryview(buf), bytes(buf)):
        with pytest.raises(TypeError):
            fresh_mask(bad)
    vec = native.encode(state, 0)
    assert vec.dtype == np.int16 and vec.flags.owndata and vec.flags.writeable
    assert vec.shape == (enc.size,)
    assert not np.shares_memory(vec, native.buffer(state, 0))
    kept = vec.copy()
    state.apply(state.legal_actions()[0])
    native.encode(state, 0)
    assert np.array_equal(vec, kept)
