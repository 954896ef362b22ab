"""Random games through the core invariant suite (conservation, views, clones, records)."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kingdoms.core.testing import check_random_game

GAMES = int(os.environ.get("KINGDOMS_PROPERTY_GAMES", "40"))


@pytest.mark.parametrize("seed", range(GAMES))
def test_random_games(seed: int) -> None:
    """Every rule holds in random games: 2–6 players, random kingdoms, both editions."""
    players = 2 + seed % 5
    options = {"base_edition": 1 + (seed // 5) % 2}
    stats = check_random_game("dominion", players, seed, options, deep_every=80)
    assert stats.ended


@given(seed=st.integers(0, 2**32), players=st.integers(2, 6))
@settings(max_examples=8, deadline=None)
def test_random_games_hypothesis(seed: int, players: int) -> None:
    """Invariants hold for arbitrary seeds and player counts."""
    assert check_random_game("dominion", players, seed, deep_every=120).ended


@pytest.mark.parametrize("kingdom", ["Big Money", "Interaction", "Size Distortion"])
def test_recommended_kingdoms(kingdom: str) -> None:
    """The 1st-edition-heavy recommended sets play to the end under all invariants."""
    for seed in range(3):
        assert check_random_game("dominion", 3, seed, {"kingdom": kingdom}).ended
