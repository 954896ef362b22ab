"""The verbs options are named by, and the option type: what the adapter decodes the
engine's legal actions to.

The default decision policy itself is no Python code: it is the bundled strategy
file ``default.toml`` (``kingdoms strategy show default``), read and played by the
same code as every strategy file (:mod:`kingdoms.bots.dominion.bots`).

>>> Option(3, TRASH, "copper").verb
'trash'
"""

from __future__ import annotations

from dataclasses import dataclass

# Verbs the adapter normalises the engine's action kinds to.
PLAY, BUY, GAIN, TRASH, DISCARD, KEEP = "play", "buy", "gain", "trash", "discard", "keep"
REVEAL, SET_ASIDE, TOPDECK, YES, NO, DONE = "reveal", "set_aside", "topdeck", "yes", "no", "done"
PLAY_TREASURES = "play_treasures"


@dataclass(frozen=True, slots=True)
class Option:
    action: int
    verb: str
    card: str | None = None
