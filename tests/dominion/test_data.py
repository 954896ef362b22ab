"""The package's card data."""

from __future__ import annotations

from pathlib import Path

import pytest

from kingdoms.dominion.data import BY_ID, CARDS
from tests.conftest import shared_dir

ROOT = Path(__file__).parents[2]
PACKAGE_CSV = ROOT / "src" / "kingdoms" / "dominion" / "data" / "cards.csv"


def _shared() -> Path | None:
    shared = shared_dir()
    if shared is not None and (shared / "data" / "dominion_cards.csv").exists():
        return shared / "data" / "dominion_cards.csv"
    return None


def test_package_csv_equals_shared_csv() -> None:
    """The package copy of the card list is identical to shared/data/dominion_cards.csv."""
    shared = _shared()
    if shared is None:
        pytest.skip("shared/data/dominion_cards.csv not found next to the repository")
    assert PACKAGE_CSV.read_bytes() == shared.read_bytes()


def test_costs_and_types() -> None:
    """Costs are (coins, potions) pairs; types from the card list."""
    assert CARDS[BY_ID["province"]].cost == (8, 0)
    assert CARDS[BY_ID["golem"]].cost == (4, 1)
    assert CARDS[BY_ID["moat"]].types == {"Action", "Reaction"}
    assert CARDS[BY_ID["throne_room"]].names["pl"] == "Sala tronowa"


@pytest.mark.parametrize(
    ("card", "sizes"),
    [
        ("province", {2: 8, 3: 12, 4: 12, 5: 15, 6: 18}),
        ("estate", {2: 8, 3: 12, 5: 12, 6: 12}),
        ("curse", {2: 10, 3: 20, 4: 30, 5: 40, 6: 50}),
        ("copper", {2: 46, 3: 39, 4: 32, 5: 85, 6: 78}),
        ("silver", {2: 40, 4: 40, 5: 80, 6: 80}),
        ("gold", {2: 30, 5: 60}),
        ("gardens", {2: 8, 3: 12, 6: 12}),
        ("smithy", {2: 10, 6: 10}),
    ],
)
def test_pile_sizes(card: str, sizes: dict[int, int]) -> None:
    """Pile sizes for 2–6 players (dominion.md setup; cards §1.1 incl. 5–6 players)."""
    for n, size in sizes.items():
        assert CARDS[BY_ID[card]].pile_size(n) == size


def test_every_card_has_a_text_in_every_language() -> None:
    """Board card texts: one per card and language, in our own words."""
    from kingdoms.dominion.info import card_catalog, texts

    table = texts()
    assert set(table) == {c.id for c in CARDS}
    for cid, by_lang in table.items():
        assert set(by_lang) == {"en", "pl", "cs"}
        assert all(t.strip() for t in by_lang.values()), cid
    assert card_catalog("pl")["cards"]["witch"]["text"].startswith("+2 karty")
