"""Dominion strategy files: a TOML buy list, play priorities and decision overrides.

TOML (read by the standard library's :mod:`tomllib`): no extra dependency, a strict
grammar (no implicit typing surprises), and parse errors that name the line.

A file::

    name = "smithy"                       # optional (default: the file name)
    play = ["Smithy"]                     # optional: Actions to play first, in order
    buy = [
      "Province if total_money > 15",     # "<card> [if <condition>]", top-down
      "Duchy    if left(Province) <= 4",
      { card = "Smithy", if = "count(Smithy) < count(Treasure) / 11" },
      "Silver",
    ]
    [decisions]                           # optional: overrides by decision purpose
    "militia.discard" = ["Curse", "Victory", "Copper", "Silver"]
    "chancellor.discard_deck" = true
    "vassal.play" = "left(Province) > 2"  # yes/no: true, false or a condition
    "sentry.order" = ["Gold", "Silver"]   # an order: the cards to pick first

Conditions are expressions over the deciding seat's whole deck and the table:
``count(X)`` (X a card or a type: Action, Treasure, Victory, Curse, Attack,
Reaction), ``left(X)`` (cards left in a pile), ``total_money`` (Treasure coins plus
the fixed +$ of Actions), ``empty_piles``, ``turn``, ``coins``, ``potions``,
``buys``, ``vp``, ``vp_lead``, ``vp_deficit``, ``deck_size``, ``players``,
``min(a, b)``, ``max(a, b)``, ``and``/``or``/``not``, comparisons (chains too) and
``+ - * / // %``.

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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kingdoms.bots.dominion.strategy import Situation, Strategy, always
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

VARIABLES: Mapping[str, tuple[Callable[[Situation], float], tuple[float, float]]] = {
    "total_money": (lambda s: s.total_money(), (0, math.inf)),
    "money": (lambda s: s.total_money(), (0, math.inf)),
    "empty_piles": (lambda s: s.empty_piles(), (0, 17)),
    "turn": (lambda s: s.turn, (1, math.inf)),
    "coins": (lambda s: s.coins, (0, math.inf)),
    "potions": (lambda s: s.potions, (0, math.inf)),
    "buys": (lambda s: s.buys, (1, math.inf)),
    "vp": (lambda s: s.vp(), (-math.inf, math.inf)),
    "vp_lead": (lambda s: s.vp_lead(), (-math.inf, math.inf)),
    "vp_deficit": (lambda s: -s.vp_lead(), (-math.inf, math.inf)),
    "deck_size": (lambda s: s.deck_size(), (0, math.inf)),
    "players": (lambda s: s.players, (2, 6)),
}
"""Condition variable -> (value, the range it can take)."""


class StrategyError(InvalidConfig):
    """A strategy file that cannot be used; the message names the file and line."""


@dataclass(frozen=True, slots=True)
class Finding:
    line: int | None
    level: str
    """``"error"`` (the file cannot be used) or ``"warning"``."""
    message: str

    def format(self, source: str) -> str:
        where = f"{source}:{self.line}" if self.line else source
        return f"{where}: {self.level}: {self.message}"


def card_id(name: str) -> str | None:
    """``"Council Room"``, ``"council-room"``, ``"council_room"`` -> ``"council_room"``."""
    key = re.sub(r"[\s\-]+", "_", name.strip().lower()).replace("'", "")
    return key if key in CARD_IDS else None


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


def _compile(node: ast.expr) -> Compiled:
    col = getattr(node, "col_offset", 0)
    if isinstance(node, ast.Constant):
        v = node.value
        if isinstance(v, bool) or not isinstance(v, int | float):
            if isinstance(v, bool):
                return Compiled(lambda s: v, (float(v), float(v)), frozenset({v}))
            raise ExprError(f"unexpected {v!r}: conditions use numbers and names", col)
        return Compiled(lambda s: v, (float(v), float(v)))
    if isinstance(node, ast.Name):
        if node.id in ("true", "True"):
            return Compiled(lambda s: True, (1, 1), frozenset({True}))
        if node.id in ("false", "False"):
            return Compiled(lambda s: False, (0, 0), frozenset({False}))
        var = VARIABLES.get(node.id.lower())
        if var is None:
            known = ", ".join(sorted(VARIABLES))
            raise ExprError(f"unknown name {node.id!r} (known: {known}; count(X), left(X))", col)
        return Compiled(var[0], var[1])
    if isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name) or node.keywords:
            raise ExprError("only count(X), left(X), min(a, b) and max(a, b) are functions", col)
        fname = node.func.id.lower()
        if fname in ("count", "left"):
            if len(node.args) != 1:
                raise ExprError(f"{fname}() takes one card or type name", col)
            raw = _arg_name(node.args[0])
            what = _name(raw)
            if what is None:
                raise ExprError(f"unknown card or type {raw!r}", node.args[0].col_offset)
            kind, key = what
            if fname == "left":
                if kind != "card":
                    raise ExprError(f"left() takes a card, not the type {raw!r}", col)
                return Compiled(lambda s: s.left(key), (0, _PILE_MAX[key]), cards={key})
            if kind == "card":
                return Compiled(lambda s: s.count(key), (0, math.inf), cards={key})
            return Compiled(lambda s: s.count_type(key), (0, math.inf))
        if fname in ("min", "max"):
            if len(node.args) < 2:
                raise ExprError(f"{fname}() takes two or more values", col)
            parts = [_compile(a) for a in node.args]
            fns = [p.fn for p in parts]
            pick = min if fname == "min" else max
            rng = (pick(p.range[0] for p in parts), pick(p.range[1] for p in parts))
            return Compiled(
                lambda s: pick(f(s) for f in fns), rng, cards=set().union(*(p.cards for p in parts))
            )
        raise ExprError(f"unknown function {node.func.id!r}", col)
    if isinstance(node, ast.UnaryOp):
        inner = _compile(node.operand)
        if isinstance(node.op, ast.Not):
            f = inner.fn
            return Compiled(
                lambda s: not f(s), (0, 1), frozenset(not t for t in inner.truth), inner.cards
            )
        if isinstance(node.op, ast.USub):
            f = inner.fn
            return Compiled(lambda s: -f(s), (-inner.range[1], -inner.range[0]), cards=inner.cards)
        if isinstance(node.op, ast.UAdd):
            return inner
        raise ExprError("unsupported operator", col)
    if isinstance(node, ast.BoolOp):
        parts = [_compile(v) for v in node.values]
        fns = [p.fn for p in parts]
        cards = set().union(*(p.cards for p in parts))
        if isinstance(node.op, ast.And):
            truth = _joined_truth(parts, all, any)
            return Compiled(lambda s: all(f(s) for f in fns), (0, 1), truth, cards)
        truth = _joined_truth(parts, any, all)
        return Compiled(lambda s: any(f(s) for f in fns), (0, 1), truth, cards)
    if isinstance(node, ast.BinOp):
        binop = _BIN.get(type(node.op))
        if binop is None:
            raise ExprError("unsupported operator (use + - * / // %)", col)
        a, b = _compile(node.left), _compile(node.right)
        fa, fb = a.fn, b.fn
        if isinstance(node.op, ast.Div):
            rng = (-math.inf, math.inf)
            if b.range[0] == b.range[1] and b.range[0] > 0:
                rng = (a.range[0] / b.range[0], a.range[1] / b.range[0])
            return Compiled(lambda s: _safe_div(fa(s), fb(s)), rng, cards=a.cards | b.cards)
        if isinstance(node.op, ast.FloorDiv | ast.Mod):
            return Compiled(lambda s: binop(fa(s), fb(s)) if fb(s) else 0, cards=a.cards | b.cards)
        if isinstance(node.op, ast.Add):
            rng = (a.range[0] + b.range[0], a.range[1] + b.range[1])
        elif isinstance(node.op, ast.Sub):
            rng = (a.range[0] - b.range[1], a.range[1] - b.range[0])
        else:
            rng = _mul_range(a.range, b.range)
        return Compiled(lambda s: binop(fa(s), fb(s)), rng, cards=a.cards | b.cards)
    if isinstance(node, ast.Compare):
        items = [_compile(node.left), *(_compile(c) for c in node.comparators)]
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
        possible = frozenset(v for v, ok in ((True, can_true), (False, can_false)) if ok)
        cards = set().union(*(p.cards for p in items))
        if len(pairs) == 1:
            cmp, left, right = pairs[0]
            return Compiled(lambda s: cmp(left(s), right(s)), (0, 1), possible, cards)
        return Compiled(
            lambda s: all(c(lf(s), rf(s)) for c, lf, rf in pairs), (0, 1), possible, cards
        )
    raise ExprError(f"unsupported expression {ast.dump(node)[:40]!r}", col)


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


def compile_condition(text: str) -> Compiled:
    """Compile one condition; :class:`ExprError` (with a column) when it is wrong.

    >>> c = compile_condition("count(Smithy) < count(Treasure) / 11")
    >>> t = frozenset({"treasure"})
    >>> c.fn(Situation(coins=0, owned={"copper": 7, "silver": 4}, types={"copper": t, "silver": t}))
    True
    """
    src = text.strip()
    src = re.sub(r"\bAND\b", "and", re.sub(r"\bOR\b", "or", re.sub(r"\bNOT\b", "not", src)))
    # card names with spaces or apostrophes: count(Council Room) -> count("Council Room")
    src = re.sub(r"\b(count|left)\(\s*([^()\"']*[\s'][^()\"']*?)\s*\)", r'\1("\2")', src)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. "invalid decimal literal": an error below
            tree = ast.parse(src, mode="eval")
    except SyntaxError as err:
        raise ExprError(
            f"bad condition {text.strip()!r}: {err.msg}", (err.offset or 1) - 1
        ) from None
    compiled = _compile(tree.body)
    code = _source(tree.body)
    if code is not None:  # one function instead of a closure per node
        compiled.fn = eval(f"lambda s: {code}", dict(_SOURCE_NAMES))
    return compiled


_VARIABLE_SOURCE: Mapping[str, str] = {
    "total_money": "s.total_money()",
    "money": "s.total_money()",
    "empty_piles": "s.empty_piles()",
    "turn": "s.turn",
    "coins": "s.coins",
    "potions": "s.potions",
    "buys": "s.buys",
    "vp": "s.vp()",
    "vp_lead": "s.vp_lead()",
    "vp_deficit": "(-s.vp_lead())",
    "deck_size": "s.deck_size()",
    "players": "s.players",
}
"""Each of :data:`VARIABLES` as Python source over the situation ``s``."""

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


_SOURCE_NAMES: Mapping[str, Any] = {
    "__builtins__": {},
    "bool": bool,
    "min": min,
    "max": max,
    "_safe_div": _safe_div,
    "_floordiv": _floordiv,
    "_mod": _mod,
}
"""All that the generated functions may name."""


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
        return _VARIABLE_SOURCE.get(node.id.lower())
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        fname = node.func.id.lower()
        if fname in ("count", "left"):
            what = _name(_arg_name(node.args[0]))
            if what is None:  # pragma: no cover - _compile refused it already
                return None
            kind, key = what
            method = "left" if fname == "left" else "count" if kind == "card" else "count_type"
            return f"s.{method}({key!r})"
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
Override = bool | tuple[str, ...] | Callable[[Situation], Any]
"""A decision override: a yes/no answer or condition, or cards/types in order."""


@dataclass(slots=True)
class Entry:
    card: str | None
    raw: str
    condition: str | None
    compiled: Compiled | None
    line: int | None


@dataclass(slots=True)
class Parsed:
    name: str
    entries: list[Entry]
    play: list[tuple[str, int | None]]
    decisions: dict[str, Override]
    findings: list[Finding]


class _Lines:
    """Finds the line of a value in the source text (tomllib keeps no positions)."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.used: dict[tuple[int, str], int] = {}

    def key(self, key: str) -> int | None:
        pat = re.compile(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*=|^\s*\[+\s*{re.escape(key)}\s*\]")
        for i, line in enumerate(self.lines):
            if pat.search(line):
                return i + 1
        return None

    def find(self, needle: str, start: int | None) -> int | None:
        """The first line from ``start`` holding ``needle`` not matched before (so
        repeated entries get their own lines)."""
        first = (start or 1) - 1
        for i in range(first, len(self.lines)):
            if needle and needle in self.lines[i]:
                seen = self.used.get((i, needle), 0)
                if seen < self.lines[i].count(needle):
                    self.used[(i, needle)] = seen + 1
                    return i + 1
        return None


def _split_entry(raw: str) -> tuple[str, str | None]:
    m = re.match(r"^(.*?)\s+if\s+(.*)$", raw.strip(), flags=re.IGNORECASE | re.DOTALL)
    if m:
        return m.group(1).strip(), m.group(2).strip()
    return raw.strip(), None


def _names(value: Any, where: str, line: int | None, out: list[Finding]) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        out.append(Finding(line, "error", f"{where} must be a list of card or type names"))
        return ()
    keys = []
    for v in value:
        what = _name(v)
        if what is None:
            out.append(Finding(line, "error", f"unknown card or type {v!r} in {where}"))
        else:
            keys.append(what[1])
    return tuple(keys)


def parse_text(text: str, name: str = "strategy") -> Parsed:
    """Parse a file's text into entries and findings (never raises for bad content)."""
    findings: list[Finding] = []
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        m = re.search(r"line (\d+)", str(err))
        return Parsed(
            name, [], [], {}, [Finding(int(m.group(1)) if m else None, "error", str(err))]
        )
    lines = _Lines(text)
    known = {"name", "description", "buy", "play", "decisions"}
    for key in data:
        if key not in known:
            findings.append(
                Finding(
                    lines.key(key),
                    "error",
                    f"unknown key {key!r} (known: {', '.join(sorted(known))})",
                )
            )
    title = data.get("name", name)
    if not isinstance(title, str) or not title.strip():
        findings.append(Finding(lines.key("name"), "error", "name must be a non-empty string"))
        title = name
    buy = data.get("buy")
    entries: list[Entry] = []
    buy_line = lines.key("buy")
    if not isinstance(buy, list) or not buy:
        findings.append(Finding(buy_line, "error", "buy must be a non-empty list of entries"))
        buy = []
    cursor = buy_line
    for i, item in enumerate(buy):
        if isinstance(item, str):
            raw = item
            card_text, cond = _split_entry(item)
            line = lines.find(item, cursor) or lines.find(card_text, cursor) or cursor
        elif isinstance(item, dict) and isinstance(item.get("card"), str):
            extra = set(item) - {"card", "if"}
            card_text = item["card"]
            cond = item.get("if")
            raw = card_text if cond is None else f"{card_text} if {cond}"
            line = lines.find(f'"{card_text}"', cursor) or cursor
            if extra:
                findings.append(Finding(line, "error", f"unknown entry key(s) {sorted(extra)}"))
            if cond is not None and not isinstance(cond, str):
                findings.append(Finding(line, "error", "'if' must be a string condition"))
                cond = None
        else:
            findings.append(
                Finding(
                    cursor, "error", f"buy entry {i + 1} must be a string or {{card, if}} table"
                )
            )
            continue
        cursor = line
        cid = card_id(card_text)
        if cid is None:
            findings.append(Finding(line, "error", f"unknown card {card_text!r}"))
        compiled = None
        if cond is not None:
            try:
                compiled = compile_condition(cond)
            except ExprError as err:
                findings.append(
                    Finding(line, "error", f"{err} (column {err.col + 1} of the condition)")
                )
        entries.append(Entry(cid, raw, cond, compiled, line))
    play: list[tuple[str, int | None]] = []
    if "play" in data:
        pl = lines.key("play")
        play = [(k, pl) for k in _names(data["play"], "play", pl, findings)]
    decisions: dict[str, Override] = {}
    dec = data.get("decisions", {})
    if not isinstance(dec, dict):
        findings.append(Finding(lines.key("decisions"), "error", "decisions must be a table"))
        dec = {}
    for purpose, value in dec.items():
        line = lines.key(purpose)
        kind = PURPOSES.get(purpose)
        if kind is None:
            findings.append(
                Finding(
                    line,
                    "error",
                    f"unknown decision purpose {purpose!r} (known: {', '.join(sorted(PURPOSES))})",
                )
            )
        elif kind == YES_NO:
            if isinstance(value, bool):
                decisions[purpose] = value
            elif isinstance(value, str):
                try:
                    compiled = compile_condition(value)
                    decisions[purpose] = compiled.fn
                    if len(compiled.truth) == 1:
                        always = next(iter(compiled.truth))
                        findings.append(
                            Finding(
                                line,
                                "warning",
                                f"{purpose}: the condition is always {str(always).lower()}",
                            )
                        )
                except ExprError as err:
                    findings.append(
                        Finding(line, "error", f"{purpose}: {err} (column {err.col + 1})")
                    )
            else:
                findings.append(
                    Finding(line, "error", f"{purpose} takes true, false or a condition")
                )
        else:
            decisions[purpose] = _names(value, purpose, line, findings)
    return Parsed(title.strip(), entries, play, decisions, findings)


def _build(parsed: Parsed, source: str) -> Strategy:
    errors = [f for f in parsed.findings if f.level == "error"]
    if errors:
        raise StrategyError("\n".join(f.format(source) for f in errors))
    rules = []
    for e in parsed.entries:
        if e.card is None:  # pragma: no cover - an unknown card is an error above
            continue
        rules.append((e.card, e.compiled.fn if e.compiled else always))
    return Strategy(
        parsed.name,
        tuple(rules),
        play=tuple(k for k, _ in parsed.play),
        decisions=dict(parsed.decisions),
    )


def parse_strategy(text: str, name: str = "strategy", source: str = "<text>") -> Strategy:
    """A strategy from a file's text; :class:`StrategyError` naming the lines when bad."""
    return _build(parse_text(text, name), source)


def load_strategy(path: str | Path) -> Strategy:
    """A strategy from a file (``name`` defaults to the file name without ``.toml``)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise StrategyError(f"cannot read strategy file {str(p)!r}: {err}") from None
    return _build(parse_text(text, p.stem), str(p))


# -- lint ---------------------------------------------------------------------------
def _cost(card: str) -> tuple[int, int]:
    return _COST.get(card, (99, 0))


def check_text(
    text: str, name: str = "strategy", kingdom: Sequence[str] | None = None
) -> list[Finding]:
    """Every finding of a file: errors (unusable) and warnings (entries that never
    apply, cards never bought or never affordable, unreachable entries)."""
    parsed = parse_text(text, name)
    out = list(parsed.findings)
    supply = None
    if kingdom is not None:
        supply = {"copper", "silver", "gold", "estate", "duchy", "province", "curse"} | set(kingdom)
        if any(_cost(c)[1] for c in kingdom):
            supply.add("potion")
    bought = {e.card for e in parsed.entries if e.card}
    gets_potions = "potion" in bought or "philosophers_stone" in bought
    always_before: list[Entry] = []
    for i, e in enumerate(parsed.entries):
        if e.card is None:
            continue
        label = f"entry {i + 1} ({e.raw.strip()})"
        if e.compiled is not None and True not in e.compiled.truth:
            out.append(Finding(e.line, "warning", f"{label}: the condition can never hold"))
            continue
        if supply is not None and e.card not in supply:
            out.append(Finding(e.line, "warning", f"{label}: {e.card} is not in this kingdom"))
        coin, potion = _cost(e.card)
        if potion and not gets_potions:
            out.append(
                Finding(
                    e.line,
                    "warning",
                    f"{label}: never affordable (costs a Potion, and the bot never buys one)",
                )
            )
        for prev in always_before:
            if prev.card is None:
                continue
            pc, pp = _cost(prev.card)
            if prev.card == e.card:
                why = f"line {prev.line} always buys {prev.card} first"
            elif pc <= coin and pp <= potion:
                why = (
                    f"while {prev.card} is in the supply: line {prev.line} always buys it, "
                    "and it costs no more"
                )
            else:
                continue
            out.append(Finding(e.line, "warning", f"{label}: unreachable ({why})"))
            break
        if e.compiled is None or False not in e.compiled.truth:
            always_before.append(e)
    for card, line in parsed.play:
        if card in CARD_IDS and card not in bought and card not in _STARTING:
            out.append(Finding(line, "warning", f"play lists {card}, which the bot never buys"))
    return sorted(out, key=lambda f: (f.line or 0, f.level))


def check_file(path: str | Path, kingdom: Sequence[str] | None = None) -> list[Finding]:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        return [Finding(None, "error", f"cannot read the file: {err}")]
    return check_text(text, p.stem, kingdom)
