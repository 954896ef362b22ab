"""The default decision policy every Dominion bot uses for what its strategy
does not cover (playing Actions, attacks, reactions, trashing, gaining, …).

It works on decoded options (:class:`Option`: action int, verb, card id) and
a :class:`Decision` (who asks, with which card, what the seat holds).  Every
option gets a score; the best wins and ties go to the earliest legal action,
so the policy is deterministic and never fails: an unknown decision still gets
a legal, sensible answer.

>>> opts = [Option(0, "done"), Option(1, "discard", "copper"), Option(2, "discard", "estate")]
>>> choose(Decision(kind="militia.discard", source="militia"), opts)
2
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from kingdoms.bots.dominion.strategy import BASIC_COST
from kingdoms.dominion.data import CARDS

# Verbs the adapter normalises the engine's action kinds to.
PLAY, BUY, GAIN, TRASH, DISCARD, KEEP = "play", "buy", "gain", "trash", "discard", "keep"
REVEAL, SET_ASIDE, TOPDECK, YES, NO, DONE = "reveal", "set_aside", "topdeck", "yes", "no", "done"
PLAY_TREASURES = "play_treasures"

# Types of the cards, by id (fallback when the view does not say).
_TREASURES = frozenset(c.id for c in CARDS if c.is_treasure)
_VICTORY = {"estate", "duchy", "province", "gardens", "vineyard"}
_JUNK = {"curse": 100, "estate": 90, "vineyard": 85, "gardens": 85, "duchy": 80, "province": 80}
# Action cards that give +Actions: play these before terminal ones.
_NON_TERMINAL = {
    "village": 9,
    "festival": 8,
    "laboratory": 8,
    "market": 8,
    "cellar": 3,
    "throne_room": 6,
    "golem": 5,
    "university": 5,
    "alchemist": 7,
    "apothecary": 7,
    "familiar": 7,
    "scrying_pool": 7,
    "herbalist": 4,
    "merchant": 7,
    "poacher": 6,
    "sentry": 6,
    "harbinger": 6,
    "vassal": 2,
    "spy": 5,
    "peddler": 8,
}
_GOOD_TREASURE = {"gold": 3, "philosophers_stone": 2, "silver": 2, "potion": 1}


@dataclass(frozen=True, slots=True)
class Option:
    action: int
    verb: str
    card: str | None = None


@dataclass(slots=True)
class Decision:
    """The context of one decision, as far as the view shows it."""

    kind: str = ""
    """The decision's purpose, ``<card id>.<verb>`` (``"militia.discard"``)."""
    source: str | None = None
    """Id of the card that asked (``"militia"``, ``"chapel"``…), if known."""
    about: int | None = None
    """Seat whose card the decision is about (Spy, Thief), if known."""
    me: int = 0
    actions: int = 1
    provinces_left: int = 8
    total_money: int = 7
    costs: Mapping[str, int] = field(default_factory=dict)
    types: Mapping[str, frozenset[str]] = field(default_factory=dict)
    prefer_play: Sequence[str] = ()
    """Action cards the strategy wants played first."""


def _cost(d: Decision, card: str | None) -> int:
    if card is None:
        return 0
    c = d.costs.get(card)
    if c is not None:
        return c
    return BASIC_COST.get(card, 4)


def _is(d: Decision, card: str | None, kind: str) -> bool:
    if card is None:
        return False
    types = d.types.get(card)
    if types is not None:
        return kind in types
    if kind == "treasure":
        return card in _TREASURES
    if kind == "victory":
        return card in _VICTORY
    if kind == "curse":
        return card == "curse"
    if kind == "action":
        return card not in _TREASURES and card not in _VICTORY and card != "curse"
    return False


def junk(d: Decision, card: str | None) -> float:
    """How much the seat wants to be rid of ``card`` (high: discard/trash first)."""
    if card is None:
        return 0.0
    if card in _JUNK:
        return _JUNK[card]
    if _is(d, card, "curse"):
        return 100
    if _is(d, card, "victory") and not _is(d, card, "action") and not _is(d, card, "treasure"):
        return 85
    if card == "copper":
        return 50
    return 40 - _cost(d, card)


def gain_value(d: Decision, card: str | None) -> float:
    """How much the seat wants to gain ``card``."""
    if card is None:
        return -1.0
    if _is(d, card, "curse"):
        return -50
    cost = _cost(d, card)
    if card == "province":
        return 100
    if _is(d, card, "victory"):
        # Duchy late in the game, else victory cards are weak gains.
        if card == "duchy" and d.provinces_left <= 5:
            return 60
        if card == "estate" and d.provinces_left <= 2:
            return 40
        return cost * 0.5
    if card == "copper":
        return 0.5
    return cost * 2 + (1 if _is(d, card, "treasure") else 0)


def _chapel_trash(d: Decision, card: str | None) -> float:
    if card is None:
        return 0.0
    if _is(d, card, "curse"):
        return 100
    if card == "estate":
        return 80 if d.provinces_left > 2 else -10
    if card == "copper":
        return 30 if d.total_money > 6 else -10
    return -10  # keep everything else


def _opponents_top_card(d: Decision, card: str | None) -> float:
    """Spy / Scrying Pool: discard an opponent's good card, one's own bad card."""
    if d.about is not None and d.about != d.me:
        return 10 if junk(d, card) < 50 else -10
    return 10 if junk(d, card) >= 50 else -10


def _discard_junk_only(d: Decision, card: str | None) -> float:
    return 10 if junk(d, card) >= 80 else -10


def _mine_gain(d: Decision, card: str | None) -> float:
    if _is(d, card, "treasure"):
        return _GOOD_TREASURE.get(card or "", 0) * 10
    return gain_value(d, card)


Scorer = Callable[[Decision, str | None], float]

BY_PURPOSE: Mapping[str, Scorer] = {
    "chapel.trash": _chapel_trash,
    # upgrade the best Treasure that can still improve (Silver -> Gold first)
    "mine.trash": lambda d, c: {"silver": 10, "copper": 8, "potion": 6}.get(c or "", 1),
    "mine.gain": _mine_gain,
    # an opponent's Treasure: trash the best one; gain only good ones
    "thief.trash": lambda d, c: _GOOD_TREASURE.get(c or "", 0) * 10 + 1,
    "thief.gain": lambda d, c: (
        10 if c in ("gold", "silver", "philosophers_stone", "potion") else -5
    ),
    "moneylender.trash": lambda d, c: 10 if c == "copper" else 0,
    "remodel.trash": lambda d, c: 200 if c == "gold" and d.provinces_left <= 6 else junk(d, c),
    "sentry.trash": lambda d, c: 10 if junk(d, c) >= 85 else -10,
    "bandit.trash": lambda d, c: -_GOOD_TREASURE.get(c or "", 0),  # lose the least valuable
    "spy.discard": _opponents_top_card,
    "scrying_pool.discard": _opponents_top_card,
    "cellar.discard": _discard_junk_only,
    "sentry.discard": _discard_junk_only,
    "poacher.discard": _discard_junk_only,
    # Clean-up order: Alchemists leave play before the Potion, Herbalists before the
    # Treasures they can put back
    "cleanup.order": lambda d, c: {"alchemist": 20, "herbalist": 15}.get(c or "", -5),
}
"""Scores of the picks of one decision purpose (``<card>.<verb>``), where the generic
score of the verb is not good enough."""

_PICKS = frozenset({TRASH, DISCARD, GAIN, "cleanup"})


def score(d: Decision, opt: Option) -> float:
    """The policy's preference for one option (higher is better)."""
    verb, card = opt.verb, opt.card
    if verb in _PICKS:
        purpose = (
            d.kind if "." in d.kind else f"{d.source}.{'order' if verb == 'cleanup' else verb}"
        )
        by_purpose = BY_PURPOSE.get(purpose)
        if by_purpose is not None:
            return by_purpose(d, card)
    if verb == PLAY_TREASURES:
        return 50
    if verb == PLAY:
        if card is None:
            return 1
        if _is(d, card, "treasure") and not _is(d, card, "action"):
            return 40
        if card in d.prefer_play:
            return 70 + _NON_TERMINAL.get(card, 0)
        base = 60 + _NON_TERMINAL.get(card, 0)
        if card == "cellar":
            base -= 5
        return base
    if verb in (BUY, GAIN):
        return gain_value(d, card)
    if verb == TRASH:
        return junk(d, card)
    if verb == DISCARD:
        return junk(d, card)
    if verb == TOPDECK:
        return 100 - junk(d, card)
    if verb in (REVEAL, YES):
        return 10
    if verb == SET_ASIDE:
        return 10 if d.actions <= 0 else -10
    if verb in (KEEP, NO, DONE):
        return 0
    return -1


def choose(d: Decision, options: Sequence[Option]) -> int:
    """The action of the best option (earliest on ties)."""
    best = options[0].action
    best_score = float("-inf")
    for opt in options:
        s = score(d, opt)
        if s > best_score:
            best, best_score = opt.action, s
    return best
