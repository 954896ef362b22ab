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

from kingdoms.bots.dominion.conditions import (
    Compiled,
    ExprError,
    Fn,
    Range,
    Truth,
    compile_condition,
)
from kingdoms.bots.dominion.lint import (
    check_file,
    check_text,
)
from kingdoms.bots.dominion.strategy_file import (
    PLAY_PURPOSES,
    VERBS,
    WILDCARDS,
    Entry,
    Parsed,
    load_strategy,
    parse_strategy,
    parse_text,
    ppr_condition,
)
from kingdoms.bots.dominion.vocabulary import (
    CARD_IDS,
    DISPLAY,
    FUNCTIONS,
    PURPOSES,
    TYPES,
    VARIABLES,
    ZONES,
    Finding,
    StrategyError,
    card_id,
    did_you_mean,
    display,
)

__all__ = [
    "CARD_IDS",
    "DISPLAY",
    "FUNCTIONS",
    "PLAY_PURPOSES",
    "PURPOSES",
    "TYPES",
    "VARIABLES",
    "VERBS",
    "WILDCARDS",
    "ZONES",
    "Compiled",
    "Entry",
    "ExprError",
    "Finding",
    "Fn",
    "Parsed",
    "Range",
    "StrategyError",
    "Truth",
    "card_id",
    "check_file",
    "check_text",
    "compile_condition",
    "did_you_mean",
    "display",
    "load_strategy",
    "parse_strategy",
    "parse_text",
    "ppr_condition",
]
