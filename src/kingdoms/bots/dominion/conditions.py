"""The strategy language's conditions: compiled to functions of a
:class:`~kingdoms.bots.dominion.strategy.Situation`, with the ranges the linter reads
(:mod:`kingdoms.bots.dominion.lang`)."""

from __future__ import annotations

import ast
import itertools
import math
import operator
import re
import warnings
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kingdoms.bots.dominion.strategy import (
    DRAW_PILE,
    Situation,
)
from kingdoms.bots.dominion.vocabulary import (
    _CARD_FUNCTIONS,
    _COST,
    _INF,
    _PILE_MAX,
    _PUBLIC_VARIABLES,
    FUNCTIONS,
    VARIABLES,
    ZONES,
    _name,
    did_you_mean,
)

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
        raise ExprError(
            f"unknown card or type {raw.replace('_', ' ')!r}{did_you_mean(raw)}", node.col_offset
        )
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
    if fname == "known_top":
        if this:
            return Compiled(lambda s: s.known_top(s.card, False), (0, 1), uses_card=True)
        return Compiled(
            lambda s: s.known_top(key, is_type), (0, 1), cards=cards, key=f"known_top:{key}"
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
            near = did_you_mean(node.id, [*VARIABLES, *FUNCTIONS])
            raise ExprError(f"unknown name {node.id!r}{near} (known: {known}; {funcs})", col)
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
        near = did_you_mean(node.func.id, FUNCTIONS)
        raise ExprError(
            f"unknown function {node.func.id!r}{near} (known: {', '.join(FUNCTIONS)})", col
        )
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
        raise ExprError(f"unsupported operator {_op_text(node.op)}", col)
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
            raise ExprError(f"unsupported operator {_op_text(node.op)} (use + - * / // %)", col)
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
    raise ExprError(
        f"unsupported expression {ast.unparse(node)[:40]!r} (conditions use numbers, "
        "names, functions such as count(X), comparisons, arithmetic and and/or/not)",
        col,
    )


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


_MISSPELT = re.compile(
    r"=>|=<|&&|\|\||(?<![<>=!])=(?!=)|!(?!=)|(?<![<>=!])>\s*>|<\s*<|\bthen\b|[≥≤≠]"
)
_MEANT = {
    "=>": ">=",
    "=<": "<=",
    "&&": "and",
    "||": "or",
    "=": "==",
    "!": "not",
    "then": "and",
    "≥": ">=",
    "≤": "<=",
    "≠": "!=",
}
_OPERATOR = frozenset(
    {"<", "<=", ">", ">=", "==", "!=", "+", "-", "*", "/", "//", "%", "(", ",", "and", "or", "not"}
)


def syntax_hint(src: str, err: SyntaxError) -> tuple[str, int]:
    """What is wrong with a condition Python cannot parse, said for a strategy file's
    author (not Python's bare "invalid syntax"), and the column (0-based) it is at.

    >>> syntax_hint("coins => 6", SyntaxError("invalid syntax"))
    ("'=>' is not an operator here; did you mean '>='?", 6)
    >>> syntax_hint("count(Gold) >", SyntaxError("invalid syntax"))
    ("it ends with '>': a value is missing after it", 12)
    >>> syntax_hint("3 coins", SyntaxError("invalid syntax"))
    ("an operator is missing between '3' and 'coins' (e.g. <, >=, ==, and, +)", 2)
    """
    import io
    import tokenize

    if not src.strip():
        return "the condition is empty (e.g. 'coins >= 6')", 0
    m = _MISSPELT.search(src)
    if m:
        tok = re.sub(r"\s+", "", m.group(0))
        meant = _MEANT.get(tok)
        if meant is None:  # ">>" or "<<"
            return f"{m.group(0)!r} is not an operator here; did you mean {tok[0]!r}?", m.start()
        return f"{tok!r} is not an operator here; did you mean {meant!r}?", m.start()
    toks: list[tokenize.TokenInfo] = []
    try:
        for t in tokenize.generate_tokens(io.StringIO(src).readline):
            if t.type in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER, tokenize.INDENT):
                continue
            toks.append(t)
    except (tokenize.TokenError, SyntaxError):
        toks = []
    if toks and toks[-1].string in _OPERATOR - {"("}:
        last = toks[-1]
        return f"it ends with {last.string!r}: a value is missing after it", last.start[1]
    binary = _OPERATOR - {"(", "not", "-", "+"}
    for a, b in itertools.pairwise(toks):
        if a.string in binary and b.string in binary:
            return f"two operators in a row: {a.string!r} then {b.string!r}", b.start[1]
    value = (tokenize.NAME, tokenize.NUMBER)
    for a, b in itertools.pairwise(toks):
        a_value = (a.type in value and a.string not in _OPERATOR) or a.string == ")"
        b_value = b.type in value and b.string not in _OPERATOR
        if a_value and b_value:
            return (
                f"an operator is missing between {a.string!r} and {b.string!r}"
                " (e.g. <, >=, ==, and, +)",
                b.start[1],
            )
    at = max(0, (err.offset or 1) - 1)
    if err.msg and err.msg != "invalid syntax":
        return err.msg, at
    near = src[at : at + 12].strip()
    return (f"cannot read it from {near!r} on" if near else "it stops short"), at


_OP_TEXT = {
    ast.BitAnd: "&",
    ast.BitOr: "|",
    ast.BitXor: "^",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.Pow: "**",
    ast.MatMult: "@",
    ast.Invert: "~",
}
_OP_MEANT = {
    ast.BitAnd: "; did you mean 'and'?",
    ast.BitOr: "; did you mean 'or'?",
    ast.Invert: "; did you mean 'not'?",
    ast.RShift: "; did you mean '>'?",
    ast.LShift: "; did you mean '<'?",
}


def _op_text(op: ast.AST) -> str:
    return f"{_OP_TEXT.get(type(op), type(op).__name__)!r}{_OP_MEANT.get(type(op), '')}"


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
        why, at = syntax_hint(src, err)
        raise ExprError(f"bad condition {text.strip()!r}: {why}", lead + at) from None
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
    if fname == "known_top":
        return f"s.known_top({arg}, {is_type})"
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
