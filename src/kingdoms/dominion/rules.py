"""Game-level rules as pure functions: scoring, end of game, winners.

The turn rules themselves (phases, buying, clean-up) live in
:class:`kingdoms.dominion.state.DominionState`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from kingdoms.dominion.cards import VP as DECLARED_VP
from kingdoms.dominion.data import BY_ID, IS_ACTION, PROVINCE

GARDENS: Final = BY_ID["gardens"]
VINEYARD: Final = BY_ID["vineyard"]
IS_ACTION_CARD: Final = IS_ACTION
VP: Final = DECLARED_VP
"""Card index -> victory points per copy (read from the card declarations)."""
_PROVINCE: Final = PROVINCE


def score(cards: Sequence[int]) -> int:
    """Victory points of everything a player owns (Gardens: 1 VP per 10 cards;
    Vineyard: 1 VP per 3 Action cards)."""
    total = 0
    for c in cards:
        total += VP[c]
    gardens = cards.count(GARDENS)
    if gardens:
        total += gardens * (len(cards) // 10)
    vineyards = cards.count(VINEYARD)
    if vineyards:
        actions = sum(1 for c in cards if IS_ACTION_CARD[c])
        total += vineyards * (actions // 3)
    return total


def score_counts(counts: list[int], kinds: list[int] | None = None) -> int:
    """:func:`score` of the cards whose copies ``counts`` gives (card index -> copies,
    as a seat's kept owned counts); ``kinds``: the only cards with copies, when known
    (a state's ``owned_kinds``)."""
    total = 0
    vp = VP
    if kinds is None:
        for c, n in enumerate(counts):
            if n:
                total += vp[c] * n
    else:
        for c in kinds:
            n = counts[c]
            if n:
                total += vp[c] * n
    gardens = counts[GARDENS]
    if gardens:
        total += gardens * (sum(counts) // 10)
    vineyards = counts[VINEYARD]
    if vineyards:
        total += vineyards * (_actions(counts) // 3)
    return total


def _actions(counts: list[int]) -> int:
    is_action = IS_ACTION_CARD
    return sum(n for c, n in enumerate(counts) if n and is_action[c])


def vp_by_card_counts(counts: list[int], kinds: list[int] | None = None) -> dict[int, int]:
    """:func:`vp_by_card` of the cards whose copies ``counts`` gives, in card order
    (``kinds``: the only cards with copies, in card order, when known)."""
    out: dict[int, int] = {}
    for c in list(range(len(counts))) if kinds is None else kinds:
        n = counts[c]
        if not n:
            continue
        if c == GARDENS:
            worth = n * (sum(counts) // 10)
        elif c == VINEYARD:
            worth = n * (_actions(counts) // 3)
        else:
            worth = n * VP[c]
        if worth or c in (GARDENS, VINEYARD):
            out[c] = worth
    return out


def vp_by_card(cards: Sequence[int]) -> dict[int, int]:
    """Where :func:`score` comes from: card -> the points all its copies give
    (cards worth nothing are left out; Gardens and Vineyards by their count)."""
    out: dict[int, int] = {}
    for c in set(cards):
        n = cards.count(c)
        if c == GARDENS:
            worth = n * (len(cards) // 10)
        elif c == VINEYARD:
            worth = n * (sum(1 for x in cards if IS_ACTION_CARD[x]) // 3)
        else:
            worth = n * VP[c]
        if worth or c in (GARDENS, VINEYARD):
            out[c] = worth
    return out


def end_reason(supply: list[int], piles: list[int], players: int) -> str:
    """ "provinces", "piles" or "" (3 empty supply piles end it, 4 with 5–6 players)."""
    if supply[_PROVINCE] == 0:
        return "provinces"
    empty = 0
    for c in piles:
        if supply[c] == 0:
            empty += 1
    if empty >= (3 if players <= 4 else 4):
        return "piles"
    return ""


def winners(vp: Sequence[int], turns: Sequence[int]) -> tuple[int, ...]:
    """Most VP; among tied players fewer turns; still tied: a shared win."""
    best = max(vp)
    tied = [p for p in range(len(vp)) if vp[p] == best]
    fewest = min(turns[p] for p in tied)
    return tuple(p for p in tied if turns[p] == fewest)
