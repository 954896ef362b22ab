"""The seats' names in log lines: :mod:`kingdoms.core.logtext` (shared by the server
and the simulator's sample log)."""

from __future__ import annotations

from kingdoms.core.logtext import SEAT_MSGIDS, seat_names, with_names

__all__ = ["SEAT_MSGIDS", "seat_names", "with_names"]
