"""The strategy-file linter: conditions that never hold, unreachable entries, cards
never afforded or not in the kingdom (:mod:`kingdoms.bots.dominion.lang`)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from kingdoms.bots.dominion.strategy import (
    ANY,
    CARD,
    DONE,
    NO,
    TYPE,
    YES,
    Rule,
)
from kingdoms.bots.dominion.strategy_file import Entry, parse_text
from kingdoms.bots.dominion.vocabulary import _COST, _STARTING, Finding, display
from kingdoms.dominion.data import CARDS


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


def _start_findings(text: str, start: dict[str, Any], supply: set[str]) -> list[Finding]:
    """A ``start`` whose cards the kingdom lacks (a Potion without a Potion-costing
    card, a kingdom card not in it): the game would refuse to set it up."""
    cards = [*start.get("deck", ()), *start.get("hand", ()), *start.get("discard", ())]
    missing = sorted({c for c in cards if c not in supply}, key=display)
    if not missing:
        return []
    line = next(
        (
            i + 1
            for i, t in enumerate(text.splitlines())
            if re.match(r"\s*(start\s*=|\[start\])", t)
        ),
        None,
    )
    names = ", ".join(display(c) for c in missing)
    why = " (no kingdom card costs a Potion)" if "potion" in missing else ""
    return [
        Finding(
            line,
            "warning",
            f"start: {names} not in this kingdom{why}; a game of it refuses this start",
        )
    ]


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
    if supply is not None and parsed.start:
        out += _start_findings(text, parsed.start, supply)
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
