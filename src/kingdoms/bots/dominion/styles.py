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

``mine = "upgrade"``
    Mine asks the buy rules which Treasure they would gain with each Treasure in
    hand's cost + $3 (the first buy entry naming a Treasure of at most that cost,
    with a pile left and its condition holding now).  A Treasure is a *candidate*
    when that Treasure is another card.  The least worth Treasure in hand that is a
    candidate is the first choice; a later one replaces it when its gain comes
    earlier in the buy rules than the chosen gain and no later than the Treasure
    itself (a card's place in the buy rules: its first entry, when some entry for
    it applies now; last otherwise).  Mine is played only when some Treasure is a
    candidate, and it gains the first Treasure the buy rules name among those
    offered.  With no candidate (Mine played by Throne Room) the ``mine.trash`` and
    ``mine.gain`` rules decide.

This is how Geronimoo's Dominion Simulator plays Remodel and Mine (its card logic
reads the bot's buy rules); ``kingdoms strategy import`` writes the styles into every
bot that buys those cards.  Games of a seat with a style are dealt by the Python engine (the
native core has no styles).

>>> from kingdoms.bots.dominion.lang import parse_strategy
>>> s = parse_strategy('name = "r"\\nbuy = ["Gold", "Silver"]\\n[styles]\\nremodel = "upgrade"\\n')
>>> dict(s.styles)
{'remodel': 'upgrade'}
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Final

from kingdoms.bots.dominion.observation import Observation
from kingdoms.bots.dominion.strategy import CARD, COIN_VALUE, Situation, Strategy
from kingdoms.dominion.data import BY_ID, CARDS

STYLES: Final[Mapping[str, tuple[str, ...]]] = {"remodel": ("upgrade",), "mine": ("upgrade",)}
"""Card id -> the play styles it may be given."""


def buy_pick(
    strategy: Strategy,
    s: Situation,
    coins: int,
    potions: int,
    among: Callable[[str], bool] | None = None,
) -> str | None:
    """The card the buy rules would take with ``coins`` and ``potions``: the first
    entry naming one card (for which ``among`` holds, when given) that costs no more,
    has a pile left and whose condition holds (entries naming a type or ``any`` are
    passed over)."""
    for r in strategy.buy:
        if r.target != CARD:
            continue
        card = r.key
        if among is not None and not among(card):
            continue
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


_VALUE_TIERS: Final[tuple[tuple[str, ...], ...]] = (
    ("curse",),
    ("province", "vineyard"),  # Victory cards the buy rules do not want now
    ("duchy",),
    ("estate", "gardens"),
    ("copper",),
    ("harbinger",),
    ("cellar",),
    ("chapel", "remodel"),
    ("apprentice", "merchant", "transmute"),
    ("bureaucrat", "chancellor", "silver", "thief", "woodcutter"),
    ("herbalist", "moneylender", "village"),
    ("feast", "mine", "potion", "sentry", "spy", "throne_room", "workshop"),
    ("bandit", "moat", "vassal"),
    ("gold", "smithy"),
    ("apothecary", "militia", "university"),
    ("festival",),
    ("artisan", "council_room"),
    ("library", "market", "philosophers_stone", "poacher"),
    ("scrying_pool", "estate+"),
    ("adventurer", "alchemist", "familiar", "golem", "laboratory", "witch", "duchy+"),
    ("possession",),
    ("vineyard+",),
    ("province", "province+"),
    ("gardens+",),
)
"""How much a bot values owning each card, least first: the ranking Geronimoo's
simulator compares a trashed card with its replacement by.  ``card+`` is a Victory
card the buy rules want now (Province always counts so)."""

_VALUE: Final[Mapping[str, int]] = {c: 2 * i for i, tier in enumerate(_VALUE_TIERS) for c in tier}


def value_rank(card: str) -> int:
    """Where ``card`` stands in :data:`_VALUE_TIERS` (a Victory card as one the buy
    rules do not want), higher is valued more."""
    return _VALUE.get(card, _VALUE["silver"])


def worth(strategy: Strategy, s: Situation, card: str) -> int:
    """How much the seat values owning ``card`` (:data:`_VALUE_TIERS`), to compare a
    trashed card with its replacement: a Victory card the buy rules want now ranks
    high, one they do not want next to Curse; Witch once the Curses are gone ranks
    as Moat, Familiar as Remodel, Moneylender with no Copper owned just above Curse."""
    if CARDS[BY_ID[card]].is_victory and f"{card}+" in _VALUE:
        if card == "province" or wanted(strategy, s, card):
            return _VALUE[f"{card}+"]
        return _VALUE[card]
    if card in ("witch", "familiar") and s.left("curse") <= 0:
        return _VALUE["moat" if card == "witch" else "remodel"]
    if card == "moneylender" and s.owned.get("copper", 0) <= 0:
        return _VALUE["curse"] + 1
    return value_rank(card)


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


def treasure_pick(
    strategy: Strategy, s: Situation, coins: int, potions: int, among: Collection[str] | None = None
) -> str | None:
    """The Treasure the buy rules would take with ``coins`` and ``potions`` (only
    from ``among`` when given): the first entry naming a Treasure that costs no
    more, has a pile left and whose condition holds."""

    def allowed(card: str) -> bool:
        return CARDS[BY_ID[card]].is_treasure and (among is None or card in among)

    return buy_pick(strategy, s, coins, potions, allowed)


def rank(strategy: Strategy, s: Situation, card: str) -> int:
    """``card``'s place in the buy rules: the index of its first entry when some
    entry for it applies now, else after every entry."""
    if not wanted(strategy, s, card):
        return len(strategy.buy)
    for i, r in enumerate(strategy.buy):
        if r.target == CARD and r.key == card:
            return i
    return len(strategy.buy)


def mine_target(strategy: Strategy, obs: Observation, s: Situation) -> tuple[str, str] | None:
    """(the Treasure ``mine = "upgrade"`` trashes from the seat's hand now, the
    Treasure it means to gain), or None when no Treasure is worth mining."""
    hand = obs.zone(0)
    treasures = [c for c, n in hand.items() if n > 0 and CARDS[BY_ID[c]].is_treasure]
    treasures.sort(key=lambda c: (worth(strategy, s, c), c))
    best: tuple[str, str] | None = None
    best_rank = 0
    for card in treasures:
        gain = treasure_pick(strategy, s, s.cost(card) + 3, s.potion_costs.get(card, 0))
        if gain is None or gain == card:
            continue
        gain_rank = rank(strategy, s, gain)
        if best is None or (gain_rank <= rank(strategy, s, card) and gain_rank < best_rank):
            best, best_rank = (card, gain), gain_rank
    return best


def declines(strategy: Strategy, obs: Observation, s: Situation, card: str) -> bool:
    """Whether ``card``'s play style says not to play it now."""
    if strategy.styles.get(card) != "upgrade":
        return False
    if card == "mine":
        return mine_target(strategy, obs, s) is None
    return remodel_target(strategy, obs, s, aside=card) is None


__all__ = [
    "STYLES",
    "buy_pick",
    "declines",
    "mine_target",
    "rank",
    "remodel_target",
    "treasure_pick",
    "value_rank",
    "wanted",
    "worth",
]
