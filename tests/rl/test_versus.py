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


def _illegal_action(env: VersusBots) -> int:
    return int(np.flatnonzero(~env.action_masks())[0])


def test_illegal_raise_changes_nothing() -> None:
    from kingdoms.core.errors import IllegalAction

    env = VersusBots(kingdomino_raw_env(), ["random"])
    env.reset(seed=2)
    before = env.env.game_state.fingerprint()
    with pytest.raises(IllegalAction, match="not legal"):
        env.step(_illegal_action(env))
    assert env.env.game_state.fingerprint() == before


def test_illegal_terminate_ends_the_episode() -> None:
    env = VersusBots(kingdomino_raw_env(), ["random"], illegal="terminate", illegal_reward=-2)
    env.reset(seed=2)
    _obs, reward, terminated, truncated, info = env.step(_illegal_action(env))
    assert (reward, terminated, truncated, info["illegal"]) == (-2.0, True, False, True)
    assert not env.action_masks().any()
    with pytest.raises(InvalidConfig, match="reset"):
        env.step(0)


def test_illegal_penalize_asks_again() -> None:
    env = VersusBots(kingdomino_raw_env(), ["random"], illegal="penalize", max_illegal=3)
    obs, _ = env.reset(seed=2)
    before = env.env.game_state.fingerprint()
    for i in range(3):
        again, reward, terminated, truncated, info = env.step(_illegal_action(env))
        assert np.array_equal(again, obs) and reward == -1.0 and info["illegal"]
        assert not terminated and truncated == (i == 2)
    assert env.env.game_state.fingerprint() == before
    with pytest.raises(InvalidConfig, match="illegal must be"):
        VersusBots(kingdomino_raw_env(), ["random"], illegal="ignore")


@pytest.mark.parametrize("illegal", ["terminate", "penalize"])
@pytest.mark.parametrize("game", ["dominion", "kingdomino"])
def test_gymnasium_and_sb3_checkers_pass(game: str, illegal: str) -> None:
    import warnings

    from gymnasium.utils.env_checker import check_env
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    def make() -> VersusBots:
        raw = dominion_raw_env(kingdom="First Game") if game == "dominion" else kingdomino_raw_env()
        return VersusBots(raw, ["random"], illegal=illegal)

    env = make()
    assert env.observation_space.low.min() == -32768 and env.observation_space.high.max() == 32767
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(make())
        sb3_check_env(make())
    # only Gymnasium's note that an environment built without gymnasium.make has no spec
    assert [str(w.message) for w in caught if "spec" not in str(w.message)] == []


def test_policy_opponents() -> None:
    """A callable on (observation, mask) plays the other seat from its own observation."""
    seen: list[tuple[np.ndarray, np.ndarray]] = []

    def last_legal(observation: np.ndarray, mask: np.ndarray) -> int:
        seen.append((observation, mask))
        return int(np.flatnonzero(mask)[-1])

    env = VersusBots(kingdomino_raw_env(), [last_legal], seat=0)
    _play(env, seed=4)
    assert seen and all(o.dtype == np.float32 and m.dtype == bool for o, m in seen)
    assert all(m.any() for _o, m in seen)
    with pytest.raises(InvalidConfig, match="an opponent is"):
        VersusBots(kingdomino_raw_env(), [3])  # type: ignore[list-item]
