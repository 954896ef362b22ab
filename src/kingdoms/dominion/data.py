"""Card data: loads ``data/cards.csv`` (a copy of the shared card list).

Cards are small ints: their row index in the CSV (``CARDS[i].index == i``).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from importlib import resources

_PILE_SIZES: dict[tuple[str, str, int], int] = {}
"""(card id, pile rule, players) -> pile size: :meth:`Card.pile_size`'s answers."""


@dataclass(frozen=True, slots=True)
class Card:
    index: int
    id: str
    set: str
    names: dict[str, str]
    cost: tuple[int, int]
    types: frozenset[str]
    pile: str
    is_action: bool
    is_treasure: bool
    is_victory: bool
    is_attack: bool

    @classmethod
    def of(
        cls,
        index: int,
        cid: str,
        card_set: str,
        names: dict[str, str],
        cost: tuple[int, int],
        types: frozenset[str],
        pile: str,
    ) -> Card:
        """The card with these facts (its type flags follow from ``types``)."""
        flags = ("Action" in types, "Treasure" in types, "Victory" in types, "Attack" in types)
        return cls(index, cid, card_set, names, cost, types, pile, *flags)

    def name(self, lang: str = "en") -> str:
        return self.names.get(lang, self.names["en"])

    @property
    def is_kingdom(self) -> bool:
        return self.set not in ("basic", "alchemy-basic")

    def pile_size(self, players: int) -> int:
        """Cards in this card's supply pile for ``players`` players (worked out once
        per card and player count: every new game asks for every pile)."""
        key = (self.id, self.pile, players)
        size = _PILE_SIZES.get(key)
        if size is None:
            size = _PILE_SIZES[key] = self._pile_size(players)
        return size

    def _pile_size(self, players: int) -> int:
        spec = self.pile
        if spec == "60-7n":
            return (60 if players <= 4 else 120) - 7 * players
        if spec == "10(n-1)":
            return 10 * (players - 1)
        if "/" in spec:
            parts = [int(x) for x in spec.split("/")]
            if len(parts) == 2:
                return parts[0] if players == 2 else parts[1]
            return parts[0] if players == 2 else parts[1] if players <= 4 else parts[players - 3]
        n = int(spec)
        if self.id in ("silver", "gold") and players >= 5:
            return 2 * n
        return n


def _renamed() -> dict[tuple[str, str], str]:
    """``data/names.csv``: card names that differ from the shared card list (which stays
    an exact copy), by (card id, language), each with its source.  Alchemy was never
    published in Polish (the Polish Dominion wiki, dominion.przystanekplanszowka.pl,
    lists the set as "Alchemy", "nazwa proponowana: Alchemia", and its cards under their
    English names), so its Polish names are the project's own translations."""
    text = resources.files("kingdoms.dominion").joinpath("data", "names.csv").read_text("utf-8")
    return {(r["id"], r["lang"]): r["name"] for r in csv.DictReader(io.StringIO(text))}


def _load() -> list[Card]:
    text = resources.files("kingdoms.dominion").joinpath("data", "cards.csv").read_text("utf-8")
    renamed = _renamed()
    out = []
    for i, row in enumerate(csv.DictReader(io.StringIO(text))):
        cid = row["id"]
        out.append(
            Card.of(
                i,
                cid,
                row["set"],
                {
                    lang: renamed.get((cid, lang), row[f"name_{lang}"])
                    for lang in ("en", "pl", "cs")
                },
                (int(row["coins"]), int(row["potions"])),
                frozenset(row["types"].split("|")),
                row["pile"],
            )
        )
    return out


CARDS: list[Card] = _load()
"""Every card, by index: the card list, then cards added at run time
(:mod:`kingdoms.dominion.extend`)."""
NUM_CARDS = len(CARDS)
"""The number of cards in the card list (added cards come after them)."""
BY_ID: dict[str, int] = {c.id: c.index for c in CARDS}

COPPER, SILVER, GOLD, ESTATE, DUCHY, PROVINCE, CURSE, POTION = (
    BY_ID[c] for c in ("copper", "silver", "gold", "estate", "duchy", "province", "curse", "potion")
)
BASIC_SUPPLY = (COPPER, SILVER, GOLD, ESTATE, DUCHY, PROVINCE, CURSE)

# Per-card tables (lists: :func:`kingdoms.dominion.extend.add_card` appends to them).
IS_ACTION = [c.is_action for c in CARDS]
IS_TREASURE = [c.is_treasure for c in CARDS]
IS_VICTORY = [c.is_victory for c in CARDS]
IS_ATTACK = [c.is_attack for c in CARDS]
COIN_COST = [c.cost[0] for c in CARDS]
POTION_COST = [c.cost[1] for c in CARDS]
