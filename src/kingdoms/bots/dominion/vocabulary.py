"""The names of the strategy language: cards, types and roles, decision purposes,
variables and functions, and its error and finding types (:mod:`kingdoms.bots.dominion.lang`)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from kingdoms.bots.dominion.roles import ROLE_NAMES
from kingdoms.bots.dominion.strategy import (
    DISCARD,
    DRAW_PILE,
    HAND,
    IN_PLAY,
    Situation,
)
from kingdoms.core.errors import InvalidConfig
from kingdoms.dominion.cards import DECLARED
from kingdoms.dominion.data import CARDS
from kingdoms.dominion.decisions import SPECS, YES_NO, purposes

CARD_IDS: frozenset[str] = frozenset(c.id for c in CARDS)
TYPES: frozenset[str] = frozenset(t.lower() for c in CARDS for t in c.types) | frozenset(ROLE_NAMES)
"""Card types and roles (:mod:`kingdoms.bots.dominion.roles`), lower-case; a name that is
both a card and a role (``Village``) is the card, its plural (``Villages``) the role."""
_COST = {c.id: c.cost for c in CARDS}
_PILE_MAX = {c.id: max(c.pile_size(n) for n in range(2, 7)) for c in CARDS}
_STARTING = frozenset({"copper", "estate"})

_SHARED_STEP_KINDS: Mapping[str, str] = {
    "RevealTopEach": YES_NO,
    "MayDiscardDeck": YES_NO,
    "DrawToSettingAside": YES_NO,
    "TrashCardFor": YES_NO,
}
"""Shared card steps whose decision is not the usual kind of their verb (Spy and
Scrying Pool ask yes/no about each revealed card, Cellar and Militia choose cards),
and the yes/no steps (Chancellor's deck, Library's set-aside card, Moneylender's
Copper)."""


_OTHER_VERBS: Mapping[str, tuple[str, str]] = {
    "gain_trashed": ("EachOtherTrashesRevealed", "gain"),
}
"""Decisions a shared step asks under a verb other than its own, by code -> (step,
verb): Thief's gain of the Treasures it trashed (cards from the trash, not a pile)."""


def _purpose_kinds() -> dict[str, str]:
    """Every purpose the engine declares -> the kind of its decision."""
    exact = {s.purpose: s.kind for s in SPECS.values() if not s.purpose.startswith("*.")}
    shared: dict[str, set[str]] = {}
    for code, spec in SPECS.items():
        if spec.purpose.startswith("*.") and code not in _OTHER_VERBS:
            shared.setdefault(spec.verb, set()).add(spec.kind)
    other = {asked: SPECS[code].kind for code, asked in _OTHER_VERBS.items()}
    out: dict[str, str] = {}
    for purpose in purposes():
        if purpose in exact:
            out[purpose] = exact[purpose]
            continue
        card, _, verb = purpose.partition(".")
        decl = DECLARED.get(card)
        steps = [type(s).__name__ for s in decl.steps if s.verb == verb] if decl else []
        special = {_SHARED_STEP_KINDS[n] for n in steps if n in _SHARED_STEP_KINDS}
        if decl:
            special |= {other[type(s).__name__, verb] for s in decl.steps
                        if (type(s).__name__, verb) in other}  # fmt: skip
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

_CARD_FUNCTIONS = frozenset({"count", "left", "cost", "opp_count", "known_top", *ZONES})
FUNCTIONS: tuple[str, ...] = (
    "count",
    "left",
    *ZONES,
    "opp_count",
    "known_top",
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


def did_you_mean(word: str, known: Iterable[str] | None = None) -> str:
    """``"; did you mean 'Smithy'?"`` for the closest known names (cards, types and
    roles when ``known`` is not given), or ``""``.

    >>> did_you_mean("Smithyy")
    "; did you mean 'Smithy'?"
    """
    import difflib

    names = [*DISPLAY.values(), *(t.title() for t in TYPES)] if known is None else list(known)
    by_key = {n.lower().replace("_", " "): n for n in names}
    near = difflib.get_close_matches(word.strip().lower().replace("_", " "), by_key, 2, 0.6)
    if not near:
        return ""
    return "; did you mean " + " or ".join(repr(by_key[n]) for n in near) + "?"


def _set_names() -> list[str]:
    from kingdoms.dominion.kingdom import RECOMMENDED

    return [n for names in RECOMMENDED for n in names]


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
