"""Named play styles: how a card is played when plain rules cannot say it.

A strategy file names them in its ``[styles]`` table (card -> style)::

    [styles]
    remodel = "upgrade"

``remodel = "upgrade"``
    Remodel asks the buy rules what they would buy with a card's cost + $2: for each
    card in hand (one Remodel aside when deciding to play it), the first buy entry
    naming a card of at most that cost (and the card's Potion cost) that has a pile
    left and whose condition holds now.  A card is a *candidate* when that gain is
    worth more than the card (:func:`worth`) and the upgrade does not cost the turn's
    buy: nothing is bought without it, or the gain is worth at least what the
    whole hand buys, or the hand without the card still buys the same.  Remodel is
    played only when some card is a candidate; it trashes, while the seat owns no
    Victory card but Estates, the least worth candidate, later the one whose gain
    is worth most (ties: the least worth card).  The gain then follows the ``*.gain``
    rules (the buy rules, in an imported file).  With no candidate (Remodel played
    by Throne Room) the ``remodel.trash`` rules decide.

This is how Geronimoo's Dominion Simulator plays Remodel (its card logic reads the
bot's buy rules); ``kingdoms strategy import`` writes the style into every bot that
buys Remodel.  Games of a seat with a style are dealt by the Python engine (the
native core has no styles).

>>> from kingdoms.bots.dominion.lang import parse_strategy
>>> s = parse_strategy('name = "r"\\nbuy = ["Gold", "Silver"]\\n[styles]\\nremodel = "upgrade"\\n')
>>> dict(s.styles)
{'remodel': 'upgrade'}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from kingdoms.bots.dominion.observation import Observation
from kingdoms.bots.dominion.strategy import CARD, COIN_VALUE, Situation, Strategy
from kingdoms.dominion.data import BY_ID, CARDS

STYLES: Final[Mapping[str, tuple[str, ...]]] = {"remodel": ("upgrade",)}
"""Card id -> the play styles it may be given."""


def buy_pick(strategy: Strategy, s: Situation, coins: int, potions: int) -> str | None:
    """The card the buy rules would take with ``coins`` and ``potions``: the first
    entry naming one card that costs no more, has a pile left and whose condition
    holds (entries naming a type or ``any`` are passed over)."""
    for r in strategy.buy:
        if r.target != CARD:
            continue
        card = r.key
        if s.cost(card) > coins or s.potion_costs.get(card, 0) > potions or s.left(card) <= 0:
            continue
        if r.cond is not None:
            s.card = card
            if not r.cond(s):
                continue
        return card
    return None


def wanted(strategy: Strategy, s: Situation, card: str) -> bool:
    """Whether a buy entry for ``card`` applies now (its condition holds)."""
    for r in strategy.buy:
        if r.target == CARD and r.key == card:
            if r.cond is None:
                return True
            s.card = card
            if r.cond(s):
                return True
    return False


def worth(strategy: Strategy, s: Situation, card: str) -> int:
    """How much the seat values owning ``card``, to compare a trashed card with its
    replacement: Curse 0, an unwanted Victory card 1, Copper 2, other cards by
    printed cost (3 + 2 per coin + 4 per Potion), a Victory card the buy rules want
    now 10 more, Province above all."""
    if card == "curse":
        return 0
    if card == "province":
        return 100
    info = CARDS[BY_ID[card]]
    coins, potions = info.cost
    base = 3 + 2 * coins + 4 * potions
    if info.is_victory and not (info.is_action or info.is_treasure):
        return base + 10 if wanted(strategy, s, card) else 1
    if card == "copper":
        return 2
    return base


def _hand_money(hand: Mapping[str, float]) -> int:
    return int(sum(COIN_VALUE.get(c, 0) * n for c, n in hand.items()))


def remodel_target(
    strategy: Strategy, obs: Observation, s: Situation, aside: str | None = None
) -> str | None:
    """The card ``remodel = "upgrade"`` trashes from the seat's hand now, or None
    when no card is worth remodelling (``aside``: one copy of this card is the
    Remodel about to be played, not a card to trash)."""
    hand: dict[str, float] = dict(obs.zone(0))
    if aside is not None and hand.get(aside, 0) > 0:
        hand[aside] -= 1
    cards: Sequence[str] = [c for c, n in hand.items() if n > 0]
    if not cards:
        return None
    potential = obs.coins + _hand_money(hand)
    plain = buy_pick(strategy, s, potential, obs.potions)
    plain_worth = -1 if plain is None else worth(strategy, s, plain)
    found: list[tuple[str, int, int]] = []  # (card, its worth, its gain's worth)
    for card in cards:
        limit = s.cost(card) + 2
        gain = buy_pick(strategy, s, limit, s.potion_costs.get(card, 0))
        if gain is None:
            continue
        mine, theirs = worth(strategy, s, card), worth(strategy, s, gain)
        if theirs <= mine:
            continue
        if plain is not None and theirs < plain_worth:
            without = buy_pick(strategy, s, potential - COIN_VALUE.get(card, 0), obs.potions)
            if without != plain:
                continue  # it would cost the turn a better buy
        found.append((card, mine, theirs))
    if not found:
        return None
    early = not any(
        n > 0 and c != "estate" and CARDS[BY_ID[c]].is_victory for c, n in s.owned.items()
    )
    best = found[0]
    for cand in found[1:]:
        if early:
            if cand[1] < best[1]:
                best = cand
        elif cand[2] > best[2] or (cand[2] == best[2] and cand[1] < best[1]):
            best = cand
    return best[0]


def declines(strategy: Strategy, obs: Observation, s: Situation, card: str) -> bool:
    """Whether ``card``'s play style says not to play it now."""
    if strategy.styles.get(card) == "upgrade":
        return remodel_target(strategy, obs, s, aside=card) is None
    return False


__all__ = ["STYLES", "buy_pick", "declines", "remodel_target", "wanted", "worth"]
