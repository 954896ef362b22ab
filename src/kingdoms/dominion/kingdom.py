"""Choosing the kingdom: recommended sets, names in en/pl/cs, random fill."""

from __future__ import annotations

import csv
import difflib
import io
import random
import unicodedata
from collections.abc import Sequence
from importlib import resources
from typing import Any

from kingdoms.core.errors import InvalidConfig
from kingdoms.dominion.cards import implemented
from kingdoms.dominion.data import BY_ID, CARDS, Card

SETS = ("base", "base-1e", "base-2e", "alchemy")
DEFAULT_SETS = ["base", "base-1e"]


def _load_recommended() -> dict[tuple[str, ...], list[str]]:
    """``data/kingdoms.csv``: each recommended set's names (en, pl, cs; ``|`` between
    them) and its 10 card ids (space-separated): the base game's and Alchemy's
    rulebook sets."""
    text = resources.files("kingdoms.dominion").joinpath("data", "kingdoms.csv").read_text("utf-8")
    return {
        tuple(row["names"].split("|")): row["cards"].split()
        for row in csv.DictReader(io.StringIO(text))
    }


RECOMMENDED = _load_recommended()
"""Recommended kingdoms: (name in each language, …) -> their card ids."""


def _key(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split()).casefold()


_SET_NAMES = {_key(n): cards for names, cards in RECOMMENDED.items() for n in names}
_CARD_NAMES: dict[str, int] = {}


_SHOWN: dict[str, int] = {}
"""The key of each implemented kingdom card's name, in every language -> the card."""


class UnknownCard(InvalidConfig):
    """A kingdom card name that matches no card; ``detail`` says so as an interface
    message (``msgid``, ``args``) with the closest names (``suggest``), so that a client
    can show it in its own language."""

    def __init__(self, message: str, detail: dict[str, Any]) -> None:
        super().__init__(message)
        self.detail = detail


def closest_cards(typed: str, n: int = 3) -> list[int]:
    """The kingdom cards whose name (in any language) is closest to a mistyped one."""
    keys = difflib.get_close_matches(_key(typed), list(_SHOWN), n=2 * n, cutoff=0.6)
    return list(dict.fromkeys(_SHOWN[k] for k in keys))[:n]


def add_names(card: Card) -> None:
    """Make a kingdom card findable by its id and its names in every language."""
    if card.is_kingdom:
        for name in card.names.values():
            if implemented(card.index):
                _SHOWN.setdefault(_key(name), card.index)
        for n in (card.id, *card.names.values()):
            _CARD_NAMES.setdefault(_key(n), card.index)
        _CARD_NAMES.setdefault(_key(card.id.replace("_", " ")), card.index)


for _c in CARDS:
    add_names(_c)


def valid_names() -> str:
    return ", ".join(
        sorted({c.names["en"] for c in CARDS if implemented(c.index) and c.is_kingdom})
    )


def check_alchemy_cards(value: Any) -> tuple[int, int] | None:
    """``alchemy_cards``: how many Alchemy cards a random kingdom gets — a number or
    a range such as ``"3-5"`` (the rulebook's advice); None leaves it to chance."""
    if value is None:
        return None
    lo = hi = -1
    if isinstance(value, int) and not isinstance(value, bool):
        lo = hi = value
    elif isinstance(value, str):
        parts = value.replace("–", "-").split("-")
        if all(p.strip().isdigit() for p in parts) and len(parts) in (1, 2):
            lo, hi = int(parts[0]), int(parts[-1])
    elif (
        isinstance(value, (list, tuple))
        and len(value) == 2
        and all(isinstance(v, int) for v in value)
    ):
        lo, hi = value
    if not 0 <= lo <= hi <= 10:
        raise InvalidConfig(
            f"alchemy_cards must be a number or a range from 0 to 10 such as '3-5', not {value!r}"
        )
    return (lo, hi)


def set_kingdom(value: Any) -> list[str] | None:
    """Card ids (sorted) of the recommended set ``value`` names; None: not a set name.

    >>> set_kingdom("First Game")[:3], set_kingdom("random")
    (['cellar', 'market', 'militia'], None)
    """
    if isinstance(value, str):
        cards = _SET_NAMES.get(_key(value))
        if cards is not None:
            return sorted(cards)
    return None


def fixed_kingdom(value: Any) -> bool:
    """Whether the kingdom option ``value`` names all 10 cards (a recommended set or
    10 card names): no random pick, the same kingdom whatever the seed.

    >>> fixed_kingdom("First Game"), fixed_kingdom("random"), fixed_kingdom(["witch"])
    (True, False, False)
    """
    if set_kingdom(value) is not None:
        return True
    names = _named(value)
    return names is not None and len(names) == 10


def _named(value: Any) -> list[str] | None:
    """The card names of a kingdom option listing cards (None: another form)."""
    if isinstance(value, str) and _key(value) != "random" and _key(value) not in _SET_NAMES:
        return [n for n in (x.strip() for x in value.split(",")) if n]
    if isinstance(value, (list, tuple)) and all(isinstance(x, str) for x in value):
        return list(value)
    return None


def resolve_kingdom(
    value: Any,
    sets: Sequence[str],
    rng: random.Random,
    alchemy_cards: tuple[int, int] | None = None,
) -> list[str]:
    """Card ids of the 10 kingdom cards (sorted).  Random picks come from ``sets``;
    ``alchemy_cards`` fixes how many of the kingdom are Alchemy cards."""
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
            if basic:
                raise UnknownCard(
                    f"{n!r} is a basic card, not a kingdom card",
                    {"msgid": "{name} is a basic card, not a kingdom card.", "args": {"name": n}},
                )
            near = closest_cards(n)
            hint = f"; did you mean {' or '.join(CARDS[c].names['en'] for c in near)}?"
            raise UnknownCard(
                f"{n!r} is not a known kingdom card{hint if near else ''} "
                f"(valid kingdom cards: {valid_names()})",
                {
                    "msgid": "{name} is not a known kingdom card.",
                    "args": {"name": n},
                    # each close card by its name in every language (the reader's is shown)
                    "suggest": [dict(CARDS[c].names) for c in near],
                },
            )
        c = _CARD_NAMES[k]
        if not implemented(c):
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
        if c.is_kingdom and c.set in sets and implemented(c.index) and c.index not in chosen
    )
    missing = 10 - len(chosen)
    if alchemy_cards is not None and missing:
        have = sum(1 for c in chosen if CARDS[c].set == "alchemy")
        alchemy = [c for c in pool if CARDS[c].set == "alchemy"]
        other = [c for c in pool if CARDS[c].set != "alchemy"]
        lo, hi = alchemy_cards
        lo, hi = max(lo - have, 0), min(hi - have, missing, len(alchemy))
        want = rng.randint(lo, hi) if lo <= hi else max(hi, 0)
        if "alchemy" not in sets or len(other) < missing - want:
            raise InvalidConfig(
                f"cannot draw {alchemy_cards[0]}–{alchemy_cards[1]} Alchemy cards from sets "
                f"{list(sets)} (include 'alchemy' and another set)"
            )
        chosen += rng.sample(alchemy, want) + rng.sample(other, missing - want)
        return sorted(CARDS[c].id for c in chosen)
    if len(pool) < missing:
        raise InvalidConfig(f"sets {list(sets)} have too few implemented cards to fill the kingdom")
    chosen += rng.sample(pool, missing)
    return sorted(CARDS[c].id for c in chosen)


def check_sets(value: Any, edition: int = 1) -> list[str]:
    """The sets a random kingdom is drawn from (default: the base game of that edition)."""
    if value is None:
        return ["base", "base-2e"] if edition == 2 else list(DEFAULT_SETS)
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
