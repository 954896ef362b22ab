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


def test_a_set_name_gives_the_same_kingdom_as_resolving_it_and_others_give_none() -> None:
    from kingdoms.core import new_game
    from kingdoms.dominion.kingdom import set_kingdom

    for names, cards in RECOMMENDED.items():
        for name in names:
            assert set_kingdom(name) == sorted(cards)
            assert set_kingdom(f"  {name.upper()} ") == sorted(cards)
    for other in (None, "random", "village, smithy", ["village"], 3):
        assert set_kingdom(other) is None
    # games made with a set name have that kingdom; random kingdoms still follow the seed
    st = new_game("dominion", players=2, seed=5, options={"kingdom": "Big Money"})
    assert st.config.options["kingdom"] == set_kingdom("Big Money")
    a = new_game("dominion", players=2, seed=5).config.options["kingdom"]
    assert a == new_game("dominion", players=2, seed=5).config.options["kingdom"]
    assert a != new_game("dominion", players=2, seed=6).config.options["kingdom"]
