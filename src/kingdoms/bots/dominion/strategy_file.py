"""A strategy file read: its TOML parsed into entries, rules and findings, and
built into a :class:`~kingdoms.bots.dominion.strategy.Strategy`
(:mod:`kingdoms.bots.dominion.lang`)."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kingdoms.bots.dominion.conditions import Compiled, ExprError, compile_condition
from kingdoms.bots.dominion.strategy import (
    ANY,
    CARD,
    CHEAPEST,
    COSTLIEST,
    DONE,
    FIRST,
    NO,
    TYPE,
    YES,
    Rule,
    Strategy,
)
from kingdoms.bots.dominion.vocabulary import (
    _STARTING,
    DISPLAY,
    PURPOSES,
    Finding,
    StrategyError,
    _name,
    _set_names,
    card_id,
    did_you_mean,
)
from kingdoms.dominion.decisions import YES_NO

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
    start: dict[str, Any] | None = None
    styles: dict[str, str] = field(default_factory=dict)


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
    m = re.match(r"^(.*?)\s+if(?:\s+(.*))?$", raw, flags=re.IGNORECASE | re.DOTALL)
    if m:
        cond = m.group(2) or ""  # "Gold if": an empty condition, said so
        return m.group(1).strip(), cond, m.start(2) if m.group(2) is not None else len(raw)
    return raw.strip(), None, 0


def _if_meant(text: str) -> str:
    """``"Smithy iff coins > 3"`` -> ``"; did you mean 'Smithy if coins > 3'?"``: a card
    or type followed by words that are no ``if``."""
    words = text.split()
    for n in range(min(3, len(words) - 1), 0, -1):
        head = " ".join(words[:n])
        if _name(head) is not None or head.lower() in _WORDS:
            rest = words[n + 1 :] if words[n].lower() in _IF_LIKE else words[n:]
            return f"; did you mean {' '.join([head, 'if', *rest])!r}?"
    return ""


_IF_LIKE = frozenset({"iff", "when", "while", "whenever", "unless", "fi", "of", "id", "is"})


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
        return f"unknown card or type {text.strip()!r}{did_you_mean(text) or _if_meant(text)}"
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
    "penultimate_province",
    "decisions",
    "start",
    "styles",
)


def ppr_condition(cards: Iterable[str]) -> str | None:
    """The penultimate Province rule as a condition: not when two Provinces are left,
    the bot is behind, and a Victory card its buy list names (Duchy, Estate) would not
    leave it behind — buying the Province would let the opponent end the game with the
    last one.  None: the list names no such card.

    >>> ppr_condition(["province", "duchy", "gold"])
    'not (left(Province) == 2 and vp < opp_vp and ((left(Duchy) > 0 and vp + 3 > opp_vp)))'
    """
    named = set(cards)
    better = " or ".join(
        f"(left({n}) > 0 and vp + {v} > opp_vp)"
        for c, n, v in (("duchy", "Duchy", 3), ("estate", "Estate", 1))
        if c in named
    )
    if not better:
        return None
    return f"not (left(Province) == 2 and vp < opp_vp and ({better}))"


def _with_ppr(entries: list[Entry], findings: list[Finding]) -> None:
    """Every Province entry of the buy list guarded by :func:`ppr_condition`."""
    guard = ppr_condition(e.rule.key for e in entries if e.rule is not None)
    if guard is None:
        return
    for e in entries:
        rule = e.rule
        if rule is None or rule.target != CARD or rule.key != "province":
            continue
        own = e.raw.split(" if ", 1)[1] if " if " in e.raw else None
        text = guard if own is None else f"({own}) and {guard}"
        try:
            compiled = compile_condition(text)
        except ExprError as err:  # pragma: no cover - both parts compiled already
            findings.append(Finding(e.line, "error", f"buy: {err}", e.col))
            continue
        e.rule = Rule(
            CARD, "province", compiled.fn, rule.pick, f"Province if {text}", rule.line, rule.col
        )
        e.compiled = compiled


def toml_syntax_finding(text: str, err: tomllib.TOMLDecodeError) -> Finding:
    """The error a TOML syntax error makes: where it is (line and column; the end of
    ``text`` where the parser only says "at end of document") and what it is, said
    as a TOML syntax error of the strategy file.

    >>> bad = 'name = "x"\\nbuy = ["Gold"'
    >>> f = toml_syntax_finding(bad, _decode_error(bad))
    >>> f.line, f.col, f.message
    (2, 14, 'TOML syntax error in the strategy file: unclosed array (at the end of the file)')
    """
    message = str(err)
    m = re.search(r"\s*\(at line (\d+), column (\d+)\)$", message)
    if m:
        line, col = int(m.group(1)), int(m.group(2))
        what, where = message[: m.start()], ""
    elif message.endswith("(at end of document)"):
        line = text.count("\n") + 1
        col = len(text) - (text.rfind("\n") + 1) + 1
        what, where = message[: -len("(at end of document)")].rstrip(), " (at the end of the file)"
    else:  # pragma: no cover - every message of tomllib says where
        return Finding(None, "error", f"TOML syntax error in the strategy file: {message}")
    what = what[:1].lower() + what[1:]
    return Finding(line, "error", f"TOML syntax error in the strategy file: {what}{where}", col)


def _decode_error(text: str) -> tomllib.TOMLDecodeError:
    """The error ``tomllib`` raises for ``text`` (for the examples)."""
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        return err
    raise ValueError("valid TOML")


def parse_text(text: str, name: str = "strategy") -> Parsed:
    """Parse a file's text into entries and findings (never raises for bad content)."""
    findings: list[Finding] = []
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        return Parsed(name, [], [], {}, [toml_syntax_finding(text, err)])
    pos = _Text(text)
    for key in data:
        if key not in _KNOWN_KEYS:
            findings.append(
                Finding(
                    pos.key(key)[0],
                    "error",
                    f"unknown key {key!r}{did_you_mean(key, _KNOWN_KEYS)} "
                    f"(known: {', '.join(sorted(_KNOWN_KEYS))})",
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
        from kingdoms.dominion.kingdom import set_kingdom

        named_set = set_kingdom(value)
        if named_set is not None:  # a recommended set's name: its 10 cards
            kingdom = list(named_set)
        elif not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            sets = "" if not isinstance(value, str) else f"{did_you_mean(value, _set_names())}"
            findings.append(
                Finding(
                    line, "error", f"kingdom must be a list of card names or a set's name{sets}"
                )
            )
        else:
            for v in value:
                cid = card_id(v)
                if cid is None or cid in _STARTING | {"silver", "gold", "duchy", "province"}:
                    near = did_you_mean(v) if cid is None else ""
                    findings.append(Finding(line, "error", f"{v!r} is not a kingdom card{near}"))
                elif cid in kingdom:
                    findings.append(Finding(line, "error", f"{v!r} appears twice in kingdom"))
                else:
                    kingdom.append(cid)
            if len(value) > 10:
                findings.append(Finding(line, "error", f"a kingdom has 10 cards, not {len(value)}"))
    start = _start(data, pos, findings)
    styles = _styles(data, pos, findings)
    for flag in ("play_others", "guard"):
        if flag in data and not isinstance(data[flag], bool):
            findings.append(Finding(pos.key(flag)[0], "error", f"{flag} must be true or false"))
    buy_line, buy_at = pos.key("buy")
    buy = data.get("buy")
    if not isinstance(buy, list) or not buy:
        findings.append(Finding(buy_line, "error", "buy must be a non-empty list of entries"))
        buy = []
    entries = _entries("buy", buy, pos, buy_at, buy_line, findings)
    ppr = data.get("penultimate_province", False)
    if not isinstance(ppr, bool):
        line = pos.key("penultimate_province")[0]
        findings.append(Finding(line, "error", "penultimate_province must be true or false"))
    elif ppr:
        _with_ppr(entries, findings)
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
                    f"unknown decision purpose {purpose!r}"
                    f"{did_you_mean(purpose, [*PURPOSES, *WILDCARDS])} "
                    f"(known: {known}; or *.verb for "
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
        start,
        styles,
    )


def _styles(data: Mapping[str, Any], pos: _Text, findings: list[Finding]) -> dict[str, str]:
    """The file's ``[styles]``: card -> the named play style it is played by
    (:data:`kingdoms.bots.dominion.styles.STYLES`)."""
    from kingdoms.bots.dominion.styles import STYLES

    value = data.get("styles", {})
    if not isinstance(value, dict):
        findings.append(Finding(pos.key("styles")[0], "error", "styles must be a table"))
        return {}
    out: dict[str, str] = {}
    for card, style in value.items():
        line = pos.key(card)[0]
        cid = card_id(card)
        if cid is None or cid not in STYLES:
            named = [DISPLAY[c] for c in STYLES]
            findings.append(
                Finding(
                    line,
                    "error",
                    f"styles: no play style for {card!r}{did_you_mean(card, named)} "
                    f"(cards with styles: {', '.join(named)})",
                )
            )
            continue
        known = STYLES[cid]
        if style not in known:
            findings.append(
                Finding(
                    line,
                    "error",
                    f"styles: {DISPLAY[cid]}'s play style is one of "
                    f"{', '.join(repr(k) for k in known)}, not {style!r}"
                    f"{did_you_mean(str(style), list(known))}",
                )
            )
            continue
        out[cid] = style
    return out


def _start(data: Mapping[str, Any], pos: _Text, findings: list[Finding]) -> dict[str, Any] | None:
    """The file's ``start``: cards added to the usual starting deck (``["Silver",
    "Silver"]``: an opening as if bought), an opening split (``"5/2"``, ``"4/3"``), or
    a table of the seat's zones (``deck``, ``hand``, ``discard``, ``shuffle``,
    ``split``; :mod:`kingdoms.dominion.start`)."""
    if "start" not in data:
        return None
    from kingdoms.core.errors import InvalidConfig
    from kingdoms.dominion.start import SPLITS, check_seat, usual_deck

    value = data["start"]
    line = pos.key("start")[0]
    entry: Any
    if isinstance(value, str):
        if value not in SPLITS:
            findings.append(
                Finding(
                    line,
                    "error",
                    f"start: an opening split is one of {', '.join(SPLITS)}, not {value!r}"
                    f"{did_you_mean(value, list(SPLITS))}",
                )
            )
            return None
        entry = {"split": value}
    elif isinstance(value, list):
        entry = {"deck": [*usual_deck(), *value]} if value else None
        if entry is None:
            return None
    elif isinstance(value, dict):
        entry = value
    else:
        findings.append(
            Finding(
                line,
                "error",
                "start must be a list of cards added to the usual deck, an opening split "
                '("5/2", "4/3") or a table (deck, hand, discard, shuffle, split)',
            )
        )
        return None
    try:
        return check_seat(entry, "start")
    except InvalidConfig as err:
        findings.append(Finding(line, "error", str(err)))
        return None


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
        start=parsed.start,
        styles=parsed.styles,
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
