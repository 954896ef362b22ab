"""The recommended kingdoms (``data/kingdoms.csv``) load and resolve by any of their names."""

from __future__ import annotations

import random

from kingdoms.dominion.data import BY_ID, CARDS
from kingdoms.dominion.kingdom import RECOMMENDED, resolve_kingdom


def test_every_recommended_set_is_ten_kingdom_cards_named_in_each_language() -> None:
    assert len(RECOMMENDED) == 8
    for names, cards in RECOMMENDED.items():
        assert 2 <= len(names) <= 3 and all(n.strip() == n and n for n in names)
        assert len(set(cards)) == 10
        assert all(CARDS[BY_ID[c]].is_kingdom for c in cards)
        for name in names:
            assert resolve_kingdom(name, ["base"], random.Random(0)) == sorted(cards)


def test_first_game_is_the_rulebook_set() -> None:
    assert RECOMMENDED[("First Game", "Pierwsza rozgrywka")] == [
        "cellar", "market", "militia", "mine", "moat",
        "remodel", "smithy", "village", "woodcutter", "workshop",
    ]  # fmt: skip
