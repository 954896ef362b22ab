"""Typed errors. Rules are never checked with ``assert``: they raise one of these."""

from __future__ import annotations


class KingdomsError(Exception):
    """Base class of every error this package raises on purpose."""


class IllegalAction(KingdomsError):
    """An action that is not legal in the current state. The state is unchanged."""


class InvalidConfig(KingdomsError):
    """Bad game settings: unknown game, card, option, player count, kingdom…"""


class InvalidArgument(KingdomsError):
    """A public call given something that does not exist: a seat, a square, an
    action code, a malformed view.  Nothing is changed."""


class RecordError(KingdomsError):
    """A saved game or game record that is corrupt, tampered with or unreadable."""


class ParseError(KingdomsError):
    """Text that does not name any legal action."""


class InvariantViolation(KingdomsError):
    """A state that breaks one of its game's invariants (a bug in the engine)."""
