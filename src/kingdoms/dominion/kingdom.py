"""Choosing the kingdom: recommended sets, names in en/pl/cs, random fill."""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Sequence
from typing import Any

from kingdoms.core.errors import InvalidConfig
from kingdoms.dominion.cards import IMPLEMENTED
from kingdoms.dominion.data import BY_ID, CARDS

SETS = ("base", "base-1e", "base-2e", "alchemy")
DEFAULT_SETS = ["base", "base-1e"]

RECOMMENDED: dict[tuple[str, ...], list[str]] = {
    ("First Game", "Pierwsza rozgrywka"): [
        "cellar", "market", "militia", "mine", "moat",
        "remodel", "smithy", "village", "woodcutter", "workshop",
    ],
    ("Big Money", "Bogactwo", "Wielkie pieniądze"): [
        "adventurer", "bureaucrat", "chancellor", "chapel", "feast",
        "laboratory", "market", "mine", "moneylender", "throne_room",
    ],
    ("Interaction", "Interakcja", "Oddziaływanie"): [
        "bureaucrat", "chancellor", "council_room", "festival", "library",
        "militia", "moat", "spy", "thief", "village",
    ],
    ("Size Distortion", "Zakrzywienie rozmiaru", "Zmienna ręka"): [
        "cellar", "chapel", "feast", "gardens", "laboratory",
        "thief", "village", "witch", "woodcutter", "workshop",
    ],
    ("Village Square", "Rynek wioskowy", "Wiejski rynek"): [
        "bureaucrat", "cellar", "festival", "library", "market",
        "remodel", "smithy", "throne_room", "village", "woodcutter",
    ],
}  # fmt: skip


def _key(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split()).casefold()


_SET_NAMES = {_key(n): cards for names, cards in RECOMMENDED.items() for n in names}
_CARD_NAMES: dict[str, int] = {}
for _c in CARDS:
    if _c.is_kingdom:
        for _n in (_c.id, *_c.names.values()):
            _CARD_NAMES.setdefault(_key(_n), _c.index)
        _CARD_NAMES.setdefault(_key(_c.id.replace("_", " ")), _c.index)


def valid_names() -> str:
    return ", ".join(
        sorted({c.names["en"] for c in CARDS if c.index in IMPLEMENTED and c.is_kingdom})
    )


def resolve_kingdom(value: Any, sets: Sequence[str], rng: random.Random) -> list[str]:
    """Card ids of the 10 kingdom cards (sorted)."""
    if value is None or (isinstance(value, str) and _key(value) == "random"):
        names: list[str] = []
    elif isinstance(value, str) and _key(value) in _SET_NAMES:
        return sorted(_SET_NAMES[_key(value)])
    elif isinstance(value, str):
        names = [n for n in (x.strip() for x in value.split(",")) if n]
    elif isinstance(value, (list, tuple)) and all(isinstance(x, str) for x in value):
        names = list(value)
    else:
        raise InvalidConfig(f"kingdom must be None, 'random', a set name or card names: {value!r}")
    chosen: list[int] = []
    for n in names:
        k = _key(n)
        if k not in _CARD_NAMES:
            basic = k in {_key(x) for c in CARDS if not c.is_kingdom for x in c.names.values()}
            why = "is a basic card, not a kingdom card" if basic else "is not a known kingdom card"
            raise InvalidConfig(f"{n!r} {why}; valid kingdom cards: {valid_names()}")
        c = _CARD_NAMES[k]
        if c not in IMPLEMENTED:
            raise InvalidConfig(
                f"{n!r} is not implemented yet; valid kingdom cards: {valid_names()}"
            )
        if c in chosen:
            raise InvalidConfig(f"{n!r} appears twice in the kingdom")
        chosen.append(c)
    if len(chosen) > 10:
        raise InvalidConfig(f"a kingdom has 10 cards, not {len(chosen)}")
    pool = sorted(
        c.index
        for c in CARDS
        if c.is_kingdom and c.set in sets and c.index in IMPLEMENTED and c.index not in chosen
    )
    missing = 10 - len(chosen)
    if len(pool) < missing:
        raise InvalidConfig(f"sets {list(sets)} have too few implemented cards to fill the kingdom")
    chosen += rng.sample(pool, missing)
    return sorted(CARDS[c].id for c in chosen)


def check_sets(value: Any) -> list[str]:
    if value is None:
        return list(DEFAULT_SETS)
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)) or not all(isinstance(s, str) for s in value):
        raise InvalidConfig(f"sets must be a list of set names from {SETS}")
    for s in value:
        if s not in SETS:
            raise InvalidConfig(f"unknown set {s!r}; available: {', '.join(SETS)}")
    return sorted(set(value))


def card_ids_ok(ids: Sequence[str]) -> bool:
    return all(i in BY_ID for i in ids)
