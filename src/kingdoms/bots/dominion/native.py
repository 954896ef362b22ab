"""Strategy-bot games on the native Dominion core, where it can play them.

The native core (the Cython extension :mod:`kingdoms.dominion._cnative`) plays a
whole game between :class:`~kingdoms.bots.dominion.bots.StrategyBot` seats in C
structures.  It knows no card by name: this module gives it

* the card table, read from the card declarations (:data:`~kingdoms.dominion.cards.DECLARED`):
  costs, types, a Treasure's coins, a card's points and its declared steps as native
  step codes — ``Plus`` (+Cards, +Actions, +Buys, +$), ``EachOtherGains``,
  ``EachOtherDraws``, ``GainUpTo`` (the seat's gain rules, with their conditions, pick
  the card), ``MayDiscardDeck`` (its yes/no rules answer), ``DiscardAnyThenDraw`` (its
  discard rules pick, one card at a time, until ``done``), ``GainCard`` (a named
  card, to the discard pile, the hand or the deck), ``EachOtherTopdecks`` (each
  victim's rules for the card's ``topdeck`` pick, reading only the card and the
  supply), ``DrawToSettingAside`` (its yes/no rules, which may read the card drawn,
  answer), ``TrashOneFromHand`` (its trash rules pick; then a gain costing more or a
  draw per cost), ``TrashThis`` (the card played leaves play for the trash),
  ``TrashCardFor`` (a named card from the hand for +$, asked by the yes/no rules in
  the editions where it is optional), ``TrashUpTo`` (its trash rules pick one card at
  a time until ``done``), ``TrashOfTypeFromHand`` (its trash rules pick, ``done``
  where optional; then a gain costing more), ``TopdeckFromHand`` and
  ``MayTopdeckFromDiscard`` (its topdeck rules pick), ``EachOtherTrashesRevealed``
  (each victim's trash rules, reading only the card and the supply, pick; or the
  seat's own, then its gain rules pick the trashed cards it gains, Thief) and
  ``RevealTopEach`` (its yes/no rules, which may read the card and ``about_me``,
  answer), ``LookTrashDiscardReorder`` (its trash, discard and order rules) and
  ``DiscardPerEmptyPile`` (its discard rules pick, one card at a time),
  ``PlayActionTwice`` (its rules for the card's ``play``, then its play priorities,
  pick; the card chosen is resolved twice as one play), ``TopdeckTreasureAtCleanup``
  (a Clean-up ability: the core's Clean-up asks the card leaving play next by the
  ``cleanup.order`` rules while such a card and a Treasure are in play, and the
  Treasure put onto the deck by the card's ``topdeck`` rules, Herbalist) — and the
  card whose reveal answers an Attack (the engine's ``moat_ask`` task);
* each seat's plan, read from its strategy: the buy rules naming a card, the play
  priorities and play rules, the answer to that reaction, every condition translated
  from the syntax tree the strategy language compiled it from.

:func:`why_not` says what keeps a game off the native core (a card a seat can come to
own whose steps are not native, a custom step, a condition or a rule it cannot
evaluate, the errata option, logging...); such a game runs on the Python engine, the
reference.  The games are the same on both: same configuration, seed and decisions,
the same record (``tests/bots/test_native.py`` and ``bench/dominion_native_soak.py``
play seeded games both ways and compare them).  Without the extension (the
pure-Python path, ``KINGDOMS_PURE=1``, or a build that could not compile it) or with
``KINGDOMS_NATIVE=0``, nothing runs natively.
"""

from __future__ import annotations

import ast
import importlib
import itertools
import os
import random
from collections.abc import Iterable, Mapping, Sequence
from types import ModuleType
from typing import Any, Final, cast

from kingdoms.bots.dominion import adapter
from kingdoms.bots.dominion.bots import StrategyBot
from kingdoms.bots.dominion.conditions import _card_arg, condition_tree
from kingdoms.bots.dominion.strategy import (
    ACTION_COINS,
    ANY,
    CARD,
    DONE,
    NO,
    TYPE,
    YES,
    Rule,
    Strategy,
)
from kingdoms.bots.dominion.vocabulary import VARIABLES
from kingdoms.dominion import actions as A
from kingdoms.dominion.cards import COINS, DECLARED, VP
from kingdoms.dominion.cards.base import MOAT
from kingdoms.dominion.cards.steps import (
    ANY_GAIN,
    GAIN_RULES,
    DiscardAnyThenDraw,
    DiscardPerEmptyPile,
    DrawPerCost,
    DrawToSettingAside,
    EachOtherDiscardsDownTo,
    EachOtherDraws,
    EachOtherGains,
    EachOtherTopdecks,
    EachOtherTrashesRevealed,
    GainCard,
    GainCostingMore,
    GainUpTo,
    LookTrashDiscardReorder,
    MayDiscardDeck,
    MayTopdeckFromDiscard,
    PlayActionTwice,
    Plus,
    RevealTopEach,
    TopdeckFromHand,
    TopdeckTreasureAtCleanup,
    TrashCardFor,
    TrashOfTypeFromHand,
    TrashOneFromHand,
    TrashThis,
    TrashUpTo,
)
from kingdoms.dominion.data import (
    BY_ID,
    CARDS,
    COPPER,
    ESTATE,
    IS_ACTION,
    IS_ATTACK,
    IS_TREASURE,
    NUM_CARDS,
    POTION,
    PROVINCE,
    SILVER,
)
from kingdoms.dominion.rules import GARDENS, VINEYARD
from kingdoms.dominion.zones import ALL_UNKNOWN

NATIVE_ENV: Final = "KINGDOMS_NATIVE"

_S_PLUS, _S_OTHERS_GAIN, _S_OTHERS_DRAW, _S_OTHERS_DISCARD_DOWN, _S_GAIN = 1, 2, 3, 4, 5
_S_DISCARD_DECK, _S_DISCARD_DRAW, _S_GAIN_CARD, _S_OTHERS_TOPDECK, _S_DRAW_TO = 6, 7, 8, 9, 10
_S_TRASH_ONE, _S_TRASH_THIS, _S_TRASH_FOR, _S_TRASH_UP_TO, _S_TOPDECK_HAND = 11, 12, 13, 14, 15
_S_TOPDECK_DISCARD, _S_OTHERS_TRASH_REVEALED, _S_REVEAL_TOP_EACH, _S_TRASH_OF_TYPE = 16, 17, 18, 19
_S_LOOK_SORT, _S_DISCARD_PER_EMPTY, _S_PLAY_TWICE, _S_CLEANUP_TOPDECK = 20, 21, 22, 23
_THEN_GAIN, _THEN_DRAW = 1, 2
"""The follow-ups of a trash from the hand the native core plays."""
_YES_NO_STEPS: Final = (MayDiscardDeck, DrawToSettingAside, TrashCardFor, RevealTopEach)
"""The steps asking their player yes or no (one such step a card, native)."""
_TO: Final[Mapping[str, int]] = {"discard": 0, "hand": 1, "deck": 2}
"""A gain's destination as the native core's code."""
(
    _E_CONST, _E_VAR, _E_COUNT, _E_COUNT_T, _E_COUNT_THIS, _E_LEFT, _E_LEFT_THIS,
    _E_COST_THIS, _E_IS, _E_IS_T, _E_NOT, _E_NEG, _E_AND, _E_OR, _E_BIN, _E_CMP,
    _E_MIN, _E_MAX,
) = range(1, 19)  # fmt: skip
_VARS: Final[Mapping[str, int]] = {
    "total_money": 1,
    "money": 1,
    "empty_piles": 2,
    "turn": 3,
    "my_turns": 4,
    "coins": 5,
    "potions": 6,
    "buys": 7,
    "actions": 8,
    "vp": 9,
    "opp_vp": 10,
    "vp_lead": 11,
    "vp_deficit": 12,
    "deck_size": 13,
    "players": 14,
    "about_me": 15,
}
"""The condition variables the native core evaluates (the others: not native)."""
_BINS: Final[Mapping[type, int]] = {
    ast.Add: 1, ast.Sub: 2, ast.Mult: 3, ast.Div: 4, ast.FloorDiv: 5, ast.Mod: 6,
}  # fmt: skip
_CMPS: Final[Mapping[type, int]] = {
    ast.Lt: 1, ast.LtE: 2, ast.Gt: 3, ast.GtE: 4, ast.Eq: 5, ast.NotEq: 6,
}  # fmt: skip
_TYPE_BITS: Final[dict[str, int]] = {
    t: 1 << i for i, t in enumerate(sorted({t.lower() for c in CARDS for t in c.types}))
}
_GENERIC_PLAY: Final = frozenset(
    {
        Plus,
        EachOtherGains,
        EachOtherDraws,
        EachOtherDiscardsDownTo,
        GainUpTo,
        MayDiscardDeck,
        DiscardAnyThenDraw,
        GainCard,
        EachOtherTopdecks,
        DrawToSettingAside,
        TrashOneFromHand,
        TrashThis,
        TrashCardFor,
        TrashUpTo,
        TopdeckFromHand,
        MayTopdeckFromDiscard,
        EachOtherTrashesRevealed,
        RevealTopEach,
        TrashOfTypeFromHand,
        LookTrashDiscardReorder,
        DiscardPerEmptyPile,
        PlayActionTwice,
        TopdeckTreasureAtCleanup,
    }
)


class NotNative(Exception):
    """What keeps a game off the native core (its message says what)."""


def _module() -> ModuleType | None:
    if os.environ.get(NATIVE_ENV, "").strip().lower() in ("0", "false", "no"):
        return None
    try:
        return importlib.import_module("kingdoms.dominion._cnative")
    except ImportError:
        return None


_MOD: ModuleType | None = _module()


def available() -> bool:
    """Whether the native core is built and in use."""
    return _MOD is not None


# -- cards -----------------------------------------------------------------------------
def _steps(c: int) -> list[tuple[int, int, int, int, int]] | str:
    """Card ``c``'s declared steps as native step codes, or why they are not native."""
    card = CARDS[c]
    decl = DECLARED.get(card.id)
    if decl is None:
        return f"{card.id} is not declared"
    if c in (GARDENS, VINEYARD):
        return f"{card.id}'s points are counted by the engine"
    if IS_TREASURE[c] and (not COINS[c] or IS_ACTION[c] or decl.steps) and c != POTION:
        return f"{card.id} is a Treasure of its own kind"
    if "Reaction" in card.types and c != MOAT:
        return f"{card.id} reacts in its own way"
    out: list[tuple[int, int, int, int, int]] = []
    for step in decl.steps:
        kind = type(step)
        if kind not in _GENERIC_PLAY:
            return f"{card.id} has a {kind.__name__} step"
        if isinstance(step, Plus):
            out.append((_S_PLUS, step.cards, step.actions, step.buys, step.coins))
        elif isinstance(step, EachOtherGains):
            out.append((_S_OTHERS_GAIN, step.card, 0, 0, 0))
        elif isinstance(step, EachOtherDraws):
            out.append((_S_OTHERS_DRAW, step.n, 0, 0, 0))
        elif isinstance(step, EachOtherDiscardsDownTo):
            out.append((_S_OTHERS_DISCARD_DOWN, step.n, 0, 0, 0))
        elif isinstance(step, GainUpTo):
            rule = step.rule
            if rule.to not in _TO:
                return f"{card.id} gains to {rule.to!r}"
            how = _TO[rule.to] + (4 if rule.optional else 0)
            only = _TYPE_BITS[rule.only.lower()] if rule.only else 0
            out.append((_S_GAIN, step.coins, step.potions, how, only))
        elif isinstance(step, MayDiscardDeck):
            out.append((_S_DISCARD_DECK, 0, 0, 0, 0))
        elif isinstance(step, DiscardAnyThenDraw):
            out.append((_S_DISCARD_DRAW, 0, 0, 0, 0))
        elif isinstance(step, GainCard):
            if step.to not in _TO:
                return f"{card.id} gains to {step.to!r}"
            out.append((_S_GAIN_CARD, step.card, _TO[step.to], 0, 0))
        elif isinstance(step, EachOtherTopdecks):
            out.append((_S_OTHERS_TOPDECK, _TYPE_BITS[step.only.lower()], 0, 0, 0))
        elif isinstance(step, DrawToSettingAside):
            out.append((_S_DRAW_TO, step.n, _TYPE_BITS[step.only.lower()], 0, 0))
        elif isinstance(step, TrashOneFromHand):
            then = step.then
            if isinstance(then, GainCostingMore):
                rule = GAIN_RULES.get(c, ANY_GAIN)
                if rule.to not in _TO:
                    return f"{card.id} gains to {rule.to!r}"
                how = _TO[rule.to] + (4 if rule.optional else 0)
                only = _TYPE_BITS[rule.only.lower()] if rule.only else 0
                out.append((_S_TRASH_ONE, _THEN_GAIN, then.more, how, only))
            elif isinstance(then, DrawPerCost):
                out.append((_S_TRASH_ONE, _THEN_DRAW, then.per_potion, 0, 0))
            else:
                return f"{card.id}'s trash has a follow-up of its own"
        elif isinstance(step, TrashThis):
            out.append((_S_TRASH_THIS, 0, 0, 0, 0))
        elif isinstance(step, TrashCardFor):
            editions = sum(1 << e for e in step.optional_in if 0 <= e < 31)
            out.append((_S_TRASH_FOR, step.card, step.coins, editions, 0))
        elif isinstance(step, TrashUpTo):
            out.append((_S_TRASH_UP_TO, step.n, 0, 0, 0))
        elif isinstance(step, TopdeckFromHand):
            out.append((_S_TOPDECK_HAND, 0, 0, 0, 0))
        elif isinstance(step, MayTopdeckFromDiscard):
            out.append((_S_TOPDECK_DISCARD, 0, 0, 0, 0))
        elif isinstance(step, EachOtherTrashesRevealed):
            how = int(step.by_you) | int(step.may_gain) << 1
            bits = _TYPE_BITS[step.only.lower()]
            out.append((_S_OTHERS_TRASH_REVEALED, bits, step.spare, how, 0))
        elif isinstance(step, RevealTopEach):
            out.append((_S_REVEAL_TOP_EACH, 0, 0, 0, 0))
        elif isinstance(step, TrashOfTypeFromHand):
            if not isinstance(step.then, GainCostingMore):
                return f"{card.id}'s trash has a follow-up of its own"
            rule = GAIN_RULES.get(c, ANY_GAIN)
            if rule.to not in _TO:
                return f"{card.id} gains to {rule.to!r}"
            how = _TO[rule.to] + (4 if rule.optional else 0)
            only = _TYPE_BITS[rule.only.lower()] if rule.only else 0
            editions = sum(1 << e for e in step.optional_in if 0 <= e < 31)
            bits = _TYPE_BITS[step.only.lower()]
            out.append((_S_TRASH_OF_TYPE, bits, step.then.more, editions, how | only << 3))
        elif isinstance(step, LookTrashDiscardReorder):
            if not 1 <= step.n <= 2:
                return f"{card.id} looks at {step.n} cards"
            out.append((_S_LOOK_SORT, step.n, 0, 0, 0))
        elif isinstance(step, DiscardPerEmptyPile):
            out.append((_S_DISCARD_PER_EMPTY, 0, 0, 0, 0))
        elif isinstance(step, PlayActionTwice):
            editions = sum(1 << e for e in step.optional_in if 0 <= e < 31)
            out.append((_S_PLAY_TWICE, editions, 0, 0, 0))
        elif isinstance(step, TopdeckTreasureAtCleanup):
            out.append((_S_CLEANUP_TOPDECK, 0, 0, 0, 0))
    if sum(isinstance(step, _YES_NO_STEPS) for step in decl.steps) > 1:
        return f"{card.id} asks more than one yes/no question"
    if sum(isinstance(step, PlayActionTwice) for step in decl.steps) > 1:
        return f"{card.id} asks more than one card to play"
    if sum(isinstance(step, _DISCARD_STEPS) for step in decl.steps) > 1:
        return f"{card.id} asks more than one card to discard"
    if sum(isinstance(step, _TOPDECK_STEPS) for step in decl.steps) > 1:
        return f"{card.id} asks more than one card to put onto a deck"
    if sum(isinstance(step, _TRASH_STEPS) for step in decl.steps) > 1:
        return f"{card.id} asks more than one card to trash"
    if decl.steps and not IS_ACTION[c]:
        return f"{card.id} has steps but is no Action"
    verbs = {v for step in decl.steps for v in getattr(step, "verbs", (step.verb,)) if v}
    own = set(decl.prompts) - verbs - _then_verbs(c)
    if own and c != MOAT:  # e.g. Alchemist's Clean-up question (with a Potion in play)
        return f"{card.id} asks a decision of its own ({', '.join(sorted(own))})"
    return out


def _then_verbs(c: int) -> set[str]:
    """The verbs of the decisions the follow-ups of ``c``'s steps ask (a gain)."""
    return {
        "gain"
        for step in _declared_steps(c)
        if isinstance(step, _TRASH_THEN) and isinstance(step.then, GainCostingMore)
    }


_TRASH_THEN: Final = (TrashOneFromHand, TrashOfTypeFromHand)
"""The steps trashing a card from the hand with a follow-up depending on it."""


def _gains(c: int) -> bool:
    """Whether ``c``'s steps ask its player to gain a card of its choice (Thief: of
    the cards it trashed)."""
    return any(
        isinstance(step, GainUpTo) or (isinstance(step, EachOtherTrashesRevealed) and step.may_gain)
        for step in _declared_steps(c)
    ) or bool(_then_verbs(c))


_TABLE: list[Any] = []
_UNSUPPORTED: dict[int, str] = {}


def _cards() -> Any:
    """The native card table (made once)."""
    if _TABLE and _TABLE[0][0] == len(CARDS):
        return _TABLE[0][1]
    assert _MOD is not None
    rows = []
    steps: list[list[tuple[int, int, int, int, int]]] = []
    _UNSUPPORTED.clear()
    for card in CARDS:
        c = card.index
        money = adapter.TREASURE_VALUES.get(card.id) or ACTION_COINS.get(card.id) or 0
        mask = 0
        for t in card.types:
            mask |= _TYPE_BITS[t.lower()]
        rows.append(
            (card.cost[0], card.cost[1], COINS[c], VP[c], money, mask,
             int(IS_ACTION[c]), int(IS_TREASURE[c]), int(IS_ATTACK[c]))
        )  # fmt: skip
        got = _steps(c)
        if isinstance(got, str):
            _UNSUPPORTED[c] = got
            steps.append([])
        else:
            steps.append(got)
    actions = (
        A.PLAY, A.BUY, A.CHOOSE, A.A_YES, A.A_NO, A.A_ALL_TREASURES, A.A_END_PHASE,
        A.GAIN, A.A_DONE,
    )  # fmt: skip
    table = _MOD.Cards(
        len(CARDS), rows, steps, MOAT, PROVINCE, SILVER, A.NUM_KINDS, actions, POTION
    )
    _TABLE[:] = [(len(CARDS), table)]
    return table


# -- conditions --------------------------------------------------------------------------
class _Nodes:
    """A condition's syntax tree as the native core's expression nodes."""

    def __init__(self) -> None:
        self.rows: list[list[Any]] = [[0, 0, 0, 0, 0, 0.0, 0]]  # 0: no condition

    def add(self, op: int, a: int = 0, b: int = 0, ival: int = 0, dval: float = 0.0) -> int:
        self.rows.append([op, a, b, 0, ival, dval, 0])
        return len(self.rows) - 1

    def chain(self, op: int, items: Sequence[int], ival: int = 0) -> int:
        for x, y in itertools.pairwise(items):
            self.rows[x][3] = y
        return self.add(op, items[0], 0, ival)

    def cond(self, fn: Any) -> int:
        if fn is None:
            return 0
        tree = condition_tree(fn)
        if tree is None:
            raise NotNative("a condition not made by the strategy language")
        return self.node(tree, True)

    def node(self, node: ast.expr, truth: bool) -> int:
        """``truth``: the value is only read as true or false (``and``/``or`` allowed)."""
        if isinstance(node, ast.Constant) and isinstance(node.value, bool | int | float):
            return self.add(_E_CONST, dval=float(node.value))
        if isinstance(node, ast.Name):
            if node.id in ("true", "True", "false", "False"):
                return self.add(_E_CONST, dval=float(node.id in ("true", "True")))
            name = node.id.lower()
            code = _VARS.get(name)
            if code is None or name not in VARIABLES:
                raise NotNative(f"the condition variable {node.id!r}")
            return self.add(_E_VAR, ival=code)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
            fname = node.func.id.lower()
            if fname in ("count", "left", "cost") and len(node.args) == 1:
                kind, key = _card_arg(fname, node.args[0])
                if fname == "count":
                    if kind == "type":
                        return self.add(_E_COUNT_T, ival=_TYPE_BITS[key])
                    if kind == "this":
                        return self.add(_E_COUNT_THIS)
                    return self.add(_E_COUNT, ival=BY_ID[key])
                if fname == "left":
                    if kind == "this":
                        return self.add(_E_LEFT_THIS)
                    return self.add(_E_LEFT, ival=BY_ID[key])
                if kind == "this":
                    return self.add(_E_COST_THIS)
                cost = adapter.COSTS[key] + adapter.POTION_COSTS.get(key, 0)
                return self.add(_E_CONST, dval=float(cost))
            if fname == "is" and len(node.args) == 2:
                kind, key = _card_arg(fname, node.args[1])
                if kind == "type":
                    return self.add(_E_IS_T, ival=_TYPE_BITS[key])
                return self.add(_E_IS, ival=BY_ID[key])
            if fname in ("min", "max") and len(node.args) >= 2:
                parts = [self.node(a, False) for a in node.args]
                return self.chain(_E_MIN if fname == "min" else _E_MAX, parts)
            raise NotNative(f"the condition function {node.func.id}()")
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, ast.Not):
                return self.add(_E_NOT, self.node(node.operand, True))
            if isinstance(node.op, ast.USub):
                return self.add(_E_NEG, self.node(node.operand, False))
            if isinstance(node.op, ast.UAdd):
                return self.node(node.operand, truth)
        if isinstance(node, ast.BoolOp) and truth:
            parts = [self.node(v, True) for v in node.values]
            return self.chain(_E_AND if isinstance(node.op, ast.And) else _E_OR, parts)
        if isinstance(node, ast.BinOp) and type(node.op) in _BINS:
            a, b = self.node(node.left, False), self.node(node.right, False)
            return self.add(_E_BIN, a, b, _BINS[type(node.op)])
        if isinstance(node, ast.Compare) and all(type(o) in _CMPS for o in node.ops):
            items = [self.node(node.left, False)]
            for op, right in zip(node.ops, node.comparators, strict=True):
                i = self.node(right, False)
                self.rows[i][6] = _CMPS[type(op)]
                items.append(i)
            return self.chain(_E_CMP, items)
        raise NotNative(f"the condition {ast.unparse(node)!r}")


# -- plans ------------------------------------------------------------------------------
def _reaction_answer(bot: StrategyBot) -> int | str:
    """The bot's answer to revealing the reaction card (1 yes, 0 no), or why it
    depends on more than the rules say."""
    for r in bot._chain(f"{CARDS[MOAT].id}.reveal"):
        if r.target in (YES, NO):
            if r.cond is not None:
                return "a conditional answer to a reaction"
            return 1 if r.target == YES else 0
    return 1  # no rule: the bot answers yes


_PLANS: dict[tuple[Any, ...], tuple[Strategy, Strategy, Any]] = {}
"""(id of the strategy, of the default, whether the reaction is asked) -> the
strategies and their plan (or the reason there is none), checked by identity."""


def _plan(
    bot: StrategyBot,
    needs_reaction: bool,
    discards: tuple[int, ...] = (),
    gains: tuple[int, ...] = (),
    asks: tuple[int, ...] = (),
    topdecks: tuple[int, ...] = (),
    trashes: tuple[int, ...] = (),
    orders: tuple[int, ...] = (),
    plays: tuple[int, ...] = (),
) -> Any:
    """The seat's plan for the native core (made once per strategy), or
    :class:`NotNative`; ``discards``: the cards whose Attacks make it discard;
    ``gains``: the cards whose steps make it gain a card of its choice; ``asks``: the
    cards whose steps ask it yes or no; ``topdecks``: the cards whose Attacks make it
    put a card of its hand onto its deck; ``trashes``: the cards whose steps make it
    trash a card from its hand; ``orders``: the cards whose steps make it choose the
    card going on top of its deck, or (a Clean-up ability) the card leaving play next
    (``cleanup.order``); ``plays``: the cards whose steps make it choose an
    Action card to play twice."""
    key = (
        id(bot.strategy), id(bot.default), needs_reaction, discards, gains, asks, topdecks,
        trashes, orders, plays,
    )  # fmt: skip
    found = _PLANS.get(key)
    if found is None or found[0] is not bot.strategy or found[1] is not bot.default:
        try:
            plan: Any = _make_plan(
                bot, needs_reaction, discards, gains, asks, topdecks, trashes, orders, plays
            )
        except NotNative as err:
            plan = str(err)
        except (KeyError, ValueError) as err:  # a card or type added at run time, a huge file
            plan = f"the strategy does not fit the native core ({err})"
        if len(_PLANS) >= 256:
            _PLANS.clear()
        found = _PLANS[key] = (bot.strategy, bot.default, plan)
    if isinstance(found[2], str):
        raise NotNative(found[2])
    return found[2]


def _reads_known_top(strategy: Strategy) -> str:
    """The text of the first rule of ``strategy`` whose condition calls
    ``known_top()``, or ``""``."""
    rules = [*strategy.buy, *strategy.play]
    for chain in strategy.decisions.values():
        rules += chain
    for r in rules:
        tree = condition_tree(r.cond) if r.cond is not None else None
        if tree is None:
            continue
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id.lower() == "known_top"
            ):
                return r.text
    return ""


def _choice_rules(bot: StrategyBot, purpose: str) -> list[tuple[int, int, int, int]]:
    """The rules of a decision choosing cards, as the native core's rule rows (a
    condition in them: not native)."""
    out: list[tuple[int, int, int, int]] = []
    for r in bot._chain(purpose):
        if r.target in (YES, NO) or r.target > ANY:
            continue  # yes / no / done: no part of a forced choice of cards
        if r.cond is not None:
            raise NotNative(f"a condition in the {purpose} rules")
        out.append((r.target, _rule_key(r), r.pick, 0))
    return out


def _decision_rules(
    bot: StrategyBot, purpose: str, nodes: _Nodes
) -> list[tuple[int, int, int, int]]:
    """The rules of a decision choosing a card (or ``done``), as the native core's
    rule rows with their conditions (a condition on ``done``: not native, as it reads
    the card the rules before it tried last)."""
    out: list[tuple[int, int, int, int]] = []
    for r in bot._chain(purpose):
        if r.target == DONE:
            if r.cond is not None:
                raise NotNative(f"a condition on done in the {purpose} rules")
            out.append((DONE, 0, 0, 0))
        elif r.target <= ANY:
            out.append((r.target, _rule_key(r), r.pick, nodes.cond(r.cond)))
    return out


_PUBLIC_NODES: Final = frozenset(
    {_E_CONST, _E_LEFT, _E_LEFT_THIS, _E_COST_THIS, _E_IS, _E_IS_T, _E_NOT, _E_NEG, _E_AND,
     _E_OR, _E_BIN, _E_CMP, _E_MIN, _E_MAX}
)  # fmt: skip
"""Expression nodes that read only the card a rule is tried on and the supply."""


def _victim_rules(bot: StrategyBot, purpose: str, nodes: _Nodes) -> list[tuple[int, int, int, int]]:
    """The rules of a forced choice of cards an Attack asks a seat out of its turn, as
    rule rows; their conditions may read the card and the supply only (a seat's own
    figures out of its turn: not native)."""
    out: list[tuple[int, int, int, int]] = []
    for r in bot._chain(purpose):
        if r.target > ANY:
            continue  # yes / no / done: no part of a forced choice of cards
        first = len(nodes.rows)
        cond = nodes.cond(r.cond)
        if any(row[0] not in _PUBLIC_NODES for row in nodes.rows[first:]):
            raise NotNative(f"a condition reading more than the card in the {purpose} rules")
        out.append((r.target, _rule_key(r), r.pick, cond))
    return out


_CARD_NODES: Final = frozenset({_E_COUNT_THIS, _E_LEFT_THIS, _E_COST_THIS, _E_IS, _E_IS_T})
"""Expression nodes reading the card a rule is tried on."""


def _yes_no_rules(
    bot: StrategyBot, purpose: str, nodes: _Nodes, about_card: bool = False
) -> list[tuple[int, int, int, int]]:
    """The ``yes``/``no`` rules of a question, as rule rows with their conditions;
    ``about_card``: the question is about a card, which the conditions may read (else
    a condition reading a card: not native)."""
    out: list[tuple[int, int, int, int]] = []
    for r in bot._chain(purpose):
        if r.target in (YES, NO):
            first = len(nodes.rows)
            cond = nodes.cond(r.cond)
            if not about_card and any(row[0] in _CARD_NODES for row in nodes.rows[first:]):
                raise NotNative(f"a condition reading a card in the {purpose} rules")
            out.append((r.target, 0, 0, cond))
    return out


def _rule_key(r: Rule) -> int:
    if r.target == CARD:
        return BY_ID[r.key]
    if r.target == TYPE:
        return _TYPE_BITS[r.key]
    return 0


def _make_plan(
    bot: StrategyBot,
    needs_reaction: bool,
    discards: tuple[int, ...],
    gains: tuple[int, ...],
    asks: tuple[int, ...] = (),
    topdecks: tuple[int, ...] = (),
    trashes: tuple[int, ...] = (),
    orders: tuple[int, ...] = (),
    twice: tuple[int, ...] = (),
) -> Any:
    strategy: Strategy = bot.strategy
    if strategy.styles:  # decided by the Python bot (kingdoms.bots.dominion.styles)
        named = ", ".join(f"{c} = {v!r}" for c, v in sorted(strategy.styles.items()))
        raise NotNative(f"play styles ({named})")
    known = _reads_known_top(strategy)
    if known:  # the native core keeps no known top cards
        raise NotNative(f"the condition function known_top() in {known!r}")
    assert _MOD is not None
    nodes = _Nodes()
    buys: list[tuple[int, int]] = []
    for r in strategy.buy:
        if r.target != CARD or r.key not in BY_ID:
            raise NotNative(f"the buy rule {r.text!r} (not one card)")
        buys.append((BY_ID[r.key], nodes.cond(r.cond)))
    plays: tuple[Rule, ...] = strategy.play + (bot.default.play if strategy.play_others else ())
    prefix: list[int] = []
    for r in plays:
        if r.target != CARD or r.cond is not None or r.key not in BY_ID:
            break
        prefix.append(BY_ID[r.key])
    rest: list[tuple[int, int, int, int]] = []
    for r in plays[len(prefix) :]:
        if r.target == CARD:
            key = BY_ID[r.key]
        elif r.target == TYPE:
            key = _TYPE_BITS[r.key]
        elif r.target == ANY:
            key = 0
        else:
            continue  # yes / no / done: skipped in a play list
        rest.append((r.target, key, r.pick, nodes.cond(r.cond)))
    react = _reaction_answer(bot) if needs_reaction else 1
    if isinstance(react, str):
        raise NotNative(react)
    chains = [
        (c, _decision_rules(bot, f"{CARDS[c].id}.discard", nodes))
        if any(
            isinstance(s, DiscardAnyThenDraw | LookTrashDiscardReorder | DiscardPerEmptyPile)
            for s in _declared_steps(c)
        )
        else (c, _choice_rules(bot, f"{CARDS[c].id}.discard"))
        for c in discards
    ]
    # a card with a Clean-up ability: the order cards leave play (``cleanup.order``)
    order_chains = [
        (c, _decision_rules(bot, "cleanup.order" if _cleans_up(c) else f"{CARDS[c].id}.order",
                            nodes))
        for c in orders
    ]  # fmt: skip
    # the card to play twice: the rules for it, then the play priorities (as the engine)
    play_chains = [(c, _decision_rules(bot, f"{CARDS[c].id}.play", nodes)) for c in twice]
    gain_chains = [(c, _decision_rules(bot, f"{CARDS[c].id}.gain", nodes)) for c in gains]
    ask_chains = [
        (
            c,
            _yes_no_rules(
                bot, f"{CARDS[c].id}.{s.verb}", nodes, isinstance(s, _ABOUT_A_CARD_STEPS)
            ),
        )
        for c in asks
        for s in _declared_steps(c)
        if isinstance(s, _YES_NO_STEPS)
    ]
    # an Attack's choice is the victim's, out of its turn; the others are the seat's own
    topdeck_chains = [
        (c, (_victim_rules if _is_attack_step(c, EachOtherTopdecks) else _decision_rules)(
            bot, f"{CARDS[c].id}.topdeck", nodes))
        for c in topdecks
    ]  # fmt: skip
    trash_chains = [
        (c, (_victim_rules if _victim_trashes(c) else _decision_rules)(
            bot, f"{CARDS[c].id}.trash", nodes))
        for c in trashes
    ]  # fmt: skip
    return _MOD.Plan(
        nodes.rows, buys, int(strategy.guard), prefix, rest, react, chains, gain_chains,
        ask_chains, topdeck_chains, trash_chains, order_chains, play_chains,
    )  # fmt: skip


_ABOUT_A_CARD_STEPS: Final = (DrawToSettingAside, RevealTopEach)
"""The yes/no steps whose question is about a card (the rules may read it)."""
_DISCARD_STEPS: Final = (
    EachOtherDiscardsDownTo, DiscardAnyThenDraw, LookTrashDiscardReorder, DiscardPerEmptyPile,
)  # fmt: skip
"""The steps asking a seat to discard (one such step a card, native)."""
_TOPDECK_STEPS: Final = (
    EachOtherTopdecks, TopdeckFromHand, MayTopdeckFromDiscard, TopdeckTreasureAtCleanup,
)  # fmt: skip
_TRASH_STEPS: Final = (
    TrashOneFromHand, TrashUpTo, EachOtherTrashesRevealed, TrashOfTypeFromHand,
    LookTrashDiscardReorder,
)  # fmt: skip


def _victim_trashes(c: int) -> bool:
    """Whether ``c``'s Attack makes its victims choose the card they trash (Bandit; a
    Thief's player chooses)."""
    return any(
        isinstance(step, EachOtherTrashesRevealed) and not step.by_you
        for step in _declared_steps(c)
    )


def _is_attack_step(c: int, kind: type) -> bool:
    """Whether ``c`` has a step of ``kind`` (a choice its Attack asks its victims)."""
    return any(isinstance(step, kind) for step in _declared_steps(c))


def _ownable(
    piles: Sequence[int], bots: Sequence[StrategyBot], owned_now: Iterable[int] = ()
) -> set[int]:
    """Every card a seat can come to own: the starting cards (and ``owned_now``, the
    cards owned already), the piles its buy rules name, and what the owned Actions
    make others gain, the cards they gain by name, every card their gains within a
    cost may take and, for a gain costing more than a trashed card, every card up to
    the dearest card owned and that much more."""
    out = {COPPER, ESTATE, *owned_now}
    pile_set = set(piles)
    for bot in bots:
        for r in bot.strategy.buy:
            c = BY_ID.get(r.key)
            if c is not None and c in pile_set:
                out.add(c)
    todo = list(out)
    while todo:
        while todo:
            decl = DECLARED.get(CARDS[todo.pop()].id)
            for step in decl.steps if decl else ():
                if isinstance(step, EachOtherGains | GainCard):
                    found = [step.card] if step.card in pile_set else []
                elif isinstance(step, GainUpTo):
                    found = _within(piles, step.coins, step.potions, step.rule.only)
                else:
                    continue
                for c in found:
                    if c not in out:
                        out.add(c)
                        todo.append(c)
        # a gain costing more than a trashed card: up to the dearest card owned, and more
        coins = max(CARDS[c].cost[0] for c in out)
        potions = max(CARDS[c].cost[1] for c in out)
        for c0 in sorted(out):
            for step in _declared_steps(c0):
                if isinstance(step, _TRASH_THEN) and isinstance(step.then, GainCostingMore):
                    only = GAIN_RULES.get(c0, ANY_GAIN).only
                    for c in _within(piles, coins + step.then.more, potions, only):
                        if c not in out:
                            out.add(c)
                            todo.append(c)
    return out


def _within(piles: Sequence[int], coins: int, potions: int, only: str) -> list[int]:
    """The piles costing at most ``coins`` and ``potions`` (of the type ``only``, if
    given)."""
    return [
        c
        for c in piles
        if CARDS[c].cost[0] <= coins
        and CARDS[c].cost[1] <= potions
        and (not only or only in CARDS[c].types)
    ]


def native_run(
    piles: Sequence[int],
    supply: Sequence[int],
    bots: Sequence[object],
    options: Mapping[str, Any],
    owned_now: Iterable[int] = (),
) -> Any:
    """The native core's run of a game of these piles and bots (one plan per seat, in
    seat order), or :class:`NotNative` saying why it cannot play it.  ``owned_now``:
    the cards the seats own already (a game played on from the middle: they count as
    cards a seat can own, whatever the bots' rules buy)."""
    if _MOD is None:
        raise NotNative("the native core is not built (or KINGDOMS_NATIVE=0)")
    if options.get("alchemy_errata"):
        raise NotNative("the Alchemy errata option")
    seats: list[StrategyBot] = []
    for bot in bots:
        if type(bot) is not StrategyBot:
            raise NotNative(f"the bot {getattr(bot, 'name', bot)!r} is not a strategy bot")
        seats.append(bot)
    if len(supply) != NUM_CARDS or any(c >= NUM_CARDS for c in piles):
        raise NotNative("a card added at run time")
    try:
        table = _cards()
    except (KeyError, ValueError) as err:  # more cards or types than the core holds
        raise NotNative(f"the card list does not fit the native core ({err})") from None
    owned = _ownable(piles, seats, owned_now)
    for c in sorted(owned):
        if c in _UNSUPPORTED:
            raise NotNative(_UNSUPPORTED[c])
    attacks = any(IS_ATTACK[c] for c in owned)
    reaction = attacks and MOAT in owned
    discards = tuple(
        c
        for c in sorted(owned)
        if any(isinstance(step, _DISCARD_STEPS) for step in _declared_steps(c))
    )
    orders = tuple(
        c
        for c in sorted(owned)
        if any(
            isinstance(step, LookTrashDiscardReorder | TopdeckTreasureAtCleanup)
            for step in _declared_steps(c)
        )
    )
    gains = tuple(c for c in sorted(owned) if _gains(c))
    asks = tuple(
        c
        for c in sorted(owned)
        if any(isinstance(step, _YES_NO_STEPS) for step in _declared_steps(c))
    )
    topdecks = tuple(
        c
        for c in sorted(owned)
        if any(isinstance(step, _TOPDECK_STEPS) for step in _declared_steps(c))
    )
    trashes = tuple(
        c
        for c in sorted(owned)
        if any(isinstance(step, _TRASH_STEPS) for step in _declared_steps(c))
    )
    plays = tuple(
        c
        for c in sorted(owned)
        if any(isinstance(step, PlayActionTwice) for step in _declared_steps(c))
    )
    plans = [
        _plan(bot, reaction, discards, gains, asks, topdecks, trashes, orders, plays)
        for bot in seats
    ]
    edition = int(options.get("base_edition", 1))
    return _MOD.Run(table, _MOD.Setup(list(piles), list(supply), edition), plans)


def _cleans_up(c: int) -> bool:
    """Whether ``c`` has a Clean-up ability (its seat orders the cards leaving play)."""
    return any(isinstance(step, TopdeckTreasureAtCleanup) for step in _declared_steps(c))


def _declared_steps(c: int) -> tuple[Any, ...]:
    decl = DECLARED.get(CARDS[c].id)
    return decl.steps if decl else ()


def why_not(state: Any, bots: Sequence[object]) -> str | None:
    """Why the native core cannot play ``state`` on with ``bots`` (None: it can)."""
    try:
        _checked_run(state, bots)
    except NotNative as err:
        return str(err)
    return None


def _checked_run(state: Any, bots: Sequence[object]) -> Any:
    _check_state(state)
    return native_run(state.piles, state.supply, bots, state.config.options, owned_cards(state))


def owned_cards(state: Any) -> frozenset[int]:
    """The cards any seat of ``state`` owns."""
    out: set[int] = set()
    for counts in state.owned_counts:
        out.update(itertools.compress(range(len(counts)), counts))
    return frozenset(out)


def _check_state(state: Any) -> None:
    """Raise :class:`NotNative` if ``state`` itself (not its cards or bots) keeps it
    off the native core."""
    if state.logging:
        raise NotNative("logging is on (the native core writes no log)")
    if sum(state.totals) > 600:
        raise NotNative("more cards than the native zones hold")
    if state.stack or state.phase not in (0, 1):
        raise NotNative("a pending decision or the Clean-up")
    if (
        state.controller >= 0
        or state.extra_turn
        or state.created
        or state.extra_queue
        or state.deferred
        or state.possessed_trash
        or state.seen_hands
        or state.merchants
        or any(state.aside)
        or any(state.looking)
        or any(state.discarding)
    ):
        raise NotNative("effects in progress (Possession, set-aside cards, Merchant...)")


_STATE_RUNS: dict[tuple[Any, ...], tuple[tuple[Strategy, ...], Any]] = {}
""":func:`play_state`'s runs: (piles, ids of the seats' strategies and defaults, cards
owned, options) -> those strategies and the native run (or why there is none),
checked by identity."""
_STATE_RUNS_MAX: Final = 256


def _kept_run(state: Any, bots: Sequence[object]) -> Any:
    """:func:`_checked_run`, the run (or :class:`NotNative`'s reason) kept per kingdom,
    seats' strategies, cards owned and options: a program that plays many games of
    one kingdom with the same bots (the public API's ``play_out``) builds it once.
    What else a run depends on is the state's own, checked each time."""
    _check_state(state)
    options = state.config.options
    owned = owned_cards(state)
    if not all(type(bot) is StrategyBot for bot in bots):  # raises NotNative, naming one
        return native_run(state.piles, state.supply, bots, options, owned)
    seats = cast("Sequence[StrategyBot]", bots)
    strategies = tuple(s for bot in seats for s in (bot.strategy, bot.default))
    key = (
        tuple(state.piles),
        len(state.supply),
        tuple(map(id, strategies)),
        owned,
        bool(options.get("alchemy_errata")),
        int(options.get("base_edition", 1)),
    )
    found = _STATE_RUNS.get(key)
    if found is None or any(a is not b for a, b in zip(found[0], strategies, strict=True)):
        try:
            run: Any = native_run(state.piles, state.supply, seats, options, owned)
        except NotNative as err:
            run = str(err)
        if len(_STATE_RUNS) >= _STATE_RUNS_MAX:
            _STATE_RUNS.clear()
        found = _STATE_RUNS[key] = (strategies, run)
    if isinstance(found[1], str):
        raise NotNative(found[1])
    return found[1]


def play_state(state: Any, bots: Sequence[object], max_steps: int) -> bool:
    """Play ``state`` to its end on the native core with ``bots`` (one per seat) and
    write the game back into it, as the Python engine would leave it; False, and
    ``state`` untouched, when the native core cannot (:func:`why_not`) or the game
    outlasts ``max_steps``."""
    if _MOD is None:
        return False
    try:
        run = _kept_run(state, bots)
    except NotNative:
        return False
    assert _MOD is not None
    if not _MOD.play_state(run, state, max_steps):
        return False
    _game_over(state)
    return True


def _game_over(state: Any) -> None:
    """What the Python engine also resets when a game ends: no seat knows any of its
    deck's order (the native core does not keep it)."""
    state.deck_unknown = [ALL_UNKNOWN] * state.num_players


_RUNS: dict[Any, Any] = {}
"""Rollout key -> the native run of that kingdom and those bots, or None (not native)."""
_RUNS_MAX: Final = 256


def play_rollout(
    state: Any, bots: Sequence[StrategyBot], key: Any, max_steps: int, seed: int | None = None
) -> int:
    """:func:`play_state` for the search's rollouts, which play the same kingdom with
    the same few bots thousands of times: what the cards and bots allow (the native
    run, or that there is none) is worked out once per ``key`` — which must name the
    kingdom's piles, the bots and the options that matter (:func:`rollout_key`) — and
    only the state's own conditions are checked each time.  1: played to the end;
    0: not native in this state (a decision pending, effects in progress: the Python
    engine plays on, and may ask again later); -2: never natively with this key (the
    cards or the bots); -1: the game outlasted ``max_steps`` (``state`` untouched).
    ``seed``: the game goes on with the generator ``random.Random(seed)`` and
    ``state.rng`` is left as it was (see ``play_state``)."""
    if _MOD is None:
        return 0
    run = _RUNS.get(key, _RUNS)
    if run is _RUNS:
        try:
            run = native_run(
                state.piles, state.supply, bots, state.config.options, owned_cards(state)
            )
        except NotNative:
            run = None
        if len(_RUNS) >= _RUNS_MAX:
            _RUNS.clear()
        _RUNS[key] = run
    if run is None:
        return -2
    try:
        _check_state(state)
    except NotNative:
        return 0
    if not _MOD.play_state(run, state, max_steps, seed):
        return -1
    _game_over(state)
    return 1


def rollout_key(
    state: Any, names: Sequence[str], owned: frozenset[int] | None = None
) -> tuple[Any, ...]:
    """What decides whether (and how) the native core plays ``state``'s kingdom with
    the bundled strategies ``names``: the piles, the names, the cards the seats own
    already (``owned``, else :func:`owned_cards`), the errata option and the base set's
    edition (the supply's size only bounds the zones, checked per state)."""
    return (
        tuple(state.piles),
        tuple(names),
        owned_cards(state) if owned is None else owned,
        bool(state.config.options.get("alchemy_errata")),
        int(state.config.options.get("base_edition", 1)),
    )


def play_seeded(
    run: Any, players: int, seed: int, first: int | None, max_steps: int, history: bool = False
) -> tuple[list[int], list[int], str, list[int], list[int] | None] | None:
    """A new game of ``run`` from ``seed`` (the deal ``DominionState`` makes from that
    seed; ``first`` the starting seat, None: drawn as the engine draws it) played to
    its end: ``(vp, turns, ended_by, supply, history)``; None when it outlasts
    ``max_steps``."""
    assert _MOD is not None
    got = _MOD.play_seeded(
        run, players, seed, -1 if first is None else first, COPPER, ESTATE, max_steps, history
    )
    return None if got is None else tuple(got)


# -- the differential check ----------------------------------------------------------------
_KINGDOM_SETS: Final = ("base", "base-1e", "base-2e", "alchemy")
_NATIVE_NAMES: list[str] = []


def differential_game(seed: int) -> tuple[bool, str]:
    """One seeded random game played both ways: on the native core and on the Python
    engine (the reference), from the same state.  Returns ``(played natively, what
    differed)``: ``""`` when the two games are the same (history, and the snapshot of
    the final state: zones, supply, turns, the random generator...), else the first
    difference; a game the native core cannot play is played by the engine alone.

    The setup comes from the seed: 2–6 players, each seat a bundled strategy (mostly
    one the native core plays; in half the games one seat plays Big Money with up to
    two of a random kingdom card, :func:`one_of`, so that every card is played), a
    kingdom holding the cards their buy rules name (filled at random to 10 cards of
    every set), either edition: native games and fallbacks (custom steps, conditions
    the core does not read)."""
    import random

    from kingdoms.bots.dominion.bots import _play_game, bundled_bot
    from kingdoms.bots.dominion.bundled import bundled_names
    from kingdoms.core import new_game
    from kingdoms.core.runner import DEFAULT_MAX_STEPS, seat_rngs

    rng = random.Random(seed)
    players = rng.choice((2, 2, 2, 3, 4, 5, 6))
    names = [n for n in bundled_names() if n != "default"]
    pool = [c.id for c in CARDS if c.set in _KINGDOM_SETS]
    if not _NATIVE_NAMES:
        for name in names:  # the strategies the native core plays in their own kingdom
            bot = bundled_bot(name)
            own = [r.key for r in bot.strategy.buy if r.key in pool][:10]
            own += [c for c in pool if c not in own][: 10 - len(own)]
            from kingdoms.dominion.state import _setup

            piles, supply = _setup(own, 2)
            try:
                native_run(piles, supply, [bot, bot], {})
            except NotNative:
                continue
            _NATIVE_NAMES.append(name)
    # most seats play a strategy the native core can play, some any strategy
    bots = [
        bundled_bot(rng.choice(_NATIVE_NAMES if rng.random() < 0.85 else names))
        for _ in range(players)
    ]
    if rng.random() < 0.5:
        actions = [c for c in pool if IS_ACTION[BY_ID[c]]]
        bots[rng.randrange(players)] = one_of(rng.choice(actions))
    kingdom: list[str] = []
    for bot in bots:
        for r in bot.strategy.buy:
            if r.key in pool and r.key not in kingdom and len(kingdom) < 10:
                kingdom.append(r.key)
    while len(kingdom) < 10:
        c = rng.choice(pool)
        if c not in kingdom:
            kingdom.append(c)
    opts = {"kingdom": kingdom, "base_edition": rng.choice((1, 2))}
    from kingdoms.dominion.state import DominionState

    a = new_game("dominion", players=players, seed=seed, options=opts)
    b = new_game("dominion", players=players, seed=seed, options=opts)
    assert isinstance(a, DominionState) and isinstance(b, DominionState)
    a.logging = b.logging = False
    native = play_state(a, bots, DEFAULT_MAX_STEPS)
    if not native:
        return False, ""
    _play_game(b, bots, seat_rngs(seed, players), DEFAULT_MAX_STEPS)
    if a.history != b.history:
        at = next(
            (i for i, (x, y) in enumerate(zip(a.history, b.history, strict=False)) if x != y),
            min(len(a.history), len(b.history)),
        )
        return True, f"history differs at step {at} ({players} players, {opts})"
    sa, sb = a.snapshot(), b.snapshot()
    for key in sb:
        if sa.get(key) != sb.get(key):
            return True, f"field {key} differs ({players} players, {opts})"
    return True, ""


def one_of(card: str) -> StrategyBot:
    """A strategy bot playing Big Money with up to two of ``card`` (a card id), bought
    before Gold (so that a $6 card is bought too) and played first (and a Potion to buy
    it with, if it costs one): every kingdom card in some strategy of the differential
    check."""
    from kingdoms.bots.dominion.lang import parse_strategy

    potion = ['"Potion if count(Potion) < 1",'] if CARDS[BY_ID[card]].cost[1] else []
    text = "\n".join(
        [
            f'name = "one-{card}"',
            f'play = ["{card}"]',
            "buy = [",
            '"Province if total_money > 15", "Duchy if left(Province) <= 4",',
            *potion,
            f'"{card} if count({card}) < 2", "Gold", "Silver",',
            "]",
        ]
    )
    return StrategyBot(parse_strategy(text))


def engine_rollout(
    state: Any, bots: Sequence[StrategyBot], rng: random.Random, max_steps: int
) -> None:
    """The reference of a search rollout (:func:`~kingdoms.bots.dominion.search.finish_rollout`)
    on the Python engine alone: ``bots`` play ``state`` to its end; the first time no
    decision is pending, the state's generator is reseeded with a 32-bit draw of its
    own (what the rollout does, the native core or not)."""
    from kingdoms.bots.dominion.bots import _play_game
    from kingdoms.bots.dominion.observation import observe

    seats = list(bots)
    rngs = [rng] * len(seats)
    for steps in range(max_steps):
        if state.current_player < 0:
            return
        if not state.stack and state.phase <= 1:
            state.rng.seed(state.rng.getrandbits(32))
            _play_game(state, seats, rngs, max_steps - steps)
            return
        legal = state.legal_actions()
        player = state.current_player
        state.apply(
            legal[0] if len(legal) == 1 else seats[player].act(observe(state, player), legal, rng)
        )


def differential_rollout(seed: int) -> tuple[bool, str]:
    """One search rollout played both ways from a seeded mid-game state: through
    :func:`~kingdoms.bots.dominion.search.finish_rollout` (the native core where it
    can) and on the Python engine alone, each seat played by its rollout model.
    Returns ``(the cards and bots are native, what differed)`` as
    :func:`differential_game`.

    The state comes from the seed: 2–4 players, a random kingdom of every set, up to
    120 random moves (some states have a decision pending).  The generator's state at
    the end is not compared: a native rollout does not write it back (it goes on with a
    generator seeded from the state's, :func:`engine_rollout`)."""

    from kingdoms.bots.dominion.search import finish_rollout, rollout_bots
    from kingdoms.core import new_game
    from kingdoms.core.runner import DEFAULT_MAX_STEPS
    from kingdoms.dominion.game import GAME
    from kingdoms.dominion.state import DominionState

    r = random.Random(seed)
    players = r.choice((2, 2, 3, 4))
    opts = GAME.normalize_options({"sets": list(_KINGDOM_SETS)}, players, seed)
    st = new_game("dominion", players=players, seed=seed, options=opts)
    assert isinstance(st, DominionState)
    st.logging = False
    for _ in range(r.randrange(0, 120)):
        if st.current_player < 0:
            return False, ""
        legal = st.legal_actions()
        st.apply(legal[r.randrange(len(legal))])
    if st.current_player < 0:
        return False, ""
    bots = rollout_bots(st)[0]
    try:
        native_run(st.piles, st.supply, bots, st.config.options, owned_cards(st))
        native = True
    except NotNative:
        native = False
    a, b = st.clone(), st.clone()
    finish_rollout(a, random.Random(seed), DEFAULT_MAX_STEPS)
    engine_rollout(b, bots, random.Random(seed), DEFAULT_MAX_STEPS)
    if a.history != b.history:
        return native, f"rollout history differs ({players} players, {opts['kingdom']})"
    sa, sb = a.snapshot(), b.snapshot()
    for key in sb:
        if key != "rng" and sa.get(key) != sb.get(key):
            return native, f"rollout field {key} differs ({players} players, {opts['kingdom']})"
    return native, ""
