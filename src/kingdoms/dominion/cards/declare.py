"""Cards as declarations: a card's facts, its effect as steps, its decision prompts.

>>> from kingdoms.dominion.cards import DECLARED
>>> DECLARED["cellar"].purposes()
['cellar.discard']

:func:`declare` registers a card in one place: its facts (cost in coins and potions,
types, set — checked against the card list), the steps its effect is made of (from
:mod:`kingdoms.dominion.cards.steps`, run in order; a step that asks a decision is
waited for before the next one runs) and the prompt of each decision it asks (an
English msgid of the catalogs).  Cards with real special cases (Possession, Golem,
Throne Room, Library...) keep custom code in their module, next to their decisions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kingdoms.dominion.cards.registry import EFFECTS, task
from kingdoms.dominion.cards.steps import Step
from kingdoms.dominion.data import BY_ID, CARDS
from kingdoms.dominion.decisions import PROMPTS
from kingdoms.dominion.frames import Frame

if TYPE_CHECKING:
    from kingdoms.dominion.state import DominionState


@dataclass(frozen=True, slots=True)
class CardDecl:
    id: str
    cost: int
    potions: int
    types: frozenset[str]
    set: str
    steps: tuple[Step, ...]
    prompts: Mapping[str, str]
    coins: int = 0
    """Coins one play of the card makes (a Treasure's value); 0 if none or variable."""
    vp: int = 0
    """Victory points each copy is worth at the end; 0 if none or variable."""

    def purposes(self) -> list[str]:
        return sorted(f"{self.id}.{s.verb}" for s in self.steps if s.verb)


DECLARED: dict[str, CardDecl] = {}
COINS: list[int] = [0] * len(CARDS)
"""Card index -> coins one play makes, as declared (0: none or variable)."""
VP: list[int] = [0] * len(CARDS)
"""Card index -> victory points per copy, as declared (0: none or variable)."""


class DeclarationError(ValueError):
    """A card declaration that contradicts the card list or itself."""


def declare(
    cid: str,
    *,
    cost: int,
    types: Sequence[str],
    card_set: str,
    steps: Sequence[Step],
    potions: int = 0,
    prompts: Mapping[str, str] | None = None,
    coins: int = 0,
    vp: int = 0,
) -> CardDecl:
    """Declare card ``cid``; ``prompts`` maps each decision verb of its steps to the
    prompt shown to the deciding player; ``coins`` is a Treasure's value, ``vp`` a
    Victory or Curse card's points.  A card without steps (a Treasure, a Victory card)
    only declares its facts."""
    if cid not in BY_ID:
        raise DeclarationError(f"{cid!r} is not in the card list")
    facts = CARDS[BY_ID[cid]]
    if (cost, potions) != facts.cost or card_set != facts.set or frozenset(types) != facts.types:
        raise DeclarationError(f"declaration of {cid!r} does not match the card list")
    prompts = dict(prompts or {})
    verbs = {s.verb for s in steps if s.verb}
    if verbs != {*prompts}:
        raise DeclarationError(
            f"{cid!r}: prompts for {sorted(verbs)} needed, got {sorted(prompts)}"
        )
    decl = CardDecl(
        cid, cost, potions, frozenset(types), card_set, tuple(steps), prompts, coins, vp
    )
    DECLARED[cid] = decl
    for verb, prompt in prompts.items():
        PROMPTS[f"{cid}.{verb}"] = prompt
    index = BY_ID[cid]
    COINS[index], VP[index] = coins, vp
    for step in decl.steps:
        step.bind(index)
    todo = decl.steps
    if not todo:
        return decl
    if len(todo) == 1:
        only = todo[0]
        EFFECTS[index] = lambda st, p, pid: only.run(st, p, index)
    else:
        EFFECTS[index] = lambda st, p, pid: run_steps(st, p, index, 0)
    return decl


def run_steps(st: DominionState, p: int, card: int, first: int) -> None:
    """Run the steps of ``card`` from ``first`` on; if one asks a decision, the rest
    wait in a continuation frame under it."""
    steps = DECLARED[CARDS[card].id].steps
    stack = st.stack
    for i in range(first, len(steps)):
        depth = len(stack)
        steps[i].run(st, p, card)
        if len(stack) > depth and i + 1 < len(steps):
            stack.insert(depth, Frame("steps", p, card, i + 1))
            return


@task("steps")
def _steps(st: DominionState, fr: Frame) -> None:
    run_steps(st, fr.who, fr.card, fr.a)
