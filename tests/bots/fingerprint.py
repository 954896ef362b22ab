"""Fingerprints of whole Dominion games between bots: the digest of every action
and the scores, per seed (used to prove two bot implementations play alike)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

from kingdoms.core.registry import new_game
from kingdoms.core.runner import seat_rngs

MATCHES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("big-money", "big-money-ultimate", ("smithy", "witch", "village", "market", "cellar")),
    ("smithy", "big-money-ultimate", ("smithy", "witch", "moat", "militia", "chapel")),
    ("witch", "big-money-ultimate", ("smithy", "witch", "moat", "festival", "laboratory")),
    ("witch", "smithy", ("smithy", "witch", "bureaucrat", "library", "workshop")),
    ("big-money", "witch", ("smithy", "witch", "gardens", "remodel", "mine")),
)
SEEDS = range(12)


def fingerprint(
    make: Callable[[str], Any], a: str, b: str, kingdom: Sequence[str], seed: int
) -> str:
    bots = [make(a), make(b)]
    state = new_game(
        "dominion", players=2, seed=seed, options={"kingdom": list(kingdom), "first_player": 0}
    )
    state.logging = False
    rngs = seat_rngs(seed, 2)
    digest = hashlib.sha256()
    while state.current_player >= 0:
        p = state.current_player
        action = bots[p].act(state.view(p), state.legal_actions(), rngs[p])
        digest.update(action.to_bytes(4, "little"))
        state.apply(action)
    outcome = state.outcome()
    digest.update(repr(outcome.scores if outcome else None).encode())
    return digest.hexdigest()[:16]


def all_fingerprints(make: Callable[[str], Any]) -> dict[str, str]:
    return {
        f"{a}|{b}|{seed}": fingerprint(make, a, b, kingdom, seed)
        for a, b, kingdom in MATCHES
        for seed in SEEDS
    }
