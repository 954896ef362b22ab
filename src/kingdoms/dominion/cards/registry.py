"""Where card effects and pending tasks are registered (by card index / task code)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from kingdoms.dominion.data import BY_ID

if TYPE_CHECKING:
    from kingdoms.dominion.frames import Frame
    from kingdoms.dominion.state import DominionState

K = TypeVar("K", int, str)
F = TypeVar("F")
Effect = Callable[["DominionState", int, int], None]
Task = Callable[["DominionState", "Frame"], None]

EFFECTS: dict[int, Effect] = {}
"""Card index -> what one play of it does (``effect(state, player, play_id)``)."""
CUSTOM: dict[int, Effect] = {}
"""Card index -> the card's own code, run by its ``Custom`` step."""
TASKS: dict[str, Task] = {}
"""Task code -> what a pending task frame does."""
Options = Callable[["DominionState", "Frame"], list[int]]
Answer = Callable[["DominionState", "Frame", int, int], None]
DECISION_ACTIONS: dict[str, Options] = {}
"""Decision code -> its legal actions."""
ANSWERS: dict[str, Answer] = {}
"""Decision code -> what an answer does."""


class HandHint:
    """What a pending decision of a seat tells the other seats about that seat's hidden
    hand, declared with the card that asks it (Moat: the seat holds a Moat; Library:
    an Action card just drawn).  The hand holds a card ``c`` for which ``fits(frame,
    c)`` holds.  ``secret`` (a frame field, or -1) holds a card only the seat has seen:
    the other seats' views blank it, and all they know of it is ``blank_fits(c)``.
    ``keep_all``: every card of the hand that fits stays in the hand of a
    determinization (else one)."""

    __slots__ = ("blank_fits", "fits", "keep_all", "secret")

    def __init__(
        self,
        fits: Callable[[Frame, int], bool],
        secret: int = -1,
        blank_fits: Callable[[int], bool] | None = None,
        keep_all: bool = False,
    ) -> None:
        self.fits = fits
        self.secret = secret
        self.blank_fits = blank_fits
        self.keep_all = keep_all

    def kept(self, fr: Frame, hand: list[int]) -> list[int]:
        """The cards of ``hand`` that the decision ``fr`` shows it holds."""
        out = [c for c in hand if self.fits(fr, c)]
        return out if self.keep_all else out[:1]


HAND_HINTS: dict[str, HandHint] = {}
"""Decision code -> what it tells about its seat's hidden hand (see :class:`HandHint`);
read by determinization (:meth:`~kingdoms.dominion.state.DominionState.determinize`)
and by rebuilding from a view (:mod:`kingdoms.dominion.rebuild`), so that neither
names a card."""


ATTACK_READS: dict[str, bool] = {}
"""Attack card id -> what its effect reads of the other seats' hidden cards, declared
with the card, for the undo check
(:meth:`~kingdoms.dominion.state.DominionState.revealed_nothing`): ``False``, only by
moving them (out of a deck or a hand) or by handing that seat a decision, or nothing
(Militia, Witch, Spy, …); ``True``, it also reads each victim's hand as it stays
(Bureaucrat shows a hand without a Victory card).  An Attack not declared here is left
to sampling."""

REACTION_ASKS: set[str] = set()
"""Decision codes by which a Reaction answers an Attack (Moat's reveal), declared with
the card, for the undo check: settled without sampling when the seat is certain to
hold the Reaction."""


def _into(table: dict[K, F], key: K) -> Callable[[F], F]:
    def deco(fn: F) -> F:
        table[key] = fn
        return fn

    return deco


def card(cid: str) -> Callable[[Effect], Effect]:
    """Register the custom code of card ``cid`` (run by its ``Custom`` step)."""
    return _into(CUSTOM, BY_ID[cid])


def task(code: str) -> Callable[[Task], Task]:
    """Register what the task frame ``code`` does."""
    return _into(TASKS, code)


def decision(code: str) -> Callable[[Options], Options]:
    """Register the legal actions of the decision ``code`` (custom code)."""
    return _into(DECISION_ACTIONS, code)


def answers(code: str) -> Callable[[Answer], Answer]:
    """Register what an answer to the decision ``code`` does (custom code)."""
    return _into(ANSWERS, code)


def decision_actions(st: DominionState, fr: Frame) -> list[int]:
    """The legal actions of the pending decision ``fr``."""
    return DECISION_ACTIONS[fr.code](st, fr)


def answer(st: DominionState, fr: Frame, kind: int, c: int) -> None:
    """Apply the answer (action kind ``kind``, card ``c``) to the decision ``fr``."""
    ANSWERS[fr.code](st, fr, kind, c)
