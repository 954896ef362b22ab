"""Typed errors. Rules are never checked with ``assert``: they raise one of these."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


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


def malformed_as(what: str, make: Callable[[], T]) -> T:
    """``make()``, with the errors that malformed input raises in it (bad settings, a
    missing key, a value of the wrong type or size) turned into
    :class:`InvalidArgument` saying that the input is ``not {what}``."""
    try:
        return make()
    except InvalidConfig as err:
        raise InvalidArgument(f"not {what}: {err}") from err
    except KeyError as err:
        raise InvalidArgument(f"not {what}: no field {err}") from err
    except (IndexError, TypeError, ValueError, AttributeError) as err:
        raise InvalidArgument(f"not {what}: {type(err).__name__}: {err}") from err
