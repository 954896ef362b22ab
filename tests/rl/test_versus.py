"""One learning seat against fixed bots (the single-agent form used for training)."""

from __future__ import annotations

import numpy as np
import pytest

from kingdoms.core.errors import InvalidConfig
from kingdoms.rl import VersusBots, dominion_raw_env, kingdomino_raw_env


def _play(env: VersusBots, seed: int) -> tuple[list[int], float, dict]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions = []
    while True:
        mask = env.action_masks()
        state = env.env.game_state
        assert state.current_player == env.seat  # the bots have played up to our turn
        assert mask.any()
        assert np.flatnonzero(mask).tolist() == sorted(state.legal_actions())
        action = int(rng.choice(np.flatnonzero(mask)))
        actions.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        assert obs.shape == env.observation_space.shape
        if terminated or truncated:
            return actions, reward, info


def test_a_whole_game_against_big_money() -> None:
    env = VersusBots(dominion_raw_env(kingdom="First Game"), ["big-money"])
    actions, reward, info = _play(env, seed=3)
    outcome = env.env.game_state.outcome()
    assert outcome is not None
    assert reward == outcome.returns()[env.seat]
    assert info["won"] == (outcome.winners == (env.seat,))
    assert not env.action_masks().any()
    # same seed, same game
    again, _, _ = _play(VersusBots(dominion_raw_env(kingdom="First Game"), ["big-money"]), 3)
    assert again == actions


def test_seats_and_bots() -> None:
    env = VersusBots(kingdomino_raw_env(players=3), ["random", "random"], seat=2)
    _obs, info = env.reset(seed=1)
    assert info["seat"] == 2 and env.env.game_state.current_player == 2
    seats = {
        VersusBots(kingdomino_raw_env(), ["random"]).reset(seed=s)[1]["seat"] for s in range(12)
    }
    assert seats == {0, 1}
    with pytest.raises(InvalidConfig, match="3 players need 2 bots"):
        VersusBots(kingdomino_raw_env(players=3), ["random"])
    with pytest.raises(InvalidConfig, match="unknown kingdomino bot"):
        VersusBots(kingdomino_raw_env(), ["big-money"])


def test_margin_reward() -> None:
    env = VersusBots(dominion_raw_env(kingdom="First Game"), ["big-money"], reward="margin")
    _actions, reward, _info = _play(env, seed=3)
    outcome = env.env.game_state.outcome()
    assert outcome is not None
    me = env.seat
    margin = outcome.scores[me] - outcome.scores[1 - me]
    assert margin != 0
    assert reward == pytest.approx(outcome.returns()[me] + margin / 20)
    with pytest.raises(InvalidConfig, match="reward must be"):
        VersusBots(dominion_raw_env(), ["random"], reward="vp")
