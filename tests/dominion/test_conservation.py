"""Conservation over every kingdom: random kingdoms from every set (Possession, Golem
and the trashers often), 2–6 players, both editions and errata settings, random and
default-policy seats; after every action each card's total is the one the game
started with (see :mod:`kingdoms.bots.dominion.soak`; ``make soak`` runs 100,000)."""

from __future__ import annotations

import os
import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from kingdoms.bots.dominion.soak import (
    KINGDOM_CARDS,
    TRASHERS,
    card_totals,
    play_soak_game,
    random_setup,
)
from kingdoms.dominion.data import BY_ID
from tests.dominion.helpers import do, make

EXAMPLES = int(os.environ.get("KINGDOMS_CONSERVATION_GAMES", "250"))


@st.composite
def setups(draw: st.DrawFn) -> dict[str, Any]:
    kingdom: list[str] = []
    if draw(st.integers(0, 9)) < 7:
        kingdom.append("possession")
    if draw(st.integers(0, 9)) < 6:
        kingdom.append("golem")
    kingdom += draw(st.lists(st.sampled_from(TRASHERS), min_size=1, max_size=3, unique=True))
    rest = [c for c in KINGDOM_CARDS if c not in kingdom]
    kingdom += draw(st.lists(st.sampled_from(rest), min_size=10 - len(kingdom), unique=True))[
        : 10 - len(kingdom)
    ]
    return {
        "players": draw(st.integers(2, 6)),
        "options": {
            "kingdom": sorted(kingdom),
            "base_edition": draw(st.sampled_from([1, 2])),
            "alchemy_errata": draw(st.booleans()),
        },
        "policy_seats": draw(st.lists(st.booleans(), min_size=6, max_size=6)),
    }


@given(seed=st.integers(0, 2**32 - 1), setup=setups())
@settings(max_examples=EXAMPLES, deadline=None)
def test_every_card_stays_in_exactly_one_place(seed: int, setup: dict[str, Any]) -> None:
    result = play_soak_game(seed, setup)
    assert result.violations == []
    assert result.steps > 0


def test_soak_setups_cover_every_set_and_the_risky_cards() -> None:
    """The seeded setups of ``make soak`` reach what the property is about: Possession
    and Golem played in many games, every trasher, every player count, both editions
    and errata settings, random and policy seats — and no card lost."""
    seen: Counter[str] = Counter()
    possession_games = golem_games = 0
    for seed in range(80):
        setup = random_setup(random.Random(seed))
        seen.update(setup["options"]["kingdom"])
        seen[f"players={setup['players']}"] += 1
        seen[f"edition={setup['options']['base_edition']}"] += 1
        seen[f"errata={setup['options']['alchemy_errata']}"] += 1
        seen.update(f"policy={x}" for x in setup["policy_seats"][: setup["players"]])
        result = play_soak_game(seed, setup)
        assert result.violations == [], (seed, result.violations)
        assert result.ended
        possession_games += result.possessions > 0
        golem_games += result.golems > 0
    assert possession_games >= 20 and golem_games >= 30
    for card in TRASHERS:
        assert seen[card] >= 5, card
    for key in (*(f"players={n}" for n in range(2, 7)), "edition=1", "edition=2"):
        assert seen[key] > 0, key
    assert seen["errata=True"] and seen["errata=False"]
    assert seen["policy=True"] and seen["policy=False"]


def test_card_totals_see_a_lost_card() -> None:
    """The soak's count notices one card gone (as the stale discard pile lost them)."""
    s = make()
    before = card_totals(s)
    s.discards[0].append(BY_ID["copper"])
    assert card_totals(s)[BY_ID["copper"]] == before[BY_ID["copper"]] + 1
    s.decks[0].remove(BY_ID["copper"])
    s.discards[0].remove(BY_ID["copper"])
    assert card_totals(s)[BY_ID["copper"]] == before[BY_ID["copper"]] - 1


def test_card_totals_count_golems_found_cards() -> None:
    """Cards Golem holds while the player chooses the order are counted."""
    s = make(
        kingdom=[
            "golem",
            "village",
            "smithy",
            *("cellar", "market", "militia", "mine", "moat", "remodel", "workshop"),
        ],
        hands={0: ["golem"]},
        decks={0: ["village", "smithy", "copper", "copper", "copper", "copper"]},
    )
    before = card_totals(s)
    do(s, "play Golem")
    assert s.stack and card_totals(s) == before
