"""Self-play and the league: policies as opponents, the rated opponent pool, the
self-play wrapper and the vectorised environment."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from kingdoms.core.errors import IllegalAction, InvalidConfig
from kingdoms.rl import OpponentPool, SelfPlay, VectorGames, kingdomino_raw_env


class LastLegal:
    """A policy: the last legal action (a picklable object with a counter)."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        self.calls += 1
        return int(np.flatnonzero(action_mask)[-1])


def play(env: SelfPlay, seed: int) -> dict:
    _obs, info = env.reset(seed=seed)
    rng = random.Random(seed)
    while True:
        legal = np.flatnonzero(env.action_masks())
        _obs, _r, terminated, truncated, info = env.step(int(legal[rng.randrange(len(legal))]))
        if terminated or truncated:
            return info


def test_ratings_follow_results() -> None:
    pool = OpponentPool(floor=0.0)
    pool.add("weak", "random")
    pool.add("strong", "random")
    for _ in range(30):
        pool.report(["weak"], [1.0, -1.0])
        pool.report(["strong"], [-1.0, 1.0])
    assert pool.win_chance("weak") > 0.8 > 0.2 > pool.win_chance("strong")
    rows = pool.table()
    assert rows[0]["name"] == "strong" and rows[-1]["name"] == "weak"
    assert pool.entries["weak"].learner_wins == 30 and pool.entries["strong"].games == 30
    # sampling by rating: an even opponent is drawn far more often than lopsided ones
    pool.add("even", "random")
    pool.entries["even"].mu, pool.entries["even"].sigma = pool.learner_mu, pool.learner_sigma
    drawn = Counter(pool.last[0] for _ in range(300) if pool.sample(random.Random(_)))
    assert drawn["even"] > drawn["weak"] and drawn["even"] > drawn["strong"]


def test_pool_refuses_bad_input() -> None:
    pool = OpponentPool()
    with pytest.raises(InvalidConfig, match="empty"):
        pool.sample(random.Random(0))
    pool.add("a", "random")
    with pytest.raises(InvalidConfig, match="already"):
        pool.add("a", "random")
    with pytest.raises(InvalidConfig, match="other than"):
        pool.add("learner", "random")
    with pytest.raises(InvalidConfig, match="no opponent named"):
        pool.report(["b"], [1.0, 0.0])
    with pytest.raises(InvalidConfig, match="one score"):
        pool.report(["a"], [1.0])


def test_checkpoints_are_frozen_and_bounded(tmp_path) -> None:
    pool = OpponentPool(max_checkpoints=2)
    pool.add("random", "random")
    policy = LastLegal()
    for i in range(4):
        policy.calls = i
        pool.checkpoint(f"v{i}", policy)
    assert list(pool.entries) == ["random", "v2", "v3"]
    assert pool.entries["v2"].opponent.calls == 2  # a copy, not the live policy
    pool.report(["v3"], [1.0, -1.0])
    pool.save(tmp_path / "pool.pkl")
    again = OpponentPool.load(tmp_path / "pool.pkl")
    assert [r["name"] for r in again.table()] == [r["name"] for r in pool.table()]
    assert again.win_chance("v3") == pytest.approx(pool.win_chance("v3"))


def test_self_play_reports_every_game() -> None:
    pool = OpponentPool()
    pool.add("random", "random")
    pool.checkpoint("past-self", LastLegal())
    env = SelfPlay(kingdomino_raw_env(), pool)
    names = Counter()
    for seed in range(6):
        info = play(env, seed)
        names[info["opponents"][0]] += 1
    assert sum(e.games for e in pool.entries.values()) == 6
    assert set(names) <= {"random", "past-self"}
    assert pool.learner_sigma < 25 / 3  # rated: the uncertainty shrank


def test_vector_games_step_every_game_and_restart() -> None:
    games = VectorGames(lambda: kingdomino_raw_env(players=2), 3)
    batch = games.reset(seed=5)
    assert batch.observations.shape == (3, games.size) and batch.masks.shape == (3, 778)
    assert batch.observations.dtype == np.int16 and batch.seats.tolist() == [
        e.game_state.current_player for e in games.envs
    ]
    finished = 0
    for _ in range(200):
        batch = games.step(games.random_actions())
        assert batch.masks.any(axis=1).all()
        for i in np.flatnonzero(batch.dones):
            finished += 1
            outcome = batch.outcomes[i]
            assert outcome is not None
            assert batch.rewards[i].tolist() == outcome.returns()
            assert games.envs[i].game_state.step == 0  # restarted
        assert not batch.rewards[~batch.dones].any()
    assert finished >= 3
    again = VectorGames(lambda: kingdomino_raw_env(players=2), 3).reset(seed=5)
    assert np.array_equal(again.observations, games.reset(seed=5).observations)
    with pytest.raises(IllegalAction):
        games.step(np.flatnonzero(~games.reset(seed=1).masks[0])[:1].repeat(3))
    with pytest.raises(InvalidConfig, match="3 actions"):
        games.step([0])
