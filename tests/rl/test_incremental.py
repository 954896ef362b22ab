"""The environments' observations, built incrementally, equal a from-scratch encoding.

The encoders keep state between calls (per-seat buffers updated with what changed,
cached blocks); these tests play random games through the environments as a
learner does — the acting agent observes after every step, other agents now and
then — and compare every observation with the vector built from scratch from the
seat's JSON view (``encode_view``, which sees nothing else), for every Kingdomino
variant and Dominion card set.  Observations handed out are the learner's to keep:
later steps never change them.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from kingdoms.dominion.state import DominionState
from kingdoms.rl import dominion_env, kingdomino_env
from kingdoms.rl.dominion import DominionEncoder
from kingdoms.rl.encoding import OBS_DTYPE


def _scratch(env: Any, seat: int) -> np.ndarray:
    raw = env.unwrapped
    state = raw.game_state
    if isinstance(raw.encoder, DominionEncoder):
        assert isinstance(state, DominionState)
        return raw.encoder.encode_view(state.view(seat), bool(state.bought))
    return raw.encoder.encode_view(state.view(seat))


def _play_and_compare(env: Any, games: int, seed: int) -> int:
    rng = random.Random(seed)
    env.reset(seed=seed)
    players = len(env.possible_agents)
    checked = 0
    kept: list[tuple[np.ndarray, np.ndarray]] = []
    played = 0
    while played < games:
        for agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            vector = obs["observation"]
            seat = env.unwrapped.agent_name_mapping[agent]
            assert vector.dtype == OBS_DTYPE
            assert np.array_equal(vector, _scratch(env, seat)), (played, agent)
            checked += 1
            if rng.random() < 0.2:  # another seat, whose buffer lags behind
                other = rng.randrange(players)
                seen = env.observe(env.possible_agents[other])["observation"]
                assert np.array_equal(seen, _scratch(env, other))
                checked += 1
            if rng.random() < 0.05:
                kept.append((vector, vector.copy()))
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
        played += 1
        env.reset()
    for handed, copy in kept:  # the learner's observations never change afterwards
        assert np.array_equal(handed, copy)
    assert kept
    return checked


@pytest.mark.parametrize(
    ("players", "variants"),
    [
        (2, []),
        (3, ["harmony"]),
        (4, ["middle-kingdom"]),
        (2, ["mighty-duel"]),
        (3, ["dynasty", "harmony", "middle-kingdom"]),
    ],
)
def test_kingdomino_incremental_equals_scratch(players: int, variants: list[str]) -> None:
    env = kingdomino_env(players=players, variants=variants)
    assert _play_and_compare(env, games=3, seed=players) > 150


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {"kingdom": "First Game"}),
        (2, {"sets": ["base"]}),
        (3, {"sets": ["base", "alchemy"]}),
        (2, {"sets": ["base-2e", "alchemy"], "base_edition": 2}),
        (4, {"sets": ["base", "base-2e", "alchemy"], "base_edition": 2}),
    ],
)
def test_dominion_incremental_equals_scratch(players: int, options: dict[str, Any]) -> None:
    kingdom = options.pop("kingdom", None)
    env = dominion_env(players=players, kingdom=kingdom, options=options, max_steps=1500)
    assert _play_and_compare(env, games=4, seed=players) > 1000


def test_mutating_a_handed_observation_changes_nothing() -> None:
    """A learner writing into its observation does not touch the encoder's buffer."""
    env = kingdomino_env(players=2)
    env.reset(seed=3)
    agent = env.agent_selection
    first = env.observe(agent)["observation"]
    first[:] = 7
    again = env.observe(agent)["observation"]
    assert np.array_equal(again, _scratch(env, env.unwrapped.agent_name_mapping[agent]))


@pytest.mark.parametrize(("players", "variants"), [(2, ["dynasty"]), (3, []), (4, ["harmony"])])
def test_kingdomino_states_out_of_order_equal_scratch(players: int, variants: list[str]) -> None:
    """One encoder asked about copies of a game's states in shuffled order (back to
    the first picks, forward to the end, into the next game of a Dynasty), each seat
    in turn: every vector equals the scratch encoding of its own state, whatever the
    seat's buffer showed before."""
    from kingdoms.core import new_game
    from kingdoms.kingdomino.state import KingdominoState
    from kingdoms.rl.kingdomino_obs import KingdominoEncoder

    rng = random.Random(players)
    st = new_game("kingdomino", players=players, seed=5, options={"variants": variants})
    assert isinstance(st, KingdominoState)
    copies = []
    while not st.is_terminal():
        copies.append(st.clone())
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    copies.append(st)
    picked = rng.sample(copies, min(len(copies), 120))
    assert len({c.game_no for c in picked}) == (3 if "dynasty" in variants else 1)
    enc = KingdominoEncoder(players)
    for i, state in enumerate(picked):
        for seat in (i % players, (i + 1) % players):
            assert np.array_equal(enc.encode(state, seat), enc.encode_view(state.view(seat)))
