"""Cards as declarations: a card's facts, its effect as steps, its decision prompts.

>>> from kingdoms.dominion.cards import DECLARED
>>> DECLARED["cellar"].purposes()
['cellar.discard']

:func:`declare` registers a card in one place: its facts (cost in coins and potions,
types, set — checked against the card list), the steps its effect is made of (from
:mod:`kingdoms.dominion.cards.steps`, run in order; a step that asks a decision is
waited for before the next one runs) and the prompt of each decision it asks (an
English msgid of the catalogs) — its steps' decisions and those its own code asks.
Every card of the card list is declared, each in its set's module.  Cards with real
special cases (Possession, Golem, Throne Room, Library...) have a :class:`Custom` step:
their code is registered with ``@card(<id>)`` right below the declaration, with the
decisions it asks (``asks(...)``, which takes each prompt from the declaration).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kingdoms.dominion.cards.registry import CUSTOM, EFFECTS, task
from kingdoms.dominion.cards.steps import GAIN_RULES, Custom, GainRule, Step
from kingdoms.dominion.data import BY_ID, CARDS
from kingdoms.dominion.decisions import PROMPTS
from kingdoms.dominion.frames import Frame

if TYPE_CHECKING:
    from kingdoms.dominion.state import DominionState


@dataclass(frozen=True, slots=True)
class CardDecl:
    id: str
    index: int
    """The card's index in the card list."""
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
        """The purposes of the decisions the card asks (one per declared prompt)."""
        return sorted(f"{self.id}.{verb}" for verb in self.prompts)


DECLARED: dict[str, CardDecl] = {}
COINS: list[int] = [0] * len(CARDS)
"""Card index -> coins one play makes, as declared (0: none or variable)."""
VP: list[int] = [0] * len(CARDS)
"""Card index -> victory points per copy, as declared (0: none or variable)."""


class DeclarationError(ValueError):
    """A card declaration that contradicts the card list or itself."""


def declare(
    cid: str,
    cost: int,
    types: Sequence[str],
    card_set: str,
    *steps: Step,
    potions: int = 0,
    coins: int = 0,
    vp: int = 0,
    gains: GainRule | None = None,
    **prompts: str,
) -> CardDecl:
    """Declare card ``cid``: its cost (coins, and ``potions``), types and set, then the
    steps of its effect in order, then the prompt shown to the deciding player for each
    decision verb of the card (its steps' and its own code's: ``discard="Cellar: ..."``).
    ``coins`` is a Treasure's value, ``vp`` a Victory or Curse card's points; ``gains``
    the rule of gains its own code asks (a :class:`GainUpTo` step declares its own).  A
    card without steps (a Treasure, a Victory card) only declares its facts."""
    if cid not in BY_ID:
        raise DeclarationError(f"{cid!r} is not in the card list")
    facts = CARDS[BY_ID[cid]]
    if (cost, potions) != facts.cost or card_set != facts.set or frozenset(types) != facts.types:
        raise DeclarationError(f"declaration of {cid!r} does not match the card list")
    verbs = {s.verb for s in steps if s.verb}
    if not verbs <= {*prompts}:
        raise DeclarationError(
            f"{cid!r}: prompts for {sorted(verbs)} needed, got {sorted(prompts)}"
        )
    index = BY_ID[cid]
    decl = CardDecl(
        cid, index, cost, potions, frozenset(types), card_set, tuple(steps), prompts, coins, vp
    )
    DECLARED[cid] = decl
    for verb, prompt in prompts.items():
        PROMPTS[f"{cid}.{verb}"] = prompt
    COINS[index], VP[index] = coins, vp
    if gains is not None:
        GAIN_RULES[index] = gains
    for step in decl.steps:
        step.bind(index)
    todo = decl.steps
    if not todo:
        return decl
    if len(todo) == 1:
        only = todo[0]
        if isinstance(only, Custom):  # the card's own code gets the play id
            EFFECTS[index] = lambda st, p, pid: CUSTOM[index](st, p, pid)
        elif only.uses_play:
            EFFECTS[index] = lambda st, p, pid: only.run_play(st, p, index, pid)
        else:
            EFFECTS[index] = lambda st, p, pid: only.run(st, p, index)
    else:
        EFFECTS[index] = lambda st, p, pid: run_steps(st, p, index, 0, pid)
    return decl


def run_steps(st: DominionState, p: int, card: int, first: int, play_id: int = -1) -> None:
    """Run the steps of ``card`` from ``first`` on (for its play ``play_id``); if one
    asks a decision, the rest wait in a continuation frame under it."""
    steps = DECLARED[CARDS[card].id].steps
    stack = st.stack
    for i in range(first, len(steps)):
        depth = len(stack)
        step = steps[i]
        if step.uses_play:
            step.run_play(st, p, card, play_id)
        else:
            step.run(st, p, card)
        if len(stack) > depth and i + 1 < len(steps):
            stack.insert(depth, Frame("steps", p, card, i + 1, play_id))
            return


@task("steps")
def _steps(st: DominionState, fr: Frame) -> None:
    run_steps(st, fr.who, fr.card, fr.a, fr.b)


# -- the engine's tasks of a play --------------------------------------------------------
@task("effect")
def _effect(st: DominionState, fr: Frame) -> None:
    EFFECTS[fr.card](st, fr.who, fr.a)


@task("play")
def _play(st: DominionState, fr: Frame) -> None:
    st.play_card(fr.who, fr.card, fr.a, fr.b)


@task("reset_immune")
def _reset_immune(st: DominionState, fr: Frame) -> None:
    for q in range(st.num_players):
        st.immune[q] = False
