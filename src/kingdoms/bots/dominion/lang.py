"""Dominion strategy files: buy, play and decision rules in one form (TOML).

TOML (read by the standard library's :mod:`tomllib`): no extra dependency, a strict
grammar (no implicit typing surprises), and parse errors that name the line.

A file (``docs/strategies.md`` documents every name)::

    name = "smithy"                       # optional (default: the file name)
    play = ["Village", "Smithy if actions >= 1"]   # optional; then the default order
    buy = [
      "Province if total_money > 15",     # "<card or type> [if <condition>]", top-down
      "Duchy    if left(Province) <= 4",
      { card = "Smithy", if = "count(Smithy) < count(Treasure) / 11" },
      "Silver",
    ]
    [decisions]                           # optional: by decision purpose
    "chapel.trash" = ["Curse", "Estate", "Copper if total_money >= 6", "done"]
    "vassal.play" = "left(Province) > 2"  # yes/no: true, false or a condition
    "*.discard" = ["Curse", "Victory", "cheapest Treasure"]

Every list takes the same entries: a card, a type (``Action``, ``Treasure``…),
``any``, optionally ``cheapest``/``costliest`` first, and ``if <condition>``;
decisions also ``done`` (stop, when the choice may stop) and, yes/no ones, ``yes``
and ``no``.  The first entry that applies decides; when none does (or the file says
nothing about a decision), the default policy — the bundled ``default`` strategy,
read by the same code — decides.

>>> strategy = parse_strategy('buy = ["Province if count(Gold) > 0", "Gold", "Silver"]')
>>> [card for card, _ in strategy.rules]
['province', 'gold', 'silver']
"""

from __future__ import annotations

import ast
import math
import operator
import re
import tomllib
import warnings
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kingdoms.bots.dominion.strategy import (
    ANY,
    CARD,
    CHEAPEST,
    COSTLIEST,
    DISCARD,
    DONE,
    DRAW_PILE,
    FIRST,
    HAND,
    IN_PLAY,
    NO,
    TYPE,
    YES,
    Rule,
    Situation,
    Strategy,
)
from kingdoms.core.errors import InvalidConfig
from kingdoms.dominion.cards import DECLARED
from kingdoms.dominion.data import CARDS
from kingdoms.dominion.decisions import SPECS, YES_NO, purposes

CARD_IDS: frozenset[str] = frozenset(c.id for c in CARDS)
TYPES: frozenset[str] = frozenset(t.lower() for c in CARDS for t in c.types)
_COST = {c.id: c.cost for c in CARDS}
_PILE_MAX = {c.id: max(c.pile_size(n) for n in range(2, 7)) for c in CARDS}
_STARTING = frozenset({"copper", "estate"})

_SHARED_STEP_KINDS: Mapping[str, str] = {"RevealTopEach": YES_NO}
"""Shared card steps whose decision is not the usual kind of their verb (Spy and
Scrying Pool ask yes/no about each revealed card, Cellar and Militia choose cards)."""


def _purpose_kinds() -> dict[str, str]:
    """Every purpose the engine declares -> the kind of its decision."""
    exact = {s.purpose: s.kind for s in SPECS.values() if not s.purpose.startswith("*.")}
    shared: dict[str, set[str]] = {}
    for spec in SPECS.values():
        if spec.purpose.startswith("*."):
            shared.setdefault(spec.verb, set()).add(spec.kind)
    out: dict[str, str] = {}
    for purpose in purposes():
        if purpose in exact:
            out[purpose] = exact[purpose]
            continue
        card, _, verb = purpose.partition(".")
        decl = DECLARED.get(card)
        steps = [type(s).__name__ for s in decl.steps if s.verb == verb] if decl else []
        special = {_SHARED_STEP_KINDS[n] for n in steps if n in _SHARED_STEP_KINDS}
        kinds = special or (shared.get(verb, set()) - set(_SHARED_STEP_KINDS.values()))
        if len(kinds) != 1:  # pragma: no cover - a new engine decision this table lacks
            raise RuntimeError(f"cannot tell the kind of the decision {purpose!r}: {kinds}")
        out[purpose] = kinds.pop()
    return out


PURPOSES: Mapping[str, str] = _purpose_kinds()
"""Every decision purpose the engine declares (:func:`kingdoms.dominion.decisions.purposes`)
-> its kind, which gives the override's form: ``choose_cards`` / ``choose_pile`` =
cards or types in order of preference (an optional choice stops when nothing listed
is offered; a forced one falls back to the default policy); ``order`` = cards or
types in the order to pick them (nothing listed offered: the default policy);
``yes_no`` = ``true``, ``false`` or a condition (yes when it holds)."""

_INF = math.inf
VARIABLES: Mapping[str, tuple[Callable[[Situation], float], tuple[float, float], str]] = {
    "total_money": (lambda s: s.total_money(), (0, _INF), "s.total_money()"),
    "money": (lambda s: s.total_money(), (0, _INF), "s.total_money()"),
    "empty_piles": (lambda s: s.empty_piles(), (0, 17), "s.empty_piles()"),
    "turn": (lambda s: s.turn, (1, _INF), "s.turn"),
    "my_turns": (lambda s: s.taken - 1, (0, _INF), "(s.taken - 1)"),
    "coins": (lambda s: s.coins, (0, _INF), "s.coins"),
    "potions": (lambda s: s.potions, (0, _INF), "s.potions"),
    "buys": (lambda s: s.buys, (0, _INF), "s.buys"),
    "actions": (lambda s: s.actions, (0, _INF), "s.actions"),
    "hand_size": (lambda s: s.zone_size(HAND), (0, _INF), "s.zone_size(0)"),
    "draw_pile_size": (lambda s: s.zone_size(DRAW_PILE), (0, _INF), "s.zone_size(2)"),
    "discard_size": (lambda s: s.zone_size(DISCARD), (0, _INF), "s.zone_size(3)"),
    "gains_to_end": (lambda s: s.gains_to_end(), (0, 12), "s.gains_to_end()"),
    "vp": (lambda s: s.vp(), (-_INF, _INF), "s.vp()"),
    "opp_vp": (lambda s: s.opp_vp(), (-_INF, _INF), "s.opp_vp()"),
    "vp_lead": (lambda s: s.vp_lead(), (-_INF, _INF), "s.vp_lead()"),
    "vp_deficit": (lambda s: -s.vp_lead(), (-_INF, _INF), "(-s.vp_lead())"),
    "deck_size": (lambda s: s.deck_size(), (0, _INF), "s.deck_size()"),
    "players": (lambda s: s.players, (2, 6), "s.players"),
    "about_me": (lambda s: s.about_me, (0, 1), "s.about_me"),
    "action_phase": (lambda s: s.action_phase(), (0, 1), "s.action_phase()"),
}
"""Condition variable -> (value, the range it can take, the same as Python source
over the situation ``s``)."""

_PUBLIC_VARIABLES = frozenset({"total_money", "money", "vp", "deck_size"})
"""What ``opponents_max`` may ask of another seat (public facts only)."""

ZONES: Mapping[str, int] = {
    "in_hand": HAND,
    "in_play": IN_PLAY,
    "in_deck": DRAW_PILE,
    "in_discard": DISCARD,
}
"""Zone functions -> the zone of :meth:`Situation.zone` they count."""

_CARD_FUNCTIONS = frozenset({"count", "left", "cost", "opp_count", *ZONES})
FUNCTIONS: tuple[str, ...] = (
    "count",
    "left",
    *ZONES,
    "opp_count",
    "opponents_max",
    "cost",
    "is",
    "min",
    "max",
)
"""Every function a condition may call."""


class StrategyError(InvalidConfig):
    """A strategy file that cannot be used; the message names the file and line."""


@dataclass(frozen=True, slots=True)
class Finding:
    line: int | None
    level: str
    """``"error"`` (the file cannot be used) or ``"warning"``."""
    message: str
    col: int | None = None

    def format(self, source: str) -> str:
        where = source
        if self.line:
            where += f":{self.line}"
            if self.col:
                where += f":{self.col}"
        return f"{where}: {self.level}: {self.message}"


_CANON: dict[str, str] = {re.sub(r"[^a-z0-9]", "", c.id): c.id for c in CARDS}
DISPLAY: Mapping[str, str] = {c.id: c.names.get("en", c.id) for c in CARDS}
"""Card id -> the card's name as the player reads it."""


def display(key: str) -> str:
    """A card id or type as the player reads it (``council_room`` -> ``Council Room``)."""
    return DISPLAY.get(key) or key.replace("_", " ").title()


def card_id(name: str) -> str | None:
    """``"Council Room"``, ``"council-room"``, ``"council_room"`` -> ``"council_room"``."""
    return _CANON.get(re.sub(r"[^a-z0-9]", "", name.strip().lower()))


def _name(name: str) -> tuple[str, str] | None:
    """A card (``("card", id)``) or a type (``("type", "treasure")``)."""
    cid = card_id(name)
    if cid is not None:
        return ("card", cid)
    low = name.strip().lower()
    if low in TYPES:
        return ("type", low)
    if low.endswith("s") and low[:-1] in TYPES:
        return ("type", low[:-1])
    return None


# -- conditions ---------------------------------------------------------------------
Fn = Callable[[Situation], Any]
Range = tuple[float, float]
Truth = frozenset[bool]

_BIN: Mapping[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
_CMP: Mapping[type[ast.cmpop], Callable[[Any, Any], bool]] = {
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
}


class ExprError(Exception):
    def __init__(self, message: str, col: int = 0) -> None:
        super().__init__(message)
        self.col = col


@dataclass(slots=True)
class Compiled:
    fn: Fn
    range: Range = (-math.inf, math.inf)
    truth: Truth = frozenset({True, False})
    cards: set[str] = field(default_factory=set)
    key: str | None = None
    """A canonical text of a numeric value (for ranges of the same value joined by
    ``and``); None: not tracked."""
    integer: bool = True
    uses_card: bool = False
    notes: list[tuple[int, str]] = field(default_factory=list)
    """``(column, message)`` warnings found while compiling (division by zero)."""


def _safe_div(a: float, b: float) -> float:
    return a / b if b else math.inf if a > 0 else 0.0


def _mul_range(a: Range, b: Range) -> Range:
    prods = []
    for x in a:
        for y in b:
            prods.append(0.0 if (x == 0 or y == 0) else x * y)
    return (min(prods), max(prods))


def _cmp_truth(op: type[ast.cmpop], a: Range, b: Range) -> Truth:
    can_true = can_false = True
    if op is ast.Lt:
        can_true, can_false = a[0] < b[1], a[1] >= b[0]
    elif op is ast.LtE:
        can_true, can_false = a[0] <= b[1], a[1] > b[0]
    elif op is ast.Gt:
        can_true, can_false = a[1] > b[0], a[0] <= b[1]
    elif op is ast.GtE:
        can_true, can_false = a[1] >= b[0], a[0] < b[1]
    elif op in (ast.Eq, ast.NotEq):
        overlap = a[0] <= b[1] and b[0] <= a[1]
        same_point = a[0] == a[1] == b[0] == b[1]
        can_true, can_false = overlap, not same_point
        if op is ast.NotEq:
            can_true, can_false = can_false, can_true
    return frozenset(v for v, ok in ((True, can_true), (False, can_false)) if ok)


def _arg_name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    raise ExprError("expected a card or type name", node.col_offset)


def _merge(parts: Sequence[Compiled]) -> tuple[set[str], bool, list[tuple[int, str]]]:
    cards: set[str] = set()
    notes: list[tuple[int, str]] = []
    for p in parts:
        cards |= p.cards
        notes += p.notes
    return cards, any(p.uses_card for p in parts), notes


def _card_arg(fname: str, node: ast.expr) -> tuple[str, str]:
    """The argument of a card function: ``("card", id)``, ``("type", type)`` or
    ``("this", "")`` (the word ``card``: the card the rule is tried on)."""
    if isinstance(node, ast.Name) and node.id == "card":
        return ("this", "")
    raw = _arg_name(node)
    what = _name(raw)
    if what is None:
        raise ExprError(f"unknown card or type {raw.replace('_', ' ')!r}", node.col_offset)
    if what[0] == "type" and fname in ("left", "cost"):
        raise ExprError(f"{fname}() takes a card, not the type {raw!r}", node.col_offset)
    return what


def _card_fn(fname: str, kind: str, key: str) -> Compiled:
    """One of the card functions of one argument."""
    this = kind == "this"
    is_type = kind == "type"
    cards = {key} if kind == "card" else set()
    if fname == "count":
        if is_type:
            return Compiled(lambda s: s.count_type(key), (0, _INF), key=f"count:{key}")
        if this:
            return Compiled(lambda s: s.count(s.card), (0, _INF), uses_card=True)
        return Compiled(lambda s: s.count(key), (0, _INF), cards=cards, key=f"count:{key}")
    if fname == "left":
        if this:
            return Compiled(lambda s: s.left(s.card), (0, 60), uses_card=True)
        return Compiled(lambda s: s.left(key), (0, _PILE_MAX[key]), cards=cards, key=f"left:{key}")
    if fname == "cost":
        if this:
            return Compiled(lambda s: s.cost_of(s.card), (0, 20), uses_card=True)
        c = float(_COST[key][0] + _COST[key][1])
        return Compiled(lambda s: s.cost_of(key), (c, c), cards=cards)
    if fname == "opp_count":
        if this:
            return Compiled(lambda s: s.opp_count(s.card, False), (0, _INF), uses_card=True)
        return Compiled(
            lambda s: s.opp_count(key, is_type), (0, _INF), cards=cards, key=f"opp:{key}"
        )
    zone = ZONES[fname]
    if this:
        return Compiled(lambda s: s.zone(zone, s.card, False), (0, _INF), uses_card=True)
    return Compiled(
        lambda s: s.zone(zone, key, is_type),
        (0, _INF),
        cards=cards,
        key=f"{fname}:{key}",
        integer=zone < DRAW_PILE,
    )


def _compile(node: ast.expr, public: bool = False) -> Compiled:
    col = getattr(node, "col_offset", 0)
    if isinstance(node, ast.Constant):
        v = node.value
        if isinstance(v, bool):
            return Compiled(lambda s: v, (float(v), float(v)), frozenset({v}))
        if not isinstance(v, int | float):
            raise ExprError(f"unexpected {v!r}: conditions use numbers and names", col)
        return Compiled(lambda s: v, (float(v), float(v)), integer=isinstance(v, int))
    if isinstance(node, ast.Name):
        if node.id in ("true", "True"):
            return Compiled(lambda s: True, (1, 1), frozenset({True}))
        if node.id in ("false", "False"):
            return Compiled(lambda s: False, (0, 0), frozenset({False}))
        name = node.id.lower()
        if name == "card":
            raise ExprError(
                "'card' is the card being decided about: use it in a function, as "
                "is(card, Treasure), cost(card) or count(card)",
                col,
            )
        var = VARIABLES.get(name)
        if var is None:
            known = ", ".join(sorted(VARIABLES))
            funcs = ", ".join(f"{f}()" for f in FUNCTIONS)
            raise ExprError(f"unknown name {node.id!r} (known: {known}; {funcs})", col)
        if public and name not in _PUBLIC_VARIABLES:
            raise ExprError(
                f"opponents_max() takes public facts only (count(X), "
                f"{', '.join(sorted(_PUBLIC_VARIABLES))}), not {node.id!r}",
                col,
            )
        return Compiled(var[0], var[1], key=name)
    if isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name) or node.keywords:
            raise ExprError(f"only {', '.join(FUNCTIONS)} are functions", col)
        fname = node.func.id.lower()
        if public and fname != "count":
            raise ExprError(f"opponents_max() takes public facts only, not {fname}()", col)
        if fname in _CARD_FUNCTIONS:
            if len(node.args) != 1:
                raise ExprError(f"{fname}() takes one card or type name", col)
            kind, key = _card_arg(fname, node.args[0])
            return _card_fn(fname, kind, key)
        if fname == "is":
            if len(node.args) != 2:
                raise ExprError(
                    "is() takes the word card and a card or type: is(card, Action)", col
                )
            first = node.args[0]
            if not (isinstance(first, ast.Name) and first.id == "card"):
                raise ExprError("is() asks about the word card: is(card, Action)", col)
            kind, key = _card_arg(fname, node.args[1])
            if kind == "this":
                raise ExprError("is(card, card) always holds", col)
            is_type = kind == "type"
            return Compiled(
                lambda s: s.is_(s.card, key, is_type),
                (0, 1),
                cards={key} if not is_type else set(),
                uses_card=True,
            )
        if fname == "opponents_max":
            if len(node.args) != 1:
                raise ExprError("opponents_max() takes one value: opponents_max(count(X))", col)
            inner = _compile(node.args[0], public=True)
            f = inner.fn
            return Compiled(
                lambda s: max((f(s.as_seat(q)) for q in s.other_seats()), default=0),
                (min(inner.range[0], 0), inner.range[1]),
                cards=inner.cards,
            )
        if fname in ("min", "max"):
            if len(node.args) < 2:
                raise ExprError(f"{fname}() takes two or more values", col)
            parts = [_compile(a, public) for a in node.args]
            fns = [p.fn for p in parts]
            pick = min if fname == "min" else max
            rng = (pick(p.range[0] for p in parts), pick(p.range[1] for p in parts))
            cards, uses, notes = _merge(parts)
            return Compiled(
                lambda s: pick(f(s) for f in fns),
                rng,
                cards=cards,
                uses_card=uses,
                notes=notes,
                integer=all(p.integer for p in parts),
            )
        raise ExprError(f"unknown function {node.func.id!r} (known: {', '.join(FUNCTIONS)})", col)
    if isinstance(node, ast.UnaryOp):
        inner = _compile(node.operand, public)
        if isinstance(node.op, ast.Not):
            f = inner.fn
            return Compiled(
                lambda s: not f(s),
                (0, 1),
                frozenset(not t for t in inner.truth),
                inner.cards,
                uses_card=inner.uses_card,
                notes=inner.notes,
            )
        if isinstance(node.op, ast.USub):
            f = inner.fn
            return Compiled(
                lambda s: -f(s),
                (-inner.range[1], -inner.range[0]),
                cards=inner.cards,
                uses_card=inner.uses_card,
                notes=inner.notes,
                integer=inner.integer,
            )
        if isinstance(node.op, ast.UAdd):
            return inner
        raise ExprError("unsupported operator", col)
    if isinstance(node, ast.BoolOp):
        parts = [_compile(v, public) for v in node.values]
        fns = [p.fn for p in parts]
        cards, uses, notes = _merge(parts)
        if isinstance(node.op, ast.And):
            truth = _joined_truth(parts, all, any)
            if True in truth and _contradictory(node.values):
                truth = frozenset({False})
            return Compiled(
                lambda s: all(f(s) for f in fns), (0, 1), truth, cards, uses_card=uses, notes=notes
            )
        truth = _joined_truth(parts, any, all)
        return Compiled(
            lambda s: any(f(s) for f in fns), (0, 1), truth, cards, uses_card=uses, notes=notes
        )
    if isinstance(node, ast.BinOp):
        binop = _BIN.get(type(node.op))
        if binop is None:
            raise ExprError("unsupported operator (use + - * / // %)", col)
        a, b = _compile(node.left, public), _compile(node.right, public)
        fa, fb = a.fn, b.fn
        cards, uses, notes = _merge((a, b))
        if isinstance(node.op, ast.Div | ast.FloorDiv | ast.Mod):
            bcol = getattr(node.right, "col_offset", col)
            if b.range == (0.0, 0.0):
                raise ExprError("division by zero", bcol)
            if b.range[0] <= 0 <= b.range[1] and b.truth == frozenset({True, False}):
                notes = [
                    *notes,
                    (
                        bcol,
                        "the divisor can be 0 (x / 0 counts as infinitely large, x // 0 and "
                        "x % 0 as 0)",
                    ),
                ]
        if isinstance(node.op, ast.Div):
            rng = (-math.inf, math.inf)
            if b.range[0] == b.range[1] and b.range[0] > 0:
                rng = (a.range[0] / b.range[0], a.range[1] / b.range[0])
            return Compiled(
                lambda s: _safe_div(fa(s), fb(s)),
                rng,
                cards=cards,
                uses_card=uses,
                notes=notes,
                integer=False,
            )
        if isinstance(node.op, ast.FloorDiv | ast.Mod):
            return Compiled(
                lambda s: binop(fa(s), fb(s)) if fb(s) else 0,
                cards=cards,
                uses_card=uses,
                notes=notes,
                integer=a.integer and b.integer,
            )
        if isinstance(node.op, ast.Add):
            rng = (a.range[0] + b.range[0], a.range[1] + b.range[1])
        elif isinstance(node.op, ast.Sub):
            rng = (a.range[0] - b.range[1], a.range[1] - b.range[0])
        else:
            rng = _mul_range(a.range, b.range)
        return Compiled(
            lambda s: binop(fa(s), fb(s)),
            rng,
            cards=cards,
            uses_card=uses,
            notes=notes,
            integer=a.integer and b.integer,
        )
    if isinstance(node, ast.Compare):
        items = [_compile(node.left, public), *(_compile(c, public) for c in node.comparators)]
        ops = [type(o) for o in node.ops]
        pairs = []
        can_true, can_false = True, False
        for i, op in enumerate(ops):
            fn = _CMP.get(op)
            if fn is None:
                raise ExprError("unsupported comparison (use < <= > >= == !=)", col)
            pairs.append((fn, items[i].fn, items[i + 1].fn))
            t = _cmp_truth(op, items[i].range, items[i + 1].range)
            can_true = can_true and True in t
            can_false = can_false or False in t
        if can_true and len(ops) > 1 and _contradictory([node]):
            can_true = False
        possible = frozenset(v for v, ok in ((True, can_true), (False, can_false)) if ok)
        cards, uses, notes = _merge(items)
        if len(pairs) == 1:
            cmp, left, right = pairs[0]
            return Compiled(
                lambda s: cmp(left(s), right(s)),
                (0, 1),
                possible,
                cards,
                uses_card=uses,
                notes=notes,
            )
        return Compiled(
            lambda s: all(c(lf(s), rf(s)) for c, lf, rf in pairs),
            (0, 1),
            possible,
            cards,
            uses_card=uses,
            notes=notes,
        )
    raise ExprError(f"unsupported expression {ast.dump(node)[:40]!r}", col)


def _bounds(node: ast.expr) -> list[tuple[str, float, float, Range]]:
    """What a comparison of a tracked value with a number says about the value:
    ``(key, low, high, the value's own range)`` (integers: strict bounds tightened)."""
    if not isinstance(node, ast.Compare):
        return []
    out = []
    items = [node.left, *node.comparators]
    for i, op in enumerate(node.ops):
        left, right = items[i], items[i + 1]
        try:
            a, b = _compile(left), _compile(right)
        except ExprError:
            return []
        if a.key is not None and b.range[0] == b.range[1]:
            value, c, flip = a, b.range[0], False
        elif b.key is not None and a.range[0] == a.range[1]:
            value, c, flip = b, a.range[0], True
        else:
            continue
        kind = type(op)
        if flip:
            kind = {ast.Lt: ast.Gt, ast.Gt: ast.Lt, ast.LtE: ast.GtE, ast.GtE: ast.LtE}.get(
                kind, kind
            )
        lo, hi = -math.inf, math.inf
        step = 1.0 if value.integer else 1e-9
        if kind is ast.Lt:
            hi = (math.ceil(c) - 1) if value.integer else c - step
        elif kind is ast.LtE:
            hi = math.floor(c) if value.integer else c
        elif kind is ast.Gt:
            lo = (math.floor(c) + 1) if value.integer else c + step
        elif kind is ast.GtE:
            lo = math.ceil(c) if value.integer else c
        elif kind is ast.Eq:
            lo = hi = c
        else:
            continue
        assert value.key is not None
        out.append((value.key, lo, hi, value.range))
    return out


def _contradictory(values: Sequence[ast.expr]) -> bool:
    """Whether the comparisons of ``values`` (joined by ``and``) bound one value to
    an empty range, as ``left(Province) > 8 and left(Province) < 3``."""
    seen: dict[str, tuple[float, float]] = {}
    for v in values:
        for key, lo, hi, own in _bounds(v):
            plo, phi = seen.get(key, own)
            lo, hi = max(lo, plo), min(hi, phi)
            if lo > hi:
                return True
            seen[key] = (lo, hi)
    return False


def _joined_truth(
    parts: Sequence[Compiled],
    can_be_true: Callable[[Iterable[bool]], bool],
    can_be_false: Callable[[Iterable[bool]], bool],
) -> frozenset[bool]:
    """The values an ``and`` (``all``, ``any``) or an ``or`` (``any``, ``all``) of
    ``parts`` can take."""
    return frozenset(
        v
        for v, ok in (
            (True, can_be_true(True in p.truth for p in parts)),
            (False, can_be_false(False in p.truth for p in parts)),
        )
        if ok
    )


_CALL_ARGS = re.compile(
    rf"\b({'|'.join(sorted(_CARD_FUNCTIONS | {'iS'}))})\(([^()]*)\)", re.IGNORECASE
)


def _join_names(m: re.Match[str]) -> str:
    # "Council Room" -> "Council_Room", "Philosopher's Stone" -> "Philosopher_s_Stone":
    # one name, the same length (columns stay right)
    args = re.sub(r"(?<=[A-Za-z])['\s]+(?=[A-Za-z])", lambda g: "_" * len(g.group(0)), m.group(2))
    return f"{m.group(1)}({args})"


def compile_condition(text: str) -> Compiled:
    """Compile one condition; :class:`ExprError` (with a column) when it is wrong.

    >>> c = compile_condition("count(Smithy) < count(Treasure) / 11")
    >>> t = frozenset({"treasure"})
    >>> c.fn(Situation(coins=0, owned={"copper": 7, "silver": 4}, types={"copper": t, "silver": t}))
    True
    """
    src = text.rstrip()
    lead = len(src) - len(src.lstrip())
    src = src.lstrip()
    src = re.sub(r"\bAND\b", "and", re.sub(r"\bOR\b", "or", re.sub(r"\bNOT\b", "not", src)))
    src = re.sub(r"\bis(?=\s*\()", "iS", src)  # "is" is a Python keyword: same length
    src = _CALL_ARGS.sub(_join_names, src)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. "invalid decimal literal": an error below
            tree = ast.parse(src, mode="eval")
    except SyntaxError as err:
        raise ExprError(
            f"bad condition {text.strip()!r}: {err.msg}", lead + (err.offset or 1) - 1
        ) from None
    try:
        compiled = _compile(tree.body)
    except ExprError as err:
        err.col += lead
        raise
    compiled.notes = [(c + lead, m) for c, m in compiled.notes]
    code = _source(tree.body)
    if code is not None:  # one function instead of a closure per node
        compiled.fn = eval(f"lambda s: {code}", dict(_SOURCE_NAMES))
    _TREES[compiled.fn] = tree.body
    return compiled


_TREES: weakref.WeakKeyDictionary[Callable[..., Any], ast.expr] = weakref.WeakKeyDictionary()
"""A compiled condition's function -> the syntax tree it was compiled from (what
the native core translates: :mod:`kingdoms.bots.dominion.native`)."""


def condition_tree(fn: Callable[..., Any]) -> ast.expr | None:
    """The syntax tree :func:`compile_condition` made ``fn`` from (card and type
    names as the condition wrote them; ``is`` spelled ``iS``), None for a function
    it did not make."""
    return _TREES.get(fn)


_SOURCE_OPS: Mapping[type, str] = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
}


def _floordiv(a: Any, b: Any) -> Any:
    return a // b if b else 0


def _mod(a: Any, b: Any) -> Any:
    return a % b if b else 0


def _opponents_max(s: Situation, f: Callable[[Situation], Any]) -> Any:
    return max((f(s.as_seat(q)) for q in s.other_seats()), default=0)


_SOURCE_NAMES: Mapping[str, Any] = {
    "__builtins__": {},
    "bool": bool,
    "min": min,
    "max": max,
    "_safe_div": _safe_div,
    "_floordiv": _floordiv,
    "_mod": _mod,
    "_opponents_max": _opponents_max,
}
"""All that the generated functions may name."""


def _card_source(fname: str, kind: str, key: str) -> str:
    arg = "s.card" if kind == "this" else repr(key)
    is_type = kind == "type"
    if fname == "count":
        return f"s.count_type({arg})" if is_type else f"s.count({arg})"
    if fname == "left":
        return f"s.left({arg})"
    if fname == "cost":
        return f"s.cost_of({arg})"
    if fname == "opp_count":
        return f"s.opp_count({arg}, {is_type})"
    if fname == "is":
        return f"s.is_(s.card, {arg}, {is_type})"
    return f"s.zone({ZONES[fname]}, {arg}, {is_type})"


def _source(node: ast.expr) -> str | None:
    """A condition :func:`_compile` accepted, as one Python expression over ``s`` that
    computes what its closures compute (None: leave it to the closures).  Only
    numbers, the known variables and validated card or type ids (quoted with
    ``repr``) are written out: nothing of the file's text is copied as code."""
    if isinstance(node, ast.Constant):
        v = node.value
        if isinstance(v, bool):
            return repr(v)
        if isinstance(v, int | float) and math.isfinite(v) and eval(repr(v), {}) == v:
            return f"({v!r})"
        return None
    if isinstance(node, ast.Name):
        if node.id in ("true", "True", "false", "False"):
            return repr(node.id in ("true", "True"))
        var = VARIABLES.get(node.id.lower())
        return None if var is None else var[2]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        fname = node.func.id.lower()
        if fname in _CARD_FUNCTIONS or fname == "is":
            arg = node.args[-1]
            if isinstance(arg, ast.Name) and arg.id == "card":
                return _card_source(fname, "this", "")
            what = _name(_arg_name(arg))
            if what is None:  # pragma: no cover - _compile refused it already
                return None
            return _card_source(fname, what[0], what[1])
        if fname == "opponents_max":
            inner = _source(node.args[0])
            return None if inner is None else f"_opponents_max(s, lambda s: {inner})"
        parts = [_source(a) for a in node.args]
        if fname not in ("min", "max") or any(p is None for p in parts):
            return None  # pragma: no cover - _compile refused it already
        return f"{fname}({', '.join(p for p in parts if p is not None)})"
    if isinstance(node, ast.UnaryOp):
        inner = _source(node.operand)
        if inner is None:
            return None
        if isinstance(node.op, ast.Not):
            return f"(not {inner})"
        if isinstance(node.op, ast.USub):
            return f"(-{inner})"
        return inner if isinstance(node.op, ast.UAdd) else None
    if isinstance(node, ast.BoolOp):
        parts = [_source(v) for v in node.values]
        if any(p is None for p in parts):
            return None
        joiner = " and " if isinstance(node.op, ast.And) else " or "
        # all()/any() of the parts: the same short-circuit, a bool
        return f"bool({joiner.join(p for p in parts if p is not None)})"
    if isinstance(node, ast.BinOp):
        a, b = _source(node.left), _source(node.right)
        if a is None or b is None:
            return None
        if isinstance(node.op, ast.Div):
            return f"_safe_div({a}, {b})"
        if isinstance(node.op, ast.FloorDiv):
            return f"_floordiv({a}, {b})"
        if isinstance(node.op, ast.Mod):
            return f"_mod({a}, {b})"
        op = _SOURCE_OPS.get(type(node.op))
        return None if op is None else f"({a} {op} {b})"
    if isinstance(node, ast.Compare):
        items = [_source(node.left), *(_source(c) for c in node.comparators)]
        ops = [_SOURCE_OPS.get(type(o)) for o in node.ops]
        if any(x is None for x in items) or any(o is None for o in ops):
            return None
        out = str(items[0])
        for op, item in zip(ops, items[1:], strict=True):
            out += f" {op} {item}"
        return f"({out})"
    return None


# -- files --------------------------------------------------------------------------
VERBS: frozenset[str] = frozenset(p.partition(".")[2] for p in PURPOSES)
WILDCARDS: Mapping[str, frozenset[str]] = {
    f"*.{verb}": frozenset(k for p, k in PURPOSES.items() if p.partition(".")[2] == verb)
    for verb in VERBS
}
"""``"*.discard"`` (every discard decision) and the like -> the kinds of the
decisions it covers."""

PLAY_PURPOSES: frozenset[str] = frozenset({"throne_room.play", "golem.order"})
"""Decisions that choose a card to play: after their own entries, the ``play``
list decides (the strategy's, then the default's)."""

_PICKS: Mapping[str, int] = {"cheapest": CHEAPEST, "costliest": COSTLIEST}
_WORDS: Mapping[str, int] = {"any": ANY, "yes": YES, "no": NO, "done": DONE}


@dataclass(slots=True)
class Entry:
    """One entry of a list, as written and as compiled."""

    where: str
    """``"buy"``, ``"play"`` or the decision purpose."""
    raw: str
    rule: Rule | None
    compiled: Compiled | None
    line: int | None
    col: int | None
    synthetic: bool = False
    """Made from a scalar (``true``, ``"condition"``), not written as an entry."""


@dataclass(slots=True)
class Parsed:
    name: str
    entries: list[Entry]
    play: list[Entry]
    decisions: dict[str, list[Entry]]
    findings: list[Finding]
    play_others: bool = True
    description: str = ""
    kingdom: tuple[str, ...] = ()


class _Text:
    """Positions of values in the source text (tomllib keeps none): each entry is
    looked for after the previous one, so repeated entries get their own places."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0]
        for m in re.finditer("\n", text):
            self.starts.append(m.end())

    def at(self, offset: int) -> tuple[int, int]:
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1, offset - self.starts[lo] + 1

    def key(self, key: str) -> tuple[int | None, int]:
        """Line of ``key = …`` (or the table ``[key]``) and the offset after it."""
        pat = re.compile(
            rf"^[ \t]*[\"']?{re.escape(key)}[\"']?[ \t]*=|^[ \t]*\[+[ \t]*{re.escape(key)}[ \t]*\]",
            re.MULTILINE,
        )
        m = pat.search(self.text)
        if m is None:
            return None, 0
        return self.at(m.start())[0], m.end()

    def find(self, needles: Sequence[str], start: int) -> tuple[int | None, int | None, int]:
        """``(line, column of the value's first character, offset after it)``."""
        for needle in needles:
            for quote in ('"', "'", ""):
                got = self.text.find(f"{quote}{needle}{quote}", start)
                if got >= 0 and needle:
                    at_line, at_col = self.at(got + len(quote))
                    return at_line, at_col, got + len(quote) + len(needle)
        return (self.at(start)[0] if start else None), None, start


def _split_entry(raw: str) -> tuple[str, str | None, int]:
    """``"Smithy if actions > 0"`` -> ``("Smithy", "actions > 0", 10)`` (the
    condition's offset in ``raw``)."""
    m = re.match(r"^(.*?)\s+if\s+(.*)$", raw, flags=re.IGNORECASE | re.DOTALL)
    if m:
        return m.group(1).strip(), m.group(2), m.start(2)
    return raw.strip(), None, 0


def _target(text: str) -> tuple[int, str, int] | str:
    """``"cheapest Treasure"`` -> ``(TYPE, "treasure", CHEAPEST)``; an error message
    when it names nothing known."""
    words = text.split(None, 1)
    pick = FIRST
    if len(words) == 2 and words[0].lower() in _PICKS:
        pick = _PICKS[words[0].lower()]
        text = words[1]
    low = text.strip().lower()
    if low in _WORDS:
        t = _WORDS[low]
        if pick != FIRST and t != ANY:
            return f"{text!r} cannot be {'cheapest' if pick == CHEAPEST else 'costliest'}"
        return (t, low, pick)
    what = _name(text)
    if what is None:
        return f"unknown card or type {text.strip()!r}"
    return (CARD if what[0] == "card" else TYPE, what[1], pick)


def _allowed(where: str) -> tuple[frozenset[int], str]:
    """The targets a list takes, and how to say so."""
    cards = frozenset({CARD, TYPE, ANY})
    if where in ("buy", "play"):
        return cards, f"{where} entries name cards or types (or any)"
    kinds = WILDCARDS.get(where) or frozenset({PURPOSES.get(where, "")})
    out: set[int] = set()
    if YES_NO in kinds:
        out |= {YES, NO}
    if kinds - {YES_NO}:
        out |= cards | {DONE}
    if out == {YES, NO}:
        return frozenset(out), (
            f"{where} is a yes/no decision: its entries are yes or no (with conditions); "
            "or give true, false or a condition"
        )
    return frozenset(out), f"{where} entries name cards or types (or any, done)"


def _entry(
    where: str, item: Any, index: int, pos: _Text, cursor: int, findings: list[Finding]
) -> tuple[Entry | None, int]:
    """One list item (a string or a ``{card, if}`` table) as an :class:`Entry`."""
    cond_col = 0
    if isinstance(item, str):
        raw = item
        target_text, cond, cond_col = _split_entry(item)
        line, col, after = pos.find([item, target_text], cursor)
    elif isinstance(item, dict) and isinstance(item.get("card"), str):
        target_text = item["card"]
        cond = item.get("if")
        raw = target_text if cond is None else f"{target_text} if {cond}"
        line, col, after = pos.find([target_text], cursor)
        extra = set(item) - {"card", "if"}
        if extra:
            findings.append(Finding(line, "error", f"unknown entry key(s) {sorted(extra)}", col))
        if cond is not None and not isinstance(cond, str):
            findings.append(Finding(line, "error", "'if' must be a string condition", col))
            cond = None
        elif isinstance(cond, str):
            cl, cc, after = pos.find([cond], after)
            if cl is not None and cc is not None:
                line, col, cond_col = cl, cc, 0
    else:
        findings.append(
            Finding(
                pos.at(cursor)[0] if cursor else None,
                "error",
                f"{where} entry {index + 1} must be a string or a {{ card = …, if = … }} table",
            )
        )
        return None, cursor
    got = _target(target_text)
    if isinstance(got, str):
        findings.append(Finding(line, "error", f"{got} in {where}", col))
        return Entry(where, raw, None, None, line, col), after
    target, key, pick = got
    allowed, why = _allowed(where)
    if target not in allowed:
        findings.append(Finding(line, "error", f"{why}, not {target_text.strip()!r}", col))
        return Entry(where, raw, None, None, line, col), after
    compiled = None
    if cond is not None:
        try:
            compiled = compile_condition(cond)
        except ExprError as err:
            at = None if col is None else col + cond_col + err.col
            findings.append(Finding(line, "error", f"{where}: {err}", at))
            return Entry(where, raw, None, None, line, col), after
        for c, note in compiled.notes:
            at = None if col is None else col + cond_col + c
            findings.append(Finding(line, "warning", f"{where}: {note}", at))
    rule = Rule(
        target, key, compiled.fn if compiled else None, pick, raw.strip(), line or 0, col or 0
    )
    return Entry(where, raw, rule, compiled, line, col), after


def _entries(
    where: str, value: Any, pos: _Text, start: int, line: int | None, findings: list[Finding]
) -> list[Entry]:
    if not isinstance(value, list):
        findings.append(Finding(line, "error", f"{where} must be a list of entries"))
        return []
    out = []
    cursor = start
    for i, item in enumerate(value):
        entry, cursor = _entry(where, item, i, pos, cursor, findings)
        if entry is not None:
            out.append(entry)
    return out


_KNOWN_KEYS = (
    "name",
    "description",
    "kingdom",
    "buy",
    "play",
    "play_others",
    "guard",
    "decisions",
)


def parse_text(text: str, name: str = "strategy") -> Parsed:
    """Parse a file's text into entries and findings (never raises for bad content)."""
    findings: list[Finding] = []
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        m = re.search(r"line (\d+), column (\d+)", str(err))
        line, col = (int(m.group(1)), int(m.group(2))) if m else (None, None)
        return Parsed(name, [], [], {}, [Finding(line, "error", str(err), col)])
    pos = _Text(text)
    for key in data:
        if key not in _KNOWN_KEYS:
            findings.append(
                Finding(
                    pos.key(key)[0],
                    "error",
                    f"unknown key {key!r} (known: {', '.join(sorted(_KNOWN_KEYS))})",
                )
            )
    title = data.get("name", name)
    if not isinstance(title, str) or not title.strip():
        findings.append(Finding(pos.key("name")[0], "error", "name must be a non-empty string"))
        title = name
    description = data.get("description", "")
    if not isinstance(description, str):
        findings.append(Finding(pos.key("description")[0], "error", "description must be text"))
        description = ""
    kingdom: list[str] = []
    if "kingdom" in data:
        value = data["kingdom"]
        line = pos.key("kingdom")[0]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            findings.append(Finding(line, "error", "kingdom must be a list of card names"))
        else:
            for v in value:
                cid = card_id(v)
                if cid is None or cid in _STARTING | {"silver", "gold", "duchy", "province"}:
                    findings.append(Finding(line, "error", f"{v!r} is not a kingdom card"))
                elif cid in kingdom:
                    findings.append(Finding(line, "error", f"{v!r} appears twice in kingdom"))
                else:
                    kingdom.append(cid)
            if len(value) > 10:
                findings.append(Finding(line, "error", f"a kingdom has 10 cards, not {len(value)}"))
    for flag in ("play_others", "guard"):
        if flag in data and not isinstance(data[flag], bool):
            findings.append(Finding(pos.key(flag)[0], "error", f"{flag} must be true or false"))
    buy_line, buy_at = pos.key("buy")
    buy = data.get("buy")
    if not isinstance(buy, list) or not buy:
        findings.append(Finding(buy_line, "error", "buy must be a non-empty list of entries"))
        buy = []
    entries = _entries("buy", buy, pos, buy_at, buy_line, findings)
    play: list[Entry] = []
    if "play" in data:
        play_line, play_at = pos.key("play")
        play = _entries("play", data["play"], pos, play_at, play_line, findings)
    decisions: dict[str, list[Entry]] = {}
    dec = data.get("decisions", {})
    if not isinstance(dec, dict):
        findings.append(Finding(pos.key("decisions")[0], "error", "decisions must be a table"))
        dec = {}
    _, table_at = pos.key("decisions")
    for purpose, value in dec.items():
        line, at = pos.key(purpose)
        at = max(at, table_at)
        if purpose not in PURPOSES and purpose not in WILDCARDS:
            known = ", ".join(sorted(PURPOSES))
            findings.append(
                Finding(
                    line,
                    "error",
                    f"unknown decision purpose {purpose!r} (known: {known}; or *.verb for "
                    f"every decision of a verb: {', '.join(sorted(WILDCARDS))})",
                )
            )
            continue
        allowed, why = _allowed(purpose)
        yes_no_only = allowed == frozenset({YES, NO})
        if isinstance(value, bool):
            if YES not in allowed:
                findings.append(Finding(line, "error", f"{purpose} must be a list of entries"))
                continue
            rule = Rule(YES if value else NO, "yes" if value else "no", text=str(value).lower())
            decisions[purpose] = [
                Entry(purpose, str(value).lower(), rule, None, line, None, synthetic=True)
            ]
        elif isinstance(value, str) and yes_no_only:
            _, col, _ = pos.find([value], at)
            try:
                compiled = compile_condition(value)
            except ExprError as err:
                at_col = None if col is None else col + err.col
                findings.append(Finding(line, "error", f"{purpose}: {err}", at_col))
                continue
            if len(compiled.truth) == 1:
                always_ = next(iter(compiled.truth))
                findings.append(
                    Finding(
                        line,
                        "warning",
                        f"{purpose}: the condition is always {str(always_).lower()}",
                        col,
                    )
                )
            yes = Rule(YES, "yes", compiled.fn, text=f"yes if {value}", line=line or 0)
            decisions[purpose] = [
                Entry(purpose, value, yes, compiled, line, col, synthetic=True),
                Entry(purpose, value, Rule(NO, "no", text="no"), None, line, col, synthetic=True),
            ]
        elif isinstance(value, list):
            decisions[purpose] = _entries(purpose, value, pos, at, line, findings)
        elif yes_no_only:
            findings.append(Finding(line, "error", why))
        else:
            findings.append(Finding(line, "error", f"{purpose} must be a list of entries"))
    return Parsed(
        title.strip(),
        entries,
        play,
        decisions,
        findings,
        bool(data.get("play_others", True))
        if isinstance(data.get("play_others", True), bool)
        else True,
        description.strip(),
        tuple(kingdom),
    )


def _rules(entries: Sequence[Entry]) -> tuple[Rule, ...]:
    return tuple(e.rule for e in entries if e.rule is not None)


def _build(parsed: Parsed, source: str, guard: bool = True) -> Strategy:
    errors = [f for f in parsed.findings if f.level == "error"]
    if errors:
        raise StrategyError("\n".join(f.format(source) for f in errors))
    return Strategy(
        parsed.name,
        _rules(parsed.entries),
        play=_rules(parsed.play),
        decisions={p: _rules(es) for p, es in parsed.decisions.items()},
        guard=guard,
        play_others=parsed.play_others,
        description=parsed.description,
        kingdom=parsed.kingdom,
    )


def _guard(text: str) -> bool:
    try:
        value = tomllib.loads(text).get("guard", True)
    except tomllib.TOMLDecodeError:
        return True
    return value if isinstance(value, bool) else True


def parse_strategy(text: str, name: str = "strategy", source: str = "<text>") -> Strategy:
    """A strategy from a file's text; :class:`StrategyError` naming the lines when bad."""
    return _build(parse_text(text, name), source, _guard(text))


def load_strategy(path: str | Path) -> Strategy:
    """A strategy from a file (``name`` defaults to the file name without ``.toml``)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise StrategyError(f"cannot read strategy file {str(p)!r}: {err}") from None
    return _build(parse_text(text, p.stem), str(p), _guard(text))


# -- lint ---------------------------------------------------------------------------
def _cost(card: str) -> tuple[int, int]:
    return _COST.get(card, (99, 0))


def _covers(prev: Rule, rule: Rule) -> bool:
    """Whether an earlier entry that always applies leaves ``rule`` nothing to decide."""
    if prev.target in (YES, NO):
        return True
    if prev.target == ANY:
        return rule.target in (CARD, TYPE, ANY)
    if prev.target == CARD:
        return rule.target == CARD and rule.key == prev.key
    if prev.target == TYPE:
        if rule.target == CARD:
            return prev.key in _TYPES_OF.get(rule.key, ())
        return rule.target == TYPE and rule.key == prev.key
    return False


_TYPES_OF: Mapping[str, frozenset[str]] = {
    c.id: frozenset(t.lower() for t in c.types) for c in CARDS
}


def _label(e: Entry, i: int) -> str:
    return f"entry {i + 1} ({e.raw.strip()})"


def _check_list(entries: Sequence[Entry], where: str, out: list[Finding]) -> None:
    """Conditions that never hold and entries earlier ones leave nothing to decide."""
    before: list[Entry] = []
    for i, e in enumerate(entries):
        rule = e.rule
        if rule is None or e.synthetic:
            continue
        label = _label(e, i)
        if e.compiled is not None and True not in e.compiled.truth:
            out.append(
                Finding(e.line, "warning", f"{where} {label}: the condition can never hold", e.col)
            )
            continue
        for prev in before:
            assert prev.rule is not None
            if _covers(prev.rule, rule):
                why = f"line {prev.line}'s {prev.raw.strip()!r} always decides first"
                out.append(
                    Finding(e.line, "warning", f"{where} {label}: unreachable ({why})", e.col)
                )
                break
        if (e.compiled is None or False not in e.compiled.truth) and rule.target != DONE:
            before.append(e)


def check_text(
    text: str, name: str = "strategy", kingdom: Sequence[str] | None = None
) -> list[Finding]:
    """Every finding of a file: errors (unusable) and warnings (entries that never
    apply, cards never bought or never affordable, unreachable entries, divisions
    that can be by zero)."""
    parsed = parse_text(text, name)
    out = list(parsed.findings)
    if kingdom is None and parsed.kingdom:
        kingdom = parsed.kingdom
    supply = None
    if kingdom is not None:
        supply = {"copper", "silver", "gold", "estate", "duchy", "province", "curse"} | set(kingdom)
        if any(_cost(c)[1] for c in kingdom):
            supply.add("potion")
    bought = {e.rule.key for e in parsed.entries if e.rule and e.rule.target == CARD}
    gets_potions = "potion" in bought or "philosophers_stone" in bought
    always_before: list[Entry] = []
    for i, e in enumerate(parsed.entries):
        rule = e.rule
        if rule is None:
            continue
        label = _label(e, i)
        if e.compiled is not None and True not in e.compiled.truth:
            out.append(Finding(e.line, "warning", f"{label}: the condition can never hold", e.col))
            continue
        if rule.target != CARD:
            if e.compiled is None or False not in e.compiled.truth:
                always_before.append(e)
            continue
        card = rule.key
        name_ = display(card)
        if supply is not None and card not in supply:
            out.append(
                Finding(e.line, "warning", f"{label}: {name_} is not in this kingdom", e.col)
            )
        coin, potion = _cost(card)
        if potion and not gets_potions:
            out.append(
                Finding(
                    e.line,
                    "warning",
                    f"{label}: never affordable (costs a Potion, and the bot never buys one)",
                    e.col,
                )
            )
        for prev in always_before:
            pr = prev.rule
            assert pr is not None
            if pr.target == CARD:
                pc, pp = _cost(pr.key)
                if pr.key == card:
                    why = f"line {prev.line} always buys {name_} first"
                elif pc <= coin and pp <= potion:
                    why = (
                        f"while {display(pr.key)} is in the supply: line {prev.line} always "
                        "buys it, and it costs no more"
                    )
                else:
                    continue
            elif _covers(pr, rule):
                why = f"line {prev.line}'s {prev.raw.strip()!r} always buys first"
            else:
                continue
            out.append(Finding(e.line, "warning", f"{label}: unreachable ({why})", e.col))
            break
        if e.compiled is None or False not in e.compiled.truth:
            always_before.append(e)
    _check_list(parsed.play, "play", out)
    for e in parsed.play if parsed.name != "default" else ():
        r = e.rule
        if r is not None and r.target == CARD and r.key not in bought and r.key not in _STARTING:
            out.append(
                Finding(
                    e.line,
                    "warning",
                    f"play lists {display(r.key)}, which the bot never buys",
                    e.col,
                )
            )
    for purpose, entries in parsed.decisions.items():
        _check_list(entries, purpose, out)
    return sorted(out, key=lambda f: (f.line or 0, f.col or 0, f.level))


def check_file(path: str | Path, kingdom: Sequence[str] | None = None) -> list[Finding]:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        return [Finding(None, "error", f"cannot read the file: {err}")]
    return check_text(text, p.stem, kingdom)
