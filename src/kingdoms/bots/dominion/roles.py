"""What an Action card does for a turn, read from its declaration: its *roles*.

Strategy files name these like card types (``count(Terminal)``, ``"Village if
in_hand(Terminal) > 0"``); they are worked out from each card's declared steps
(:data:`kingdoms.dominion.cards.DECLARED`), so a card added with its steps gets its
roles too:

* ``terminal`` — an Action that gives no +Action: playing it uses up an Action
  (Smithy, Militia, Chapel…);
* ``village`` — an Action that gives two or more +Actions (Village, Festival,
  University), or plays other Actions itself as a village would (Golem);
* ``cycler`` — an Action that gives +1 Action or more and draws (+Cards, or
  discard-then-draw, or reveal-until): it replaces itself (Laboratory, Market, Cellar,
  Spy, Village…);
* ``trasher`` — an Action that trashes cards of the player's choice from hand
  (Chapel, Remodel, Apprentice, Transmute).

Throne Room plays another Action twice: it is neither a terminal nor a village.

>>> sorted(ROLES["village"])
['cycler', 'village']
>>> sorted(ROLES["chapel"])
['terminal', 'trasher']
>>> ROLES["throne_room"]
frozenset()
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from kingdoms.dominion.cards import DECLARED
from kingdoms.dominion.cards.declare import CardDecl
from kingdoms.dominion.cards.steps import (
    DiscardAnyThenDraw,
    Plus,
    RevealUntil,
    TrashOneFromHand,
    TrashUpTo,
)

ROLE_NAMES: Final[tuple[str, ...]] = ("terminal", "village", "cycler", "trasher")
"""The roles, lower-case as card types are."""

_PLAYS_ACTIONS: Final[Mapping[str, frozenset[str]]] = {
    "throne_room": frozenset(),
    "golem": frozenset({"village"}),
}
"""Cards whose own code plays other Actions (their declaration's step is the card's
code, which says nothing of +Actions): Throne Room plays one Action twice (no role),
Golem plays the two Actions it finds (a village's job)."""


def roles_of(decl: CardDecl) -> frozenset[str]:
    """The roles of one declared card (none for a card that is not an Action)."""
    if "Action" not in decl.types:
        return frozenset()
    if decl.id in _PLAYS_ACTIONS:
        return _PLAYS_ACTIONS[decl.id]
    actions = sum(s.actions for s in decl.steps if isinstance(s, Plus))
    draws = any(
        (isinstance(s, Plus) and s.cards > 0) or isinstance(s, (DiscardAnyThenDraw, RevealUntil))
        for s in decl.steps
    )
    out: set[str] = set()
    if actions == 0:
        out.add("terminal")
    if actions >= 2:
        out.add("village")
    if actions >= 1 and draws:
        out.add("cycler")
    if any(isinstance(s, (TrashUpTo, TrashOneFromHand)) for s in decl.steps):
        out.add("trasher")
    return frozenset(out)


ROLES: Final[Mapping[str, frozenset[str]]] = {cid: roles_of(d) for cid, d in DECLARED.items()}
"""Card id -> its roles (every declared card; an empty set for non-Actions)."""


def with_roles(types: Mapping[str, frozenset[str]]) -> dict[str, frozenset[str]]:
    """Card id -> lower-case types, each card's roles added."""
    return {c: t | ROLES.get(c, frozenset()) for c, t in types.items()}
