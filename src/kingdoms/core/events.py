"""Structured game log.

Every event has a public part that every seat may see and an optional secret
part that only the seats in ``audience`` may see (for example the names of the
cards a player drew).  :func:`events_for` filters a log for one seat.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

OMNISCIENT = None
"""Pass as ``player`` to see every secret (replays of finished games, tests)."""


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened. ``data`` is public, ``secret`` only for ``audience``."""

    type: str
    player: int | None = None
    data: dict[str, Any] = field(default_factory=dict)
    secret: dict[str, Any] | None = None
    audience: tuple[int, ...] = ()

    def visible_to(self, player: int | None) -> dict[str, Any]:
        """The JSON form of this event as ``player`` may see it."""
        out: dict[str, Any] = {"type": self.type}
        if self.player is not None:
            out["player"] = self.player
        out.update(self.data)
        if self.secret is not None and (player is None or player in self.audience):
            out.update(self.secret)
        return out


def events_for(log: Iterable[Event], player: int | None) -> list[dict[str, Any]]:
    """The log as ``player`` may see it (``None``: everything)."""
    return [e.visible_to(player) for e in log]
