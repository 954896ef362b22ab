"""Frames: the pending work of a Dominion turn, as named typed data.

A card's effect that must wait (for a decision, or until another effect has run)
pushes a :class:`Frame` on the state's stack; the top frame is the next thing to do.
A frame whose ``code`` is a decision (:data:`kingdoms.dominion.decisions.SPECS`)
waits for ``who``'s answer; any other code is a task the engine runs at once.
Card code pushes frames with :meth:`Effects.push` in the order they must happen
*last first*; :meth:`Effects.then` pushes a list in the order they happen.
"""

from __future__ import annotations


class Frame:
    """One pending step: what (``code``), who decides or is concerned (``who``), the
    card that asked (``card``: a card index, 0 when none) and two integers of
    continuation state whose meaning belongs to the code (``a``, ``b``: a count, a
    seat, a card found, a cost limit...).  Frames are never changed once made."""

    __slots__ = ("a", "b", "card", "code", "who")

    def __init__(self, code: str, who: int, card: int = 0, a: int = 0, b: int = 0) -> None:
        self.code = code
        self.who = who
        self.card = card
        self.a = a
        self.b = b

    def field(self, i: int) -> int:
        """An integer field by position (1 who, 2 card, 3 a, 4 b)."""
        return (0, self.who, self.card, self.a, self.b)[i]

    def to_json(self) -> list[str | int]:
        return [self.code, self.who, self.card, self.a, self.b]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Frame):
            return NotImplemented
        return self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash((self.code, self.who, self.card, self.a, self.b))

    def __repr__(self) -> str:
        return f"Frame({self.code!r}, who={self.who}, card={self.card}, a={self.a}, b={self.b})"
