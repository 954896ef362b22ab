"""Random games through the core invariant suite (conservation, views, clones, records)."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kingdoms.core import new_game
from kingdoms.core.testing import check_deep, check_random_game, check_step
from kingdoms.dominion.actions import NUM_ACTIONS
from kingdoms.dominion.data import POTION

GAMES = int(os.environ.get("KINGDOMS_PROPERTY_GAMES", "40"))


ALL_SETS = ["base", "base-1e", "base-2e", "alchemy"]


@pytest.mark.parametrize("seed", range(GAMES))
def test_random_games(seed: int) -> None:
    """Every rule holds in random games: 2–6 players, kingdoms drawn from all 44
    kingdom cards, every combination of base_edition and alchemy_errata."""
    players = 2 + seed % 5
    options = {
        "base_edition": 1 + (seed // 5) % 2,
        "alchemy_errata": bool((seed // 10) % 2),
        "sets": ALL_SETS,
    }
    stats = check_random_game("dominion", players, seed, options, deep_every=80)
    assert stats.ended


@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 6),
    edition=st.sampled_from([1, 2]),
    errata=st.booleans(),
)
@settings(max_examples=10, deadline=None)
def test_random_games_hypothesis(seed: int, players: int, edition: int, errata: bool) -> None:
    """Invariants hold for arbitrary seeds, player counts and options."""
    options = {"base_edition": edition, "alchemy_errata": errata, "sets": ALL_SETS}
    assert check_random_game("dominion", players, seed, options, deep_every=120).ended


@pytest.mark.parametrize("kingdom", ["Forbidden Arts", "Potion Mixers", "Chemistry Lesson"])
@pytest.mark.parametrize("errata", [False, True])
def test_alchemy_recommended_kingdoms(kingdom: str, errata: bool) -> None:
    """The Alchemy recommended sets (with Possession, Golem, Alchemist, Herbalist ...)."""
    for seed in range(2):
        opts = {"kingdom": kingdom, "alchemy_errata": errata}
        assert check_random_game("dominion", 2 + seed, seed, opts, deep_every=60).ended


def test_possession_heavy_games_keep_every_invariant() -> None:
    """Players that buy and play Possession: extra turns, set-aside trashes and
    redirected gains keep every invariant."""
    kingdom = [
        "possession", "feast", "chapel", "mine", "remodel",
        "thief", "witch", "throne_room", "golem", "moneylender",
    ]  # fmt: skip
    extra = 0
    for seed in range(6):
        state = new_game("dominion", players=2 + seed % 3, seed=seed, options={"kingdom": kingdom})
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = check_step(state, NUM_ACTIONS)
            if rng.randrange(25) == 0:
                check_deep(state, rng, NUM_ACTIONS)
            texts = {state.action_to_str(a): a for a in legal}
            potions = state.owned(state.current_player).count(POTION)
            for want in ("play Possession", "play all treasures", "buy Possession"):
                if want in texts:
                    state.apply(texts[want])
                    break
            else:
                if potions < 2 and "buy Potion" in texts:
                    state.apply(texts["buy Potion"])
                elif "buy Gold" in texts:
                    state.apply(texts["buy Gold"])
                else:
                    state.apply(legal[rng.randrange(len(legal))])
        extra += sum(1 for e in state.log if e.type == "turn" and "possessed_by" in e.data)
    assert extra > 0


@pytest.mark.parametrize("kingdom", ["Big Money", "Interaction", "Size Distortion"])
def test_recommended_kingdoms(kingdom: str) -> None:
    """The 1st-edition-heavy recommended sets play to the end under all invariants."""
    for seed in range(3):
        assert check_random_game("dominion", 3, seed, {"kingdom": kingdom}).ended
