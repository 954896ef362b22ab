"""The decision stack: pending frames, the task loop, and what frames hold.

The first part of :class:`kingdoms.dominion.state.DominionState` (a chain of compiled
classes: ``Stack`` → ``Zones`` → ``Scoring`` → ``Turn`` → ``DominionState``).  The
stack holds :class:`~kingdoms.dominion.frames.Frame` objects; the top frame is the
next thing to do.  Codes in :data:`DECISIONS` are pending decisions (``who``
decides; their kind and purpose: :mod:`kingdoms.dominion.decisions`); every other
code is a task that :meth:`Stack._run` executes at once.  Card code pushes frames
with ``push``/``then`` (:mod:`kingdoms.dominion.effects`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, cast

from kingdoms.core.state import State
from kingdoms.dominion.cards import HELD, TASKS
from kingdoms.dominion.decisions import SPECS
from kingdoms.dominion.fields import CARD_LIST, FRAMES, LIST, VALUE, Field, names
from kingdoms.dominion.frames import Frame

if TYPE_CHECKING:
    from kingdoms.dominion.state import DominionState

DECISIONS = SPECS
"""Frame code -> its decision (filled where each decision is declared)."""


STACK_FIELDS: Final = (
    Field("stack", FRAMES),
    Field("stolen", CARD_LIST, engine=True),
    Field("moved", LIST, engine=True),
    Field("immune", LIST, bool, engine=True),
    Field("next_play_id", VALUE, engine=True),
)
"""The stack's fields: pending frames, cards Thief took, the plays of cards that
moved (Feast), who revealed a Moat, the play counter."""


class Stack(State):
    """The pending frames and the bookkeeping of effects in progress."""

    __slots__ = names(STACK_FIELDS)

    stack: list[Frame]
    stolen: list[int]
    moved: list[int]
    immune: list[bool]
    next_play_id: int

    def held_by_frames(self, p: int) -> list[int]:
        """Cards of ``p`` set aside by a pending effect that holds them in its frame."""
        if not self.stack:
            return []
        out: list[int] = []
        for fr in self.stack:
            fields = HELD.get(fr.code)
            if fields is not None and fr.who == p:
                out.extend(fr.field(i) for i in fields)
        return out

    def _run(self) -> None:
        decisions = DECISIONS
        stack = self.stack
        while stack:
            top = stack[-1]
            if top.code in decisions:
                return
            stack.pop()
            TASKS[top.code](cast("DominionState", self), top)

    def new_play_id(self) -> int:
        self.next_play_id += 1
        return self.next_play_id
