"""The ``start`` option: a seat's own starting cards instead of the usual deal.

A game's ``start`` option is a list with one entry per seat: ``None`` (the usual
start: 7 Coppers and 3 Estates shuffled, five drawn) or a mapping of

``deck``
    the cards of the draw pile (default: the usual 7 Coppers and 3 Estates);
``shuffle``
    whether the deck is shuffled (default true; false keeps the order given, top
    card first);
``hand``
    the opening hand (absent: five cards drawn from the deck);
``discard``
    cards in the discard pile;
``split``
    ``"5/2"`` or ``"4/3"``: the deck is shuffled until the first hand and the next
    five cards hold that many coins (Treasures) between them, in either order (only
    with a shuffled deck of at least 10 cards and no ``hand``).

Cards beyond the usual 7 Coppers and 3 Estates come from the supply (there must
be enough of them); usual starting cards a start leaves out stay in the box.
The option is part of the game's configuration, so a game with start states is
saved and replayed like any other.

>>> check_start([None, {"deck": ["copper"] * 7 + ["estate"] * 3 + ["Silver"]}], 2,
...             ["cellar"], [3] * 20)
[None, {'deck': ['copper', 'copper', 'copper', 'copper', 'copper', 'copper', 'copper', \
'estate', 'estate', 'estate', 'silver'], 'shuffle': True, 'discard': []}]
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Final

from kingdoms.core.errors import InvalidConfig
from kingdoms.dominion.data import BY_ID, CARDS, COPPER, ESTATE

KEYS: Final = ("deck", "shuffle", "hand", "discard", "split")
SPLITS: Final = {"5/2": (2, 5), "4/3": (3, 4)}
"""A split's name -> the coins of the two opening hands (smaller first)."""
USUAL: Final = {COPPER: 7, ESTATE: 3}
"""The usual starting cards (taken out of the box, not the supply)."""


def _key(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).replace("_", " ").split()).casefold()


_NAMES: Final = {_key(n): c.id for c in CARDS for n in (c.id, *c.names.values())}


def _card(name: Any, where: str) -> str:
    if not isinstance(name, str) or _key(name) not in _NAMES:
        import difflib

        close = difflib.get_close_matches(_key(str(name)), list(_NAMES), n=1, cutoff=0.7)
        hint = f" (did you mean {CARDS[BY_ID[_NAMES[close[0]]]].names['en']!r}?)" if close else ""
        raise InvalidConfig(f"{where}: unknown card {name!r}{hint}")
    return _NAMES[_key(name)]


def usual_deck() -> list[str]:
    """The usual starting deck's card ids."""
    return ["copper"] * USUAL[COPPER] + ["estate"] * USUAL[ESTATE]


def _cards(value: Any, where: str) -> list[str]:
    if not isinstance(value, list | tuple):
        raise InvalidConfig(f"{where} must be a list of card names, not {value!r}")
    return [_card(v, where) for v in value]


def check_start(
    value: Any, players: int, kingdom: Sequence[str], supply: Sequence[int]
) -> list[dict[str, Any] | None] | None:
    """``value`` checked and normalised (card ids; every key but ``hand`` and
    ``split`` present), or None for the usual start at every seat; ``supply`` is the
    pile sizes of the game (card index -> cards) the extra cards come from."""
    if value is None:
        return None
    if not isinstance(value, list | tuple) or len(value) != players:
        raise InvalidConfig(
            f"start must be a list of {players} entries (one per seat, null for the "
            f"usual start), not {value!r}"
        )
    out: list[dict[str, Any] | None] = []
    taken: Counter[int] = Counter()
    for seat, entry in enumerate(value):
        if entry is None:
            out.append(None)
            continue
        out.append(check_seat(entry, f"start of seat {seat}", taken))
    if all(e is None for e in out):
        return None
    for c, n in sorted(taken.items()):
        if supply[c] < n if c < len(supply) else True:
            have = supply[c] if c < len(supply) else 0
            raise InvalidConfig(
                f"start: {n} {CARDS[c].names['en']} beyond the usual start, but the "
                f"supply of this game (kingdom {', '.join(kingdom)}) has {have}"
            )
    return out


def check_seat(entry: Any, where: str, taken: Counter[int] | None = None) -> dict[str, Any]:
    """One seat's start state checked and normalised (card ids); ``where`` names it in
    errors, ``taken`` counts the cards it takes from the supply."""
    if not isinstance(entry, Mapping):
        raise InvalidConfig(f"{where} must be null or a mapping, not {entry!r}")
    unknown = sorted(set(entry) - set(KEYS))
    if unknown:
        raise InvalidConfig(f"{where}: unknown keys {unknown}; known: {', '.join(KEYS)}")
    deck = _cards(entry["deck"], f"{where}: deck") if "deck" in entry else usual_deck()
    shuffle = entry.get("shuffle", True)
    if not isinstance(shuffle, bool):
        raise InvalidConfig(f"{where}: shuffle must be true or false, not {shuffle!r}")
    seat_out: dict[str, Any] = {"deck": deck, "shuffle": shuffle}
    hand = entry.get("hand")
    if hand is not None:
        seat_out["hand"] = _cards(hand, f"{where}: hand")
    seat_out["discard"] = _cards(entry.get("discard", []), f"{where}: discard")
    split = entry.get("split")
    if split is not None:
        if split not in SPLITS:
            raise InvalidConfig(f"{where}: split must be one of {', '.join(SPLITS)}, not {split!r}")
        if hand is not None or not shuffle or len(deck) < 10:
            raise InvalidConfig(
                f"{where}: the split {split} needs a shuffled deck of at least 10 cards and no hand"
            )
        if not split_possible([_coins(BY_ID[c]) for c in deck], SPLITS[split]):
            raise InvalidConfig(f"{where}: the deck cannot be dealt as a {split} split")
        seat_out["split"] = split
    owned = Counter(BY_ID[c] for c in (*deck, *seat_out.get("hand", ()), *seat_out["discard"]))
    if taken is None:
        return seat_out
    for c, n in owned.items():
        extra = n - USUAL.get(c, 0)
        if extra > 0:
            taken[c] += extra
    return seat_out


def _coins(c: int) -> int:
    from kingdoms.dominion.turn import TREASURE_COINS

    return TREASURE_COINS[c] if c < len(TREASURE_COINS) else 0


def split_possible(coins: Sequence[int], split: tuple[int, int]) -> bool:
    """Whether two disjoint hands of five of these cards (their coins) hold
    ``split``'s coins (in either order)."""
    counts = sorted(Counter(coins).items())

    def pick(i: int, left: list[int], cards: int, want: int) -> list[list[int]]:
        # every way to take ``cards`` cards worth ``want`` coins from counts[i:]
        if i == len(counts):
            return [left.copy()] if cards == 0 and want == 0 else []
        value, _ = counts[i]
        found: list[list[int]] = []
        for k in range(min(left[i], cards) + 1):
            if k * value > want:
                break
            left[i] -= k
            found += pick(i + 1, left, cards - k, want - k * value)
            left[i] += k
        return found

    a, b = split
    full = [n for _, n in counts]
    for first, second in ((a, b), (b, a)):
        for rest in pick(0, full.copy(), 5, first):
            if pick(0, rest, 5, second):
                return True
    return False


def split_holds(deck: Sequence[int], split: str) -> bool:
    """Whether a shuffled ``deck`` (top card last) deals ``split``: the top five and
    the next five cards hold its coins, in either order."""
    first = sum(_coins(c) for c in deck[-5:])
    second = sum(_coins(c) for c in deck[-10:-5])
    return tuple(sorted((first, second))) == SPLITS[split]
