"""The seats' names in log lines: :mod:`kingdoms.core.logtext` (shared by the server
and the simulator's sample log), with the server's names for seats (a bot's own name
where none was chosen, repeated names numbered)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kingdoms.core.logtext import SEAT_MSGIDS, with_names
from kingdoms.server.botnames import display_names

__all__ = ["SEAT_MSGIDS", "seat_names", "with_names"]


def seat_names(seats: Sequence[Mapping[str, Any]], lang: str = "en") -> list[str | None]:
    """The name each seat goes by in ``lang``: the one chosen, else its bot's, else
    "Player n"; repeated names numbered (:func:`kingdoms.server.botnames.display_names`).

    >>> seat_names([{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}])
    ['Greedy 1', 'Greedy 2']
    """
    return list(display_names(seats, lang))
