"""Seeded resets, illegal actions, truncation, rendering and fixed action ids."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import kingdoms
import kingdoms.rl.core as core_module
from kingdoms.core.errors import IllegalAction, InvalidConfig
from kingdoms.dominion import actions as A
from kingdoms.dominion.data import BY_ID
from kingdoms.kingdomino.state import PICK
from kingdoms.rl import dominion_env, kingdomino_env
from tests.rl.helpers import play_random


@pytest.mark.parametrize("make", [lambda: dominion_env(), lambda: kingdomino_env(players=3)])
def test_seeded_resets_reproduce_games(make) -> None:  # type: ignore[no-untyped-def]
    env = make()
    first = play_random(env, seed=4)
    snapshot = env.unwrapped.game_state.fingerprint()
    again = play_random(make(), seed=4)
    assert again == first
    env.reset(seed=4)
    play_random(env, seed=4)
    assert env.unwrapped.game_state.fingerprint() == snapshot
    assert play_random(make(), seed=5) != first


def test_unseeded_resets_follow_the_first_seed() -> None:
    a, b = kingdomino_env(), kingdomino_env()
    a.reset(seed=9)
    b.reset(seed=9)
    for _ in range(3):
        a.reset()
        b.reset()
        assert a.unwrapped.game_state.fingerprint() == b.unwrapped.game_state.fingerprint()
    c = kingdomino_env()
    c.reset(seed=10)
    c.reset()
    assert c.unwrapped.game_state.fingerprint() != a.unwrapped.game_state.fingerprint()


def test_illegal_action_raises_and_changes_nothing() -> None:
    env = dominion_env(kingdom="First Game")
    env.reset(seed=1)
    state = env.unwrapped.game_state
    before = state.fingerprint()
    agent = env.agent_selection
    province = A.encode(A.BUY, BY_ID["province"])
    with pytest.raises(IllegalAction, match=r"action 57 is not legal now; legal: .*\(end buys\)"):
        env.step(province)
    with pytest.raises(IllegalAction, match="must be an integer"):
        env.step("buy province")
    with pytest.raises(IllegalAction, match="must be an integer"):
        env.unwrapped.step(None)
    with pytest.raises(IllegalAction, match="not legal"):
        env.unwrapped.step(10_000)
    assert state.fingerprint() == before
    assert env.agent_selection == agent
    # numpy integers are accepted
    legal = np.flatnonzero(env.last()[0]["action_mask"])
    env.step(np.int64(legal[0]))
    assert state.step == 1


def test_terminate_illegal_wrapper(caplog: pytest.LogCaptureFixture) -> None:
    env = kingdomino_env(illegal="terminate")
    env.reset(seed=1)
    agent = env.agent_selection
    env.step(0)  # a placement code: no domino to place during the first picks
    assert "Illegal move made" in caplog.text
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1
    with pytest.raises(InvalidConfig, match="illegal must be"):
        kingdomino_env(illegal="ignore")


def test_action_ids_mean_the_same_in_every_state() -> None:
    """Buying Silver has one id in every Dominion state where it is legal."""
    env = dominion_env(kingdom="First Game")
    silver = A.encode(A.BUY, BY_ID["silver"])
    seen = 0
    rng = random.Random(0)
    env.reset(seed=2)
    for _agent in env.agent_iter(3000):
        obs, _r, terminated, truncated, _i = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        state = env.unwrapped.game_state
        mask = obs["action_mask"]
        if mask[silver]:
            assert state.action_to_str(silver) == "buy Silver"
            seen += 1
        legal = np.flatnonzero(mask)
        env.step(int(legal[rng.randrange(len(legal))]))
    assert seen > 3


def test_kingdomino_picks_and_placements() -> None:
    env = kingdomino_env(players=2)
    env.reset(seed=0)
    state = env.unwrapped.game_state
    mask = env.last()[0]["action_mask"]
    picks = [int(a) - PICK for a in np.flatnonzero(mask)]
    assert picks == sorted(state.current)
    while state.phase != 1:  # to the first placement
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    mask = env.last()[0]["action_mask"]
    # right of the castle, horizontally: the engine's placement code
    code = state.placement_action(1, 0, 0)
    assert mask[code] == 1
    assert state.action_to_str(code).startswith("place")


def test_truncation() -> None:
    env = dominion_env(kingdom="First Game", max_steps=20)
    env.reset(seed=0)
    steps = 0
    for _agent in env.agent_iter(100):
        obs, reward, terminated, truncated, _i = env.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 20
    assert not env.agents


def test_rewards_at_the_end() -> None:
    env = kingdomino_env(players=2)
    play_random(env, seed=3)
    outcome = env.unwrapped.game_state.outcome()
    assert outcome is not None
    env2 = kingdomino_env(players=2)
    env2.reset(seed=3)
    totals = dict.fromkeys(env2.possible_agents, 0.0)
    rng = random.Random(3)
    for agent in env2.agent_iter():
        obs, reward, terminated, truncated, _ = env2.last()
        totals[agent] += reward
        if terminated or truncated:
            env2.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env2.step(int(legal[rng.randrange(len(legal))]))
    assert [totals[a] for a in env2.possible_agents] == outcome.returns()
    assert sorted(outcome.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_render_ansi() -> None:
    env = kingdomino_env(players=2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "current line" in text and "player_" in text
    env = dominion_env(kingdom="First Game", render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "supply: " in text and "hand of player_" in text
    quiet = dominion_env()
    quiet.reset(seed=0)
    assert quiet.render() is None


def test_bad_settings() -> None:
    with pytest.raises(InvalidConfig, match="render_mode"):
        dominion_env(render_mode="human")
    with pytest.raises(InvalidConfig, match="takes 2–4 players"):
        kingdomino_env(players=5)
    with pytest.raises(InvalidConfig, match="unknown Kingdomino variants"):
        kingdomino_env(variants=["giant"])
    with pytest.raises(InvalidConfig, match="max_steps"):
        dominion_env(max_steps=0)


def test_order_enforcing_wrapper_keeps_its_checks() -> None:
    """The wrapper's fast ``last``/``step`` keep PettingZoo's order checks: nothing
    before reset, and a step once every agent is gone only warns and changes
    nothing."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    env = dominion_env(kingdom="First Game")
    assert isinstance(env, OrderEnforcingWrapper)
    with pytest.raises(AttributeError, match="agent_selection cannot be accessed before reset"):
        env.last()
    with pytest.raises(Exception, match="reset"):
        env.step(0)
    play_random(env, seed=2)
    assert not env.agents
    step = env.unwrapped.game_state.step
    from pettingzoo.utils.env_logger import EnvLogger

    EnvLogger.flush()
    env.step(0)  # after the end: warned, ignored
    assert env.unwrapped.game_state.step == step
    assert any("step() called after all agents" in str(m) for m in EnvLogger.mqueue)


def test_observation_is_a_fresh_array_each_time() -> None:
    """Observations and masks handed out are never the environment's own buffers:
    changing one changes nothing later."""
    env = dominion_env(kingdom="First Game")
    env.reset(seed=1)
    first, *_ = env.last()
    again, *_ = env.last()
    assert np.array_equal(first["observation"], again["observation"])
    first["observation"][:] = -7
    first["action_mask"][:] = 0
    third, *_ = env.last()
    assert np.array_equal(third["observation"], again["observation"])
    assert np.array_equal(third["action_mask"], again["action_mask"])
    assert third["action_mask"].any()


@pytest.mark.parametrize("make", [lambda: dominion_env(), lambda: kingdomino_env(players=2)])
def test_handed_out_arrays_are_whole_arrays_of_their_own(make: Any) -> None:
    """The observation (int16) and the mask (int8) handed out are plain arrays that
    own their memory, writable and contiguous, on either build (the compiled one
    makes them with numpy's C API: ``kingdoms.rl._cfresh`` and the C encoders)."""
    env = make()
    env.reset(seed=5)
    raw = env.unwrapped
    if kingdoms.build_kind() == "compiled":
        assert core_module._FRESH is not None
        with pytest.raises(TypeError):
            core_module._FRESH.fresh_mask(b"\x01\x00")  # bytes, not the kept bytearray
    for _ in range(60):
        obs, _r, terminated, truncated, info = env.last()
        if terminated or truncated:
            break
        for key, dtype, size in (
            ("observation", np.int16, raw.encoder.size),
            ("action_mask", np.int8, raw.num_actions),
        ):
            arr = obs[key]
            assert type(arr) is np.ndarray and arr.dtype == dtype and arr.shape == (size,)
            assert arr.flags.owndata and arr.flags.writeable and arr.flags.c_contiguous
        assert tuple(np.flatnonzero(obs["action_mask"])) == info["legal_actions"]
        env.step(info["legal_actions"][0])


@pytest.mark.parametrize("make", [lambda: dominion_env(), lambda: kingdomino_env(players=2)])
def test_masks_and_legality_survive_a_learner_writing_into_its_masks(make) -> None:  # type: ignore[no-untyped-def]
    """Masks are kept per state (and, for Dominion, per list of legal actions, so the
    same mask serves many states): a learner writing 1s into the copy it was handed
    changes neither the masks of later states nor which actions ``step`` accepts."""
    env = make()
    env.reset(seed=11)
    raw = env.unwrapped
    rng = random.Random(11)
    for _ in range(400):
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            break
        state = raw.game_state
        legal = state.legal_actions()
        mask = obs["action_mask"]
        assert np.flatnonzero(mask).tolist() == sorted(legal)
        mask[:] = 1  # the learner's to change
        illegal = next(a for a in range(raw.num_actions) if a not in legal)
        before = state.fingerprint()
        with pytest.raises(IllegalAction, match="not legal"):
            env.step(illegal)
        assert state.fingerprint() == before
        env.step(legal[rng.randrange(len(legal))])


def test_step_checks_legality_without_an_observation_first() -> None:
    env = dominion_env(kingdom="First Game")
    env.reset(seed=2)
    state = env.unwrapped.game_state
    with pytest.raises(IllegalAction, match="action 57 is not legal"):
        env.step(A.encode(A.BUY, BY_ID["province"]))
    for _ in range(30):  # no last() or observe(): step alone asks for the legal actions
        legal = state.legal_actions()
        env.step(legal[-1])
        assert state.step > 0


def test_wrapped_last_is_the_environments_own_once_reset() -> None:
    env = dominion_env(kingdom="First Game")
    with pytest.raises(AttributeError):  # PettingZoo's order check: no last() before reset
        env.last()
    env.reset(seed=3)
    # no frame of the wrapper between the learner and the environment
    assert env.last.__self__ is env.unwrapped
    obs, reward, terminated, truncated, info = env.last()
    assert np.array_equal(obs["observation"], env.observe(env.agent_selection)["observation"])
    legal = tuple(env.unwrapped.legal_actions())
    assert (reward, terminated, truncated) == (0.0, False, False)
    assert info == {"legal_actions": tuple(sorted(legal))}


@pytest.mark.parametrize("make", [lambda: dominion_env(kingdom="First Game"), kingdomino_env])
def test_last_info_holds_the_legal_actions_of_the_mask(make: Any) -> None:
    """``last()``'s info holds the acting agent's legal actions, the positions of its
    mask's 1s in increasing order (with or without the observation); an agent not
    to act has none."""
    env = make()
    env.reset(seed=11)
    rng = random.Random(11)
    for _ in range(400):
        obs, _r, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert info["legal_actions"] == ()
            env.step(None)
            if not env.agents:
                env.reset()
            continue
        legal = info["legal_actions"]
        assert type(legal) is tuple
        assert legal == tuple(int(a) for a in obs["action_mask"].nonzero()[0])
        assert legal == tuple(sorted(env.unwrapped.legal_actions()))
        assert env.last(observe=False)[4]["legal_actions"] == legal
        env.step(legal[rng.randrange(len(legal))])


def test_wrapped_step_is_the_environments_own_once_reset() -> None:
    """Once reset, the wrapper's ``step`` is the environment's, which marks the
    wrapper updated as PettingZoo's ``step`` does (its ``agent_iter`` checks that a
    step came between two agents)."""
    env = dominion_env(kingdom="First Game")
    env.reset(seed=4)
    assert env.step.__self__ is env.unwrapped
    iterator = iter(env.agent_iter(50))
    assert next(iterator) == env.agent_selection
    assert env._has_updated is False
    obs = env.last()[0]
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert env._has_updated is True
    assert next(iterator) == env.agent_selection
    with pytest.raises(AssertionError, match="need to call step"):
        next(iterator)  # no step in between
    # with PettingZoo's illegal-move wrapper between them, the wrapper keeps its step
    wrapped = dominion_env(kingdom="First Game", illegal="terminate")
    wrapped.reset(seed=4)
    assert getattr(wrapped.step, "__self__", None) is not wrapped.unwrapped
    play_random(wrapped, seed=4)
    assert not wrapped.agents


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kingdomino_masks_from_the_reused_buffer_match_every_state(players: int) -> None:
    """Kingdomino's mask is copied per state into one buffer the environment reuses:
    over whole games every mask handed out equals that state's legal actions, and the
    masks a learner kept from earlier states still hold what they held."""
    env = kingdomino_env(players=players)
    rng = random.Random(players)
    for game in range(3):
        env.reset(seed=100 + game)
        raw = env.unwrapped
        kept: list[tuple[np.ndarray, list[int]]] = []
        while True:
            obs, _r, terminated, truncated, info = env.last()
            if terminated or truncated:
                break
            legal = sorted(raw.game_state.legal_actions())
            mask = obs["action_mask"]
            assert mask.dtype == np.int8
            assert np.flatnonzero(mask).tolist() == legal
            assert list(info["legal_actions"]) == legal
            others = [a for a in env.agents if a != env.agent_selection]
            assert not any(env.observe(a)["action_mask"].any() for a in others)
            kept.append((mask, legal))
            env.step(legal[rng.randrange(len(legal))])
        assert len(kept) > 40
        for mask, legal in kept:
            assert np.flatnonzero(mask).tolist() == legal
