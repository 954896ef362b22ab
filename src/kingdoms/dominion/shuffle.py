"""``random.shuffle`` for the engine's card lists, compiled with the engine.

:func:`shuffle` gives exactly the permutation ``rng.shuffle(cards)`` gives from the
same generator state and leaves the generator in the same state (the same
Fisher-Yates walk, each index drawn with ``getrandbits`` and rejection, as CPython's
``Random._randbelow``), so records of old games replay alike; compiled, it skips
the interpreted method calls of the standard library's version.

>>> import random
>>> a, b = list(range(20)), list(range(20))
>>> random.Random(5).shuffle(a); shuffle(b, random.Random(5))
>>> a == b
True
"""

from __future__ import annotations

import random


def shuffle(cards: list[int], rng: random.Random) -> None:
    """Shuffle ``cards`` in place exactly as ``rng.shuffle(cards)`` would."""
    if type(rng) is not random.Random:  # a subclass may draw otherwise
        rng.shuffle(cards)
        return
    i = len(cards) - 1
    if i <= 0:
        return
    getrandbits = rng.getrandbits
    k = len(cards).bit_length()  # bits of n = i + 1, kept as n goes down
    low = 1 << (k - 1)  # the smallest n of k bits
    while i > 0:
        n = i + 1
        if n < low:
            k -= 1
            low >>= 1
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        cards[i], cards[r] = cards[r], cards[i]
        i -= 1
